// What the market services need from storage (DESIGN 2: services own their ports; store/
// implements them in SQLite, store/memory-candle-store.ts in memory for unit tests and for
// sources that keep nothing). Types only: nothing here runs.
import type { Interval } from '../../src-shared/intervals.ts';
import type { Candle } from '../core/candle.ts';
import type { NewSymbol, SymbolRow } from '../core/symbol.ts';
import type { PositionCounts } from '../trading/views.ts';

/**
 * Candles keyed by (symbol, interval, open time): a write is an upsert, reads are ascending and
 * bounded by open time (the store never knows which candle is the current one).
 */
/** The candles of (symbol, interval) opening before `beforeOpen`: a retention cut. */
export interface CandleCut {
  symbol: string;
  interval: Interval;
  beforeOpen: number;
}

export interface CandleStore {
  /** Upserts candles[0 .. n-1] (symbols[i] is the symbol of candles[i]) as one unit. */
  writeMany(symbols: readonly string[], candles: readonly Candle[], n?: number): void;
  /**
   * writeMany, unless the storage is locked by another writer right now (another connection to
   * the database file): then false, having written nothing, without waiting for it.
   */
  tryWriteMany(symbols: readonly string[], candles: readonly Candle[], n?: number): boolean;
  /** The newest stored candle of (symbol, interval), closed or not. */
  newest(symbol: string, interval: Interval): Candle | undefined;
  /** Up to `limit` newest candles with open time below `beforeOpen`, ascending. */
  latest(symbol: string, interval: Interval, beforeOpen: number, limit: number): Candle[];
  /** Candles with fromOpen <= open time <= toOpen, ascending. */
  range(symbol: string, interval: Interval, fromOpen: number, toOpen: number): Candle[];
  /** Open time of the oldest stored candle, or undefined. */
  oldestOpen(symbol: string, interval: Interval): number | undefined;
  count(symbol: string, interval: Interval): number;
  /**
   * Deletes, as one unit, the candles of each cut's (symbol, interval) opening before its
   * `beforeOpen`, unless another connection holds the storage's write lock right now: then false,
   * having deleted nothing, without waiting for it (the klines service tries again later).
   */
  tryPrune(cuts: readonly CandleCut[]): boolean;
  /**
   * True while another caller's unit of work is open on the same storage (the exchange's turn):
   * a candle write now would share its fate, a rollback taking market data along, so the
   * klines service writes later.
   */
  readonly inUnit: boolean;
  /** Makes every write so far durable now (the history build runs past any end of turn). */
  commitNow(): void;
  /** The pairs whose simulated history was built to its end (markHistoryBuilt). */
  historyBuilt(): Set<string>;
  /** Records pairs' histories as built, in the unit of the writes before the next commit. */
  markHistoryBuilt(built: readonly BuiltHistory[]): void;
  /** Deletes every candle of `symbol` (a history build cut short); returns how many. */
  deleteSymbol(symbol: string): number;
}

/**
 * A pair whose simulated history is complete with the candles written so far, and where it ends;
 * `funding`: the history's 8 h settlements (rate and mark), stored as the live settlement stores
 * them (the funding_rates rows) in the same commit.
 */
export interface BuiltHistory {
  symbol: string;
  end: number;
  funding?: readonly HistoryFunding[];
}

/** One settlement of a simulated history: a funding_rates row (no payments: no account existed). */
export interface HistoryFunding {
  time: number;
  rate: number;
  mark: number;
}

/**
 * Where a long run of candle upserts goes (the simulated history of a new venue, about 870,000
 * candles): write() may return before its candles are stored; finish() returns once every one
 * written is committed, or throws the first failure (write() may throw it earlier). After a
 * failure nothing more is written; close() ends the sink without waiting (after a failure of its
 * caller). Candles of one call are upserted in order, calls in the order they were made; `built`
 * (CandleStore.markHistoryBuilt) is stored in the same transaction as the call's candles.
 */
export interface BulkCandleSink {
  write(symbols: readonly string[], candles: readonly Candle[], n: number, built?: readonly BuiltHistory[]): void;
  finish(): void;
  close(): void;
}

/**
 * One stored mark / index / premium candle (market/price-klines.ts): open, high, low, close of
 * each series in `v` (mark 0-3, index 4-7, premium 8-11) and the price updates it counted.
 */
