// The venue's BTCUSDT maintenance tiers are reference/exchange.md's table, row for row (the
// pure table is checked in test/risk/tiers.test.ts; this checks what a venue actually trades
// with, from its stored catalogue), and its maintenance margin at a few notionals worked by hand.
import { describe, expect, it } from 'vitest';
import { maintenanceMarginUnits } from '../../src-main/risk/margin.ts';
import { BTCUSDT_REFERENCE_TIERS } from '../helpers/btcusdt-reference-tiers.ts';
import { paperVenues } from './venues.ts';

const open = paperVenues();
const USDT = 100_000_000n;

describe("a venue's BTCUSDT tiers", () => {
  it('are the reference table: notional caps, MMR, cum and max leverage', () => {
    const v = open();
    const tiers = v.exchange.pair('BTCUSDT')!.row.brackets;
    expect(tiers.map((b) => [b.tier, b.floor, b.cap, b.mmr, b.cum, b.maxLeverage])).toEqual(BTCUSDT_REFERENCE_TIERS);
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
