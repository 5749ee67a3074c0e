// A Scheduler (src-shared/sdk) whose timers run only when a test advances its clock, so SDK
// timing (reconnect backoff, resync, verification) is tested without real time.
import type { Scheduler } from '../../src-shared/sdk/local-order-book.ts';

export interface ManualTimer {
  at: number;
  ms: number;
  fn: () => void;
}

export class ManualScheduler implements Scheduler {
  t = 0;
  #seq = 0;
  readonly timers = new Map<number, ManualTimer>();
  now(): number {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.#seq;
    this.timers.set(id, { at: this.t + ms, ms, fn });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }
  /** Delays of the timers still pending, in creation order. */
  delays(): number[] {
    return [...this.timers.values()].map((x) => x.ms);
  }
  /** Ids of the pending timers with exactly this delay. */
  withDelay(ms: number): number[] {
    return [...this.timers].filter(([, x]) => x.ms === ms).map(([id]) => id);
  }
  /** Runs every timer due within `ms`, earliest first, moving the clock to each. */
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      let next: [number, ManualTimer] | undefined;
      for (const e of this.timers) if (e[1].at <= end && (next === undefined || e[1].at < next[1].at)) next = e;
      if (next === undefined) break;
      this.timers.delete(next[0]);
      this.t = next[1].at;
      next[1].fn();
    }
    this.t = end;
  }
  /** Runs the earliest pending timer; false when there is none. */
  fireNext(): boolean {
    let best: { at: number } | undefined;
    for (const e of this.timers.values()) if (best === undefined || e.at < best.at) best = e;
    if (best === undefined) return false;
    this.advance(best.at - this.t);
    return true;
  }
  /** Runs the one timer with id `id` (moving the clock to it, never back). */
  fireId(id: number): void {
    const timer = this.timers.get(id);
    if (timer === undefined) throw new Error(`no pending timer ${id}`);
    this.timers.delete(id);
    this.t = Math.max(this.t, timer.at);
    timer.fn();
  }
}
