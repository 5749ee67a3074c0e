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

/**
 * Which marks show their text (`labels[i]` for `marks[i]`). A mark's text is centred on its bar, so
 * two of one side (buys under the bars, sells over them) overlap when their bars are fewer than
 * `minGap` apart: from the newest back, a mark keeps its text when the last one of its side that
 * kept it is at least `minGap` bars later; the others show their arrow alone (zoomed in, the bars
 * spread and the text comes back). `times` are the bars' open times, ascending.
 */
export function labelledMarks(marks: readonly BarMark[], times: readonly number[], minGap: number): boolean[] {
  const out = marks.map(() => false);
  const lastShown = new Map<Side, number>();
  for (let i = marks.length - 1; i >= 0; i--) {
    const bar = barAtOrBefore(times, marks[i].time);
    const later = lastShown.get(marks[i].side);
    if (later !== undefined && later - bar < minGap) continue;
    out[i] = true;
    lastShown.set(marks[i].side, bar);
  }
  return out;
}
