// Candles from before a venue began (docs/replay.md "Candles"): a replay's venue builds its candles
// from its start on; the periods before it are history's, read on request from the data (a
// replay's CandleHistory: replay/pre-start-candles.ts). The klines service (kline-service.ts) asks
// it only when a read reaches past its own oldest candle, so a venue whose candles nobody reads
// before the start pays nothing.
//
// Invariants: history serves only candles of periods that end at or before `start`, and the part
// before `start` of the period containing it (`head`), which the venue's own candle of that period
// continues (joinCandles: one candle, nothing double or missing at the seam); nothing at or after
// `start` comes from history. Its candles are closed, never changed by what the venue does after.
import { nextOpenTime, type Interval } from '../../src-shared/intervals.ts';
import type { Candle, KlineTuple } from './candles.ts';
import { periodsBetween } from './candle-rings.ts';
import { KLINES_MAX_LIMIT, tooWide } from './kline-selection.ts';

export interface CandleHistory {
  /** ms: the venue's own candles begin here. */
  readonly start: number;
  /**
   * Up to `limit` of history's newest candles of (symbol, interval) opening before `before`,
   * ascending: the closed ones before the period containing `start`, then that period's part
   * before `start` when `before` is after its open (the venue has no candle there).
   */
  latest(symbol: string, interval: Interval, before: number, limit: number): Candle[];
  /** History's candles opening in [from, to], ascending (as latest; at most 1,500 periods, else 6000). */
  range(symbol: string, interval: Interval, from: number, to: number): Candle[];
  /** Open time of history's oldest candle of (symbol, interval); undefined when it has none. */
  oldestOpen(symbol: string, interval: Interval): number | undefined;
  /**
   * The venue's candle `c` as served: the venue's candle of the period containing `start` joined
   * to history's part before `start`; any other candle (history's own too) as it is.
   */
  join(symbol: string, c: Candle): Candle;
}

/** What a klines read served from the venue's own candles, for history to continue it. */
export interface VenueRead {
  symbol: string;
  interval: Interval;
  query: { limit?: number } | { startTime: number; endTime: number };
  /** Candles served (the current one included). */
  served: number;
  /** Open time of the venue's oldest candle of (symbol, interval), and of the newest served. */
  oldest: number | undefined;
  newest: number | undefined;
}

/**
 * The history candles a read adds after the venue's, in wire form, newest first: those older
 * than every venue candle, up to the limit left (a limit read), or those in the range (a range
 * read, whose whole span, history's and the venue's, is at most 1,500 periods: else 6000, as a
 * range read of the venue's candles alone). History's part of the period containing `now` is
 * served unclosed.
 */
export function olderCandles(
  history: CandleHistory,
  read: VenueRead,
  defaultLimit: number,
  format: (c: Candle, isClosed: boolean) => KlineTuple,
  now: number,
): KlineTuple[] {
  const { symbol, interval, query } = read;
  const before = read.oldest ?? Number.MAX_SAFE_INTEGER;
  let older: Candle[];
  if (!('startTime' in query)) {
    const need = (query.limit ?? defaultLimit) - read.served;
    older = need > 0 ? history.latest(symbol, interval, before, need) : [];
  } else if (query.startTime >= before) older = [];
  else {
    older = history.range(symbol, interval, query.startTime, Math.min(query.endTime, before - 1));
    const newest = read.newest ?? older[older.length - 1]?.openTime;
    if (
      older.length > 0 &&
      periodsBetween(interval, older[0].openTime, newest, KLINES_MAX_LIMIT + 1) >= KLINES_MAX_LIMIT
    )
      throw tooWide(interval);
  }
  const out: KlineTuple[] = [];
  for (let i = older.length - 1; i >= 0; i--) {
    const c = older[i];
    out.push(format(c, nextOpenTime(interval, c.openTime) <= now));
  }
  return out;
}
