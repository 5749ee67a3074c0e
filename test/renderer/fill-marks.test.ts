// The account's fills as marks on the chart's bars (src-renderer/src/features/chart/fill-marks.ts):
// grouped by bar and side, their quantities summed and their prices averaged by quantity. Drawing
// them is e2e/chart-fills.spec.ts.
import { describe, expect, it } from 'vitest';
import {
  barMarks,
  labelledMarks,
  takesFills,
  type FillMark,
} from '../../src-renderer/src/features/chart/fill-marks.ts';
import { barAtOrBefore } from '../../src-renderer/src/features/chart/bar-times.ts';
import { Side } from '../../src-shared/enums.ts';

const MIN = 60_000;
const T0 = Date.UTC(2026, 11, 4, 10, 0);
const TIMES = [T0, T0 + MIN, T0 + 2 * MIN, T0 + 4 * MIN];
const fill = (id: string, time: number, side: Side, qty: number, price: number): FillMark => ({
  id,
  time,
  side,
  qty,
  price,
});

describe('the bar of a moment', () => {
  it('is the last bar opened at or before it: on a bar, in a gap, past the newest; none before the first', () => {
    expect(barAtOrBefore(TIMES, T0)).toBe(0);
    expect(barAtOrBefore(TIMES, T0 + MIN - 1)).toBe(0);
    expect(barAtOrBefore(TIMES, T0 + 2 * MIN)).toBe(2);
    expect(barAtOrBefore(TIMES, T0 + 3 * MIN)).toBe(2); // no bar at 10:03
    expect(barAtOrBefore(TIMES, T0 + 60 * MIN)).toBe(3);
    expect(barAtOrBefore(TIMES, T0 - 1)).toBe(-1);
    expect(barAtOrBefore([], T0)).toBe(-1);
    expect(barAtOrBefore(TIMES, NaN)).toBe(-1);
  });
});

describe('fill marks', () => {
  it('groups the fills of a bar by side, summing quantities and averaging prices by quantity', () => {
    const marks = barMarks(TIMES, [
      fill('1', T0 + 10_000, Side.BUY, 0.001, 100),
      fill('2', T0 + 50_000, Side.BUY, 0.003, 104),
      fill('3', T0 + 20_000, Side.SELL, 0.002, 103),
      fill('4', T0 + 2 * MIN, Side.SELL, 0.5, 99), // at the bar's open: that bar
    ]);
    expect(marks).toHaveLength(3);
    expect(marks[0]).toMatchObject({ time: T0, side: Side.BUY, count: 2 });
    expect(marks[0].qty).toBeCloseTo(0.004, 12);
    expect(marks[0].avg).toBeCloseTo((0.001 * 100 + 0.003 * 104) / 0.004, 9); // 103
    expect(marks[1]).toMatchObject({ time: T0, side: Side.SELL, qty: 0.002, avg: 103, count: 1 });
    expect(marks[2]).toMatchObject({ time: T0 + 2 * MIN, side: Side.SELL, qty: 0.5, avg: 99, count: 1 });
  });

  it('puts a fill in a minute with no bar on the bar before it, and one past the newest on the newest', () => {
    const marks = barMarks(TIMES, [
      fill('a', T0 + 3 * MIN + 5_000, Side.BUY, 1, 10),
      fill('b', T0 + 9 * MIN, Side.BUY, 2, 10),
    ]);
    expect(marks.map((m) => [m.time, m.qty])).toEqual([
      [T0 + 2 * MIN, 1],
      [T0 + 4 * MIN, 2],
    ]);
  });

  it('leaves out fills older than the first bar, of no quantity, and everything without bars', () => {
    expect(barMarks(TIMES, [fill('x', T0 - 1, Side.BUY, 1, 10), fill('y', T0, Side.SELL, 0, 10)])).toEqual([]);
    expect(barMarks([], [fill('z', T0, Side.BUY, 1, 10)])).toEqual([]);
  });

  it('says when a new bar takes fills from the one before', () => {
    const fills = [fill('1', T0 + 4 * MIN + 1, Side.BUY, 1, 10)];
    expect(takesFills(T0 + 4 * MIN, fills)).toBe(true);
    expect(takesFills(T0 + 5 * MIN, fills)).toBe(false);
  });
});

describe('which marks show their text', () => {
  // a bar a minute for 20 minutes
  const bars = Array.from({ length: 20 }, (_, i) => T0 + i * MIN);
  const at = (i: number, side: Side) => fill(String(i), bars[i] + 1_000, side, 1, 10);
  const shown = (fills: FillMark[], minGap: number) => {
    const marks = barMarks(bars, fills);
    const labels = labelledMarks(marks, bars, minGap);
    return marks.filter((_, i) => labels[i]).map((m) => `${m.side === Side.BUY ? 'B' : 'S'}${bars.indexOf(m.time)}`);
  };

  it('keeps the newest, then each one at least minGap bars before the last kept of its side', () => {
    // a buy on every bar: at 4 bars a text, every fourth from the newest
    const every = bars.map((_, i) => at(i, Side.BUY));
    expect(shown(every, 4)).toEqual(['B3', 'B7', 'B11', 'B15', 'B19']);
    // zoomed in, a bar per text: all of them
    expect(shown(every, 1)).toEqual(bars.map((_, i) => `B${i}`));
    // one bar short of the gap is left without text; the next one has room
    expect(shown([at(10, Side.BUY), at(13, Side.BUY), at(14, Side.BUY)], 4)).toEqual(['B10', 'B14']);
  });

  it('spaces the buys (under the bars) and the sells (over them) each on its own', () => {
    const fills = [at(5, Side.BUY), at(5, Side.SELL), at(6, Side.SELL), at(7, Side.BUY), at(9, Side.SELL)];
    // the sell at 6 is 3 bars before the one at 9, the one at 5 too close; the buy at 5 is 2 before 7
    expect(shown(fills, 3)).toEqual(['S6', 'B7', 'S9']);
    // no marks, no texts
    expect(labelledMarks([], bars, 3)).toEqual([]);
  });
});
