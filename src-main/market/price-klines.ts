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

/** Numbers a candle takes in a ring: [open, high, low, close] for mark, index and premium. */
const WIDTH = 12;
/** A ring's first allocation, in candles (it doubles up to PRICE_KLINES_KEPT). */
const FIRST_CAPACITY = 16;

/**
 * The newest PRICE_KLINES_KEPT candles of one pair and interval, in typed arrays that grow as it
 * fills (a candle is 14 numbers, about 112 bytes, instead of an object with a typed array of its
 * own, about 400: 12 pairs x 15 intervals x 1,500 candles would otherwise hold about 108 MB). A
 * candle is addressed by its position in the arrays (`at`), which it keeps until it leaves.
 */
class Ring {
  private opens = new Float64Array(FIRST_CAPACITY);
  private counts = new Float64Array(FIRST_CAPACITY);
  /** WIDTH numbers a candle. */
  v = new Float64Array(FIRST_CAPACITY * WIDTH);
  /** Positions changed since the last flush (PriceKlines.flush). */
  readonly dirty = new Set<number>();
  private size = 0;
  private start = 0;
  /** The newest candle's end: the next candle's open time (an update before it is the newest's). */
  lastEnd = -Infinity;
  readonly symbol: string;
  readonly interval: Interval;

  constructor(symbol: string, interval: Interval) {
    this.symbol = symbol;
    this.interval = interval;
  }

  get length(): number {
    return this.size;
  }

  /** Position of the i-th candle, oldest first. */
  at(i: number): number {
    const i2 = this.start + i;
    return i2 < this.size ? i2 : i2 - this.size;
  }

  /** Position of the newest candle (the ring is not empty). */
  lastAt(): number {
    return this.at(this.size - 1);
  }

  openTime(at: number): number {
    return this.opens[at];
  }

  count(at: number): number {
    return this.counts[at];
  }

  addCount(at: number): void {
    this.counts[at]++;
  }

  setCount(at: number, n: number): void {
    this.counts[at] = n;
  }

  /**
   * Adds the newest candle with its count and values zero (the caller fills them); answers its
   * position and whether the oldest candle left to make room (the window was full).
   */
  push(openTime: number): { at: number; rolled: boolean } {
    let at: number;
    let rolled = false;
    if (this.size < PRICE_KLINES_KEPT) {
      if (this.size === this.opens.length) this.grow();
      at = this.size++;
    } else {
      at = this.start;
      this.start = at + 1 === this.size ? 0 : at + 1;
      this.dirty.delete(at); // out of the window: never written, whatever it was
      rolled = true;
    }
    this.opens[at] = openTime;
    this.counts[at] = 0;
    this.lastEnd = nextOpenTime(this.interval, openTime);
    return { at, rolled };
  }

  /** The oldest candle's open time (the ring is not empty). */
  oldestOpen(): number {
    return this.opens[this.start];
  }

  private grow(): void {
    const cap = Math.min(PRICE_KLINES_KEPT, this.opens.length * 2);
    const opens = new Float64Array(cap);
    opens.set(this.opens);
    const counts = new Float64Array(cap);
    counts.set(this.counts);
    const v = new Float64Array(cap * WIDTH);
    v.set(this.v);
    this.opens = opens;
    this.counts = counts;
    this.v = v;
  }
}

const SERIES_AT: Record<PriceSeries, number> = { mark: 0, index: 4, premium: 8 };

export class PriceKlines {
  private readonly rings = new Map<string, Map<Interval, Ring>>();
  private readonly latest = new Map<string, number>();
  private readonly off: () => void;
  private readonly store: PriceCandleStore | null;
  private readonly timer: ReturnType<typeof setInterval> | null = null;
  /** Series with candles changed since the last flush. */
  private readonly dirty = new Set<Ring>();
  /** Scratch of record(): mark, index, premium. */
  private readonly values = new Float64Array(3);
  /** Series whose window moved past its oldest stored candle since the last flush. */
  private readonly rolled = new Set<Ring>();

  constructor(events: EventBus, store?: PriceCandleStore, flushMs = PRICE_KLINES_FLUSH_MS) {
    this.store = store ?? null;
    if (store !== undefined) {
      this.load(store.loadAll());
      this.timer = setInterval(() => {
        try {
          this.flush();
        } catch (err) {
          console.error('perpdesk: writing price klines failed', err); // a timer that throws ends the process
        }
      }, flushMs);
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
      if (ring === undefined || r.v.length !== WIDTH) continue; // not a served interval
      const { at } = ring.push(r.openTime);
      ring.setCount(at, r.count);
      ring.v.set(r.v, at * WIDTH);
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
    for (const ring of this.dirty)
      for (const at of ring.dirty)
        rows.push({
          symbol: ring.symbol,
          interval: ring.interval,
          openTime: ring.openTime(at),
          count: ring.count(at),
          v: ring.v.subarray(at * WIDTH, at * WIDTH + WIDTH),
        });
    if (!store.saveMany(rows)) return; // the database is locked by another connection: next flush
    for (const ring of this.rolled) store.prune(ring.symbol, ring.interval, ring.oldestOpen());
    for (const ring of this.dirty) ring.dirty.clear();
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
      let at: number;
      // within the newest candle (the common case): no open time to work out
      if (ring.length === 0 || time >= ring.lastEnd || time < ring.openTime((at = ring.lastAt()))) {
        const pushed = ring.push(openTimeOf(ring.interval, time));
        at = pushed.at;
        if (pushed.rolled && track) this.rolled.add(ring);
        const v = ring.v;
        for (let k = 0; k < 3; k++) v.fill(values[k], at * WIDTH + k * 4, at * WIDTH + k * 4 + 4);
      } else {
        const v = ring.v;
        for (let k = 0; k < 3; k++) {
          const x = values[k];
          const b = at * WIDTH + k * 4;
          if (x > v[b + 1]) v[b + 1] = x;
          if (x < v[b + 2]) v[b + 2] = x;
          v[b + 3] = x;
        }
      }
      ring.addCount(at);
      if (track && !ring.dirty.has(at)) {
        ring.dirty.add(at);
        this.dirty.add(ring);
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
    const n = ring.length;
    // oldest first: the first at or after startTime, the last at or before endTime
    let lo = 0;
    let hi = n;
    while (lo < hi && q.startTime !== undefined && ring.openTime(ring.at(lo)) < q.startTime) lo++;
    while (hi > lo && q.endTime !== undefined && ring.openTime(ring.at(hi - 1)) > q.endTime) hi--;
    if (q.startTime !== undefined) hi = Math.min(hi, lo + q.limit);
    else lo = Math.max(lo, hi - q.limit);
    const b = SERIES_AT[series];
    const v = ring.v;
    const out: PriceCandle[] = [];
    for (let i = lo; i < hi; i++) {
      const at = ring.at(i);
      const o = at * WIDTH + b;
      const openTime = ring.openTime(at);
      out.push({
        openTime,
        open: v[o],
        high: v[o + 1],
        low: v[o + 2],
        close: v[o + 3],
        closeTime: closeTimeOf(interval, openTime),
        count: ring.count(at),
      });
    }
    return out;
  }

  /** Stops listening; with a store, writes what changed since the last flush. */
  close(): void {
    this.off();
    if (this.timer !== null) clearInterval(this.timer);
    this.flush();
  }
}
