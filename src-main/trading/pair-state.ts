// One trading pair's live state: its book, the book's event sink, and the market prices the
// exchange margins and triggers against. Its own module so that market, WebSocket and price
// code can read pairs without importing the exchange.
//
// Invariants: only the exchange's commands change a PairState (prices through the 'prices'
// command, lastPriceTicks through trades); readers never write it. While `lastWatch` holds a
// position, every trade also widens [tradeLow, tradeHigh], which the last-price triggers are
// checked against after the command (tpsl.ts fireTradeTriggers) and then cleared. Prices are
// floats (display and risk thresholds); money derived from them is rounded to 1e-8 USDT where it
// is booked.
import { createBook, RecordingSink, type OrderBook } from '../engine/index.ts';
import type { DepthView, ReduceOnlyGuard } from '../engine/types.ts';
import { SymbolMath } from '../risk/money.ts';
import type { PositionState } from '../risk/position.ts';
import type { SymbolRow } from '../core/symbol.ts';

export interface PairState {
  row: SymbolRow;
  math: SymbolMath;
  book: OrderBook;
  sink: RecordingSink;
  bandRatio: number;
  markPrice: number;
  indexPrice: number;
  lastPriceTicks: number;
  /**
   * Positions on this pair that may have a take-profit or stop-loss on the last price armed (set
   * by setTpSl and the restore; a position closed or disarmed since leaves at the next check):
   * the only ones a trade is checked against. Empty: a trade notes nothing.
   */
  lastWatch: Set<PositionState>;
  /** Highest and lowest price (ticks) traded since the last-price triggers were last checked; 0: no trade. */
  tradeHigh: number;
  tradeLow: number;
  /**
   * Where the watched triggers lie as the last look at them found them: a trade at or above
   * `fireAtOrAbove` (the lowest long take-profit or short stop-loss) or at or below `fireAtOrBelow`
   * (the highest long stop-loss or short take-profit) may fire one; a range between them is not
   * looked at. setTpSl and the restore open them (0 and MAX_SAFE_INTEGER) until the next look.
   */
  fireAtOrAbove: number;
  fireAtOrBelow: number;
  /**
   * Conditional orders waiting on this pair (trading/conditional.ts), and those of them that watch
   * the last price: while that is 0 a trade notes nothing for them.
   */
  conditionals: number;
  lastConditionals: number;
  fundingRate: number;
  nextFundingTime: number;
  /** Market time of the last mark/index update, ms (0 before the first). */
  priceTime: number;
  /**
   * Market time, ms, of the book's last change (0: none known), and the book's update id then
   * (stampBookTime, when a drain ends): a book whose id moved past it changed unstamped (bookTimeOf).
   */
  bookTime: number;
  bookTimeId: number;
  /** The row's min and max quantity in lots (parsed once: house orders check them per order). */
  minLots: number;
  maxLots: number;
  /**
   * The row's min notional as price ticks x lots (parsed once): an order whose ticks x lots is
   * below it is below the min notional, a check of two numbers (bot orders check it per order).
   */
  minNotionalTickLots: number;
}

/** The book as readers see it: its update id and depth snapshots, nothing that changes it. */
interface BookView {
  /** Update id after the last level change. */
  readonly updateId: number;
  /** The best `n` levels a side (all by default), optionally grouped by `stepTicks`. */
  depth(n?: number, stepTicks?: number): DepthView;
}

/** A pair as the transport and the market readers see it: its prices and a read-only book. */
export type PairView = Readonly<
  Omit<
    PairState,
    | 'book'
    | 'sink'
    | 'lastWatch'
    | 'tradeHigh'
    | 'tradeLow'
    | 'fireAtOrAbove'
    | 'fireAtOrBelow'
    | 'conditionals'
    | 'lastConditionals'
  >
> & {
  readonly book: BookView;
};

export type { Level } from '../engine/types.ts';

/** The pair's price band (market price protection), as a ratio. */
export function bandRatioOf(row: SymbolRow): number {
  return Number(row.marketPriceProtectRatio);
}

/** A pair's state; `guard` caps its book's resting reduce-only orders while they are matched (none by default). */
export function createPairState(row: SymbolRow, guard?: ReduceOnlyGuard): PairState {
  const math = new SymbolMath(row);
  const sink = new RecordingSink();
  const bandRatio = bandRatioOf(row);
  const bandPpm = Math.round(bandRatio * 1_000_000);
  const book = createBook({ symbol: row.symbol, bandPpm, ...(guard ? { reduceOnlyGuard: guard } : {}) }, sink);
  const initial = Number(row.initialPrice);
  return {
    row,
    math,
    book,
    sink,
    bandRatio,
    markPrice: initial,
    indexPrice: initial,
    lastPriceTicks: math.ticksRound(initial),
    lastWatch: new Set(),
    tradeHigh: 0,
    tradeLow: 0,
    fireAtOrAbove: 0,
    fireAtOrBelow: Number.MAX_SAFE_INTEGER,
    conditionals: 0,
    lastConditionals: 0,
    fundingRate: 0.0001,
    nextFundingTime: 0,
    priceTime: 0,
    bookTime: 0,
    bookTimeId: 0,
    minLots: math.qty.mustToUnits(row.minQty),
    maxLots: math.qty.mustToUnits(row.maxQty),
    minNotionalTickLots: math.tickLotsAtLeast(BigInt(Math.round(Number(row.minNotional) * 1e8))),
  };
}

/** Stamps `time` on the pair's book when it changed since its last stamp (one comparison when not). */
export function stampBookTime(pair: PairState, time: number): void {
  const id = pair.book.updateId;
  if (id === pair.bookTimeId) return;
  pair.bookTimeId = id;
  pair.bookTime = time;
}

/**
 * The market time of the book's last change (Binance's depth `T`, bookTicker `time`): `now` when
 * none is known (a change not stamped yet).
 */
export function bookTimeOf(pair: PairView, now: number): number {
  return pair.bookTime !== 0 && pair.bookTimeId === pair.book.updateId ? pair.bookTime : now;
}
