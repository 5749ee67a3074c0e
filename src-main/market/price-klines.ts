// Mark-price, index-price and premium-index candles of every pair (Binance's markPriceKlines,
// indexPriceKlines, premiumIndexKlines), built from the exchange's price updates.
//
// Invariants and choices:
// - Fed by the exchange's 'price' events (each mark / index update the market publishes);
//   premium = (mark - index) / index at that update: the venue's mark is its index plus the
//   premium the market gives it, so this is the premium the mark carried (Binance's premium
//   index uses the impact bid / ask instead, which the venue does not compute).
// - Kept in memory only, per (pair, interval): a ring of the newest PRICE_KLINES_KEPT candles
//   (the one still open included), for every interval but 1s. A restart starts the window
//   empty; the trade candles (kline-service.ts) are the stored series. docs/binance.md says so.
// - A period without a price update has no candle (a hole), as the venue saw no price then.
// - Time per pair never steps back: an update stamped before the pair's latest counts at the
//   latest time (the same rule as the trade candles).
import { INTERVALS, closeTimeOf, openTimeOf, type Interval } from '../../src-shared/intervals.ts';
import type { EventBus, PriceEvent } from '../trading/events.ts';

/** Candles kept per pair, interval and series (Binance serves at most 1500 a request). */
export const PRICE_KLINES_KEPT = 1500;
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
  count: number;
  // [open, high, low, close] for mark, index, premium
  v: Float64Array;
}

class Ring {
  private readonly slots: Slot[] = [];
  private start = 0;

  /** The newest slot, or undefined when empty. */
  last(): Slot | undefined {
    const n = this.slots.length;
    return n === 0 ? undefined : this.slots[(this.start + n - 1) % n];
  }

  push(s: Slot): void {
    if (this.slots.length < PRICE_KLINES_KEPT) this.slots.push(s);
    else {
      this.slots[this.start] = s;
      this.start = (this.start + 1) % PRICE_KLINES_KEPT;
    }
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

  constructor(events: EventBus) {
    this.off = events.on('price', (e) => this.record(e));
  }

  /** Adds one price update to every interval's current candle of the pair. */
  record(e: PriceEvent): void {
    if (!(e.index > 0) || !Number.isFinite(e.mark)) return;
    const time = Math.max(e.time, this.latest.get(e.symbol) ?? e.time);
    this.latest.set(e.symbol, time);
    let rings = this.rings.get(e.symbol);
    if (rings === undefined) {
      rings = new Map(PRICE_KLINE_INTERVALS.map((i) => [i, new Ring()]));
      this.rings.set(e.symbol, rings);
    }
    const values = [e.mark, e.index, (e.mark - e.index) / e.index];
    for (const [interval, ring] of rings) {
      const open = openTimeOf(interval, time);
      let s = ring.last();
      if (s === undefined || s.openTime !== open) {
        s = { openTime: open, count: 0, v: new Float64Array(12) };
        for (let k = 0; k < 3; k++) s.v.fill(values[k], k * 4, k * 4 + 4);
        ring.push(s);
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
    }
  }

  /**
   * Candles of one series, oldest first, in Binance's selection: with startTime the first
   * `limit` opening at or after it (as the facade's trade klines), with only endTime the last `limit` opening at or before it,
   * with neither the newest `limit`.
   */
  candles(symbol: string, series: PriceSeries, interval: Interval, q: { startTime?: number; endTime?: number; limit: number }): PriceCandle[] {
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

  close(): void {
    this.off();
  }
}
