// Whether this screen shows a replay venue, and the replay's state. `followReplay()` subscribes
// to the `replay` WebSocket stream at start: a replay venue pushes its status at once and then
// every change (time at most ~4 times a second), a live venue refuses the stream (1108: mode
// 'live'; no failed HTTP request, so no error in the page's console). The controls (play, pause,
// speed, step, seek) are POST /api/v1/replay, whose answer is the new status. The banner's clock
// runs between pushes from the last status at its speed (`replayNow`), so the historical time
// moves smoothly without a render per event. While the connection is lost the clock is held
// (`heldAt`: nothing says the replay still plays), and a replay found gone is `link: 'ended'`
// (replay-link.ts).
import { createStore } from 'zustand/vanilla';
import type { ReplayAction, RestClient } from '../../../../src-shared/sdk/rest-client.ts';
import type { WsClient } from '../../../../src-shared/sdk/ws-client.ts';
import type { ReplayReportView, ReplayStatusView } from './replay-view.ts';
import { parseUtc, utcSecond } from './replay-view.ts';
import { marketNow, type MarketClockState } from '../../lib/market-clock.ts';
import { dropServiceFailure } from '../../lib/service-failure.ts';

// (not lib/frame.ts's errorText: this module stays free of DOM-only imports for its unit test)
function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export interface ReplayState {
  /** 'unknown' until the venue answered the subscription; 'live' on the live venue. */
  mode: 'unknown' | 'live' | 'replay';
  status: ReplayStatusView | null;
  /** Wall time the status arrived (for replayNow). */
  receivedAt: number;
  /** The last control's refusal, shown under the banner until the next control. */
  error: string | null;
  busy: boolean;
  /** The replay venue's connection: up, lost (the clock held at `heldAt`), or the replay is gone. */
  link: 'up' | 'down' | 'ended';
  /** Wall time the connection was lost: the clock shows the replay's time at that moment. */
  heldAt: number | null;
  report: ReplayReportView[] | null;
  reportError: string | null;
  /**
   * The last seek's span of history, from the clock shown when it was sent (excluded) to its time
   * (included): the funding settlements it passed read as one toast (funding-toast.ts). Null
   * before any seek, and again when one is refused.
   */
  seek: { from: number; to: number } | null;
  actions: {
    /** No status came (the stream refused, or no answer in time): the live venue. */
    settleLive(): void;
    apply(status: ReplayStatusView): void;
    control(a: ReplayAction): Promise<boolean>;
    togglePlay(): Promise<boolean>;
    loadReport(): Promise<void>;
    /** A control the screen refuses before sending it (a seek back): shown as a refusal, until the next control. */
    refuse(message: string): void;
    clearError(): void;
    /** The connection was lost at wall time `at`: the clock stops there. */
    linkDown(at: number): void;
    /** It is back: the clock follows the status again. */
    linkUp(): void;
    /** The replay is gone (its service stopped, or it was closed): final. */
    ended(): void;
  };
}

/** The report route's `data` ({ start, time, accounts }): its accounts. */
export function reportList(data: unknown): ReplayReportView[] {
  const d = data as { accounts?: unknown } | null;
  return d && typeof d === 'object' && Array.isArray(d.accounts) ? (d.accounts as ReplayReportView[]) : [];
}

function isStatus(v: unknown): v is ReplayStatusView {
  const s = v as ReplayStatusView | null;
  return (
    !!s &&
    typeof s === 'object' &&
    Array.isArray(s.symbols) &&
    typeof s.time === 'number' &&
    typeof s.speed === 'number'
  );
}

export function createReplayStore(api: RestClient, wall: () => number = Date.now) {
  return createStore<ReplayState>()((set, get) => ({
    mode: 'unknown',
    status: null,
    receivedAt: 0,
    error: null,
    busy: false,
    link: 'up',
    heldAt: null,
    report: null,
    reportError: null,
    seek: null,
    actions: {
      settleLive() {
        if (get().mode === 'unknown') set({ mode: 'live' });
      },
      apply(status) {
        set({ mode: 'replay', status, receivedAt: wall() });
      },
      async control(a) {
        const before = get();
        if (a.action === 'seek' && before.status !== null) {
          const from = replayNow(before.status, before.receivedAt, heldWall(before, wall()));
          set({ seek: { from, to: a.time } });
        }
        set({ busy: true, error: null });
        try {
          const status = await api.call<ReplayStatusView>('POST', '/api/v1/replay', { body: a, timeoutMs: 0 });
          if (isStatus(status)) get().actions.apply(status);
          set({ busy: false });
          return true;
        } catch (e) {
          set({ busy: false, error: errorText(e) });
          // a refused seek passed no settlement: those the play goes on through are each their own
          if (a.action === 'seek') set({ seek: null });
          return false;
        }
      },
      togglePlay() {
        const s = get().status;
        return get().actions.control(s && !s.paused ? { action: 'pause' } : { action: 'play' });
      },
      async loadReport() {
        try {
          const data = await api.call<unknown>('GET', '/api/v1/replay/report', { query: { format: 'json' } });
          set({ report: reportList(data), reportError: null });
        } catch (e) {
          set({ reportError: `Could not load the report: ${errorText(e)}` });
        }
      },
      refuse(message) {
        set({ error: message });
      },
      clearError() {
        set({ error: null });
      },
      linkDown(at) {
        if (get().link === 'up') set({ link: 'down', heldAt: at });
      },
      linkUp() {
        if (get().link === 'down') set({ link: 'up', heldAt: null });
      },
      ended() {
        set({ link: 'ended', heldAt: get().heldAt ?? wall() });
      },
    },
  }));
}

