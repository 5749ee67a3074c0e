// What the kline service takes back from the store when it first meets a symbol: the current
// candle of every interval, so a restart continues them (a symbol with nothing stored opens them
// at its latest price, when it has one).
import { INTERVALS, openTimeOf } from '../../src-shared/intervals.ts';
import type { Candle } from './candles.ts';
import type { CandleStore } from './ports.ts';

/**
 * A symbol's current candles as the store last saw them (one per interval that has any), and the
 * latest open time among them (-Infinity when none). An interval with nothing stored opens at
 * `now` (or the latest open time, if later) at the latest price with no trades: the stored
 * candles' close (1s after the history build, which skips it), or, with nothing stored at all (a
 * `--no-sim` venue's pair before its first trade), `priceTicks`, the pair's price (none: no
 * candles). Every interval has its current candle from the start, not only from the pair's next
 * trade.
 */
export function currentCandles(
  repo: CandleStore,
  symbol: string,
  now: number,
  priceTicks?: number,
): { candles: Candle[]; lastTime: number } {
  const candles: Candle[] = [];
  let lastTime = Number.NEGATIVE_INFINITY;
  for (const interval of INTERVALS) {
    const c = repo.newest(symbol, interval);
    if (c) {
      candles.push(c);
      if (c.openTime > lastTime) lastTime = c.openTime;
    }
  }
  // the finest interval's close: the last trade's price
  const price = candles.length > 0 ? candles[0].close : priceTicks;
  if (price !== undefined && price > 0 && candles.length < INTERVALS.length) {
    const have = new Set(candles.map((c) => c.interval));
    const at = Math.max(lastTime, now);
    for (const interval of INTERVALS) {
      if (have.has(interval)) continue;
      const openTime = openTimeOf(interval, at);
      candles.push({
        interval,
        openTime,
        open: price,
        high: price,
        low: price,
        close: price,
        volume: 0,
        quoteVolume: 0n,
        trades: 0,
        takerBuyVolume: 0,
        takerBuyQuoteVolume: 0n,
      });
      if (openTime > lastTime) lastTime = openTime;
    }
  }
  return { candles, lastTime };
}

/**
 * The market time a restarted venue's clock must not start before: the end of the newest stored
 * 1s candle of any pair (-Infinity when none). Closed candles are written at every advance and the
 * market time only at the market checkpoint, so after a kill -9 the candles can reach past the
 * stored market time; a clock started there would stamp new trades into seconds that already
 * hold the old run's last trades.
 */
export function storedCandlesEnd(repo: CandleStore, symbols: Iterable<string>): number {
  let end = Number.NEGATIVE_INFINITY;
  for (const symbol of symbols) {
    const c = repo.newest(symbol, '1s');
    if (c !== undefined && c.openTime + 1000 > end) end = c.openTime + 1000;
  }
  return end;
}

/**
 * A pair's last traded price when a venue starts, in ticks: its newest stored trade's (the tape),
 * unless the 1s candles reach that trade's second or later: then the newest 1s candle's close,
 * which carries the last trade's price through seconds without one. After a kill -9 the tape can
 * lack the last second's trades while the candles (written every advance) hold them, and the
 * candles hold every trade the tape does (candle-repair.ts foldTapeTrades). Undefined with neither.
 */
export function lastTradedPrice(
  repo: CandleStore,
  symbol: string,
  newestTrade: { time: number; priceTicks: number } | undefined,
): number | undefined {
  const c = repo.newest(symbol, '1s');
  if (c === undefined) return newestTrade?.priceTicks;
  if (newestTrade === undefined || c.openTime >= openTimeOf('1s', newestTrade.time)) return c.close;
  return newestTrade.priceTicks;
}
