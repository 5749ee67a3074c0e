// The latency gate of a replay's pushes, shared by both WebSocket hubs (/ws, ws/fan-out.ts, and
// the Binance dialect's, binance/streams/): market data reaches clients `data_latency` ms of
// market time late, account events `response_latency` ms late (docs/replay.md "Latency").
//
// Invariants:
// - An item held at market time t (its stamp) is released once market time reaches t + ms,
//   never before; items are released in the order they were held, and an item is never
//   released before one held ahead of it (a stamp older than a later one's waits for it too).
// - Nothing is due after the replay's end (`until`): an item due past it is due at `until`, the
//   market time a finished replay stays at (as orders in flight, replay/order-flight.ts).
// - With ms 0 nothing is held: `hold` is not called (callers check `active` and send at once).
// - The gate keeps nothing but the items not yet due: `clear()` empties it, and a released
//   item is no longer referenced (the queue's storage shrinks with it).
export class LatencyGate<T> {
  /** The latency, ms of market time (0: the gate holds nothing). */
  readonly ms: number;
  private readonly now: () => number;
  /** The replay's end, ms of market time: no item is due after it (Infinity: no end). */
  private readonly until: number;
  private dues: number[] = [];
  private items: T[] = [];
  /** Index of the oldest item still held (the released ones before it are dropped in batches). */
  private head = 0;

  /** `until`: the replay's end (market time), where whatever is due later is due. */
  constructor(ms: number, now: () => number, until: number = Number.POSITIVE_INFINITY) {
    this.ms = ms > 0 ? ms : 0;
    this.now = now;
    this.until = until;
  }

  /** True when the gate delays anything (ms > 0). */
  get active(): boolean {
    return this.ms > 0;
  }

  /** Items held, not yet released. */
  get size(): number {
    return this.items.length - this.head;
  }

  /** Holds `item`, built at market time `stamp` (default now), until market time reaches stamp + ms (or until). */
  hold(item: T, stamp: number = this.now()): void {
    this.dues.push(this.dueAt(stamp));
    this.items.push(item);
  }

  /**
   * Holds `item` like hold(), unless an item already held with the same due time matches
   * `same`: that one is replaced in its place by `merge(held)` (a snapshot stream keeps only its
   * newest state of one market time). Only the items of that due time at the tail are looked at.
   */
  holdOrMerge(item: T, same: (held: T) => boolean, merge: (held: T) => T, stamp: number = this.now()): void {
    const due = this.dueAt(stamp);
    for (let i = this.items.length - 1; i >= this.head && this.dues[i] === due; i--) {
      if (same(this.items[i])) {
        this.items[i] = merge(this.items[i]);
        return;
      }
    }
    this.hold(item, stamp);
  }

  /**
   * Hands the items whose time has come (market time now, or `now` when given) to `send`,
   * oldest first; returns how many. An item `send` throws on is dropped, the rest stay held.
   */
  release(send: (item: T) => void, now: number = this.now()): number {
    let n = 0;
    while (this.head < this.items.length && this.dues[this.head] <= now) {
      const item = this.items[this.head];
      this.items[this.head] = undefined as T;
      this.head++;
      n++;
      if (this.head === this.items.length) this.reset();
      send(item);
    }
    if (this.head > 1024 && this.head * 2 > this.items.length) this.compact();
    return n;
  }

  /** Drops everything held. */
  clear(): void {
    this.reset();
  }

  private dueAt(stamp: number): number {
    return Math.min(this.until, stamp + this.ms);
  }

  private reset(): void {
    this.dues = [];
    this.items = [];
    this.head = 0;
  }

  private compact(): void {
    this.dues = this.dues.slice(this.head);
    this.items = this.items.slice(this.head);
    this.head = 0;
  }
}
