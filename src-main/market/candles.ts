// Candle builder: one symbol's trades -> the candles of every interval (DESIGN section 4, Klines).
//
// Pure and deterministic: no clock, no I/O; time moves only through trade timestamps and
// advanceTo(ts), both non-decreasing (a step back throws RangeError). Every interval's candle is
// built from the trades themselves (its open is its first trade; a candle with no trade carries
// the previous close, volume 0); a candle is handed to the sink exactly once, when time reaches
// its next open time (none before its first trade or restore()), interval by interval in
// INTERVALS order, each ascending. Prices in ticks, sizes in lots; quote volumes are exact (a
// Number below 2^52 that spills into a BigInt).
// Hot path: trade() allocates nothing (a BigInt only on a spill or a product > 2^52); it updates
// the finest interval's candle and the trades pending for the coarser ones, which take them in
// (fold) when the finest period ends, on an advance past it, or when one of them is read.

import { INTERVAL_MS, INTERVALS, nextOpenTime, openTimeOf, closeTimeOf } from '../../src-shared/intervals.ts';
import type { Interval } from '../../src-shared/intervals.ts';
import { createScale, formatFixed, notionalDecimals, rescaleFixed } from '../../src-shared/decimal.ts';
import type { Candle as KlineTuple } from '../../src-shared/types.ts';
import { Side } from '../../src-shared/enums.ts';
import type { Candle } from '../core/candle.ts';

// Candle is defined in core (below the store, which keeps candles); the builder's users import it here.
export type { Candle, KlineTuple };

export type CandleSink = (candle: Candle) => void;

export interface CandleBuilderOptions {
  /** Intervals to maintain; default all 16. Order and duplicates do not matter. */
  readonly intervals?: readonly Interval[];
  /** Receives every closed candle; the object is the sink's to keep. */
  readonly onClose: CandleSink;
}

// Sums below this stay exact when one more addend <= SPILL is added (result < 2^53).
const SPILL = 2 ** 52;

/** Mutable state of one interval's current candle; fields stay Numbers on the hot path. */
class Slot {
  readonly interval: Interval;
  /** The interval's place in INTERVALS (finest first). */
  readonly rank: number;
  /** The period in ms when periods are fixed and aligned on multiples of it (0 for 1w and 1M). */
  private readonly ms: number;
  live = false;
  openTime = 0;
  // -Infinity until live, so the first trade always takes the roll-over branch.
  nextOpen = Number.NEGATIVE_INFINITY;
  open = 0;
  high = 0;
  low = 0;
  close = 0;
  volume = 0;
  trades = 0;
  takerBuyVolume = 0;
  quoteLo = 0;
  quoteHi = 0n;
  takerBuyQuoteLo = 0;
  takerBuyQuoteHi = 0n;

  constructor(interval: Interval) {
    this.interval = interval;
    this.rank = INTERVALS.indexOf(interval);
    this.ms = interval === '1w' || interval === '1M' ? 0 : INTERVAL_MS[interval];
  }

  /** Starts an empty candle at openTime carrying `price` as its open, high, low and close. */
  reset(openTime: number, price: number): void {
    this.openTime = openTime;
    // openTimeOf + the period, as nextOpenTime computes it, without its look-ups by name
    const ms = this.ms;
    this.nextOpen = ms > 0 ? Math.floor(openTime / ms) * ms + ms : nextOpenTime(this.interval, openTime);
    this.open = price;
    this.high = price;
    this.low = price;
    this.close = price;
    this.volume = 0;
    this.trades = 0;
    this.takerBuyVolume = 0;
    this.quoteLo = 0;
    this.quoteHi = 0n;
    this.takerBuyQuoteLo = 0;
    this.takerBuyQuoteHi = 0n;
  }

  snapshot(): Candle {
    return {
      interval: this.interval,
      openTime: this.openTime,
      open: this.open,
      high: this.high,
      low: this.low,
      close: this.close,
      volume: this.volume,
      quoteVolume: exactSum(this.quoteHi, this.quoteLo),
      trades: this.trades,
      takerBuyVolume: this.takerBuyVolume,
      takerBuyQuoteVolume: exactSum(this.takerBuyQuoteHi, this.takerBuyQuoteLo),
    };
  }
}

