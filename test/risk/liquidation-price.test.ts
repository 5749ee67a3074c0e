import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bankruptcyPrice, liquidationPrice, liquidationPriceInTier } from '../../src-main/risk/liquidation-price.ts';
import { maintenanceMargin, marginRatio, unrealizedPnl } from '../../src-main/risk/margin.ts';
import type { Side } from '../../src-main/risk/margin.ts';
import { BTCUSDT_BRACKETS, bracketFor, generateBrackets } from '../../src-main/risk/tiers.ts';
import type { Bracket } from '../../src-main/risk/tiers.ts';

interface Pos {
  side: Side;
  qty: number;
  entry: number;
  wallet: number;
  otherMaintenance: number;
  otherUpnl: number;
  brackets: readonly Bracket[];
}

/** Account margin ratio with this symbol's mark at p, everything else held. */
function ratioAt(pos: Pos, p: number): number {
  const maint = pos.otherMaintenance + maintenanceMargin(pos.brackets, pos.qty * p);
  return marginRatio(maint, pos.wallet, pos.otherUpnl + unrealizedPnl(pos.side, pos.qty, pos.entry, p));
}

function isolated(side: Side, qty: number, entry: number, wallet: number): Pos {
  return { side, qty, entry, wallet, otherMaintenance: 0, otherUpnl: 0, brackets: BTCUSDT_BRACKETS };
}

describe('reference vector: isolated 1 BTC at 60,000, 20x (WB 3,000)', () => {
  it('the tier at 57k notional is tier 2 (0.5%, cum 50)', () => {
    expect(bracketFor(BTCUSDT_BRACKETS, 57_236)).toMatchObject({ tier: 2, mmr: 0.005, cum: 50 });
  });

  it('long liquidates at 57,236.18', () => {
    expect(
      liquidationPriceInTier({ side: 1, qty: 1, entry: 60_000, wallet: 3_000 }, { mmr: 0.005, cum: 50 }),
    ).toBeCloseTo(57_236.18, 2);
    expect(liquidationPrice(isolated(1, 1, 60_000, 3_000))).toBeCloseTo(57_236.18, 2);
  });

  it('short liquidates at 62,736.32', () => {
    expect(
      liquidationPriceInTier({ side: -1, qty: 1, entry: 60_000, wallet: 3_000 }, { mmr: 0.005, cum: 50 }),
    ).toBeCloseTo(62_736.32, 2);
    expect(liquidationPrice(isolated(-1, 1, 60_000, 3_000))).toBeCloseTo(62_736.32, 2);
  });

  it('margin ratio is 100% at those prices', () => {
    const long = isolated(1, 1, 60_000, 3_000);
    expect(ratioAt(long, liquidationPrice(long))).toBeCloseTo(1, 12);
    const short = isolated(-1, 1, 60_000, 3_000);
    expect(ratioAt(short, liquidationPrice(short))).toBeCloseTo(1, 12);
  });

  it('bankruptcy prices are 57,000 and 63,000', () => {
    expect(bankruptcyPrice(1, 1, 60_000, 3_000)).toBe(57_000);
    expect(bankruptcyPrice(-1, 1, 60_000, 3_000)).toBe(63_000);
  });
});

describe('tier crossing', () => {
  it('long opened in tier 3 liquidates in tier 2', () => {
    // 10 BTC at 60,500 = 605,000 (tier 3), 10x: tier 3 would give 54,710.62 (547k, tier 2);
    // tier 2 gives (60,500 + 50 - 605,000) / (0.05 - 10) = 54,718.59, consistent.
    const pos = isolated(1, 10, 60_500, 60_500);
    const lp = liquidationPrice(pos);
    expect(lp).toBeCloseTo(54_718.592965, 5);
    expect(bracketFor(BTCUSDT_BRACKETS, 10 * lp).tier).toBe(2);
    expect(ratioAt(pos, lp)).toBeCloseTo(1, 12);
  });

  it('short opened in tier 2 liquidates in tier 3', () => {
    // 10 BTC at 59,000 = 590,000 (tier 2), 10x: tier 2 would give 64,582.09 (646k, tier 3);
    // tier 3 gives (59,000 + 950 + 590,000) / (0.065 + 10) = 64,575.26, consistent.
    const pos = isolated(-1, 10, 59_000, 59_000);
    const lp = liquidationPrice(pos);
    expect(lp).toBeCloseTo(64_575.260805, 5);
    expect(bracketFor(BTCUSDT_BRACKETS, 10 * lp).tier).toBe(3);
    expect(ratioAt(pos, lp)).toBeCloseTo(1, 12);
  });
});

