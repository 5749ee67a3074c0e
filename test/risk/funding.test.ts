import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  FUNDING_INTERVAL_MS,
  fundingFee,
  fundingRate,
  fundingRateCap,
  fundingTimesBetween,
  impactNotional,
  impactPrice,
  isFundingInstant,
  nextFundingTime,
  premiumIndex,
  roundRate,
  weightedAveragePremium,
} from '../../src-main/risk/funding.ts';
import { BTCUSDT_BRACKETS, generateBrackets } from '../../src-main/risk/tiers.ts';

const BTC_CAP = fundingRateCap(BTCUSDT_BRACKETS);

describe('impact notional and price', () => {
  it('BTCUSDT at 125x uses 25,000 USDT', () => {
    expect(impactNotional(125)).toBe(25_000);
  });

  it('averages the fill over the levels the notional sweeps', () => {
    // 10,000 USDT at 100 (100 BTC), then 15,000 USDT at 101 (148.5148... BTC)
    const asks = [
      [100, 100],
      [101, 200],
      [105, 1_000],
    ] as const;
    expect(impactPrice(asks, 25_000)).toBeCloseTo(100.5976095618, 9);
    expect(impactPrice(asks, 5_000)).toBe(100);
  });

  it('is null when the book is thinner than the notional', () => {
    expect(impactPrice([[100, 1]], 25_000)).toBeNull();
    expect(impactPrice([], 25_000)).toBeNull();
  });
});

describe('premium index', () => {
  it('is positive when the impact bid is above the index', () => {
    expect(premiumIndex(101, 102, 100)).toBe(0.01);
  });
  it('is negative when the impact ask is below the index', () => {
    expect(premiumIndex(101, 102, 103)).toBeCloseTo(-1 / 103, 15);
  });
  it('is zero while the index lies between impact bid and ask', () => {
    expect(premiumIndex(99, 101, 100)).toBe(0);
  });
});

describe('weighted average premium', () => {
  it('weights samples 1..n so later samples count more', () => {
    // (1 x 0.0001 + 2 x 0.0002 + 3 x 0.0004) / 6
    expect(weightedAveragePremium([0.0001, 0.0002, 0.0004])).toBeCloseTo(0.0017 / 6, 15);
    expect(weightedAveragePremium([0.0004, 0.0002, 0.0001])).toBeCloseTo(0.0011 / 6, 15);
  });
  it('counts no samples as a zero premium', () => {
    expect(weightedAveragePremium([])).toBe(0);
  });
});

describe('funding rate', () => {
  it('the reference example avgP = 0.0429% gives exactly 0.0100%', () => {
    expect(fundingRate(0.000429, BTC_CAP)).toBe(0.0001);
  });

  it('is exactly 0.01% everywhere in the dead zone [-0.04%, +0.06%]', () => {
    expect(fundingRate(-0.0004, BTC_CAP)).toBe(0.0001);
    expect(fundingRate(0.0006, BTC_CAP)).toBe(0.0001);
    fc.assert(
      fc.property(fc.double({ min: -0.0004, max: 0.0006, noNaN: true }), (p) => {
        expect(fundingRate(p, BTC_CAP)).toBe(0.0001);
      }),
    );
  });

  it('follows the premium beyond the clamp edges', () => {
    expect(fundingRate(0.0007, BTC_CAP)).toBe(0.0002);
    expect(fundingRate(0.001, BTC_CAP)).toBe(0.0005);
    expect(fundingRate(-0.0005, BTC_CAP)).toBe(0); // +0, never -0
    expect(fundingRate(-0.001, BTC_CAP)).toBe(-0.0005);
  });

  it('BTCUSDT cap is 0.30% = 0.75 x tier 1 MMR (0.40%)', () => {
    expect(BTC_CAP).toBeCloseTo(0.003, 15);
    expect(fundingRate(0.0034, BTC_CAP)).toBe(0.0029);
    expect(fundingRate(0.0035, BTC_CAP)).toBe(0.003);
    expect(fundingRate(0.01, BTC_CAP)).toBe(0.003);
    expect(fundingRate(-0.01, BTC_CAP)).toBe(-0.003);
  });

  it('a generated 20x table caps at 0.75 x 2.5% = 1.875%', () => {
    const cap = fundingRateCap(generateBrackets(20, 5_000));
    expect(fundingRate(0.05, cap)).toBe(0.01875);
  });

  it('rounds to 6 decimals, half away from zero', () => {
    expect(fundingRate(0.00123456789, BTC_CAP)).toBe(0.000735);
    expect(fundingRate(-0.00123456789, BTC_CAP)).toBe(-0.000735);
    expect(roundRate(0.0000025)).toBe(0.000003);
    expect(roundRate(-0.0000025)).toBe(-0.000003);
  });
});

describe('settlement schedule', () => {
  const day = Date.UTC(2025, 0, 6);
  const h = 3_600_000;

  it('settles at 00:00, 08:00 and 16:00 UTC', () => {
    expect(FUNDING_INTERVAL_MS).toBe(8 * h);
    expect(isFundingInstant(day)).toBe(true);
    expect(isFundingInstant(day + 8 * h)).toBe(true);
    expect(isFundingInstant(day + 16 * h)).toBe(true);
    expect(isFundingInstant(day + 8 * h + 1)).toBe(false);
    expect(isFundingInstant(day + 8 * h - 1)).toBe(false);
    expect(isFundingInstant(day + 12 * h)).toBe(false);
  });

  it('next funding time is strictly after the given instant', () => {
    expect(nextFundingTime(day + 8 * h - 1)).toBe(day + 8 * h);
    expect(nextFundingTime(day + 8 * h)).toBe(day + 16 * h);
    expect(nextFundingTime(day + 8 * h + 1)).toBe(day + 16 * h);
    expect(nextFundingTime(day + 16 * h + 1)).toBe(day + 24 * h);
    expect(nextFundingTime(day - 1)).toBe(day);
  });

  it('lists the instants a clock jump passes, (from, to]', () => {
    expect(fundingTimesBetween(day + 7 * h, day + 16 * h)).toEqual([day + 8 * h, day + 16 * h]);
    expect(fundingTimesBetween(day + 8 * h - 1, day + 8 * h)).toEqual([day + 8 * h]);
    expect(fundingTimesBetween(day + 8 * h, day + 8 * h)).toEqual([]);
    expect(fundingTimesBetween(day + 8 * h, day + 16 * h - 1)).toEqual([]);
  });
});

describe('funding payment', () => {
  it('is mark x |Q| x F, paid by longs when F > 0', () => {
    expect(fundingFee(1, 2, 60_000, 0.0001)).toBeCloseTo(12, 12);
    expect(fundingFee(-1, 2, 60_000, 0.0001)).toBeCloseTo(-12, 12);
  });
  it('is paid by shorts when F < 0', () => {
    expect(fundingFee(1, 2, 60_000, -0.0001)).toBeCloseTo(-12, 12);
    expect(fundingFee(-1, 2, 60_000, -0.0001)).toBeCloseTo(12, 12);
  });
});