/** hi + lo as one BigInt: no BigInt addition when either part is zero (most candles never spill). */
function exactSum(hi: bigint, lo: number): bigint {
  if (lo === 0) return hi;
  return hi === 0n ? BigInt(lo) : hi + BigInt(lo);
}

function checkPositiveInt(name: string, v: number): void {
  if (!Number.isSafeInteger(v) || v <= 0) throw new RangeError(`${name} must be a positive safe integer, got ${v}`);
}

export class CandleBuilder {
  private readonly slots: Slot[];
  private readonly bySlot: Map<Interval, Slot>;
  private readonly onClose: CandleSink;
  private clock = Number.NEGATIVE_INFINITY;
  /**
   * The trades since the last fold(): a trade goes into the finest interval's candle and here,
   * and the coarser candles take these in at once when the finest period ends or one of them
   * is read (two candle updates a trade instead of one an interval).
   */
  private readonly pending: Slot;
  /**
   * Every interval has a candle and the finest one's period lies within each coarser one's (so
   * the pending trades belong to every current candle): true after a trade or an advance has
   * brought every interval to the same time; false before, and after restore().
   */
  private nested = false;

  constructor(options: CandleBuilderOptions) {
    const wanted = new Set<Interval>(options.intervals ?? INTERVALS);
    for (const i of wanted) if (!INTERVALS.includes(i)) throw new RangeError(`unknown interval: ${i}`);
    this.slots = INTERVALS.filter((i) => wanted.has(i)).map((i) => new Slot(i));
    this.bySlot = new Map(this.slots.map((s) => [s.interval, s]));
    this.onClose = options.onClose;
    this.pending = new Slot(this.slots[0]?.interval ?? '1m');
  }

  /** The intervals maintained, in INTERVALS order. */
  get intervals(): readonly Interval[] {
    return this.slots.map((s) => s.interval);
  }

  /** Latest time seen (trade or advanceTo); -Infinity before anything happened. */
  get now(): number {
    return this.clock;
  }

  /**
   * Continues from stored candles (each interval's newest, closed or not) after a restart; call it
   * before any trade or advanceTo. Intervals not configured are ignored; for an interval given
   * twice the newer candle wins. A restored candle whose period has already ended is emitted
   * again on the next trade or advance, so the store should upsert by (interval, openTime).
   */
  restore(candles: Iterable<Candle>): void {
    if (this.clock !== Number.NEGATIVE_INFINITY) throw new Error('restore() must come before any trade or advanceTo()');
    for (const c of candles) {
      const s = this.bySlot.get(c.interval);
      if (s === undefined) continue;
      if (openTimeOf(c.interval, c.openTime) !== c.openTime) {
        throw new RangeError(`candle ${c.interval} openTime ${c.openTime} is not aligned`);
      }
      if (s.live && s.openTime >= c.openTime) continue;
      s.live = true;
      s.reset(c.openTime, c.close);
      s.open = c.open;
      s.high = c.high;
      s.low = c.low;
      s.volume = c.volume;
      s.trades = c.trades;
      s.takerBuyVolume = c.takerBuyVolume;
      s.quoteHi = c.quoteVolume;
      s.takerBuyQuoteHi = c.takerBuyQuoteVolume;
    }
  }

  /** Records one trade at ts (ms): price in ticks, qty in lots, the taker's side (Side.BUY/SELL). */
  trade(ts: number, price: number, qty: number, takerSide: Side, count = 1): void {
    if (!(ts >= this.clock) || !Number.isSafeInteger(ts)) {
      throw new RangeError(`trade at ${ts} is before the builder's time ${this.clock}`);
    }
    checkPositiveInt('price', price);
    checkPositiveInt('qty', qty);
    checkPositiveInt('count', count);
    this.clock = ts;
    const slots = this.slots;
    const base = slots[0];
    if (!this.nested || ts >= base.nextOpen) {
      // the finest period ended (or the first trade): what the coarser candles have not taken
      // yet is theirs, then every interval closes what ended and opens the period of ts
      this.fold();
      for (let i = 0; i < slots.length; i++) {
        const s = slots[i];
        if (ts >= s.nextOpen) this.roll(s, ts, true);
      }
      this.nested = true;
    }
    const buy = takerSide === Side.BUY;
    addTrade(base, price, qty, count, buy);
    if (slots.length > 1) addTrade(this.pending, price, qty, count, buy);
  }

