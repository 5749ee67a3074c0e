// One trading pair's live state: its book, the book's event sink, and the market prices the
// exchange margins and triggers against. Its own module so that market, WebSocket and price
// code can read pairs without importing the exchange.
//
// Invariants: only the exchange's commands change a PairState (prices through the 'prices'
// command, lastPriceTicks through trades); readers never write it. Prices are floats (display
// and risk thresholds); money derived from them is rounded to 1e-8 USDT where it is booked.
import { createBook, RecordingSink, type OrderBook } from '../engine/index.ts';
import type { DepthView, ReduceOnlyGuard } from '../engine/types.ts';
import { SymbolMath } from '../risk/money.ts';
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
  fundingRate: number;
  nextFundingTime: number;
  /** Market time of the last mark/index update, ms (0 before the first). */
  priceTime: number;
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
export type PairView = Readonly<Omit<PairState, 'book' | 'sink'>> & { readonly book: BookView };

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
    fundingRate: 0.0001,
    nextFundingTime: 0,
    priceTime: 0,
    minLots: math.qty.mustToUnits(row.minQty),
    maxLots: math.qty.mustToUnits(row.maxQty),
    minNotionalTickLots: math.tickLotsAtLeast(BigInt(Math.round(Number(row.minNotional) * 1e8))),
  };
}
