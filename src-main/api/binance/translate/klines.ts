// Binance's candle selection over the venue's candles, pure given a reader: startTime (+ limit)
// counts forward from startTime, endTime alone counts back from it (the last `limit` candles up
// to it), neither is the latest `limit`; answered oldest first in Binance's column order.
//
// Any startTime / endTime from 0 to 2^53 - 1 is a time like another: candle times end where
// dates do (8.64e15 ms, intervals.ts), so a window starting after that has no candles ([]) and
// an endTime after it reads up to it; a window counted back from endTime stops at 0. The native read is only
// ever asked for a range inside [0, LAST_MS] of at most KLINES_MAX_LIMIT candle periods, so none of its
// refusals (which name its own parameters) can reach a Binance client.
//
// `limit` counts candles, not periods: where periods have no candle (a klines replay's outage
// hour, docs/replay.md) the read goes on past them, as Binance answers the first `limit` candles
// from startTime (the last `limit` up to endTime) whatever lies between, up to HOLE_WINDOWS
// further reads of KLINES_MAX_LIMIT periods each.
import { nextOpenTime, openTimeOf, previousOpenTime, type Interval } from '../../../../src-shared/intervals.ts';
import { KLINES_MAX_LIMIT, type KlineQuery } from '../../../market/kline-service.ts';
import { binanceKline } from './market.ts';

/** The last ms a candle time can name (the Date range, intervals.ts): no candle opens after it. */
const LAST_MS = 8_640_000_000_000_000;

/**
 * How many reads of KLINES_MAX_LIMIT periods a selection makes past periods without candles
 * before it answers what it has (bounds a request's cost: 75,000 periods, 52 days of 1m candles).
 */
const HOLE_WINDOWS = 50;

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
    /** Open time of the oldest candle there is: a startTime before it counts from it, an endTime alone counts back to it. */
    oldest?: number;
  },
): unknown[][] {
  const { interval, start, limit, oldest } = w;
  const end = w.end === undefined ? undefined : Math.min(w.end, LAST_MS);
  if (start === undefined && end === undefined) return [...read({ limit })].reverse().map(binanceKline);
  const newest = read({ limit: 1 })[0]?.[0];
  if (typeof newest !== 'number') return [];
  let rows: Array<readonly unknown[]> = [];
  if (start !== undefined) {
    if (start > LAST_MS) return [];
    // the first candle opening at or after startTime: an unaligned startTime falls inside a
    // candle that opened before it, which Binance does not answer (the native read would)
    const aligned = openTimeOf(interval, start);
    const first = aligned < start ? nextOpenTime(interval, aligned) : aligned;
    if (first > LAST_MS) return [];
    // before the oldest candle: the first `limit` from it, as Binance answers a startTime before
    // a pair's listing (a ccxt fetchOHLCV with an early `since` gets the first candles, not none)
    let lo = oldest !== undefined && oldest > first ? oldest : first;
    // no candle opens after the newest one (nor after endTime)
    const last = Math.min(end ?? LAST_MS, newest);
    // the first read spans `limit` periods (all it takes without a hole); each further one the most
    // the native read takes
    let span = limit;
    for (let reads = 0; lo <= last && rows.length < limit && reads <= HOLE_WINDOWS; reads++) {
      const hi = Math.min(last, step(interval, lo, span - 1, true));
      rows.push(...[...read({ startTime: lo, endTime: hi })].reverse());
      if (hi >= last) break;
      lo = nextOpenTime(interval, hi);
      span = KLINES_MAX_LIMIT;
    }
    rows = rows.slice(0, limit);
  } else if (end! >= newest) {
    // the last `limit` candles up to endTime, Binance's endTime alone: the latest when endTime is
    // at or after the newest candle (a future endTime too)
    rows = [...read({ limit })].reverse();
  } else {
    // counted back from endTime, `limit` candles across any periods without one; a window reaching
    // back before 1970 starts at 0 (a 1M endTime=now with limit 1500, a 1m endTime=60000)
    let hi = openTimeOf(interval, end!);
    let top = end!;
    let span = limit;
    const parts: Array<Array<readonly unknown[]>> = [];
    let got = 0;
    for (let reads = 0; got < limit && reads <= HOLE_WINDOWS; reads++) {
      const lo = step(interval, hi, span - 1, false);
      const part = [...read({ startTime: lo, endTime: top })].reverse();
      parts.unshift(part);
      got += part.length;
      if (lo === 0 || oldest === undefined || lo <= oldest) break;
      hi = previousOpenTime(interval, lo);
      top = hi;
      span = KLINES_MAX_LIMIT;
    }
    rows = parts.flat();
    rows = rows.slice(Math.max(0, rows.length - limit));
  }
  return rows.map(binanceKline);
}