describe('cross margin', () => {
  it('counts the other positions maintenance and PnL', () => {
    const pos: Pos = { ...isolated(1, 1, 60_000, 10_000), otherMaintenance: 500, otherUpnl: -1_000 };
    const lp = liquidationPrice(pos);
    // (10,000 - 500 - 1,000 + 50 - 60,000) / (0.005 - 1)
    expect(lp).toBeCloseTo(51_708.542714, 5);
    expect(ratioAt(pos, lp)).toBeCloseTo(1, 12);
  });
});

describe('no liquidation price', () => {
  it('a fully collateralised long returns 0 and is safe at any positive price', () => {
    const pos = isolated(1, 1, 60_000, 60_000);
    expect(liquidationPrice(pos)).toBe(0);
    expect(ratioAt(pos, 0.01)).toBeLessThan(1);
  });

  it('a short already under water at every price returns 0, so "mark >= LP" fires', () => {
    const pos: Pos = { ...isolated(-1, 1, 60_000, 0), wallet: -70_000 };
    expect(liquidationPrice(pos)).toBe(0);
    expect(ratioAt(pos, 1)).toBeGreaterThanOrEqual(1);
  });

  it('an empty position returns 0', () => {
    expect(liquidationPrice(isolated(1, 0, 60_000, 0))).toBe(0);
  });
});

describe('property: margin ratio is exactly 100% at the returned LP', () => {
  const tables = [BTCUSDT_BRACKETS, generateBrackets(20, 5_000), generateBrackets(50, 20_000)];
  const position = fc
    .record({
      side: fc.constantFrom<Side>(1, -1),
      qty: fc.double({ min: 0.001, max: 20_000, noNaN: true }),
      entry: fc.double({ min: 100, max: 100_000, noNaN: true }),
      leverage: fc.integer({ min: 1, max: 125 }),
      // isolated margin >= initial margin (added margin up to +50%)
      marginFactor: fc.double({ min: 1, max: 1.5, noNaN: true }),
      cross: fc.boolean(),
      otherMaint: fc.double({ min: 0, max: 0.1, noNaN: true }),
      otherUpnl: fc.double({ min: -0.1, max: 0.1, noNaN: true }),
      table: fc.integer({ min: 0, max: tables.length - 1 }),
    })
    .map((r): Pos => {
      const n = r.qty * r.entry;
      return {
        side: r.side,
        qty: r.qty,
        entry: r.entry,
        wallet: (n / r.leverage) * r.marginFactor,
        otherMaintenance: r.cross ? r.otherMaint * n : 0,
        otherUpnl: r.cross ? r.otherUpnl * n : 0,
        brackets: tables[r.table],
      };
    });

  it('holds for random isolated and cross positions, across tiers', () => {
    let wellConditioned = 0;
    let checked = 0;
    fc.assert(
      fc.property(position, (pos) => {
        const lp = liquidationPrice(pos);
        if (lp === 0) {
          // long: never liquidated; short: liquidatable everywhere
          if (pos.side === 1) expect(ratioAt(pos, pos.entry * 1e-6)).toBeLessThan(1);
          else expect(ratioAt(pos, pos.entry)).toBeGreaterThanOrEqual(1);
          return;
        }
        checked++;
        // Float cancellation bound: the ratio subtracts terms of size `scale` to get an
        // equity equal to the maintenance margin. Only a long whose LP is ~1e-9 of its
        // entry (near-1x with a sliver of cross loss) gets noise above 1e-9 here.
        const mm = pos.otherMaintenance + maintenanceMargin(pos.brackets, pos.qty * lp);
        const scale =
          Math.abs(pos.wallet) + pos.otherMaintenance + Math.abs(pos.otherUpnl) + pos.qty * (pos.entry + lp);
        const noise = (64 * Number.EPSILON * scale) / mm;
        const ratio = ratioAt(pos, lp);
        if (noise > 1e-9) {
          // ill-conditioned: the equity at LP is within float noise of zero (e.g. a 1x long with a
          // 1e-17 cross loss has its LP at ~1e-15), so it may compute as <= 0 and the ratio as
          // Infinity; a finite ratio must still be within the noise
          if (Number.isFinite(ratio)) expect(Math.abs(ratio - 1)).toBeLessThanOrEqual(noise);
          return;
        }
        expect(Math.abs(ratio - 1)).toBeLessThanOrEqual(1e-9);
        wellConditioned++;
        // one part per million toward safety is below 100%, away from it above
        const safer = lp * (1 + pos.side * 1e-6);
        const worse = lp * (1 - pos.side * 1e-6);
        expect(ratioAt(pos, safer)).toBeLessThan(1);
        expect(ratioAt(pos, worse)).toBeGreaterThan(1);
      }),
      { numRuns: Number(process.env.LP_RUNS ?? 2_000) },
    );
    expect(wellConditioned).toBeGreaterThan(0.9 * checked);
  });
});