export type ReplayStore = ReturnType<typeof createReplayStore>;

/**
 * Follows the `replay` stream into the store. `known` settles once the screen knows which venue
 * it shows: at the first status push (a replay), at the stream's refusal (the live venue), or
 * after timeoutMs with no answer (taken for live until a status arrives). `stop` ends it.
 */
export function followReplay(
  ws: WsClient,
  store: ReplayStore,
  timeoutMs = 2000,
): { known: Promise<void>; stop: () => void } {
  let off = ws.on('replay', (data) => {
    if (isStatus(data)) store.getState().actions.apply(data);
  });
  let subscribed = false;
  const answered = ws.subscribe(['replay']).then(
    () => {
      subscribed = true;
    },
    (err: unknown) => {
      // the live venue refuses the stream; an unreachable service counts as live
      dropServiceFailure(err);
      off();
      off = () => {};
    },
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  const known = Promise.race([
    // a replay venue pushes the status before it acknowledges the subscription
    answered,
    new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs))),
  ]).then(() => {
    clearTimeout(timer);
    store.getState().actions.settleLive();
  });
  return {
    known,
    stop() {
      off();
      if (subscribed) void ws.unsubscribe(['replay']).catch(dropServiceFailure);
    },
  };
}

/** Historical time now: the last status projected at its speed while playing (not in lockstep), capped at its end. */
export function replayNow(
  s: Pick<ReplayStatusView, 'time' | 'speed' | 'paused' | 'lockstep' | 'finished' | 'until'>,
  receivedAt: number,
  wall: number,
): number {
  if (s.paused || s.lockstep || s.finished) return s.time;
  return Math.min(s.until, s.time + Math.max(0, wall - receivedAt) * s.speed);
}

/**
 * Market time now as this screen shows it (the funding countdown): on a replay venue the
 * replay's own clock (replayNow: the market clock route reads a replay's clock as paused all
 * along, since it is moved event by event), else the venue's market clock.
 */
export function screenNow(
  clock: Pick<MarketClockState, 'marketAt' | 'wallAt' | 'speed' | 'paused'> & Partial<Pick<MarketClockState, 'held'>>,
  replay: Pick<ReplayState, 'mode' | 'status' | 'receivedAt'> & Partial<Pick<ReplayState, 'heldAt'>>,
  wall: number,
): number {
  return replay.mode === 'replay' && replay.status !== null
    ? replayNow(replay.status, replay.receivedAt, heldWall(replay, wall))
    : marketNow(clock, wall);
}

/** The wall time a replay's clock is read at: now, or the moment its connection was lost (held). */
export function heldWall(replay: Partial<Pick<ReplayState, 'heldAt'>>, wall: number): number {
  return replay.heldAt != null ? Math.min(wall, replay.heldAt) : wall;
}

/**
 * The seek field's text checked before it is sent: the time to seek to, or why the screen
 * refuses it. "Forward" is past the clock the banner shows (replayNow at `wall`), not the last
 * status's time: while playing fast the clock runs ahead of the last push, and a time between
 * the two passed here only to be refused by the service.
 */
export function seekTarget(
  text: string,
  replay: Pick<ReplayState, 'status' | 'receivedAt'> & Partial<Pick<ReplayState, 'heldAt'>>,
  wall: number,
): { time: number } | { error: string } {
  const t = parseUtc(text);
  if (t === null) return { error: 'Seek to a UTC time like 2021-05-16 12:00' };
  const status = replay.status;
  if (status === null) return { error: 'No replay to seek' };
  const now = replayNow(status, replay.receivedAt, heldWall(replay, wall));
  if (t <= now) return { error: `A replay only seeks forward: it is at ${utcSecond(now)} UTC` };
  if (t > status.until) return { error: `The replay ends at ${utcSecond(status.until)} UTC` };
  return { time: t };
}
