// The screen's sockets hand their messages over on one shared tick (at most one delivery every
// PACE_MS), all that arrived since the last one in a single task, in arrival order. A live
// market sends about 25 messages a second (the depth deltas and snapshots, trades, candles, the
// mark price), each at its own moment: delivered as they came, each asked the browser for a
// frame of its own (style, layout, paint, compositing; about 40 a second with an idle screen).
// Delivered together, they make one React commit and one frame per tick. A message after a
// quiet spell longer than the tick is delivered at once; the delay is never more than the tick.
import type { WebSocketConstructor, WebSocketLike } from '../../../src-shared/sdk/ws-client.ts';
import { reportBugs } from './service-failure.ts';

/** ms between two deliveries: the depth feed's own 100 ms, as Binance's screens update. */
const PACE_MS = 100;

/** Runs queued work at most once every `ms`, everything queued at that moment in one task. */
export function createPacer(
  ms: number,
  timers: { now(): number; setTimeout(fn: () => void, ms: number): unknown } = {
    now: () => performance.now(),
    setTimeout: (fn, t) => setTimeout(fn, t),
  },
): { push(work: () => void): void; drain(): void } {
  let queue: Array<() => void> = [];
  let armed = false;
  let last = -Infinity;
  const drain = (): void => {
    armed = false;
    last = timers.now();
    const run = queue;
    queue = [];
    for (const work of run) {
      try {
        work();
      } catch (e) {
        reportBugs(e);
      }
    }
  };
  return {
    push(work) {
      queue.push(work);
      if (armed) return;
      armed = true;
      timers.setTimeout(drain, Math.max(0, last + ms - timers.now()));
    },
    drain() {
      if (queue.length > 0) drain();
    },
  };
}

const pacer = createPacer(PACE_MS);

/**
 * A WebSocket for WsClient whose messages arrive on the shared tick. Open, close and error are
 * not held back; a close or error first delivers the messages that came before it.
 */
export function pacedSocket(Inner: WebSocketConstructor, on = pacer): WebSocketConstructor {
  return class PacedSocket implements WebSocketLike {
    readonly #ws: WebSocketLike;
    onopen: ((event: unknown) => void) | null = null;
    onmessage: ((event: unknown) => void) | null = null;
    onclose: ((event: unknown) => void) | null = null;
    onerror: ((event: unknown) => void) | null = null;

    constructor(url: string) {
      this.#ws = new Inner(url);
      this.#ws.onopen = (e) => this.onopen?.(e);
      this.#ws.onmessage = (e) => on.push(() => this.onmessage?.(e));
      this.#ws.onclose = (e) => {
        on.drain();
        this.onclose?.(e);
      };
      this.#ws.onerror = (e) => {
        on.drain();
        this.onerror?.(e);
      };
    }
    get readyState(): number {
      return this.#ws.readyState;
    }
    get binaryType(): string | undefined {
      return this.#ws.binaryType;
    }
    set binaryType(t: string | undefined) {
      this.#ws.binaryType = t;
    }
    send(data: string): void {
      this.#ws.send(data);
    }
    close(code?: number, reason?: string): void {
      this.#ws.close(code, reason);
    }
  };
}
