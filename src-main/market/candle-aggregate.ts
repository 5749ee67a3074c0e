// Coarse candles from runs of finer ones (historical replay of imported fine candles, DESIGN 9).
//
// Invariants: a coarse candle is the exact aggregate of the fine candles inside it: open of the
// first fine candle that traded, close of the last that traded, high max and low min over those,
// volume, quote volume, trades and taker-buy sums over all. Zero-trade fine candles add nothing:
// their price is a carried close, never a trade (the rule that keeps a coarse open equal to its
// first trade). A run of zero-trade fine candles gives a zero-trade coarse candle carrying their
// close. Missing fine candles (exchange outages) are simply absent from the sums, which is what
// Binance's own coarse bars do; findGaps() reports them.
// Limits: fine candles must lie wholly inside the coarse one, ascending and non-overlapping;
// summed volumes must stay safe integers. Violations throw RangeError.

import { closeTimeOf, nextOpenTime, openTimeOf } from '../../src-shared/intervals.ts';
import type { Interval } from '../../src-shared/intervals.ts';
import type { Candle } from './candles.ts';

/**
 * Aggregates fine[from .. to-1] (at least one candle) into the `interval` candle containing the
 * first of them.
 */
export function aggregateCandles(interval: Interval, fine: readonly Candle[], from = 0, to = fine.length): Candle {
  if (!(from >= 0 && to <= fine.length && from < to))
    throw new RangeError('aggregateCandles needs at least one fine candle');
  const openTime = openTimeOf(interval, fine[from].openTime);
  const next = nextOpenTime(interval, openTime);
  let prevEnd = openTime - 1;
  let traded: Candle | undefined;
  let open = 0;
  let high = 0;
  let low = 0;
  let close = 0;
  let volume = 0;
  let quoteVolume = 0n;
  let trades = 0;
  let takerBuyVolume = 0;
  let takerBuyQuoteVolume = 0n;
  for (let i = from; i < to; i++) {
    const c = fine[i];
    const end = closeTimeOf(c.interval, c.openTime);
    if (c.openTime <= prevEnd || end >= next) {
      throw new RangeError(
        `${c.interval} candle at ${c.openTime} is out of order or not inside the ${interval} candle at ${openTime}`,
      );
    }
    prevEnd = end;
    if (c.trades === 0) continue;
    if (traded === undefined) {
      open = c.open;
      high = c.high;
      low = c.low;
    } else {
      if (c.high > high) high = c.high;
      if (c.low < low) low = c.low;
    }
    traded = c;
    close = c.close;
    volume += c.volume;
    quoteVolume += c.quoteVolume;
    trades += c.trades;
    takerBuyVolume += c.takerBuyVolume;
    takerBuyQuoteVolume += c.takerBuyQuoteVolume;
  }
  if (traded === undefined) {
    const carried = fine[to - 1].close;
    open = high = low = close = carried;
  }
  if (!Number.isSafeInteger(volume) || !Number.isSafeInteger(takerBuyVolume)) {
    throw new RangeError(`volume of the ${interval} candle at ${openTime} exceeds 2^53 lots`);
  }
  return {
    interval,
    openTime,
    open,
    high,
    low,
    close,
    volume,
    quoteVolume,
    trades,
    takerBuyVolume,
    takerBuyQuoteVolume,
  };
}

/**
 * Aggregates an ascending run of fine candles into the ascending `interval` candles they fall in,
 * one per coarse period that holds at least one fine candle (a period with none yields nothing:
 * there is no price to carry that the caller could not supply better).
 */
export function aggregateRun(interval: Interval, fine: readonly Candle[]): Candle[] {
  const out: Candle[] = [];
  let start = 0;
  while (start < fine.length) {
    const next = nextOpenTime(interval, fine[start].openTime);
    let end = start + 1;
    while (end < fine.length && fine[end].openTime < next) end++;
    out.push(aggregateCandles(interval, fine, start, end));
    start = end;
  }
  return out;
}

/**
 * Open times missing between consecutive candles of one interval, ascending (an outage in
 * imported data). Throws if the candles are not ascending, aligned and of one interval.
 */
export function findGaps(candles: readonly Candle[]): number[] {
  const gaps: number[] = [];
  for (let i = 0; i < candles.length; i++) {
    const c = candles[i];
    if (openTimeOf(c.interval, c.openTime) !== c.openTime)
      throw new RangeError(`${c.interval} candle at ${c.openTime} is not aligned`);
    if (i === 0) continue;
    const prev = candles[i - 1];
    if (c.interval !== prev.interval) throw new RangeError('findGaps needs candles of one interval');
    if (c.openTime <= prev.openTime) throw new RangeError(`candles out of order at ${c.openTime}`);
    for (let t = nextOpenTime(c.interval, prev.openTime); t < c.openTime; t = nextOpenTime(c.interval, t)) gaps.push(t);
  }
  return gaps;
}

/**
 * One candle of `later`'s interval and open time from two consecutive parts of its period: `earlier`
 * (the part before some time, history's before a replay's start) and `later` (the rest), by the
 * rule above: open of the first part that traded, close of the last, high, low and sums over the
 * parts that traded. A part without a trade adds nothing (`later`'s carried price is not a trade);
 * neither traded: `later` as it is. `later`'s recorded close time, if any, is kept.
 */
export function joinCandles(earlier: Candle, later: Candle): Candle {
  if (earlier.trades === 0) return later;
  if (later.trades === 0) return { ...earlier, interval: later.interval, openTime: later.openTime };
  return {
    ...later,
    open: earlier.open,
    high: Math.max(earlier.high, later.high),
    low: Math.min(earlier.low, later.low),
    volume: earlier.volume + later.volume,
    quoteVolume: earlier.quoteVolume + later.quoteVolume,
    trades: earlier.trades + later.trades,
    takerBuyVolume: earlier.takerBuyVolume + later.takerBuyVolume,
    takerBuyQuoteVolume: earlier.takerBuyQuoteVolume + later.takerBuyQuoteVolume,
  };
}
