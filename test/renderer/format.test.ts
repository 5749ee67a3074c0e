// Display formatting: fixed decimals with grouping, signs, steps.
import { describe, expect, it } from 'vitest';
import {
  decimalsOf,
  fmt,
  fmtCountdown,
  fmtPct,
  fmtSigned,
  fmtSmallPct,
  fmtSpan,
  signClass,
  toStep,
} from '../../src-renderer/src/lib/format.ts';

describe('format', () => {
  it('writes exactly the decimals asked, grouped, and never -0', () => {
    expect(fmt('96000.1', 1)).toBe('96,000.1');
    expect(fmt(0.000123456, 7)).toBe('0.0001235');
    expect(fmt(-0.0001, 2)).toBe('0.00');
    expect(fmt(undefined, 2)).toBe('—');
    expect(fmt('abc', 2)).toBe('—');
  });

  it('signs positive values and percentages', () => {
    expect(fmtSigned(1.5, 2)).toBe('+1.50');
    expect(fmtSigned(-1.5, 2)).toBe('-1.50');
    expect(fmtSigned(0.001, 2)).toBe('0.00');
    expect(fmtPct(0.0001, 4)).toBe('0.0100%');
    // a small share keeps its first significant digit: a one-tick BTC spread, 0.1 on 96,000
    expect(fmtSmallPct(0.1 / 96_000)).toBe('0.0001%');
    expect(fmtSmallPct(0.0000001 / 0.0123)).toBe('0.0008%');
    expect(fmtSmallPct(0.00002)).toBe('0.002%');
    expect(fmtSmallPct(0.0001)).toBe('0.01%');
    expect(fmtSmallPct(0.005)).toBe('0.50%');
    expect(fmtSmallPct(0.12)).toBe('12.00%');
    expect(fmtSmallPct(1e-12)).toBe('0.000000%');
    expect(fmtSmallPct(0)).toBe('0.00%');
    expect(fmtSmallPct(NaN)).toBe('—');
    expect(fmtPct(0.0123, 2, true)).toBe('+1.23%');
  });

  it('colours a figure by its sign as written: a loss that reads 0.00 is neither red nor green', () => {
    expect(signClass(-0.001, 2)).toBe('');
    expect(signClass(0.004, 2)).toBe('');
    expect(signClass(-0.005, 2)).toBe('down');
    expect(signClass('-1234.5', 2)).toBe('down');
    expect(signClass(0.01, 2)).toBe('up');
    expect(signClass(0, 2)).toBe('');
    expect(signClass(null, 2)).toBe('');
  });

  it('writes a span of market time once: one instant inside a second, the end date only on another day', () => {
    const t = Date.UTC(2026, 11, 6, 21, 35, 10);
    expect(fmtSpan(t, t + 400)).toBe('2026-12-06 21:35:10'); // was "21:35:10 to 21:35:10"
    expect(fmtSpan(t, t + 2_000)).toBe('2026-12-06 21:35:10 to 21:35:12');
    expect(fmtSpan(t, t + 3 * 3_600_000)).toBe('2026-12-06 21:35:10 to 2026-12-07 00:35:10');
  });

  it('counts down in hours, minutes and seconds', () => {
    expect(fmtCountdown(8 * 3600_000 - 1)).toBe('07:59:59');
    expect(fmtCountdown(-5)).toBe('00:00:00');
  });

  it('rounds quantities down to the step, written with its decimals', () => {
    expect(decimalsOf('0.001')).toBe(3);
    expect(decimalsOf('0.10')).toBe(1);
    expect(decimalsOf('1')).toBe(0);
    expect(toStep(0.30000000000000004, '0.1')).toBe('0.3');
    expect(toStep(1.23456, '0.001')).toBe('1.234');
    expect(toStep(1234.9, '1')).toBe('1234');
    expect(toStep(0.0004, '0.001')).toBe('');
    expect(toStep(1.2345, '0.5', 'round')).toBe('1.0');
  });
});
