// Orders on their way to a replay's matching engine and their answers on their way back (docs/
// replay.md "Latency"): a user's or bot's command sent at market time t reaches the engine at
// t + the entry latency, and its answer (or refusal) comes the response latency after it was
// applied. The replay market (replay-market.ts) moves history; this holds what is in flight
// between, in arrival order.
// Invariants
//   - Arrivals are taken in time order; at equal times in the order they were queued (FIFO: each
//     latency is one constant, so an order sent later never overtakes one sent earlier).
//   - Nothing arrives after the replay's end: an arrival due past `until` is due at `until`.
//   - Whatever is taken off the queue or failed leaves it once; a failed sender is told once.
import type { LatencyModel } from './models/latency-model.ts';

/** An order on its way to the matching engine, or its answer on its way back. */
interface InFlight {
  /** Market time it reaches the engine / the client. */
  at: number;
  act(): void;
  fail(err: unknown): void;
}

export class OrderFlight {
  private readonly latency: LatencyModel;
  /** By arrival time (FIFO at equal times). */
  private readonly queue: InFlight[] = [];

  constructor(latency: LatencyModel) {
    this.latency = latency;
  }

  /** Orders sent and not yet at the engine, and answers not yet delivered. */
  get size(): number {
    return this.queue.length;
  }

  /** Both latencies are 0 for a command sent at `now`: it runs at once and answers at once. */
  immediate(now: number): boolean {
    return this.latency.entry(now) === 0 && this.latency.response(now) === 0;
  }

  /**
   * Sends `run` at market time `now`: it is applied when the replay reaches its arrival (takeDue),
   * and `resolve` / `reject` get its value or its error when the replay reaches the answer's time
   * (at once on a response latency of 0). Answers the market time the answer is due back, which
   * the replay must reach for the sender to hear.
   */
  send<T>(run: () => T, now: number, until: number, resolve: (v: T) => void, reject: (e: unknown) => void): number {
    const at = Math.min(until, now + this.latency.entry(now));
    const responseLatency = this.latency.response(at);
    const back = Math.min(until, at + responseLatency);
    const answer = (settle: () => void): void => {
      if (responseLatency === 0) settle();
      else this.add({ at: back, act: settle, fail: reject });
    };
    this.add({
      at,
      act() {
        let value: T;
        try {
          value = run();
        } catch (err) {
          answer(() => reject(err));
          return;
        }
        answer(() => resolve(value));
      },
      fail: reject,
    });
    return back;
  }

  /** The first arrival due by market time `target`, taken off the queue; null when none is. */
  takeDue(target: number): InFlight | null {
    return this.queue.length > 0 && this.queue[0].at <= target ? this.queue.shift()! : null;
  }

  /** Tells every sender still waiting that its command or answer will not come: `err`. */
  failAll(err: unknown): void {
    for (const o of this.queue.splice(0)) o.fail(err);
  }

  /** Queues an arrival by time; at equal times after those already queued (FIFO). */
  private add(o: InFlight): void {
    let i = this.queue.length;
    while (i > 0 && this.queue[i - 1].at > o.at) i--;
    this.queue.splice(i, 0, o);
  }
}
