// The account's fills as marks on the chart's candles (fill-layer.ts draws them): one mark per bar
// and side, below the bar for buys and above it for sells, with the quantity bought or sold in it
// and its average price (for the legend-free reading a trader expects: "I bought here"). A fill
// belongs to the bar whose open time is the last at or before it; one older than the first bar
// loaded has no bar to stand on and is left out. Pure: no DOM (unit tests).
import { Side } from '../../../../src-shared/enums.ts';
import { barAtOrBefore } from './bar-times.ts';

/** A fill as the chart reads it: when (ms, market clock), which way, how much, at what price. */
export interface FillMark {
  id: string;
  time: number;
  side: Side;
  qty: number;
  price: number;
}

/** The fills of one side in one bar. */
export interface BarMark {
  /** The bar's open time, ms. */
  time: number;
  side: Side;
  qty: number;
  /** The quantity-weighted average price. */
  avg: number;
  count: number;
}

/** The fills grouped by bar and side, ascending by time (buys before sells within a bar). */
export function barMarks(times: readonly number[], fills: readonly FillMark[]): BarMark[] {
  const groups = new Map<string, { bar: number; side: Side; qty: number; quote: number; count: number }>();
  for (const f of fills) {
    const bar = barAtOrBefore(times, f.time);
    if (bar < 0 || !(f.qty > 0)) continue;
    const key = `${bar}:${f.side}`;
    const g = groups.get(key) ?? { bar, side: f.side, qty: 0, quote: 0, count: 0 };
    g.qty += f.qty;
    g.quote += f.qty * f.price;
    g.count += 1;
    groups.set(key, g);
  }
  return [...groups.values()]
    .sort((a, b) => a.bar - b.bar || (a.side === Side.BUY ? -1 : 1) - (b.side === Side.BUY ? -1 : 1))
    .map((g) => ({ time: times[g.bar], side: g.side, qty: g.qty, avg: g.quote / g.qty, count: g.count }));
}

/** Whether a bar opened at `t` takes a fill another bar had (a fill at or after it): the marks move. */
export function takesFills(t: number, fills: readonly FillMark[]): boolean {
  return fills.some((f) => f.time >= t);
}
