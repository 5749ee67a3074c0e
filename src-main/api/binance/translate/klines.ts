// Binance's candle selection over the venue's candles, pure given a reader: startTime (+ limit)
// counts forward from startTime, endTime alone counts back from it (the last `limit` candles up
// to it), neither is the latest `limit`; answered oldest first in Binance's column order.
//
// Any startTime / endTime from 0 to 2^53 - 1 is a time like another: candle times end where
// dates do (8.64e15 ms, intervals.ts), so a window starting after that has no candles ([]) and
// an endTime after it reads up to it; a window counted back from endTime stops at 0. The native read is only
// ever asked for a range inside [0, LAST_MS] of at most `limit` candle periods, so none of its
// refusals (which name its own parameters) can reach a Binance client.
import { nextOpenTime, openTimeOf, previousOpenTime, type Interval } from '../../../../src-shared/intervals.ts';
import type { KlineQuery } from '../../../market/kline-service.ts';
import { binanceKline } from './market.ts';

/** The last ms a candle time can name (the Date range, intervals.ts): no candle opens after it. */
const LAST_MS = 8_640_000_000_000_000;

/** Reads native candle tuples, newest first. */
type Reader = (query: KlineQuery) => ReadonlyArray<readonly unknown[]>;

/**
 * `n` periods of `interval` after (or before) aligned open time `t` (1M has no fixed length),
 * stopping at LAST_MS going forward and at 0 going back.
 */
function step(interval: Interval, t: number, n: number, forward: boolean): number {
  for (let i = 0; i < n; i++) {
    t = forward ? nextOpenTime(interval, t) : previousOpenTime(interval, t);
    if (t > LAST_MS) return LAST_MS;
    if (t < 0) return 0;
  }
  return Math.max(0, t);
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
  const { interval, start, limit, oldest } = w;
  const end = w.end === undefined ? undefined : Math.min(w.end, LAST_MS);
  let rows: Array<readonly unknown[]>;
  if (start === undefined && end === undefined) rows = [...read({ limit })].reverse();
  else if (start !== undefined) {
    if (start > LAST_MS) return [];
    // the first candle opening at or after startTime: an unaligned startTime falls inside a
    // candle that opened before it, which Binance does not answer (the native read would)
    const aligned = openTimeOf(interval, start);
    const first = aligned < start ? nextOpenTime(interval, aligned) : aligned;
    if (first > LAST_MS) return [];
    // before the oldest candle: the first `limit` from it, as Binance answers a startTime before
    // a pair's listing (a ccxt fetchOHLCV with an early `since` gets the first candles, not none)
    const from = oldest !== undefined && oldest > first ? oldest : first;
    const lastOpen = step(interval, from, limit - 1, true);
    const to = Math.min(end ?? LAST_MS, lastOpen + 1, LAST_MS);
    rows = to < from ? [] : [...read({ startTime: from, endTime: to })].reverse().slice(0, limit);
  } else {
    // the last `limit` candles up to endTime, Binance's endTime alone: the latest when endTime is
    // at or after the newest candle (a future endTime too); a window reaching back before 1970
    // starts at 0 (a 1M endTime=now with limit 1500, a 1m endTime=60000)
    const newest = read({ limit: 1 })[0]?.[0];
    if (typeof newest === 'number' && end! >= newest) rows = [...read({ limit })].reverse();
    else {
      const hi = openTimeOf(interval, end!);
      rows = [...read({ startTime: step(interval, hi, limit - 1, false), endTime: end! })].reverse();
      rows = rows.slice(Math.max(0, rows.length - limit));
    }
  }
  return rows.map(binanceKline);
}
