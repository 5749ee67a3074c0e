// Liquidations in a replay with the insurance fund (docs/replay.md "Mark, index, funding"): on the
// 1m BTCUSDT klines of 2021-05-16..18 (real data), a 20x isolated long and a 20x cross long too
// large for the book around the print that liquidates them: the liquidation's IOC takes the
// book down to the bankruptcy price, the rest is closed at the bankruptcy price against the
// fund (close type 6), and the fund moves by exactly (mark - bankruptcy price) x that rest, the
// mark being the price of the path print that set the liquidation off, read from the CSV, plus
// the liquidation clearance fees the fund receives (what the IOC left of each margin, at most
// 1.25 % of the notional closed).
// The dataset's tiers are edited in the catalogue to one tier (20x up to any notional) so such a
// position can be opened.
import { placeOrder, setLeverage, setMarginMode, upsertAccount } from '../helpers/exchange-commands.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloseType, MarginMode, PositionSide, Side } from '../../src-shared/enums.ts';
import { KLINES, replayVenue, type ReplayVenue } from './harness.ts';

const UNIT = 100_000_000n;
const START = Date.UTC(2021, 4, 16);
const M1 = path.join(KLINES, 'binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv');

/** The path prints' prices by time (docs/replay.md "Klines only"), in ticks of 0.01. */
function printTicks(): Map<number, number> {
  const out = new Map<number, number>();
  for (const line of readFileSync(M1, 'utf8').trim().split('\n').slice(1)) {
    const f = line.split(',');
    const [t, o, h, l, c] = [Number(f[0]), f[1], f[2], f[3], f[4]];
    const tk = (x: string): number => Math.round(Number(x) * 100);
    const path4 = tk(h) - tk(o) <= tk(o) - tk(l) ? [o, h, l, c] : [o, l, h, c];
    for (let i = 0; i < 4; i++) out.set(t + i * 15_000, tk(path4[i]));
  }
  return out;
}

describe('isolated and cross liquidations with the insurance fund', () => {
  let v: ReplayVenue;
  let fundBefore: bigint;
  const accts: Record<string, number> = {};
  /** Each position's size, lots. */
  const size: Record<string, number> = {};
  beforeAll(async () => {
    v = await replayVenue(
      [{ paths: [M1], opts: { market: 'spot', symbol: 'BTCUSDT', kind: 'klines', interval: '1m' } }],
      { symbols: ['BTCUSDT'], start: START },
      () => 0,
      (ds) => {
        const d = ds.list()[0];
        ds.editSpecs(d.id, { ...d.specs, tiers: [{ cap: null, maxLeverage: 20, mmr: 0.005 }] });
      },
    );
    v.market.seek(START + 60_000);
    for (const [key, mode] of [
      ['iso', MarginMode.ISOLATED],
      ['cross', MarginMode.CROSS],
    ] as const) {
      const a = upsertAccount(
        v.exchange,
        { apiKey: key, apiSecret: 's', kind: 'user', balance: 1_000_000n * UNIT },
        0,
      ).id;
      setMarginMode(v.exchange, a, 'BTCUSDT', mode);
      setLeverage(v.exchange, a, 'BTCUSDT', 20);
      accts[key] = a;
    }
    // longs several times what the book shows near the touch: market buys a print apart, each
    // taking what the synthetic book shows (the rest expires), as large as the margin allows
    for (let i = 0; i < 12; i++) {
      for (const key of ['iso', 'cross']) {
        for (const qty of ['400', '200', '100', '50', '25']) {
          try {
            const r = placeOrder(v.exchange, accts[key], {
              symbol: 'BTCUSDT',
              side: Side.BUY,
              position_side: PositionSide.LONG,
              position_action: 1,
              type: 2,
              qty: `${qty}.000000`,
            });
            expect([3, 6], key).toContain(r.status);
            break;
          } catch (err) {
            if (!String(err).includes('margin')) throw err; // more than the margin allows: a smaller one
          }
        }
      }
      v.market.step(15_000);
    }
    for (const key of ['iso', 'cross'])
      size[key] = Math.round(Number(v.exchange.positions(accts[key])[0].quantity) * 1e6);
    fundBefore = v.exchange.insuranceFund();
    v.market.seek(v.market.status().until);
    v.trading.group.commitNow();
  }, 120_000);
  afterAll(() => v?.close());

  it('each is liquidated, the rest closed at the bankruptcy price, and the fund moves by (mark - BP) x the rest + the clearance fees', () => {
    const prints = printTicks();
    let expected = 0n;
    for (const key of ['iso', 'cross']) {
      const a = accts[key];
      const closed = v.trading.closedPositions({ accountId: a, limit: 10 });
      expect(closed, key).toHaveLength(1);
      // closed by the liquidation: its IOC (4), then the rest at the bankruptcy price (6) last
      expect([CloseType.LIQUIDATION, CloseType.BANKRUPTCY], key).toContain(closed[0].closeType);
      const fills = v.trading.trades({ accountId: a, limit: 1000 }).filter((t) => t.isClose);
      // the IOC's fills pay the taker fee; the close at the bankruptcy price pays none
      const market = fills.filter((t) => t.fee !== 0n);
      const bankrupt = fills.filter((t) => t.fee === 0n);
      expect(bankrupt, key).toHaveLength(1);
      const b = bankrupt[0];
      const mark = prints.get(b.createdAt);
      expect(mark, `${key}: a path print at the liquidation's time`).toBeDefined();
      // the IOC took the book down to the bankruptcy price and no further
      for (const t of market) expect(t.priceTicks, key).toBeGreaterThanOrEqual(b.priceTicks);
      expect(market.reduce((s, t) => s + t.qtyLots, 0) + b.qtyLots, key).toBe(size[key]);
      expect(b.qtyLots, key).toBeGreaterThan(0);
      expected += BigInt(mark! - b.priceTicks) * BigInt(b.qtyLots);
      // the clearance fee: rate x the notional closed, capped by what the closes left of the
      // margin (the IOC's fills above the bankruptcy price, less their taker fees)
      const fees = v.trading.liquidationFees({ accountId: a, limit: 10 });
      expect(fees, key).toHaveLength(1);
      const notional = fills.reduce((s, t) => s + t.quote, 0n);
      expect(fees[0].fee, key).toBeLessThanOrEqual((notional * 125n + 5_000n) / 10_000n);
      expect(fees[0].fee, key).toBeGreaterThan(0n);
      expected += fees[0].fee;
    }
    expect(v.exchange.insuranceFund() - fundBefore).toBe(expected);
    expect(expected).not.toBe(0n);
  });
});
