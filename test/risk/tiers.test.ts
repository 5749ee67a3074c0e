import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  BTCUSDT_BRACKETS,
  bracketFor,
  generateBrackets,
  makeBrackets,
  maxLeverageFor,
  maxNotionalFor,
} from '../../src-main/risk/tiers.ts';
import type { Bracket } from '../../src-main/risk/tiers.ts';
import { referenceColumn } from '../helpers/btcusdt-reference-tiers.ts';

function expectContinuous(brackets: readonly Bracket[]): void {
  for (let i = 1; i < brackets.length; i++) {
    const prev = brackets[i - 1];
    const cur = brackets[i];
    expect(cur.floor).toBe(prev.cap);
    const atBoundaryPrev = prev.cap * prev.mmr - prev.cum;
    const atBoundaryCur = cur.floor * cur.mmr - cur.cum;
    expect(Math.abs(atBoundaryPrev - atBoundaryCur)).toBeLessThanOrEqual(1e-9 * Math.max(1, atBoundaryCur));
  }
}

describe('BTCUSDT brackets', () => {
  it('reproduces the reference cum column exactly', () => {
    expect(BTCUSDT_BRACKETS.map((b) => b.cum)).toEqual(referenceColumn('cum'));
  });

  it('has the reference floors, MMRs and leverages', () => {
    expect(BTCUSDT_BRACKETS.map((b) => b.floor)).toEqual(referenceColumn('floor'));
    expect(BTCUSDT_BRACKETS.map((b) => b.mmr)).toEqual(referenceColumn('mmr'));
    expect(BTCUSDT_BRACKETS.map((b) => b.maxLeverage)).toEqual(referenceColumn('maxLeverage'));
    expect(BTCUSDT_BRACKETS.map((b) => b.tier)).toEqual(referenceColumn('tier'));
  });

  it('keeps maintenance margin continuous at every boundary', () => {
    expectContinuous(BTCUSDT_BRACKETS);
  });
});

describe('bracketFor / maxLeverageFor / maxNotionalFor', () => {
  it('puts the cap in its own tier and anything above it in the next', () => {
    expect(bracketFor(BTCUSDT_BRACKETS, 0).tier).toBe(1);
    expect(bracketFor(BTCUSDT_BRACKETS, 50_000).tier).toBe(1);
    expect(bracketFor(BTCUSDT_BRACKETS, 50_000.01).tier).toBe(2);
    expect(bracketFor(BTCUSDT_BRACKETS, 60_000).tier).toBe(2);
    expect(bracketFor(BTCUSDT_BRACKETS, 1.8e9).tier).toBe(12);
  });

  it('uses the last tier above the table but allows no leverage there', () => {
    expect(bracketFor(BTCUSDT_BRACKETS, 5e9).tier).toBe(12);
    expect(maxLeverageFor(BTCUSDT_BRACKETS, 5e9)).toBe(0);
  });

  it('gives the tier leverage for a notional', () => {
    expect(maxLeverageFor(BTCUSDT_BRACKETS, 50_000)).toBe(125);
    expect(maxLeverageFor(BTCUSDT_BRACKETS, 50_001)).toBe(100);
    expect(maxLeverageFor(BTCUSDT_BRACKETS, 1.5e9)).toBe(1);
  });

  it('gives the largest notional a leverage allows', () => {
    expect(maxNotionalFor(BTCUSDT_BRACKETS, 125)).toBe(50_000);
    expect(maxNotionalFor(BTCUSDT_BRACKETS, 100)).toBe(600_000);
    expect(maxNotionalFor(BTCUSDT_BRACKETS, 30)).toBe(12_000_000);
    expect(maxNotionalFor(BTCUSDT_BRACKETS, 1)).toBe(1.8e9);
    expect(maxNotionalFor(BTCUSDT_BRACKETS, 126)).toBe(0);
  });

  it('rejects negative or non-finite notionals', () => {
    expect(() => bracketFor(BTCUSDT_BRACKETS, -1)).toThrow(RangeError);
    expect(() => bracketFor(BTCUSDT_BRACKETS, Number.NaN)).toThrow(RangeError);
  });
});

