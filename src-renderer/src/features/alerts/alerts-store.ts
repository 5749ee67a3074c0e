// The trader's price alerts (alert-rules.ts): set from the Alerts tab, the chart's bell at the
// crosshair or the `A` key, moved by dragging their line on the chart, checked by alerts-feed.ts
// against every last price the screen receives. They are the screen's, not the venue's: kept in
// this browser's storage for the venue's address (the desktop app's window keeps them across
// restarts, a replay venue on its own address has its own), and a fired alert stays in the list,
// marked, until removed. Another tab on the same address writes the same entry: its list is taken
// as it is written (`stored`, from the page's storage event), so neither tab's write loses the
// other's alerts. Their times are the venue's market time (`now`: the screen's market clock), as
// every other time on the screen: a replay's alert says when in the replay it was set and fired.
import { browserStorage, type KeyValueStorage } from '../../lib/browser-storage.ts';
import { createStore } from 'zustand/vanilla';
import {
  MAX_ALERTS,
  capped,
  moveAlert,
  reached,
  reachedAt,
  readAlerts,
  setAlert,
  type AlertSetting,
  type PriceAlert,
  type TradedPath,
} from './alert-rules.ts';

/** The storage entry of the list (a JSON array of alerts). */
export const ALERTS_KEY = 'perpdesk.alerts';

export interface AlertsState {
  alerts: readonly PriceAlert[];
  /** The keyboard asked for the Alerts tab's price field: the view focuses it and says so (focused). */
  focusWanted: boolean;
  actions: {
    /** An alert on `symbol` at `price`, its side from `last` (alert-rules.ts setAlert). */
    add(symbol: string, price: string, last: number): AlertSetting;
    /** Moves a waiting alert to `price`, its side from `last` again. */
    move(id: string, price: string, last: number): AlertSetting;
    remove(id: string): void;
    /** Removes every fired alert. */
    clearFired(): void;
    /**
     * The waiting alerts on `symbol` this last price reaches, marked fired (market time `now`) at
     * it; or, given the trades of an update (a TradedPath), those one of its trades reached, each
     * marked fired at the first trade that reached it. A last price of a known market time
     * (`lastAt`, a price record's) fires no alert set after that time: the price is from before it.
     */
    check(symbol: string, last: number, now: number, from?: TradedPath | { lastAt: number }): PriceAlert[];
    /** What `check` would mark fired, as it would mark them, left waiting (alerts-feed.ts claims them first). */
    reaching(symbol: string, last: number, now: number, from?: TradedPath | { lastAt: number }): PriceAlert[];
    /** Marks these (from `reaching`) fired, those still waiting at the same level; returns those marked. */
    fire(hits: readonly PriceAlert[]): PriceAlert[];
    focusPrice(): void;
    focused(): void;
    /** Another tab wrote the list (the storage event's new value): this tab takes it. */
    stored(text: string | null): void;
  };
}

export function createAlertsStore(
  storage: KeyValueStorage | null = browserStorage(),
  /** Market time now, ms: when an alert is set. */
  now: () => number = Date.now,
) {
  let loaded: PriceAlert[] = [];
  try {
    loaded = readAlerts(storage?.getItem(ALERTS_KEY) ?? null);
  } catch {
    // storage that throws on read: no alerts remembered
  }
  /** The text last written or taken from another tab: what need not be written again. */
  let written: string | null = null;
  // random, not counted: two tabs setting an alert in the same ms must not make one id
  const nextId = (now: number): string => {
    const bytes = globalThis.crypto.getRandomValues(new Uint8Array(6));
    return `${now.toString(36)}-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
  };
  const store = createStore<AlertsState>()((set, get) => {
    const put = (alerts: PriceAlert[]): void => set({ alerts: capped(alerts) });
    return {
      alerts: loaded,
      focusWanted: false,
      actions: {
        add(symbol, price, last) {
          if (get().alerts.filter((a) => a.fired === undefined).length >= MAX_ALERTS)
            return { ok: false, error: `At most ${MAX_ALERTS} alerts wait at once: remove one first.` };
          const at = now();
          const r = setAlert({ id: nextId(Date.now()), symbol, price, last, now: at });
          if (r.ok) put([...get().alerts, r.alert]);
          return r;
        },
        move(id, price, last) {
          const cur = get().alerts.find((a) => a.id === id);
          if (cur === undefined) return { ok: false, error: 'That alert is gone.' };
          if (cur.fired !== undefined) return { ok: false, error: 'That alert has fired.' };
          const r = moveAlert(cur, price, last);
          if (r.ok) put(get().alerts.map((a) => (a.id === id ? r.alert : a)));
          return r;
        },
        remove(id) {
          put(get().alerts.filter((a) => a.id !== id));
        },
        clearFired() {
          put(get().alerts.filter((a) => a.fired === undefined));
        },
        check(symbol, last, now, from) {
          return get().actions.fire(get().actions.reaching(symbol, last, now, from));
        },
        reaching(symbol, last, now, from) {
          const at = (a: PriceAlert): number => {
            if (from !== undefined && 'highs' in from) return reachedAt(a, from);
            if (from !== undefined && from.lastAt > 0 && a.created > from.lastAt) return NaN;
            return reached(a, last) ? last : NaN;
          };
          return get().alerts.flatMap((a) => {
            const p = a.symbol === symbol ? at(a) : NaN;
            return Number.isNaN(p) ? [] : [{ ...a, fired: { at: now, last: p } }];
          });
        },
        fire(hits) {
          const waiting = (h: PriceAlert): boolean =>
            get().alerts.some(
              (a) => a.id === h.id && a.fired === undefined && a.price === h.price && a.above === h.above,
            );
          const fired = new Map(hits.filter(waiting).map((a) => [a.id, a]));
          if (fired.size === 0) return [];
          put(get().alerts.map((a) => fired.get(a.id) ?? a));
          return [...fired.values()];
        },
        focusPrice: () => set({ focusWanted: true }),
        focused: () => set({ focusWanted: false }),
        stored(text) {
          written = text;
          set({ alerts: readAlerts(text) });
        },
      },
    };
  });
  store.subscribe((s, prev) => {
    if (s.alerts === prev.alerts || storage === null) return;
    const text = JSON.stringify(s.alerts);
    if (text === written) return;
    written = text;
    try {
      storage.setItem(ALERTS_KEY, text);
    } catch {
      // storage full or disabled: the alerts hold for this visit only
    }
  });
  return store;
}
