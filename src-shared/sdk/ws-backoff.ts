// The WsClient's (ws-client.ts) reconnect delays: base x 2^attempt, capped, with jitter.
// Invariants: the attempt count grows by one per delay handed out and starts over with `reset()`
// (a restored connection, or `retryNow()`: the service is known to be back); a delay is never
// above the cap nor below (1 - jitter) x its exponential value.

export class Backoff {
  readonly #baseMs: number;
  readonly #maxMs: number;
  readonly #jitter: number;
  readonly #random: () => number;
  /** Failed attempts since the last reset. */
  #attempt = 0;

  constructor(opts: { baseMs: number; maxMs: number; jitter: number; random: () => number }) {
    this.#baseMs = opts.baseMs;
    this.#maxMs = opts.maxMs;
    this.#jitter = Math.min(1, Math.max(0, opts.jitter));
    this.#random = opts.random;
  }

  /** Failed attempts since the last reset. */
  get attempt(): number {
    return this.#attempt;
  }

  /** The delay before the next attempt; counts the attempt. */
  next(): number {
    const raw = Math.min(this.#maxMs, this.#baseMs * 2 ** this.#attempt);
    this.#attempt++;
    return Math.round(raw * (1 - this.#jitter + this.#jitter * this.#random()));
  }

  /** Starts over at the base delay. */
  reset(): void {
    this.#attempt = 0;
  }
}
