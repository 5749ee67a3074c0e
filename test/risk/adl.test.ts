import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { adlEffectiveLeverage, adlPnlPercent, adlScore, rankForAdl } from '../../src-main/risk/adl.ts';
import type { AdlCandidate } from '../../src-main/risk/adl.ts';
import { bankruptcyPrice } from '../../src-main/risk/liquidation-price.ts';

// A: long 1 @ 100, mark 110, BP 90  -> PnL% +10%, eff. lev 110/20 = 5.5, score 0.55
// B: short 2 @ 100, mark 90, BP 105 -> PnL% +10%, eff. lev 90/15 = 6,    score 0.6
// C: long 1 @ 100, mark 95, BP 50   -> PnL% -5%,  eff. lev 95/45,        score -0.05/(95/45)
// D: short 1 @ 100, mark 110, BP 120 -> PnL% -10%, eff. lev 110/10 = 11, score -0.1/11
const A: AdlCandidate = { id: 'a', side: 1, qty: 1, entry: 100, mark: 110, bankruptcy: 90 };
const B: AdlCandidate = { id: 'b', side: -1, qty: 2, entry: 100, mark: 90, bankruptcy: 105 };
const C: AdlCandidate = { id: 'c', side: 1, qty: 1, entry: 100, mark: 95, bankruptcy: 50 };
const D: AdlCandidate = { id: 'd', side: -1, qty: 1, entry: 100, mark: 110, bankruptcy: 120 };

describe('ADL components and sign conventions', () => {
  it('PnL% is positive for a short when the mark falls', () => {
    expect(adlPnlPercent(B)).toBeCloseTo(0.1, 15);
    expect(adlPnlPercent(D)).toBeCloseTo(-0.1, 15);
    expect(adlPnlPercent(A)).toBeCloseTo(0.1, 15);
  });

  it('effective leverage is positive for solvent longs and shorts', () => {
    expect(adlEffectiveLeverage(A)).toBeCloseTo(5.5, 12);
    expect(adlEffectiveLeverage(B)).toBeCloseTo(6, 12);
    expect(adlEffectiveLeverage(D)).toBeCloseTo(11, 12);
  });

  it('scores: PnL% x leverage in profit, PnL% / leverage in loss', () => {
    expect(adlScore(A)).toBeCloseTo(0.55, 12);
    expect(adlScore(B)).toBeCloseTo(0.6, 12);
    expect(adlScore(C)).toBeCloseTo(-0.0236842105263, 12);
    expect(adlScore(D)).toBeCloseTo(-0.00909090909091, 12);
  });

  it('at the mark, the isolated bankruptcy price gives leverage = notional / margin', () => {
    // long 2 @ 100 with 20 margin at mark 100: BP 90, eff. lev 100/10 = 10 = 200/20
    const bp = bankruptcyPrice(1, 2, 100, 20);
    expect(adlEffectiveLeverage({ id: 'x', side: 1, qty: 2, entry: 100, mark: 100, bankruptcy: bp })).toBeCloseTo(
      10,
      12,
    );
    const sbp = bankruptcyPrice(-1, 2, 100, 20);
    expect(adlEffectiveLeverage({ id: 'y', side: -1, qty: 2, entry: 100, mark: 100, bankruptcy: sbp })).toBeCloseTo(
      10,
      12,
    );
  });

  it('a position at or past bankruptcy has infinite leverage', () => {
    const past: AdlCandidate = { id: 'p', side: 1, qty: 1, entry: 100, mark: 120, bankruptcy: 125 };
    expect(adlEffectiveLeverage(past)).toBe(Infinity);
    expect(adlScore(past)).toBe(Infinity);
    expect(adlScore({ ...past, mark: 80 })).toBe(0);
  });
});

describe('rankForAdl', () => {
  it('orders most profitable and most levered first', () => {
    expect(rankForAdl([A, B, C, D]).map((c) => c.id)).toEqual(['b', 'a', 'd', 'c']);
  });

  it('does not depend on input order and leaves the input untouched', () => {
    const input = [C, D, A, B];
    fc.assert(
      fc.property(fc.shuffledSubarray(input, { minLength: 4, maxLength: 4 }), (shuffled) => {
        expect(rankForAdl(shuffled).map((c) => c.id)).toEqual(['b', 'a', 'd', 'c']);
      }),
    );
    expect(input.map((c) => c.id)).toEqual(['c', 'd', 'a', 'b']);
  });

  it('breaks ties by id', () => {
    const twinZ = { ...A, id: 'z' };
    const twinM = { ...A, id: 'm' };
    expect(rankForAdl([twinZ, A, twinM]).map((c) => c.id)).toEqual(['a', 'm', 'z']);
  });

  it('returns the caller objects with their extra fields', () => {
    const withUser = { ...A, userId: 7 };
    expect(rankForAdl([withUser])[0]).toBe(withUser);
  });
});