describe('makeBrackets validation', () => {
  it('rejects a decreasing MMR', () => {
    expect(() =>
      makeBrackets([
        { cap: 10, mmr: 0.01, maxLeverage: 50 },
        { cap: 20, mmr: 0.005, maxLeverage: 20 },
      ]),
    ).toThrow(/mmr must not decrease/);
  });
  it('rejects a cap that does not rise', () => {
    expect(() =>
      makeBrackets([
        { cap: 10, mmr: 0.01, maxLeverage: 50 },
        { cap: 10, mmr: 0.02, maxLeverage: 20 },
      ]),
    ).toThrow(/cap/);
  });
  it('rejects an MMR at or above the initial margin rate at max leverage', () => {
    expect(() => makeBrackets([{ cap: 10, mmr: 0.01, maxLeverage: 100 }])).toThrow(/below 1\/maxLeverage/);
  });
  it('rejects a rising max leverage', () => {
    expect(() =>
      makeBrackets([
        { cap: 10, mmr: 0.01, maxLeverage: 20 },
        { cap: 20, mmr: 0.02, maxLeverage: 25 },
      ]),
    ).toThrow(/maxLeverage/);
  });
  it('rejects an MMR with more than 6 decimals', () => {
    expect(() => makeBrackets([{ cap: 10, mmr: 0.0012345, maxLeverage: 20 }])).toThrow(/6 decimals/);
  });
});

describe('generateBrackets', () => {
  it('rebuilds BTCUSDT shape from (125, 50k), differing only at 75x and 3x MMRs', () => {
    const g = generateBrackets(125, 50_000);
    expect(g.map((b) => b.cap)).toEqual(BTCUSDT_BRACKETS.map((b) => b.cap));
    expect(g.map((b) => b.maxLeverage)).toEqual(BTCUSDT_BRACKETS.map((b) => b.maxLeverage));
    const differing = g.filter((b, i) => b.mmr !== BTCUSDT_BRACKETS[i].mmr).map((b) => b.maxLeverage);
    expect(differing).toEqual([75, 3]);
  });

  it('builds a 20x table with hand-checked cum', () => {
    const g = generateBrackets(20, 5_000);
    expect(g.map((b) => b.maxLeverage)).toEqual([20, 10, 5, 4, 3, 2, 1]);
    expect(g.map((b) => b.cap)).toEqual([5_000, 60_000, 300_000, 1_200_000, 7_000_000, 10_000_000, 23_000_000]);
    expect(g.map((b) => b.mmr)).toEqual([0.025, 0.05, 0.1, 0.125, 0.166667, 0.25, 0.5]);
    // 5000 x 2.5% = 125; + 60000 x 5% = 3125; + 300000 x 2.5% = 10625;
    // + 1.2M x 4.1667% = 60625.4; + 7M x 8.3333% = 643956.4; + 10M x 25% = 3143956.4
    expect(g.map((b) => b.cum)).toEqual([0, 125, 3_125, 10_625, 60_625.4, 643_956.4, 3_143_956.4]);
  });

  it('starts above 125x with one extra tier', () => {
    const g = generateBrackets(200, 10_000);
    expect(g.length).toBe(13);
    expect(g[0]).toMatchObject({ maxLeverage: 200, mmr: 0.0025 });
  });

  it('always yields a valid, continuous table from tier maxLeverage down to 1x', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 10_000_000 }), (lev, cap) => {
        const g = generateBrackets(lev, cap);
        expect(g[0].maxLeverage).toBe(lev);
        expect(g[0].cap).toBe(cap);
        expect(g[g.length - 1].maxLeverage).toBe(1);
        expectContinuous(g);
      }),
    );
  });

  it('rejects a fractional leverage and a non-positive cap', () => {
    expect(() => generateBrackets(2.5, 1000)).toThrow(RangeError);
    expect(() => generateBrackets(20, 0)).toThrow(RangeError);
  });
});
