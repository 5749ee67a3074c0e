// What the trader is looking at: the symbol, the chart interval, the bottom tab, which of the
// order book and the recent trades a narrow window shows (they share a column there) and which
// overlay is open, with the order the Modify dialog is on, the stop the stops' Modify dialog is on
// and the position the TP/SL dialog is on (opened from their rows or from their lines on the
// chart). Symbol, interval and that choice survive a reload (localStorage). Help (`?`) is a layer
// of its own: opened over a panel or a dialog it leaves that one open (and its state, an edit in
// it, kept) under help, and closing help goes back to it. A panel opened from another as a step
// of it (Settings from the bot panel's "Edit whitelist") goes back to that one when it closes.
import { createStore } from 'zustand/vanilla';
import { isInterval, type Interval } from '../../../src-shared/intervals.ts';
import type { ConditionalOrderRecord, OrderRecord, PositionRecord } from '../../../src-shared/types.ts';

export type BottomTab =
  | 'positions'
  | 'open-orders'
  | 'stops'
  | 'order-history'
  | 'trade-history'
  | 'position-history'
  | 'account'
  | 'alerts'
  | 'replay-report';
/** What the Stops tab shows: the waiting stops, or every stop's history (how each ended). */
export type StopsView = 'waiting' | 'history';
/** What the shared book / trades column shows on a narrow window (styles.css); a wide one shows both. */
export type BookTab = 'book' | 'trades';
type Overlay =
  | null
  | 'symbols'
  | 'help'
  | 'settings'
  | 'bots'
  | 'tpsl'
  | 'margin'
  | 'amend'
  | 'amend-stop'
  | 'data'
  | 'replay'
  | 'sweeps'
  | 'indicators';

export interface WorkspaceState {
  symbol: string;
  interval: Interval;
  tab: BottomTab;
  bookTab: BookTab;
  stopsView: StopsView;
  /** The overlay open: a panel or a dialog, or help alone ('help'). */
  overlay: Overlay;
  /** Whether help is shown: alone (overlay 'help') or over the panel or dialog `overlay` names. */
  help: boolean;
  /** The panel `overlay` was opened from as a step of it, which closing it goes back to; else null. */
  returnTo: Overlay;
  /** The order the Modify dialog opened on, as it was then (it may fill or go while open); null while it is closed. */
  amending: OrderRecord | null;
  /** The position the TP/SL dialog opened on; null while it is closed. */
  tpslOf: PositionRecord | null;
  /** The stop the stops' Modify dialog opened on, as it was then; null while it is closed. */
  amendingStop: ConditionalOrderRecord | null;
  actions: {
    setSymbol(symbol: string): void;
    setInterval(interval: Interval): void;
    setTab(tab: BottomTab): void;
    setBookTab(tab: BookTab): void;
    setStopsView(view: StopsView): void;
    /**
     * Opens `overlay`; help opens over what is open, leaving it open under help. With `returnTo`,
     * closing it opens that panel again (a step taken from it).
     */
    open(overlay: Exclude<Overlay, null>, returnTo?: Exclude<Overlay, null>): void;
    /** The Modify dialog on `order`, over the Open orders tab (where it is hosted). */
    openAmend(order: OrderRecord): void;
    /** The TP/SL dialog of `position`, over the Positions tab (where it is hosted). */
    openTpSl(position: PositionRecord): void;
    /** The stops' Modify dialog on `stop`, over the Stops tab's waiting stops (where it is hosted). */
    openStopAmend(stop: ConditionalOrderRecord): void;
    /** Closes the overlay on top: help (back to the panel under it, if any), else the panel or dialog. */
    close(): void;
    /** Closes a dialog on a record of the account (TP/SL, margin, Modify, Modify stop), help over it too. */
    closeAccountDialogs(): void;
  };
}

/** The dialogs on one of the account's records: they act on the account logged in when they save. */
const ACCOUNT_DIALOGS: ReadonlySet<Overlay> = new Set<Overlay>(['tpsl', 'margin', 'amend', 'amend-stop']);

