import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  bankruptcyPrice,
  liquidationPrice,
  liquidationPriceInTier,
  symbolLiquidationPrice,
  type LiquidationLeg,
} from '../../src-main/risk/liquidation-price.ts';
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

describe('hedge mode, cross: the long and short of a symbol solved together', () => {
  const legs = (long: number, short: number, entry = 96_000): LiquidationLeg[] => [
    { side: 1, qty: long, entry },
    { side: -1, qty: short, entry },
  ];
  /** Account margin ratio with the symbol's mark at p (no other positions). */
  const ratio = (l: LiquidationLeg[], wallet: number, p: number): number =>
    marginRatio(
      l.reduce((m, x) => m + maintenanceMargin(BTCUSDT_BRACKETS, x.qty * p), 0),
      wallet,
      l.reduce((u, x) => u + unrealizedPnl(x.side, x.qty, x.entry, p), 0),
    );

  it("Binance's hedge formula: long 1, short 0.3 liquidate together at 82,462.38", () => {
    // (WB + cumL + cumS - QL x EPL + QS x EPS) / (QL x MMRL + QS x MMRS - QL + QS), long in tier 2,
    // short in tier 1: (9,937.6 + 50 + 0 - 96,000 + 28,800) / (0.005 + 0.0012 - 1 + 0.3) = 82,462.381...
    const l = legs(1, 0.3);
    const lp = symbolLiquidationPrice({ legs: l, wallet: 9_937.6, brackets: BTCUSDT_BRACKETS, mark: 96_000 });
    expect(lp).toBeCloseTo(82_462.38109, 4);
    expect(ratio(l, 9_937.6, lp)).toBeCloseTo(1, 12);
    // the short held at the mark instead (the one-way formula) is a price where the ratio is ~15 %
    expect(
      liquidationPrice({
        side: 1,
        qty: 1,
        entry: 96_000,
        wallet: 9_937.6,
        otherMaintenance: 115.2,
        brackets: BTCUSDT_BRACKETS,
      }),
    ).toBeCloseTo(86_560.4, 1);
    expect(ratio(l, 9_937.6, 86_560.4)).toBeCloseTo(0.146, 3);
  });

  it('the mirror: long 0.3, short 1 at 109,299.92', () => {
    // short in tier 2: (9,937.6 + 0 + 50 - 28,800 + 96,000) / (0.0012 + 0.005 - 0.3 + 1) = 77,187.6 / 0.7062
    const l = legs(0.3, 1);
    const lp = symbolLiquidationPrice({ legs: l, wallet: 9_937.6, brackets: BTCUSDT_BRACKETS });
    expect(lp).toBeCloseTo(77_187.6 / 0.7062, 6);
    expect(ratio(l, 9_937.6, lp)).toBeCloseTo(1, 12);
  });

  it('long 1, short 0.9: none in the low tiers; the only root is in tier 8, 321,813,431.11', () => {
    // tiers 1-2: (9,908.8 + 100 - 9,600) / (0.0095 - 0.1) < 0; tier 8 (10 %, cum 14,481,450 both):
    // (9,908.8 + 28,962,900 - 9,600) / (0.19 - 0.1) = 321,813,431.11
    const l = legs(1, 0.9);
    const lp = symbolLiquidationPrice({ legs: l, wallet: 9_908.8, brackets: BTCUSDT_BRACKETS, mark: 96_000 });
    expect(lp).toBeCloseTo(321_813_431.1111, 3);
    expect(ratio(l, 9_908.8, lp)).toBeCloseTo(1, 12);
    expect(ratio(l, 9_908.8, 86_857.5)).toBeCloseTo(0.0806, 4);
  });

  it('two roots: the one nearest the mark, the lowest without one', () => {
    // wallet 9,000: low root (9,000 - 96,000 + 86,400) / (1.9 x 0.004 - 0.1) = 6,493.51 (tier 1);
    // high root (9,000 + 28,962,900 - 9,600) / 0.09 = 321,803,333.33 (tier 8)
    const l = legs(1, 0.9);
    const at = (mark?: number) => symbolLiquidationPrice({ legs: l, wallet: 9_000, brackets: BTCUSDT_BRACKETS, mark });
    expect(at(96_000)).toBeCloseTo(6_493.50649, 4);
    expect(at()).toBeCloseTo(6_493.50649, 4);
    expect(at(300_000_000)).toBeCloseTo(321_803_333.3333, 3);
    for (const p of [at(), at(300_000_000)]) expect(ratio(l, 9_000, p)).toBeCloseTo(1, 12);
  });

  it("none at a price no tier allows: a root past the last tier's cap is not reported", () => {
    // long 0.05, short 0.02 at 96,000, wallet 9,996.64: net long, so no root below; above, only in
    // the last tier (50 %, cum 421,481,450 both), where maintenance 0.035 p outgrows equity 0.03 p:
    // (9,996.64 + 842,962,900 - 4,800 + 1,920) / (0.035 - 0.03) = 168,594,003,283.3 (the long worth
    // 8.4 billion, past BTCUSDT's last cap of 1.8 billion)
    const l = legs(0.05, 0.02);
    const lp = symbolLiquidationPrice({ legs: l, wallet: 9_996.64, brackets: BTCUSDT_BRACKETS, mark: 96_000 });
    expect(lp).toBe(0);
    expect(ratio(l, 9_996.64, 168_594_003_283.3 * 1.001)).toBeGreaterThan(1); // liquidatable there, all the same
    expect(ratio(l, 9_996.64, 1.8e9 / 0.05)).toBeLessThan(1); // not up to the cap
    // the same pair 50 times larger reaches the root within the table: reported
    const big = legs(2.5, 1);
    const lpBig = symbolLiquidationPrice({ legs: big, wallet: 9_996.64, brackets: BTCUSDT_BRACKETS, mark: 96_000 });
    expect(lpBig).toBeGreaterThan(0);
    expect(2.5 * lpBig).toBeLessThanOrEqual(1.8e9);
    expect(ratio(big, 9_996.64, lpBig)).toBeCloseTo(1, 9);
  });

  it('equal sides liquidate on a rise, where maintenance outgrows the fixed equity', () => {
    // equity stays 9,904; maintenance 2 x (p x MMR - cum) = 9,904 at p = 908,000 (tier 3, 0.65 %, cum 950):
    // (9,904 + 1,900) / 0.013
    const l = legs(1, 1);
    const lp = symbolLiquidationPrice({ legs: l, wallet: 9_904, brackets: BTCUSDT_BRACKETS, mark: 96_000 });
    expect(lp).toBeCloseTo(908_000, 6);
    expect(ratio(l, 9_904, lp)).toBeCloseTo(1, 12);
  });

  it('a leg of 0 leaves the one-way formula', () => {
    const one = { side: 1 as const, qty: 1, entry: 60_000 };
    expect(
      symbolLiquidationPrice({
        legs: [one, { side: -1, qty: 0, entry: 0 }],
        wallet: 3_000,
        brackets: BTCUSDT_BRACKETS,
      }),
    ).toBe(liquidationPrice({ ...one, wallet: 3_000, brackets: BTCUSDT_BRACKETS }));
  });
});

