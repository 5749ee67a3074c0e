// The order form's estimated liquidation price with the pair's maintenance tiers (as GET
// /fapi/v1/leverage lists them): the venue's figure, not the first tier's. Before, the form
// estimated every position with the first tier's rate and no maintenance amount, so a 1.5 BTC
// cross short it put at 102,874.6 was liquidated by the venue at 102,787.1.
import { describe, expect, it } from 'vitest';
import {
  crossBacking,
  liquidationPrice,
  preview,
  type Tier,
} from '../../src-renderer/src/features/order-entry/preview.ts';
import { createNotionalCapsStore } from '../../src-renderer/src/features/order-entry/notional-caps-store.ts';
import { symbolLiquidationPrice } from '../../src-main/risk/liquidation-price.ts';
import { BTCUSDT_BRACKETS } from '../../src-main/risk/tiers.ts';

// BTCUSDT's table (reference/exchange.md), as the store reads it from the leverage answer
const BTC: Tier[] = BTCUSDT_BRACKETS.map((b) => ({ cap: b.cap, mmr: b.mmr, cum: b.cum }));

describe('liquidationPrice with tiers', () => {
  it("takes each price's tier: the reference's 1 BTC at 60,000 liquidates in tier 2", () => {
    // given the first tier's rate, the tiers find tier 2 (57,236 USDT of notional): 0.5%, cum 50
    const long = { long: true, qty: 1, entry: 60_000, walletBacking: 3_000, mmr: 0.004, tiers: BTC };
    expect(liquidationPrice(long)).toBeCloseTo(57_236.18, 2);
    expect(liquidationPrice({ ...long, long: false })).toBeCloseTo(62_736.32, 2);
  });

  it('an isolated short whose price lies in tier 2: the venue priced it 105,048.1, the first tier 105,069.7', () => {
    const short = { long: false, qty: 0.6, entry: 95_900, walletBacking: 5_754, mmr: 0.004 };
    expect(liquidationPrice({ ...short, tiers: BTC })).toBeCloseTo((5_754 + 50 + 0.6 * 95_900) / 0.603, 6);
    expect(liquidationPrice(short)).toBeCloseTo((5_754 + 0.6 * 95_900) / 0.6024, 6);
  });

  it("equals the venue's price (risk/liquidation-price.ts) across tiers, one side or a hedge", () => {
    let seed = 7;
    const rnd = (): number => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    for (let n = 0; n < 400; n++) {
      const long = rnd() < 0.5;
      const qty = Math.round(rnd() ** 3 * 400_000) / 1000 + 0.001;
      const entry = 90_000 + rnd() * 10_000;
      const walletBacking = qty * entry * (0.01 + rnd() * 0.5);
      const hedged = rnd() < 0.3;
      const opposite = hedged
        ? { qty: Math.round(qty * rnd() * 900) / 1000 + 0.001, entry: 90_000 + rnd() * 10_000 }
        : null;
      const mine = liquidationPrice({ long, qty, entry, walletBacking, mmr: 0.004, tiers: BTC, opposite });
      const legs = [{ side: long ? 1 : -1, qty, entry } as const];
      const venue = symbolLiquidationPrice({
        legs: opposite ? [...legs, { side: long ? -1 : 1, qty: opposite.qty, entry: opposite.entry }] : legs,
        wallet: walletBacking,
        brackets: BTCUSDT_BRACKETS,
        mark: entry,
      });
      // the form shows none more than 100% from the entry; within that, the venue's price
      if (Number.isNaN(mine)) expect(venue === 0 || Math.abs(venue - entry) >= entry).toBe(true);
      else expect(mine).toBeCloseTo(venue, 4);
    }
  });
});

