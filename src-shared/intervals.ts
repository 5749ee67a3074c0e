// Kline intervals of the API (spec: Candlestick) and their UTC alignment (DESIGN section 4).
//
// Invariants, for every interval i and every valid timestamp t:
//   openTimeOf(i, t) <= t < nextOpenTime(i, t), and openTimeOf is idempotent;
//   closeTimeOf(i, open) = nextOpenTime(i, open) - 1.
// Fixed intervals (1s .. 3d) are multiples of their length counted from the Unix epoch; 3d too,
// as Binance aligns it. 1w opens Monday 00:00 UTC. 1M opens on the first day of the calendar
// month, 00:00 UTC (proleptic Gregorian calendar, leap years included).
// Limits: timestamps are integer ms within the Date range (|t| <= 8.64e15); anything else throws
// RangeError. Pure arithmetic, no Date objects and no allocation, so it is cheap on the candle
// roll-over path and runs unchanged in Node and the browser.

export const INTERVALS = [
  '1s',
  '1m',
  '3m',
  '5m',
  '15m',
  '30m',
  '1h',
  '2h',
  '4h',
  '6h',
  '8h',
  '12h',
  '1d',
  '3d',
  '1w',
  '1M',
] as const;

export type Interval = (typeof INTERVALS)[number];

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
// 1970-01-01 was a Thursday; the first Monday 00:00 UTC after the epoch is 4 days later.
const WEEK_OFFSET = 4 * DAY;
const MAX_TS = 8.64e15;

/**
 * Nominal length of each interval in ms. Exact for everything but `1M`, whose nominal length is
 * 30 days (use it for sizing and limits only; real months are computed from the calendar).
 */
export const INTERVAL_MS: Readonly<Record<Interval, number>> = {
  '1s': SECOND,
  '1m': MINUTE,
  '3m': 3 * MINUTE,
  '5m': 5 * MINUTE,
  '15m': 15 * MINUTE,
  '30m': 30 * MINUTE,
  '1h': HOUR,
  '2h': 2 * HOUR,
  '4h': 4 * HOUR,
  '6h': 6 * HOUR,
  '8h': 8 * HOUR,
  '12h': 12 * HOUR,
  '1d': DAY,
  '3d': 3 * DAY,
  '1w': WEEK,
  '1M': 30 * DAY,
};

const INTERVAL_SET: ReadonlySet<string> = new Set(INTERVALS);

export function isInterval(s: unknown): s is Interval {
  return typeof s === 'string' && INTERVAL_SET.has(s);
}

function checkTs(ts: number): void {
  if (!Number.isInteger(ts) || ts > MAX_TS || ts < -MAX_TS) {
    throw new RangeError(`timestamp out of range: ${ts}`);
  }
}

function checkInterval(interval: string): void {
  if (!INTERVAL_SET.has(interval)) throw new RangeError(`unknown interval: ${interval}`);
}

// Howard Hinnant's civil-calendar algorithms (days since the epoch <-> year/month), exact for
// negative days too. `month` is 1..12.
function daysFromCivil(year: number, month: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5); // day 1 of the month
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Open time of the calendar month containing ts, shifted by `monthsAhead` months. */
function monthOpen(ts: number, monthsAhead: number): number {
  const z = Math.floor(ts / DAY) + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  // Month index counted from year 0 makes +/- months a plain addition.
  const idx = y * 12 + (m - 1) + monthsAhead;
  const year = Math.floor(idx / 12);
  return daysFromCivil(year, idx - year * 12 + 1) * DAY;
}

/** Open time of the candle of `interval` that contains ts. */
export function openTimeOf(interval: Interval, ts: number): number {
  checkInterval(interval);
  checkTs(ts);
  if (interval === '1M') return monthOpen(ts, 0);
  if (interval === '1w') return Math.floor((ts - WEEK_OFFSET) / WEEK) * WEEK + WEEK_OFFSET;
  const ms = INTERVAL_MS[interval];
  return Math.floor(ts / ms) * ms;
}

/** Open time of the candle after the one containing `openTime` (any timestamp is accepted). */
export function nextOpenTime(interval: Interval, openTime: number): number {
  if (interval === '1M') {
    checkTs(openTime);
    return monthOpen(openTime, 1);
  }
  return openTimeOf(interval, openTime) + INTERVAL_MS[interval];
}

/** Open time of the candle before the one containing `openTime`. */
export function previousOpenTime(interval: Interval, openTime: number): number {
  if (interval === '1M') {
    checkTs(openTime);
    return monthOpen(openTime, -1);
  }
  return openTimeOf(interval, openTime) - INTERVAL_MS[interval];
}

/** Last ms of the candle containing `openTime`: the next open time minus one. */
export function closeTimeOf(interval: Interval, openTime: number): number {
  return nextOpenTime(interval, openTime) - 1;
}

/**
 * Open times, ascending, of every candle that overlaps [start, end] (both inclusive): from the
 * candle containing `start` to the candle containing `end`. Empty when start > end. Lazy, because
 * a wide range of a fine interval can be huge: callers stop when they have enough.
 */
export function* openTimesBetween(interval: Interval, start: number, end: number): Generator<number, void, undefined> {
  checkTs(end);
  if (start > end) return;
  for (let t = openTimeOf(interval, start); t <= end; t = nextOpenTime(interval, t)) yield t;
}

/**
 * True when every boundary of `coarse` is also a boundary of `fine`, so that whole `fine` candles
 * tile each `coarse` candle (1m -> 1h, 1h -> 1d, 1d -> 1w, 1d -> 1M; not 3d -> 1w, 1w -> 1M).
 */
export function nests(fine: Interval, coarse: Interval): boolean {
  checkInterval(fine);
  checkInterval(coarse);
  if (fine === coarse) return true;
  if (fine === '1M' || fine === '1w') return false;
  const f = INTERVAL_MS[fine];
  // Weeks start on day boundaries 4 days after the epoch; months on day boundaries.
  if (coarse === '1M') return DAY % f === 0;
  if (coarse === '1w') return WEEK % f === 0 && WEEK_OFFSET % f === 0;
  return INTERVAL_MS[coarse] % f === 0;
}