describe('property: a hedged pair is at 100% at its LP, or on one side of it everywhere', () => {
  it('holds for random longs and shorts of one symbol, across tiers', () => {
    const tables = [BTCUSDT_BRACKETS, generateBrackets(50, 20_000)];
    fc.assert(
      fc.property(
        fc.record({
          long: fc.double({ min: 0.001, max: 500, noNaN: true }),
          short: fc.double({ min: 0.001, max: 500, noNaN: true }),
          entryL: fc.double({ min: 100, max: 100_000, noNaN: true }),
          entryS: fc.double({ min: 100, max: 100_000, noNaN: true }),
          walletShare: fc.double({ min: 0.005, max: 1, noNaN: true }),
          table: fc.integer({ min: 0, max: tables.length - 1 }),
        }),
        (r) => {
          const brackets = tables[r.table];
          const l: LiquidationLeg[] = [
            { side: 1, qty: r.long, entry: r.entryL },
            { side: -1, qty: r.short, entry: r.entryS },
          ];
          const wallet = r.walletShare * (r.long * r.entryL + r.short * r.entryS);
          const ratioAtP = (p: number): number =>
            marginRatio(
              maintenanceMargin(brackets, r.long * p) + maintenanceMargin(brackets, r.short * p),
              wallet,
              unrealizedPnl(1, r.long, r.entryL, p) + unrealizedPnl(-1, r.short, r.entryS, p),
            );
          const lp = symbolLiquidationPrice({ legs: l, wallet, brackets, mark: r.entryL });
          if (lp === 0) {
            // no sign change up to the price where the larger leg reaches the last cap: every
            // price there is liquidatable or none is (a root past it is not reported)
            const top = brackets[brackets.length - 1].cap / Math.max(r.long, r.short);
            const sides = [1e-3, 1, 100, 1e4, 1e6, 1e8, 1e10]
              .filter((p) => p <= top)
              .concat([top])
              .map((p) => ratioAtP(p) >= 1);
            expect(new Set(sides).size).toBe(1);
            return;
          }
          const scale = wallet + r.long * (r.entryL + lp) + r.short * (r.entryS + lp);
          const mm = maintenanceMargin(brackets, r.long * lp) + maintenanceMargin(brackets, r.short * lp);
          const noise = (64 * Number.EPSILON * scale) / mm;
          const ratio = ratioAtP(lp);
          if (Number.isFinite(ratio)) expect(Math.abs(ratio - 1)).toBeLessThanOrEqual(Math.max(noise, 1e-9));
        },
      ),
      { numRuns: Number(process.env.LP_RUNS ?? 1_000) },
    );
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

describe("a hedged pair's root above the pair's highest price is none", () => {
  it('long 0.010, short 0.008: its only root, near 96 billion, is within the caps but above maxPrice', () => {
    const l: LiquidationLeg[] = [
      { side: 1, qty: 0.01, entry: 96_000 },
      { side: -1, qty: 0.008, entry: 96_000 },
    ];
    const input = { legs: l, wallet: 9_999.136, brackets: BTCUSDT_BRACKETS, mark: 96_000 };
    const root = symbolLiquidationPrice(input);
    expect(root).toBeGreaterThan(1e10); // tier 11 (25 %): 0.010 x root within the last cap
    expect(0.01 * root).toBeLessThanOrEqual(BTCUSDT_BRACKETS[BTCUSDT_BRACKETS.length - 1].cap);
    expect(symbolLiquidationPrice({ ...input, maxPrice: 214_748_364.7 })).toBe(0);
    // a root under the highest price stays: long 1, short 1, wallet 9,904 liquidates on a rise at 908,000
    const even: LiquidationLeg[] = [
      { side: 1, qty: 1, entry: 96_000 },
      { side: -1, qty: 1, entry: 96_000 },
    ];
    const lp = symbolLiquidationPrice({
      legs: even,
      wallet: 9_904,
      brackets: BTCUSDT_BRACKETS,
      maxPrice: 214_748_364.7,
    });
    expect(lp).toBeCloseTo(908_000, 0);
  });
});