/** What followLogin() reads of the session (session-store.ts). */
export interface LoginSource {
  getState(): { status: string; apiKey: string | null };
  subscribe(listener: (s: { status: string; apiKey: string | null }) => void): () => void;
}

/**
 * Closes a dialog on the account's records when the login changes (a log-out, a login that ended,
 * another account's login from another tab or a link): it was opened on the account before, and
 * saved it would act on the one logged in now (a TP/SL dialog opened on one account's BTCUSDT long
 * set the take profit of the next account's). Returns the stop.
 */
export function followLogin(workspace: { getState(): WorkspaceState }, session: LoginSource): () => void {
  const keyOf = (s: { status: string; apiKey: string | null }): string | null =>
    s.status === 'ready' ? s.apiKey : null;
  let key = keyOf(session.getState());
  return session.subscribe((s) => {
    const next = keyOf(s);
    if (next === key) return;
    key = next;
    workspace.getState().actions.closeAccountDialogs();
  });
}

const KEY = 'perpdesk.workspace';

function load(): { symbol?: string; interval?: Interval; bookTab?: BookTab } {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return {};
    const v = JSON.parse(raw) as { symbol?: unknown; interval?: unknown; bookTab?: unknown };
    return {
      symbol: typeof v.symbol === 'string' && /^[A-Z0-9]{2,30}$/.test(v.symbol) ? v.symbol : undefined,
      interval: isInterval(v.interval) ? v.interval : undefined,
      bookTab: v.bookTab === 'trades' ? 'trades' : undefined,
    };
  } catch {
    // storage disabled, or an entry that is not JSON: the default pair and interval
    return {};
  }
}

export function createWorkspaceStore(initial: { symbol?: string; interval?: Interval } = {}) {
  const saved = load();
  const store = createStore<WorkspaceState>()((set) => ({
    symbol: initial.symbol ?? saved.symbol ?? 'BTCUSDT',
    interval: initial.interval ?? saved.interval ?? '1m',
    tab: 'positions',
    bookTab: saved.bookTab ?? 'book',
    stopsView: 'waiting',
    overlay: null,
    help: false,
    returnTo: null,
    amending: null,
    tpslOf: null,
    amendingStop: null,
    actions: {
      setSymbol: (symbol) => set({ symbol, overlay: null, help: false, returnTo: null }),
      setInterval: (interval) => set({ interval }),
      setTab: (tab) => set({ tab }),
      setBookTab: (bookTab) => set({ bookTab }),
      setStopsView: (stopsView) => set({ stopsView }),
      open: (overlay, returnTo) =>
        set((w) =>
          overlay === 'help'
            ? { help: true, overlay: w.overlay ?? 'help' }
            : { overlay, help: false, returnTo: returnTo ?? null },
        ),
      openAmend: (order) => set({ overlay: 'amend', amending: order, tab: 'open-orders', returnTo: null }),
      openTpSl: (position) => set({ overlay: 'tpsl', tpslOf: position, tab: 'positions', returnTo: null }),
      openStopAmend: (stop) =>
        set({ overlay: 'amend-stop', amendingStop: stop, tab: 'stops', stopsView: 'waiting', returnTo: null }),
      close: () =>
        set((w) =>
          w.help && w.overlay !== 'help'
            ? { help: false }
            : { overlay: w.returnTo, returnTo: null, help: false, amending: null, tpslOf: null, amendingStop: null },
        ),
      closeAccountDialogs: () =>
        set((w) =>
          ACCOUNT_DIALOGS.has(w.overlay)
            ? { overlay: null, help: false, returnTo: null, amending: null, tpslOf: null, amendingStop: null }
            : {},
        ),
    },
  }));
  store.subscribe((s, prev) => {
    if (s.symbol === prev.symbol && s.interval === prev.interval && s.bookTab === prev.bookTab) return;
    try {
      localStorage.setItem(KEY, JSON.stringify({ symbol: s.symbol, interval: s.interval, bookTab: s.bookTab }));
    } catch {
      // storage disabled or full: the workspace is just not remembered for the next visit
    }
  });
  return store;
}
