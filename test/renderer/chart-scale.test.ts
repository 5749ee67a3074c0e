// The chart's price scale modes (chart-scale.ts): the stored mode read back, and a price written in
// percent of the first bar in view as lightweight-charts' percent axis writes it (its base: the close
// of the first bar at or after the visible range's left edge, rounded down; its value
// 100 * (price - base) / base; two decimals, U+2212 for minus, "%").
import { describe, expect, it } from 'vitest';
import { PriceScaleMode } from 'lightweight-charts';
import {
  SCALE_MODE,
  percentBase,
  percentLabel,
  percentText,
  readScale,
} from '../../src-renderer/src/features/chart/chart-scale.ts';
import type { Candle } from '../../src-shared/types.ts';

const candle = (t: number, close: string): Candle => [t, t + 59_999, '1', '1', '1', close, '1', '1', 1, '1', '1', true];

describe('the price scale modes', () => {
  it('maps each mode to the chart library’s and reads a stored one back', () => {
    expect(SCALE_MODE).toEqual({
      linear: PriceScaleMode.Normal,
      log: PriceScaleMode.Logarithmic,
      percent: PriceScaleMode.Percentage,
    });
    expect(readScale('log')).toBe('log');
    expect(readScale('percent')).toBe('percent');
    expect(readScale('linear')).toBe('linear');
    // none stored, damaged, another case: linear
    expect(readScale(null)).toBe('linear');
    expect(readScale('LOG')).toBe('linear');
    expect(readScale('{"mode":1}')).toBe('linear');
  });

  it('measures percent from the first bar at or after the left edge, rounded down', () => {
    const bars = [candle(0, '100'), candle(60_000, '200'), candle(120_000, '400')];
    expect(percentBase(bars, 1.7)).toBe(200);
    expect(percentBase(bars, 1)).toBe(200);
    expect(percentBase(bars, 0.2)).toBe(100);
    // scrolled past the oldest bar (a negative logical index): the first bar
    expect(percentBase(bars, -12.5)).toBe(100);
    // the newest bar off to the left of the view: none in view
    expect(percentBase(bars, 3)).toBeNull();
    expect(percentBase([], 0)).toBeNull();
  });

  it('writes a percent with two decimals, grouped, a true minus sign and no sign on a zero', () => {
    expect(percentText(96_960, 96_000)).toBe('1.00%');
    expect(percentText(95_040, 96_000)).toBe('\u22121.00%');
    expect(percentText(96_000, 96_000)).toBe('0.00%');
    // -0.001 % rounds to 0.00: no sign, as the axis writes it
    expect(percentText(95_999.04, 96_000)).toBe('0.00%');
    expect(percentText(0.5, 0.01)).toBe('4,900.00%');
    expect(percentText(150, 100)).toBe('50.00%');
    // a negative base (lightweight-charts turns the sign so up is still up)
    expect(percentText(-50, -100)).toBe('50.00%');
    expect(percentLabel(-12.345)).toBe('\u221212.35%');
    expect(percentLabel(1234.5)).toBe('1,234.50%');
  });
});