describe('the order form with tiers', () => {
  it("estimates a hedged cross short as the venue then shows it: 102,787.1, not the first tier's 102,874.6", () => {
    // hedge mode, cross, 20x: long 0.3 at 96,100 and short 0.1 at 95,900 on a 9,980.79 wallet; a
    // market short of 1.5 fills at the bid 95,900 (taker fee 71.925); the short's 1.6 BTC is in
    // tier 2 at the price, the long's 0.3 in tier 1
    const order = {
      side: 2,
      action: 'open',
      price: 95_900,
      marginPrice: 96_000,
      qty: 1.5,
      taker: true,
      leverage: 20,
      marginMode: 2,
      makerFee: 0.0002,
      takerFee: 0.0005,
      mmr: 0.004,
      available: 7_785.965,
      crossBacking: 9_980.79,
      position: { qty: 0.1, entry: 95_900, margin: 480 },
      opposite: { qty: 0.3, entry: 96_100 },
    } as const;
    const withTiers = preview({ ...order, tiers: BTC }).liquidation;
    expect(withTiers).toBeCloseTo((9_908.865 + 50 + 1.6 * 95_900 - 0.3 * 96_100) / (1.608 - 0.2988), 6);
    expect(withTiers.toFixed(1)).toBe('102787.1');
    expect(preview(order).liquidation.toFixed(1)).toBe('102874.6');
  });

  it("takes another pair's cross maintenance with its tier's amount: 40,358.5 as the venue, not 40,458.9", () => {
    // a cross ETH long of 40 at 3,405 (mark 3,400: 136,000 USDT, tier 2, 0.5% less 50) on a
    // 28,805.5 wallet; a market long of 0.5 BTC filling at 96,100 (fee 24.025). The form took the
    // ETH position's maintenance as 680 (its rate, no amount), 50 too much: 100.4 USDT off
    const eth = {
      symbol: 'ETHUSDT',
      position_side: 1,
      margin_mode: 2,
      quantity: 40,
      entry_price: 3_405,
      mark_price: 3_400,
      maintenance_margin_rate: 0.005,
      margin: 6_800,
    } as const;
    const ETH: Tier[] = [
      { cap: 50_000, mmr: 0.004, cum: 0 },
      { cap: 600_000, mmr: 0.005, cum: 50 },
    ];
    const notThis = () => false;
    const markOf = () => undefined;
    const backing = crossBacking(28_805.5, [eth], notThis, markOf, (s) => (s === 'ETHUSDT' ? ETH : undefined));
    expect(backing).toBeCloseTo(28_805.5 - 200 - 630, 9);
    expect(crossBacking(28_805.5, [eth], notThis, markOf)).toBeCloseTo(28_805.5 - 200 - 680, 9);
    const order = {
      side: 1,
      action: 'open',
      price: 96_100,
      marginPrice: 96_000,
      qty: 0.5,
      taker: true,
      leverage: 20,
      marginMode: 2,
      makerFee: 0.0002,
      takerFee: 0.0005,
      mmr: 0.004,
      available: 21_805.5,
      tiers: BTC,
    } as const;
    expect(preview({ ...order, crossBacking: backing }).liquidation.toFixed(1)).toBe('40358.5');
    expect(preview({ ...order, crossBacking: 28_805.5 - 200 - 680 }).liquidation.toFixed(1)).toBe('40458.9');
  });

  it("reads another pair's tiers once, and again only after a failed read", async () => {
    let reads = 0;
    let fail = true;
    const caps = createNotionalCapsStore({
      leverage: async (symbol: string) => {
        reads++;
        if (fail) throw new Error('no answer');
        return { symbol, leverage: 20, margin_mode: 2 as const, max_leverage: 125, max_notional: '1', brackets: [] };
      },
      setLeverage: async () => {
        throw new Error('not sent');
      },
    });
    await caps
      .getState()
      .actions.learnTiers('ETHUSDT')
      .catch(() => undefined);
    fail = false;
    await caps.getState().actions.learnTiers('ETHUSDT');
    await caps.getState().actions.learnTiers('ETHUSDT');
    expect(reads).toBe(2);
  });

  it('learns the tiers from the leverage answer', async () => {
    const answer = {
      symbol: 'BTCUSDT',
      leverage: 20,
      margin_mode: 2 as const,
      max_leverage: 125,
      max_notional: '100000000',
      brackets: [
        {
          tier: 1,
          notional_floor: '0',
          notional_cap: '50000',
          maintenance_margin_rate: '0.004',
          maintenance_amount: '0',
          max_leverage: 125,
        },
        {
          tier: 2,
          notional_floor: '50000',
          notional_cap: '600000',
          maintenance_margin_rate: '0.005',
          maintenance_amount: '50',
          max_leverage: 100,
        },
      ],
    };
    const caps = createNotionalCapsStore({ leverage: async () => answer, setLeverage: async () => answer });
    await caps.getState().actions.probe('BTCUSDT');
    expect(caps.getState().tiers.BTCUSDT).toEqual([
      { cap: 50_000, mmr: 0.004, cum: 0 },
      { cap: 600_000, mmr: 0.005, cum: 50 },
    ]);
  });
});
