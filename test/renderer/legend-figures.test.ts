// The chart legend's volume (src-renderer/src/features/chart/legend-figures.ts): shortened to
// K / M / B with 3 decimals of the unit whatever the pair's quantity decimals.
import { describe, expect, it } from 'vitest';
import { legendTime, legendVolume } from '../../src-renderer/src/features/chart/legend-figures.ts';

describe('the legend volume', () => {
  it('keeps 3 decimals of K / M / B for a pair traded in whole units (1000PEPEUSDT, quantity decimals 0)', () => {
    expect(legendVolume(1_886_214, 0)).toBe('1.886M');
    expect(legendVolume(12_345, 0)).toBe('12.345K');
    expect(legendVolume(2_345_678_901, 0)).toBe('2.346B');
  });

  it('writes a volume under 10,000 as the pair writes its quantity', () => {
    expect(legendVolume(8_123, 0)).toBe('8,123');
    expect(legendVolume(1.553, 3)).toBe('1.553');
    expect(legendVolume(0, 3)).toBe('0.000');
    // from 100 up too: an hour of BTCUSDT, 896.117 (it read 896.12)
    expect(legendVolume(896.117, 3)).toBe('896.117');
    expect(legendVolume(9_781.229, 3)).toBe('9,781.229');
    expect(legendVolume(142.5, 1)).toBe('142.5');
  });

  it('reads as before for BTCUSDT (quantity decimals 3)', () => {
    expect(legendVolume(17_860.848, 3)).toBe('17.861K');
    expect(legendVolume(1_208_689.527, 3)).toBe('1.209M');
  });
});

describe('legendTime', () => {
  const t = Date.UTC(2021, 4, 16, 8, 58, 7);
  it("a candle of the market's year: month, day and time; seconds on 1s", () => {
    expect(legendTime(t, '1m', 2021)).toBe('05-16 08:58');
    expect(legendTime(t, '1s', 2021)).toBe('05-16 08:58:07');
  });
  it('a candle of another year has its year', () => {
    expect(legendTime(t, '1h', 2026)).toBe('2021-05-16 08:58');
  });
  it('the daily intervals and longer name the day with its year, not a time of 00:00', () => {
    const d = Date.UTC(2025, 11, 1);
    for (const iv of ['1d', '3d', '1w', '1M']) expect(legendTime(d, iv, 2025)).toBe('2025-12-01');
    expect(legendTime(d, '12h', 2025)).toBe('12-01 00:00');
  });
});
