// The in-memory candles of the kline service (kline-service.ts): per symbol one CandleBuilder
// and, per interval, a ring of the newest closed candles with their wire JSON cached.
//
// Invariants: a ring holds at most `cap` candles in ascending open time, oldest at `start`;
// push() overwrites the oldest when full (and the ring is then no longer `complete`); a ring is
// filled only after load() (before that SQLite holds the candles and a read loads them); the
// cached bytes of a read are dropped whenever a candle is added. No allocation per trade here:
// only a closing candle is pushed.
import { INTERVAL_MS, INTERVALS, nextOpenTime, type Interval } from '../../src-shared/intervals.ts';
import type { CandleBuilder, Candle, KlineTuple } from './candles.ts';

/** Periods of `interval` from aligned open time `from` to aligned open time `to` (to >= from), counted up to `cap`. */
export function periodsBetween(interval: Interval, from: number, to: number, cap: number): number {
  if (interval !== '1M') return Math.min(cap, Math.round((to - from) / INTERVAL_MS[interval]));
  let n = 0;
  for (let t = from; t < to && n < cap; t = nextOpenTime(interval, t)) n++;
  return n;
}

/** The newest closed candles of one (symbol, interval), ascending, with their wire JSON cached. */
export class Ring {
  readonly cap: number;
  candles: Candle[] = [];
  json: Array<string | undefined> = [];
  /** Closed parts of recent reads as bytes, by (from, to); emptied whenever a candle is added. */
  readonly bytes = new Map<number, Buffer>();
  start = 0;
  size = 0;
  loaded = false;
  /** Holds every stored candle older than the current one (nothing was ever evicted or left in SQLite). */
  complete = false;

  constructor(cap: number) {
    this.cap = cap;
  }

  load(ascending: readonly Candle[]): void {
    this.candles = new Array(this.cap);
    this.json = new Array(this.cap);
    this.start = 0;
    this.size = 0;
    this.loaded = true;
    this.bytes.clear();
    this.complete = ascending.length < this.cap;
    for (const c of ascending) this.push(c);
  }

  push(c: Candle): void {
    if (!this.loaded) return; // SQLite has it; load() reads it from there
    let k: number;
    if (this.size < this.cap) {
      k = this.start + this.size;
      if (k >= this.cap) k -= this.cap;
      this.size++;
    } else {
      k = this.start;
      this.start = k + 1 === this.cap ? 0 : k + 1;
      this.complete = false;
    }
    this.candles[k] = c;
    this.json[k] = undefined;
    if (this.bytes.size > 0) this.bytes.clear();
  }

  /** Slot of the i-th oldest candle. */
  slot(i: number): number {
    const k = this.start + i;
    return k >= this.cap ? k - this.cap : k;
  }

  at(i: number): Candle {
    return this.candles[this.slot(i)];
  }

  /** First index whose open time is >= t (size when none). */
  lowerBound(t: number): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.at(mid).openTime < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** One symbol's builder, rings and bookkeeping. */
export class SymbolCandles {
  readonly symbol: string;
  builder!: CandleBuilder;
  readonly rings: Ring[];
  readonly format: (c: Candle, isClosed: boolean) => KlineTuple;
  /** Latest market time seen (trade or advance). */
  lastTime = Number.NEGATIVE_INFINITY;
  /** Time from which a jump may span more than ringSize periods of some interval (see skipAhead). */
  horizon = Number.NEGATIVE_INFINITY;
  /** Current candles changed since the last checkpoint. */
  dirty = false;

  constructor(symbol: string, format: (c: Candle, isClosed: boolean) => KlineTuple, ringSize: number) {
    this.symbol = symbol;
    this.format = format;
    this.rings = INTERVALS.map(() => new Ring(ringSize));
  }
}
