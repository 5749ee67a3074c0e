// The arbitrage of stale quotes on a coarse-tick pair (a tick of about 1 bp of the price, ONDO and
// ENA): it trades a move worth its cost, in a share of the stale queue, so the tape a client reads
// holds few minimum-size prints and keeps the sign of the flow. It used to trade every tick the fair
// price crossed, in about the exchange's minimum (maxLots a tick, a few USDT here): half the pair's
// prints were its, and their signs alternated as the fair price crossed a tick back and forth.
import { describe, expect, it } from 'vitest';
import { Simulator } from '../../../src-main/market/sim/simulator.ts';
import { signAcf, takerOrders, type TapeTrade } from '../../helpers/realism-stats.ts';
import { T0, testVenue } from './helpers.ts';

/**
 * Real reference: Binance USD-M TRXUSDT, 14 April 2025 (test/fixtures/binance/depth/
 * binance_usdm_TRXUSDT_2025-04-14_lasota/trade_stream.csv, a tick of 0.4 bp at 0.2546): 12 of its
 * 199 trades (6.0 %) are at most the minimum lot count (20 TRX, the 5 USDT minimum notional), 4 of
 * its 89 taker orders (4.5 %); its taker orders' lag-1 sign autocorrelation is +0.33.
 */
const REAL_MIN_SIZE_SHARE = 0.06;

describe('the arbitrage on a coarse-tick pair', () => {
  it('leaves few minimum-size prints on the tape, whose sign memory stays positive', () => {
    const tv = testVenue({ seed: 1, start: T0 + 15 * 3_600_000 });
    try {
      const sim = new Simulator({ exchange: tv.venue.exchange, clock: tv.venue.clock, seed: 1 });
      sim.runUntil(sim.time + 10 * 60_000);
      for (const symbol of ['ONDOUSDT', 'ENAUSDT']) {
        const s = sim.symbol(symbol)!;
        // a coarse tick: at least half a basis point of the price
        expect(s.limits.tick / s.pair.markPrice).toBeGreaterThan(0.00005);
        const tape: TapeTrade[] = tv.trades
          .filter((t) => t.symbol === symbol)
          .map((t) => ({ time: t.time, priceTicks: t.priceTicks, qtyLots: t.qtyLots, takerSide: t.takerSide }));
        expect(tape.length).toBeGreaterThan(1_000);
        expect(s.takers.stats.arbs).toBeGreaterThan(0); // the arbitrage still trades
        const orders = takerOrders(tape);
        const minSize = orders.filter((o) => o.qtyLots <= s.limits.floorLots(o.priceTicks)).length / orders.length;
        expect.soft(minSize, `${symbol}: share of minimum-size taker orders`).toBeLessThan(REAL_MIN_SIZE_SHARE);
        // positive, beyond two sampling sds (1 / sqrt(n), about 0.02 here)
        const [acf1] = signAcf(orders, [1]);
        expect.soft(acf1, `${symbol}: lag-1 sign autocorrelation of the taker orders`).toBeGreaterThan(0.05);
      }
      sim.dispose();
    } finally {
      tv.close();
    }
  }, 120_000);
});