  /**
   * Adds `trades`, `quote` and `takerBuyQuote` (may be negative; quote units as trade()'s) to the
   * current candles of `from` and every coarser interval, no price or volume: a replay of candles
   * brings them to the source's columns. Finer intervals are left as their trades built them.
   */
  adjust(from: Interval, trades: number, quote: bigint, takerBuyQuote: bigint): void {
    this.fold();
    const k = INTERVALS.indexOf(from);
    for (const s of this.slots) {
      if (!s.live || s.rank < k) continue;
      s.trades += trades;
      if (quote !== 0n) s.quoteHi += quote;
      if (takerBuyQuote !== 0n) s.takerBuyQuoteHi += takerBuyQuote;
    }
  }

  /**
   * Moves the virtual clock to ts: every candle whose period ended before ts is closed and
   * emitted, with zero-trade candles for the periods in between.
   */
  advanceTo(ts: number): void {
    if (!(ts >= this.clock) || !Number.isSafeInteger(ts)) {
      throw new RangeError(`advanceTo(${ts}) is before the builder's time ${this.clock}`);
    }
    this.clock = ts;
    const slots = this.slots;
    if (this.nested && ts < slots[0].nextOpen) return; // nothing ended (coarser periods end on finer boundaries)
    this.fold();
    let live = true;
    for (let i = 0; i < slots.length; i++) {
      const s = slots[i];
      if (s.live && ts >= s.nextOpen) this.roll(s, ts, false);
      live &&= s.live;
    }
    this.nested = live;
  }

  /** Snapshot of the current (unclosed) candle of an interval; undefined before its first candle. */
  current(interval: Interval): Candle | undefined {
    const s = this.bySlot.get(interval);
    if (s === undefined || !s.live) return undefined;
    if (s !== this.slots[0]) this.fold();
    return s.snapshot();
  }

  /** Snapshots of all current candles, in INTERVALS order. */
  currentAll(): Candle[] {
    this.fold();
    const out: Candle[] = [];
    for (const s of this.slots) if (s.live) out.push(s.snapshot());
    return out;
  }

  /**
   * Adds the trades collected since the last fold (all within the finest interval's current
   * period, so within every coarser one's) to the coarser intervals' candles.
   */
  private fold(): void {
    const p = this.pending;
    if (p.trades === 0) return;
    const slots = this.slots;
    const quoteHi = p.quoteHi !== 0n;
    const takerBuyQuoteHi = p.takerBuyQuoteHi !== 0n;
    for (let i = 1; i < slots.length; i++) {
      const s = slots[i];
      if (s.trades === 0) {
        s.open = p.open;
        s.high = p.high;
        s.low = p.low;
      } else {
        if (p.high > s.high) s.high = p.high;
        if (p.low < s.low) s.low = p.low;
      }
      s.close = p.close;
      s.volume += p.volume;
      s.trades += p.trades;
      s.takerBuyVolume += p.takerBuyVolume;
      // each Lo is below 2^52: the sum stays exact
      s.quoteLo += p.quoteLo;
      if (s.quoteLo >= SPILL) {
        s.quoteHi += BigInt(s.quoteLo);
        s.quoteLo = 0;
      }
      if (quoteHi) s.quoteHi += p.quoteHi;
      s.takerBuyQuoteLo += p.takerBuyQuoteLo;
      if (s.takerBuyQuoteLo >= SPILL) {
        s.takerBuyQuoteHi += BigInt(s.takerBuyQuoteLo);
        s.takerBuyQuoteLo = 0;
      }
      if (takerBuyQuoteHi) s.takerBuyQuoteHi += p.takerBuyQuoteHi;
    }
    p.reset(0, 0);
  }

