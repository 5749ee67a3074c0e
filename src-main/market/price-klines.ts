// Mark-price, index-price and premium-index candles of every pair (Binance's markPriceKlines,
// indexPriceKlines, premiumIndexKlines), built from the exchange's price updates.
//
// Invariants and choices:
// - Fed by the exchange's 'price' events (each mark / index update the market publishes);
//   premium = (mark - index) / index at that update: the venue's mark is its index plus the
//   premium the market gives it, so this is the premium the mark carried (Binance's premium
//   index uses the impact bid / ask instead, which the venue does not compute).
// - Kept per (pair, interval): a ring of the newest PRICE_KLINES_KEPT candles (the one still
//   open included), for every interval but 1s. With a store (the venue's), the ring is loaded
//   from it at start, the candles changed since are upserted every PRICE_KLINES_FLUSH_MS and at
//   close, and a series that rolled past its window is pruned to it: a restart resumes the
//   candles (the open one goes on from its stored state), a crash loses at most the updates of
//   the last flush period. Without a store (unit tests) it is memory only.
// - A period without a price update has no candle (a hole), as the venue saw no price then.
// - Time per pair never steps back: an update stamped before the pair's latest counts at the
//   latest time (the same rule as the trade candles).
import { INTERVALS, closeTimeOf, nextOpenTime, openTimeOf, type Interval } from '../../src-shared/intervals.ts';
import type { EventBus, PriceEvent } from '../trading/events.ts';
import type { PriceCandleRow, PriceCandleStore } from './ports.ts';

/** Candles kept per pair, interval and series (Binance serves at most 1500 a request). */
export const PRICE_KLINES_KEPT = 1500;
/** How often changed candles are written to the store, ms. */
const PRICE_KLINES_FLUSH_MS = 5_000;
export const PRICE_KLINE_INTERVALS: readonly Interval[] = INTERVALS.filter((i) => i !== '1s');
export type PriceSeries = 'mark' | 'index' | 'premium';

/** One candle of one series: open time, open, high, low, close, close time, updates counted. */
export interface PriceCandle {
  openTime: number;
  open: number;
  high: number;
  low: number;
  close: number;
  closeTime: number;
  count: number;
}

interface Slot {
  openTime: number;
  /** The next candle's open time: an update before it is this candle's. */
  end: number;
  count: number;
  // [open, high, low, close] for mark, index, premium
  v: Float64Array;
  /** Listed in PriceKlines.dirty (changed since the last flush). */
  dirty: boolean;
}

class Ring {
  private readonly slots: Slot[] = [];
  private start = 0;
  readonly symbol: string;
  readonly interval: Interval;

  constructor(symbol: string, interval: Interval) {
    this.symbol = symbol;
    this.interval = interval;
  }

  /** The newest slot, or undefined when empty. */
  last(): Slot | undefined {
    const n = this.slots.length;
    return n === 0 ? undefined : this.slots[(this.start + n - 1) % n];
  }

  /** Adds the newest slot; answers the oldest one when the window was full and it left. */
  push(s: Slot): Slot | undefined {
    if (this.slots.length < PRICE_KLINES_KEPT) {
      this.slots.push(s);
      return undefined;
    }
    const gone = this.slots[this.start];
    this.slots[this.start] = s;
    this.start = (this.start + 1) % PRICE_KLINES_KEPT;
    return gone;
  }

  /** The oldest slot's open time (the ring is not empty). */
  oldestOpen(): number {
    return this.slots[this.start].openTime;
  }

  /** Oldest first. */
  all(): Slot[] {
    const n = this.slots.length;
    const out: Slot[] = new Array(n);
    for (let i = 0; i < n; i++) out[i] = this.slots[(this.start + i) % n];
    return out;
  }
}

const SERIES_AT: Record<PriceSeries, number> = { mark: 0, index: 4, premium: 8 };

export class PriceKlines {
  private readonly rings = new Map<string, Map<Interval, Ring>>();
  private readonly latest = new Map<string, number>();
  private readonly off: () => void;
  private readonly store: PriceCandleStore | null;
  private readonly timer: ReturnType<typeof setInterval> | null = null;
  /** Slots changed since the last flush, with their series. */
  private readonly dirty = new Map<Slot, Ring>();
  /** Scratch of record(): mark, index, premium. */
  private readonly values = new Float64Array(3);
  /** Series whose window moved past its oldest stored candle since the last flush. */
  private readonly rolled = new Set<Ring>();

  constructor(events: EventBus, store?: PriceCandleStore, flushMs = PRICE_KLINES_FLUSH_MS) {
    this.store = store ?? null;
    if (store !== undefined) {
      this.load(store.loadAll());
      this.timer = setInterval(() => this.flush(), flushMs);
      this.timer.unref();
    }
    this.off = events.on('price', (e) => this.record(e));
  }

