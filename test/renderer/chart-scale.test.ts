// The chart's price scale modes (chart-scale.ts): each mode as the chart library's, and the stored
// mode read back (what the browser kept from another version, or damaged, is linear).
import { describe, expect, it } from 'vitest';
import { PriceScaleMode } from 'lightweight-charts';
import { SCALE_MODE, readScale } from '../../src-renderer/src/features/chart/chart-scale.ts';

describe('the price scale modes', () => {
  it('maps each mode to the chart library’s and reads a stored one back', () => {
    expect(SCALE_MODE).toEqual({ linear: PriceScaleMode.Normal, log: PriceScaleMode.Logarithmic });
    expect(readScale('log')).toBe('log');
    expect(readScale('linear')).toBe('linear');
    // none stored, damaged, another case, a mode not offered: linear
    expect(readScale(null)).toBe('linear');
    expect(readScale('LOG')).toBe('linear');
    expect(readScale('percent')).toBe('linear');
    expect(readScale('{"mode":1}')).toBe('linear');
  });
});
