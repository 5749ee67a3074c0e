// The venue's BTCUSDT maintenance tiers are reference/exchange.md's table, row for row (the
// pure table is checked in test/risk/tiers.test.ts; this checks what a venue actually trades
// with, from its stored catalogue), and its maintenance margin at a few notionals worked by hand.
import { describe, expect, it } from 'vitest';
import { maintenanceMarginUnits } from '../../src-main/risk/margin.ts';
import { paperVenues } from './venues.ts';

const open = paperVenues();
const USDT = 100_000_000n;

describe("a venue's BTCUSDT tiers", () => {
  it('are the reference table: notional caps, MMR, cum and max leverage', () => {
    const v = open();
    const tiers = v.exchange.pair('BTCUSDT')!.row.brackets;
    expect(tiers.map((b) => [b.tier, b.floor, b.cap, b.mmr, b.cum, b.maxLeverage])).toEqual([
      [1, 0, 50e3, 0.004, 0, 125],
      [2, 50e3, 600e3, 0.005, 50, 100],
      [3, 600e3, 3e6, 0.0065, 950, 75],
      [4, 3e6, 12e6, 0.01, 11_450, 50],
      [5, 12e6, 70e6, 0.02, 131_450, 25],
      [6, 70e6, 100e6, 0.025, 481_450, 20],
      [7, 100e6, 230e6, 0.05, 2_981_450, 10],
      [8, 230e6, 480e6, 0.1, 14_481_450, 5],
      [9, 480e6, 600e6, 0.125, 26_481_450, 4],
      [10, 600e6, 800e6, 0.15, 41_481_450, 3],
      [11, 800e6, 1.2e9, 0.25, 121_481_450, 2],
      [12, 1.2e9, 1.8e9, 0.5, 421_481_450, 1],
    ]);
    // notional x MMR - cum, exact units: 10,000 x 0.4 % = 40; 60,000 x 0.5 % - 50 = 250;
    // 1,000,000 x 0.65 % - 950 = 5,550; at the cap 50,000 both tiers give 200 (cum_2 = 50,000 x 0.1 %)
    const mm = (usdt: number) => maintenanceMarginUnits(tiers, BigInt(usdt) * USDT);
    expect([mm(10_000), mm(60_000), mm(1_000_000), mm(50_000)]).toEqual([
      40n * USDT,
      250n * USDT,
      5_550n * USDT,
      200n * USDT,
    ]);
  });
});