  private ringsOf(symbol: string): Map<Interval, Ring> {
    let rings = this.rings.get(symbol);
    if (rings === undefined) {
      rings = new Map(PRICE_KLINE_INTERVALS.map((i) => [i, new Ring(symbol, i)]));
      this.rings.set(symbol, rings);
    }
    return rings;
  }

  /** The stored candles back into the rings (ascending per series; a window's worth at most). */
  private load(rows: readonly PriceCandleRow[]): void {
    for (const r of rows) {
      const ring = this.ringsOf(r.symbol).get(r.interval);
      if (ring === undefined || r.v.length !== 12) continue; // not a served interval
      ring.push({
        openTime: r.openTime,
        end: nextOpenTime(r.interval, r.openTime),
        count: r.count,
        v: Float64Array.from(r.v),
        dirty: false,
      });
      // the stored candles' times stand for the latest update seen: time never steps back
      if (r.openTime > (this.latest.get(r.symbol) ?? -Infinity)) this.latest.set(r.symbol, r.openTime);
    }
  }

  /**
   * Writes the candles changed since the last flush and prunes the series that rolled past
   * their window. Not while another unit is open on the store (the exchange's command): the
   * next flush takes them.
   */
  flush(): void {
    const store = this.store;
    if (store === null || store.inUnit || (this.dirty.size === 0 && this.rolled.size === 0)) return;
    const rows: PriceCandleRow[] = [];
    for (const [s, ring] of this.dirty)
      rows.push({ symbol: ring.symbol, interval: ring.interval, openTime: s.openTime, count: s.count, v: s.v });
    store.saveMany(rows);
    for (const ring of this.rolled) store.prune(ring.symbol, ring.interval, ring.oldestOpen());
    for (const slot of this.dirty.keys()) slot.dirty = false;
    this.dirty.clear();
    this.rolled.clear();
  }

  /** Adds one price update to every interval's current candle of the pair. */
  record(e: PriceEvent): void {
    if (!(e.index > 0) || !Number.isFinite(e.mark)) return;
    const time = Math.max(e.time, this.latest.get(e.symbol) ?? e.time);
    this.latest.set(e.symbol, time);
    const rings = this.ringsOf(e.symbol);
    const track = this.store !== null;
    const values = this.values;
    values[0] = e.mark;
    values[1] = e.index;
    values[2] = (e.mark - e.index) / e.index;
    for (const ring of rings.values()) {
      const interval = ring.interval;
      let s = ring.last();
      // within the newest candle (the common case): no open time to work out
      if (s === undefined || time >= s.end || time < s.openTime) {
        const open = openTimeOf(interval, time);
        s = { openTime: open, end: nextOpenTime(interval, open), count: 0, v: new Float64Array(12), dirty: false };
        for (let k = 0; k < 3; k++) s.v.fill(values[k], k * 4, k * 4 + 4);
        const gone = ring.push(s);
        if (gone !== undefined && track) {
          // out of the window: never written, whatever it was (a long run between flushes keeps no more than the window)
          this.dirty.delete(gone);
          this.rolled.add(ring);
        }
      } else {
        for (let k = 0; k < 3; k++) {
          const x = values[k];
          const b = k * 4;
          if (x > s.v[b + 1]) s.v[b + 1] = x;
          if (x < s.v[b + 2]) s.v[b + 2] = x;
          s.v[b + 3] = x;
        }
      }
      s.count++;
      if (track && !s.dirty) {
        s.dirty = true;
        this.dirty.set(s, ring);
      }
    }
  }

  /**
   * Candles of one series, oldest first, in Binance's selection: with startTime the first
   * `limit` opening at or after it (as the facade's trade klines), with only endTime the last `limit` opening at or before it,
   * with neither the newest `limit`.
   */
  candles(
    symbol: string,
    series: PriceSeries,
    interval: Interval,
    q: { startTime?: number; endTime?: number; limit: number },
  ): PriceCandle[] {
    const ring = this.rings.get(symbol)?.get(interval);
    if (ring === undefined) return [];
    let slots = ring.all();
    if (q.startTime !== undefined) slots = slots.filter((s) => s.openTime >= q.startTime!);
    if (q.endTime !== undefined) slots = slots.filter((s) => s.openTime <= q.endTime!);
    slots = q.startTime !== undefined ? slots.slice(0, q.limit) : slots.slice(Math.max(0, slots.length - q.limit));
    const b = SERIES_AT[series];
    return slots.map((s) => ({
      openTime: s.openTime,
      open: s.v[b],
      high: s.v[b + 1],
      low: s.v[b + 2],
      close: s.v[b + 3],
      closeTime: closeTimeOf(interval, s.openTime),
      count: s.count,
    }));
  }

  /** Stops listening; with a store, writes what changed since the last flush. */
  close(): void {
    this.off();
    if (this.timer !== null) clearInterval(this.timer);
    this.flush();
  }
}
