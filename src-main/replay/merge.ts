// The merge of a replay's event streams (docs/replay.md "Time"): every stream of every replayed
// symbol (prices, trades, depth, funding) is read in one order, by time and, at equal times, by
// the stream's rank (prices, then trades, then depth, then funding), streams of one rank in the
// order they were added.
// Invariants
//   - run(end) applies exactly the events with time <= end, each once, in (time, rank, added)
//     order; before an event later than the last one applied it tells the caller the new time
//     (the clock moves to each event's time before the event is applied).
//   - An event applied moves its own stream (apply() sets the stream's next time) and no other,
//     and no stream's next time goes back: so a stream stays the next one while its time is
//     before every lower-ranked stream's and not after any higher-ranked one's, and the merge
//     applies such a run without looking at the others again. The one exception is announced: an
//     event that gives another stream an earlier next time (an idle stream woken with a time)
//     calls wake(), and the merge looks at every stream again. Nothing is allocated per event.

/** Ranks at equal times (a depth diff reports the book after the trades of its batch). */
export const RANK_PRICES = 0;
export const RANK_TRADE = 1;
export const RANK_DEPTH = 2;
export const RANK_FUNDING = 3;
/** Samples of the market time itself (the session report's grid), after every event of their time. */
export const RANK_GRID = 4;

/** One time-ordered stream of events. */
export interface Stream {
  /** Time of the next event, Infinity when done; never goes back. */
  time: number;
  readonly rank: number;
  /** Applies the event at `time` and moves `time` to the next one. */
  apply(): void;
}

export class StreamMerge {
  /** Sorted by rank, stable (streams of one rank in the order added). */
  private readonly streams: Stream[] = [];
  /** A stream's next time went back during a run (wake()). */
  private woken = false;

  add(s: Stream): void {
    let i = this.streams.length;
    while (i > 0 && this.streams[i - 1].rank > s.rank) i--;
    this.streams.splice(i, 0, s);
  }

  /** A stream's next time became earlier than the merge knew (an idle stream got an event). */
  wake(): void {
    this.woken = true;
  }

  /** Time of the next event of any stream (Infinity when all are done). */
  next(): number {
    let t = Number.POSITIVE_INFINITY;
    for (const s of this.streams) if (s.time < t) t = s.time;
    return t;
  }

  /**
   * Applies every event with time <= end in (time, rank) order; `moveTo(t)` is called before
   * each event whose time is later than `now` (and `now` follows). Returns the events applied.
   */
  run(end: number, now: number, moveTo: (t: number) => void): number {
    const streams = this.streams;
    const n = streams.length;
    let applied = 0;
    let time = now;
    for (;;) {
      this.woken = false;
      // the next event: smallest time, then rank (streams are sorted by rank)
      let best: Stream | null = null;
      let bi = -1;
      for (let i = 0; i < n; i++) {
        const s = streams[i];
        if (s.time <= end && (best === null || s.time < best.time)) {
          best = s;
          bi = i;
        }
      }
      if (best === null) return applied;
      let below = Number.POSITIVE_INFINITY;
      let above = Number.POSITIVE_INFINITY;
      for (let i = 0; i < n; i++) {
        if (i < bi) below = Math.min(below, streams[i].time);
        else if (i > bi) above = Math.min(above, streams[i].time);
      }
      const last = Math.min(end, above);
      do {
        const t = best.time;
        if (t > time) {
          moveTo(t);
          time = t;
        }
        best.apply();
        applied++;
      } while (best.time <= last && best.time < below && !this.woken);
    }
  }
}
