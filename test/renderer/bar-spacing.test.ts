import { describe, expect, it } from 'vitest';
import {
  DEFAULT_BAR_SPACING,
  DEFAULT_RIGHT_OFFSET,
  MAX_BAR_SPACING,
  initialBarSpacing,
  rightOffsetFor,
} from '../../src-renderer/src/features/chart/bar-spacing.ts';

describe('initial bar spacing', () => {
  it('keeps the default for a history that fills the chart', () => {
    expect(initialBarSpacing(1500, 900)).toBe(DEFAULT_BAR_SPACING);
    expect(initialBarSpacing(78, 900)).toBe(DEFAULT_BAR_SPACING); // 900 * 0.6 / 78 = 6.9
  });

  it('spreads a short history over about 60% of the width, within the cap', () => {
    expect(initialBarSpacing(20, 900)).toBe(27); // 540 px over 20 bars
    expect(initialBarSpacing(3, 900)).toBe(MAX_BAR_SPACING);
  });

  it('falls back to the default with no bars or before layout (width 0)', () => {
    expect(initialBarSpacing(0, 900)).toBe(DEFAULT_BAR_SPACING);
    expect(initialBarSpacing(5, 0)).toBe(DEFAULT_BAR_SPACING);
  });
});

describe('right offset', () => {
  it('keeps about the same empty gap in pixels at any spacing, at least one bar', () => {
    expect(rightOffsetFor(DEFAULT_BAR_SPACING)).toBe(DEFAULT_RIGHT_OFFSET);
    expect(rightOffsetFor(14)).toBe(3);
    expect(rightOffsetFor(MAX_BAR_SPACING)).toBe(1);
  });
});
