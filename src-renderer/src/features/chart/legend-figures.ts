// The figures of the chart's crosshair legend that are not plain prices. Pure (unit tests).
import { fmtCompact } from '../../lib/format.ts';

/**
 * The legend's volume, in the base asset: under 10,000 as the pair's quantity is written (at most
 * 3 decimals), above it shortened with 3 decimals of its unit, whatever the pair's quantity
 * decimals. (Before, the unit took the quantity's decimals: a pair traded in whole units,
 * 1000PEPEUSDT, read "V 2M" for a candle of 1,886,214.)
 */
export function legendVolume(volume: number, qd: number): string {
  return fmtCompact(volume, Math.abs(volume) >= 1e4 ? 3 : Math.min(qd, 3));
}
