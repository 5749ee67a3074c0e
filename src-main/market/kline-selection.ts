// What a klines read returns, before it is written out: its closed candles from a ring (indices
// [from, to)) or from the store (rows), and the current candle; the selection of a time-range
// read; and those closed candles as response bytes, newest first. A ring keeps the bytes of its
// recent reads until its next close.
import { ApiError, Errors } from '../../src-shared/errors.ts';
import { nextOpenTime, openTimeOf, type Interval } from '../../src-shared/intervals.ts';
import type { Candle } from './candles.ts';
import { periodsBetween, type Ring, type SymbolCandles } from './candle-rings.ts';
import type { CandleStore } from './ports.ts';

export const KLINES_MAX_LIMIT = 1500;

/**
 * Every candle opening in [startTime, endTime], ms, both included (as Binance selects): a
 * candle is in one window only when windows do not share a millisecond ([a, b], [b + 1, c]).
 */
export interface KlineRange {
  startTime: number;
  endTime: number;
}

/** Where a read's closed candles come from: ring indices [from, to) or rows from SQLite. */
export interface Selection {
  st: SymbolCandles;
  ring: Ring;
  current: Candle | undefined;
  from: number;
  to: number;
  rows: Candle[] | null;
}

/** JSON of a selection's closed candles, newest first, comma-separated, no brackets. */
export function closedBytes(sel: Selection): Buffer {
  const { st, ring, rows } = sel;
  if (rows) {
    let s = '';
    for (let i = rows.length - 1; i >= 0; i--)
      s += (i === rows.length - 1 ? '' : ',') + JSON.stringify(st.format(rows[i], true));
    return Buffer.from(s);
  }
  const key = sel.from * (ring.cap + 1) + sel.to;
  const hit = ring.bytes.get(key);
  if (hit) return hit;
  const { candles, json } = ring;
  let s = '';
  for (let i = sel.to - 1; i >= sel.from; i--) {
    const k = ring.slot(i);
    let j = json[k];
    if (j === undefined) j = json[k] = JSON.stringify(st.format(candles[k], true));
    s += i === sel.to - 1 ? j : ',' + j;
  }
  const bytes = Buffer.from(s);
  if (ring.bytes.size >= 4) ring.bytes.clear();
  ring.bytes.set(key, bytes);
  return bytes;
}

/**
 * A time-range read: at most 1,500 candle periods between the oldest and the newest candle that
 * exist inside the range (a wider range is refused, 6000, never truncated). `oldest`: the open
 * time of the pair's oldest candle of the interval (stored or current).
 */
export function selectRange(
  read: { st: SymbolCandles; ring: Ring; interval: Interval; current: Candle | undefined },
  range: KlineRange,
  oldest: () => number | undefined,
  repo: Pick<CandleStore, 'range'>,
): Selection {
  const { st, ring, interval, current } = read;
  const { startTime, endTime } = range;
  const none: Selection = { st, ring, current: undefined, from: 0, to: 0, rows: null };
  if (!Number.isSafeInteger(startTime) || !Number.isSafeInteger(endTime) || startTime < 0 || endTime < 0) {
    throw new ApiError(Errors.KLINES_INVALID_PARAMETER, 'start_time and end_time must be non-negative integers (ms)');
  }
  if (startTime > endTime) throw new ApiError(Errors.KLINES_INVALID_PARAMETER, 'start_time must not be after end_time');
  let lo: number;
  let hi: number;
  try {
    // the first candle opening at or after startTime (one that opened before it is the window
    // before's), the last opening at or before endTime
    lo = openTimeOf(interval, startTime);
    if (lo < startTime) lo = nextOpenTime(interval, lo);
    hi = openTimeOf(interval, endTime);
  } catch {
    throw new ApiError(Errors.KLINES_INVALID_PARAMETER, 'start_time or end_time is out of range');
  }
  const first = oldest(); // only the span holding candles counts
  const newest = current ? current.openTime : ring.size > 0 ? ring.at(ring.size - 1).openTime : undefined;
  if (first === undefined || newest === undefined) return none;
  const effLo = Math.max(lo, openTimeOf(interval, first));
  const effHi = Math.min(hi, newest);
  if (effLo > effHi) return none;
  const periods = periodsBetween(interval, effLo, effHi, KLINES_MAX_LIMIT + 1) + 1;
  if (periods > KLINES_MAX_LIMIT) {
    throw tooWide(interval);
  }
  const cur = current && current.openTime <= effHi ? current : undefined;
  const closedHi = current ? Math.min(effHi, current.openTime - 1) : effHi;
  if (ring.complete || (ring.size > 0 && ring.at(0).openTime <= effLo)) {
    return { st, ring, current: cur, from: ring.lowerBound(effLo), to: ring.lowerBound(closedHi + 1), rows: null };
  }
  return { st, ring, current: cur, from: 0, to: 0, rows: repo.range(st.symbol, interval, effLo, closedHi) };
}

/** 6000: a range read over more than 1,500 periods of the interval. */
export function tooWide(interval: Interval): ApiError {
  return new ApiError(
    Errors.KLINES_INVALID_PARAMETER,
    `The range spans more than ${KLINES_MAX_LIMIT} ${interval} candles; narrow start_time/end_time or use limit`,
  );
}
