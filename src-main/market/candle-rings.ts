// The in-memory candles of the kline service (kline-service.ts): per symbol one CandleBuilder
// and, per interval, a ring of the newest closed candles with their wire JSON cached.
//
// Invariants: a ring holds at most `cap` candles in ascending open time, oldest at `start`;
// push() overwrites the oldest when full (and the ring is then no longer `complete`); a ring is
// filled only after load() (before that SQLite holds the candles and a read loads them); the
// cached bytes of a read are dropped whenever a candle is added. No allocation per trade here:
// only a closing candle is pushed.
import {
  INTERVAL_MS,
  INTERVALS,
  nextOpenTime,
  openTimeOf,
  previousOpenTime,
  type Interval,
} from '../../src-shared/intervals.ts';
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

/**
 * Before moving a symbol's candles to time t: any interval whose open candle (of `live`, the
 * builder's current candles) is more than `K` (the ring size) periods behind t closes that candle
 * as it is (`closed`) and restarts from a zero-trade candle K periods before t (carrying its
 * close); older periods are left out, a hole like an exchange outage. So a jump (a restart after a
 * long stop, a burst at 10,000x) emits at most K + 1 candles per interval, and a "latest 1500"
 * read is still contiguous. Returns the current candles to restore, or null when none moved.
 */
export function skipAhead(live: Candle[], t: number, K: number, closed: (c: Candle) => void): Candle[] | null {
  let rebuild = false;
  for (let i = 0; i < live.length; i++) {
    const c = live[i];
    const target = openTimeOf(c.interval, t);
    if (target <= c.openTime || periodsBetween(c.interval, c.openTime, target, K + 1) <= K) continue;
    rebuild = true;
    closed(c);
    let s = target;
    if (c.interval === '1M') for (let k = 0; k < K; k++) s = previousOpenTime('1M', s);
    else s = target - K * INTERVAL_MS[c.interval];
    live[i] = {
      interval: c.interval,
      openTime: s,
      open: c.close,
      high: c.close,
      low: c.close,
      close: c.close,
      volume: 0,
      quoteVolume: 0n,
      trades: 0,
      takerBuyVolume: 0,
      takerBuyQuoteVolume: 0n,
    };
  }
  return rebuild ? live : null;
}
