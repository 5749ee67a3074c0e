// The figures of the chart's crosshair legend that are not plain prices. Pure (unit tests).
import { fmt, fmtCompact, fmtDateTime } from '../../lib/format.ts';

/**
 * The legend's volume, in the base asset: under 10,000 as the pair's quantity is written (at most
 * 3 decimals), above it shortened with 3 decimals of its unit, whatever the pair's quantity
 * decimals. (Before, the unit took the quantity's decimals: a pair traded in whole units,
 * 1000PEPEUSDT, read "V 2M" for a candle of 1,886,214; and one of 100 to 10,000 lost its third
 * decimal, 896.117 BTC read "V 896.12".)
 */
export function legendVolume(volume: number, qd: number): string {
  return Math.abs(volume) >= 1e4 ? fmtCompact(volume, 3) : fmt(volume, Math.min(qd, 3));
}

/** Intervals whose candles open at 00:00 UTC: their legend names the day alone. */
const DAILY = new Set(['1d', '3d', '1w', '1M']);

/**
 * The legend's time of a candle opening at `time` (ms, UTC) on `interval`: `MM-DD HH:MM` (with
 * seconds on 1s), the year before it when it is not the market's year `year` (a candle scrolled
 * back into last year, a replay's of another year); the date with its year on the daily intervals
 * and longer, whose time is always 00:00. (Before, `12-01 00:00` on 1M said neither the year nor
 * anything the candle's time does.)
 */
export function legendTime(time: number, interval: string, year: number): string {
  const full = fmtDateTime(time);
  if (DAILY.has(interval)) return full.slice(0, 10);
  const end = interval === '1s' ? 19 : 16;
  return new Date(time).getUTCFullYear() === year ? full.slice(5, end) : full.slice(0, end);
}