  private roll(s: Slot, ts: number, opening: boolean): void {
    if (!s.live) {
      if (!opening) return;
      s.live = true;
      s.reset(openTimeOf(s.interval, ts), 0);
      return;
    }
    while (s.nextOpen <= ts) {
      this.onClose(s.snapshot());
      s.reset(s.nextOpen, s.close);
    }
  }
}

/** One trade (or `count` at one price) into a candle's state; `buy`: the taker bought. */
function addTrade(s: Slot, price: number, qty: number, count: number, buy: boolean): void {
  const pq = price * qty;
  // A Number product <= 2^52 is exact (the true product is below 2^53); larger ones go BigInt.
  const small = pq <= SPILL;
  const bigPq = small ? 0n : BigInt(price) * BigInt(qty);
  if (s.trades === 0) {
    s.open = price;
    s.high = price;
    s.low = price;
  } else if (price > s.high) s.high = price;
  else if (price < s.low) s.low = price;
  s.close = price;
  s.volume += qty;
  s.trades += count;
  if (small) {
    s.quoteLo += pq;
    if (s.quoteLo >= SPILL) {
      s.quoteHi += BigInt(s.quoteLo);
      s.quoteLo = 0;
    }
  } else s.quoteHi += bigPq;
  if (buy) {
    s.takerBuyVolume += qty;
    if (small) {
      s.takerBuyQuoteLo += pq;
      if (s.takerBuyQuoteLo >= SPILL) {
        s.takerBuyQuoteHi += BigInt(s.takerBuyQuoteLo);
        s.takerBuyQuoteLo = 0;
      }
    } else s.takerBuyQuoteHi += bigPq;
  }
}

// ---- wire form ----------------------------------------------------------------------------

/** What the wire form needs to know about a symbol (decimal strings as in the symbol config). */
export interface KlineFormat {
  readonly tickSize: string;
  readonly stepSize: string;
  readonly pricePrecision: number;
  readonly qtyPrecision: number;
  readonly quotePrecision: number;
}

/**
 * Builds a candle -> spec tuple function for one symbol, through the project's conversion module:
 * integer and string arithmetic only, so the klines route formats 1,500 candles within its 1 ms
 * budget. Prices and volumes are exact (a precision too small for the tick or step throws);
 * quote volumes, exact in tick x lot units, are rounded half up to quotePrecision when that has
 * fewer decimals than tick x lot.
 */
export function klineFormatter(format: KlineFormat): (candle: Candle, isClosed: boolean) => KlineTuple {
  const price = createScale(format.tickSize, format.pricePrecision);
  const qty = createScale(format.stepSize, format.qtyPrecision);
  const qp = format.quotePrecision;
  const quoteDecimals = notionalDecimals(price, qty);
  const quoteM = BigInt(price.stepUnits) * BigInt(qty.stepUnits);
  // Validates qp once, so the per-candle path cannot throw for it.
  formatFixed(0n, qp);
  const quote = (units: bigint): string =>
    formatFixed(rescaleFixed(quoteM === 1n ? units : units * quoteM, quoteDecimals, qp, 'half_up'), qp);
  return (c, isClosed) => [
    c.openTime,
    c.closeTime ?? closeTimeOf(c.interval, c.openTime),
    price.fromUnits(c.open),
    price.fromUnits(c.high),
    price.fromUnits(c.low),
    price.fromUnits(c.close),
    qty.fromUnits(c.volume),
    quote(c.quoteVolume),
    c.trades,
    qty.fromUnits(c.takerBuyVolume),
    quote(c.takerBuyQuoteVolume),
    isClosed,
  ];
}

/** One-off conversion; prefer klineFormatter() when formatting many candles of one symbol. */
export function candleToWire(candle: Candle, format: KlineFormat, isClosed: boolean): KlineTuple {
  return klineFormatter(format)(candle, isClosed);
}