export interface PriceCandleRow {
  symbol: string;
  interval: Interval;
  openTime: number;
  count: number;
  v: ArrayLike<number>;
}

/** Storage of the price candles: upserts by (symbol, interval, open time), bounded by pruning. */
export interface PriceCandleStore {
  /** Every stored candle, ascending by open time within each (symbol, interval). */
  loadAll(): PriceCandleRow[];
  /**
   * Upserts the rows as one unit; false, having written nothing and without waiting, while
   * another connection holds the database's write lock (the caller keeps them for its next flush).
   */
  saveMany(rows: readonly PriceCandleRow[]): boolean;
  /** Deletes the candles of (symbol, interval) opening before `beforeOpen`. */
  prune(symbol: string, interval: Interval, beforeOpen: number): void;
  /** True while another caller's unit is open on the same storage (a write now would share its fate). */
  readonly inUnit: boolean;
}

/**
 * Who held a pair's positions at a sample and the taker volume since the previous sample (Binance's
 * long/short and taker statistics; market/open-interest-history.ts).
 */
export interface FuturesStats extends PositionCounts {
  /** Lots the takers bought / sold on the pair's tape since the previous sample, up to this one's boundary. */
  takerBuyLots: number;
  takerSellLots: number;
}

/** One sample of a pair's futures statistics (market/open-interest-history.ts). */
export interface OpenInterestSample {
  symbol: string;
  /** The 5-minute boundary it stands for, ms (market time). */
  time: number;
  lots: number;
  /** lots at the mark of the sample, USDT. */
  value: number;
  /** null for a sample stored before these statistics were (migration 14). */
  stats: FuturesStats | null;
}

/** A pair's taker volume not yet in a sample (kept across a restart). */
export interface OpenTakerVolume {
  symbol: string;
  /** Lots of the 5-minute windows already ended. */
  buyLots: number;
  sellLots: number;
  /** The end of the newest trade's window (null: none), and the lots of that window. */
  windowEnd: number | null;
  windowBuyLots: number;
  windowSellLots: number;
}

/** Storage of the futures-statistics samples. */
export interface OpenInterestStore {
  /**
   * Upserts the rows and the pairs' open taker volumes as one unit; false as
   * PriceCandleStore.saveMany (written nothing, not waited).
   */
  saveMany(rows: readonly OpenInterestSample[], open?: readonly OpenTakerVolume[]): boolean;
  /** The newest sample's time of a pair, or undefined. */
  newestTime(symbol: string): number | undefined;
  /** Samples of a pair with from <= time <= to whose time is a multiple of `step`: the first `limit` ('asc') or the newest (`desc`), ascending. */
  range(
    symbol: string,
    q: { from: number; to: number; step: number; limit: number; order: 'asc' | 'desc' },
  ): OpenInterestSample[];
  /** Taker lots bought and sold in the stored samples of a pair with after < time <= upTo. */
  takerSum(symbol: string, after: number, upTo: number): { buyLots: number; sellLots: number };
  /** Every pair's open taker volume as last saved. */
  openTaker(): OpenTakerVolume[];
  /** Deletes every pair's samples before `before`. */
  prune(before: number): void;
  readonly inUnit: boolean;
}

/** One kept trade of the public tape, in the ring slot it is kept in (market/recent-trades.ts). */
export interface TapeRow {
  symbol: string;
  slot: number;
  tradeId: number;
  priceTicks: number;
  qtyLots: number;
  takerSide: number;
  time: number;
}

/** Storage of the public tape: each pair's ring of last trades, upserted by (symbol, slot). */
export interface TapeStore {
  /** Every stored trade, ascending by trade id. */
  loadAll(): TapeRow[];
  /**
   * Upserts the rows as one unit; false as PriceCandleStore.saveMany (written nothing, not
   * waited), unless `wait` (a clean stop): then it waits for the lock as a command does.
   */
  saveMany(rows: readonly TapeRow[], wait?: boolean): boolean;
  readonly inUnit: boolean;
}

/** The pair catalogue, read side: what the klines service formats and skips (status 3) by. */
export interface SymbolCatalogue {
  all(): readonly SymbolRow[];
  get(symbol: string): SymbolRow | undefined;
}

/** The pair catalogue, write side of the seeding (market/seed-catalogue.ts). */
export interface CatalogueStore {
  /** Adds the rows whose symbol is not stored yet; returns how many were added. */
  insertMissing(rows: readonly NewSymbol[], now: number): number;
}
