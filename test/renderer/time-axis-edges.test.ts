import { describe, expect, it } from 'vitest';
import { TickMarkType } from 'lightweight-charts';
import { cutAtEdge } from '../../src-renderer/src/features/chart/time-axis-edges.ts';

// 6.6 px a character: "06:00" is 33 px wide, 16.5 px either side of its bar
const W = 6.6;

describe('time-axis labels at the edges', () => {
  it('hides a time label whose bar is closer to the left edge than half the label', () => {
    expect(cutAtEdge(10, TickMarkType.Time, W, 578)).toBe(true);
    expect(cutAtEdge(16, TickMarkType.Time, W, 578)).toBe(true);
    expect(cutAtEdge(17, TickMarkType.Time, W, 578)).toBe(false);
  });

  it('hides one sticking out at the right edge, by the same measure', () => {
    expect(cutAtEdge(570, TickMarkType.Time, W, 578)).toBe(true);
    expect(cutAtEdge(561, TickMarkType.Time, W, 578)).toBe(false);
  });

  it('measures each kind by its longest text: a day fits nearer the edge than a time with seconds', () => {
    expect(cutAtEdge(10, TickMarkType.DayOfMonth, W, 578)).toBe(false); // "31": 6.6 px a side
    expect(cutAtEdge(20, TickMarkType.TimeWithSeconds, W, 578)).toBe(true); // "23:59:59": 26.4 px a side
    expect(cutAtEdge(27, TickMarkType.TimeWithSeconds, W, 578)).toBe(false);
  });

  it('leaves alone a label whose time is off the scale', () => {
    expect(cutAtEdge(null, TickMarkType.Year, W, 578)).toBe(false);
  });
});
