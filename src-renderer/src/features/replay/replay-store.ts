// Whether this screen shows a replay venue, and the replay's state. `probe()` asks
// GET /api/v1/replay once at start (a live venue answers an error: mode 'live'); on a replay the
// `replay` WebSocket channel then pushes every status change (time at most ~4 times a second),
// and the controls (play, pause, speed, step, seek) are POST /api/v1/replay, whose answer is the
// new status. The banner's clock runs between pushes from the last status at its speed
// (`replayNow`), so the historical time moves smoothly without a render per event.
import { createStore } from 'zustand/vanilla';
import type { RestClient } from '../../../../src-shared/sdk/rest-client.ts';
import type { WsClient } from '../../../../src-shared/sdk/ws-client.ts';
import type { ReplayReportView, ReplayStatusView } from './replay-view.ts';
import { dropServiceFailure } from '../../lib/service-failure.ts';

// (not lib/frame.ts's errorText: this module stays free of DOM-only imports for its unit test)
function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

type ReplayAction =
  | { action: 'play' }
  | { action: 'pause' }
  | { action: 'speed'; speed: number }
  | { action: 'step'; ms: number }
  | { action: 'seek'; time: number };

export interface ReplayState {
  /** 'unknown' until the probe answered; 'live' on the live venue. */
  mode: 'unknown' | 'live' | 'replay';
  status: ReplayStatusView | null;
  /** Wall time the status arrived (for replayNow). */
  receivedAt: number;
  /** The last control's refusal, shown under the banner until the next control. */
  error: string | null;
  busy: boolean;
  report: ReplayReportView[] | null;
  reportError: string | null;
  actions: {
    probe(timeoutMs?: number): Promise<void>;
    apply(status: ReplayStatusView): void;
    control(a: ReplayAction): Promise<boolean>;
    togglePlay(): Promise<boolean>;
    loadReport(): Promise<void>;
    clearError(): void;
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
    report: null,
    reportError: null,
    actions: {
      async probe(timeoutMs = 2000) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        let status: ReplayStatusView | null = null;
        try {
          status = await Promise.race([
            api.getPublic<ReplayStatusView>('/api/v1/replay'),
            new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), timeoutMs))),
          ]);
        } catch (err) {
          // a live venue refuses the route; an unreachable service is treated as live until a
          // `replay` push says otherwise
          dropServiceFailure(err);
        } finally {
          if (timer !== undefined) clearTimeout(timer);
        }
        if (status !== null && isStatus(status)) get().actions.apply(status);
        else if (get().mode === 'unknown') set({ mode: 'live' });
      },
      apply(status) {
        set({ mode: 'replay', status, receivedAt: wall() });
      },
      async control(a) {
        set({ busy: true, error: null });
        try {
          const status = await api.call<ReplayStatusView>('POST', '/api/v1/replay', { body: a });
          if (isStatus(status)) get().actions.apply(status);
          set({ busy: false });
          return true;
        } catch (e) {
          set({ busy: false, error: errorText(e) });
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
      clearError() {
        set({ error: null });
      },
    },
  }));
}

export type ReplayStore = ReturnType<typeof createReplayStore>;

/** Follows the `replay` channel into the store; returns the stopper. */
export function startReplayFeed(ws: WsClient, store: ReplayStore): () => void {
  const off = ws.on('replay', (data) => {
    if (isStatus(data)) store.getState().actions.apply(data);
  });
  void ws.subscribe(['replay']).catch(dropServiceFailure);
  return () => {
    off();
    void ws.unsubscribe(['replay']).catch(dropServiceFailure);
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
