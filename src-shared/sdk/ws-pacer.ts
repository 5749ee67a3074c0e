// The pace of what a WsClient writes: the service closes a connection that sends more than 100
// messages in a second (1008 "too many messages", docs/api.md), so a burst of requests (a bot
// subscribing stream by stream, awaited or not) would cost the connection, its streams' pushes
// and a reconnect. The client keeps under that bound itself: a message beyond it waits, in order,
// until the window has room again. Invariants: messages go out in the order given; in any
// `windowMs` at most `limit` counted messages are written; a message the service does not count
// (`counted` false: the REPLAY controls of the client holding a lockstep clock) never waits for
// the window, only behind what waits before it; `clear()` (the connection is gone) drops what
// waits, whose requests the client handles as sent on a lost connection.
import type { Scheduler } from './scheduler.ts';

/** What the pacer writes to: a WebSocket's send. */
interface PacedSocket {
  send(data: string): void;
}

/** At most this many messages in any window of PACE_WINDOW_MS: under the service's 100 a second, with room for the network's jitter. */
export const PACE_LIMIT = 90;
export const PACE_WINDOW_MS = 1000;

export class SendPacer {
  readonly #sched: Scheduler;
  readonly #onError: (error: unknown) => void;
  readonly #limit: number;
  readonly #windowMs: number;
  /** Times of the counted messages written in the last window, oldest first. */
  readonly #sent: number[] = [];
  #waiting: { ws: PacedSocket; data: string; counted: boolean }[] = [];
  #timer: unknown = undefined;

  constructor(sched: Scheduler, onError: (error: unknown) => void, limit = PACE_LIMIT, windowMs = PACE_WINDOW_MS) {
    this.#sched = sched;
    this.#onError = onError;
    this.#limit = limit;
    this.#windowMs = windowMs;
  }

  /** Messages waiting for room in the window. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Writes `data` to `ws` now when the window has room and nothing waits, else once it has. */
  send(ws: PacedSocket, data: string, counted = true): void {
    if (this.#waiting.length === 0 && (!counted || this.#room(this.#sched.now()))) {
      if (counted) this.#sent.push(this.#sched.now());
      ws.send(data); // a throw is the caller's, as an unpaced write's
      return;
    }
    this.#waiting.push({ ws, data, counted });
    this.#drain();
  }

  /** The connection is gone: nothing waiting is written. */
  clear(): void {
    this.#waiting = [];
    if (this.#timer !== undefined) this.#sched.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #room(now: number): boolean {
    while (this.#sent.length > 0 && this.#sent[0] <= now - this.#windowMs) this.#sent.shift();
    return this.#sent.length < this.#limit;
  }

  #drain(): void {
    const now = this.#sched.now();
    while (this.#waiting.length > 0) {
      const next = this.#waiting[0];
      if (next.counted && !this.#room(now)) break;
      this.#waiting.shift();
      if (next.counted) this.#sent.push(now);
      try {
        next.ws.send(next.data);
      } catch (e) {
        this.#onError(e); // the socket is going down; its close event handles the requests
      }
    }
    if (this.#waiting.length === 0 || this.#timer !== undefined) return;
    const wait = Math.max(1, this.#sent[0] + this.#windowMs - now);
    this.#timer = this.#sched.setTimeout(() => {
      this.#timer = undefined;
      this.#drain();
    }, wait);
  }
}
