// Binance's candle selection over the venue's candles, pure given a reader: startTime (+ limit)
// counts forward from startTime, endTime alone counts back from it, neither is the latest
// `limit`; answered oldest first in Binance's column order.
import { nextOpenTime, openTimeOf, previousOpenTime, type Interval } from '../../../../src-shared/intervals.ts';
import type { KlineQuery } from '../../../market/kline-service.ts';
import { binanceKline } from './market.ts';

/** Reads native candle tuples, newest first. */
type Reader = (query: KlineQuery) => ReadonlyArray<readonly unknown[]>;

/** `n` periods of `interval` after (or before) aligned open time `t` (1M has no fixed length). */
function step(interval: Interval, t: number, n: number, forward: boolean): number {
  for (let i = 0; i < n; i++) t = forward ? nextOpenTime(interval, t) : previousOpenTime(interval, t);
  return t;
}

export function selectKlines(
  read: Reader,
  w: {
    interval: Interval;
    start: number | undefined;
    end: number | undefined;
    limit: number;
    /** Open time of the oldest candle there is: a startTime before it counts from it. */
    oldest?: number;
  },
): unknown[][] {
  const { interval, start, end, limit, oldest } = w;
  let rows: Array<readonly unknown[]>;
  if (start === undefined && end === undefined) rows = [...read({ limit })].reverse();
  else if (start !== undefined) {
    // the first candle opening at or after startTime: an unaligned startTime falls inside a
    // candle that opened before it, which Binance does not answer (the native read would)
    const aligned = openTimeOf(interval, start);
    const first = aligned < start ? nextOpenTime(interval, aligned) : aligned;
    // before the oldest candle: the first `limit` from it, as Binance answers a startTime before
    // a pair's listing (a ccxt fetchOHLCV with an early `since` gets the first candles, not none)
    const from = oldest !== undefined && oldest > first ? oldest : first;
    const lastOpen = step(interval, from, limit - 1, true);
    const to = end === undefined ? lastOpen + 1 : Math.min(end, lastOpen + 1);
    rows = to < from ? [] : [...read({ startTime: from, endTime: to })].reverse().slice(0, limit);
  } else {
    const hi = openTimeOf(interval, end!);
    rows = [...read({ startTime: step(interval, hi, limit - 1, false), endTime: end! })].reverse();
    rows = rows.slice(Math.max(0, rows.length - limit));
  }
  return rows.map(binanceKline);
}
