// The book a client reads is not hollow: BTCUSDT's ladder holds prices at most of the first 20
// ticks and at 50 or more of the first 100 on each side most of the time (a real 2022 USD-M
// snapshot: 19 and 88), the levels behind the touch smaller than the best queue, and at least half
// the real snapshot's 2.63 M USDT of bids within 0.05 % of the best bid.
import { describe, expect, it } from 'vitest';
import { Simulator } from '../../../src-main/market/sim/simulator.ts';
import { median } from '../../helpers/realism-stats.ts';
import { T0, testVenue } from './helpers.ts';

describe('the ladder', () => {
  it('BTCUSDT: most of the first 20 ticks and 50 of 100 occupied each side, 1.3 M USDT within 0.05 % of the bid', () => {
    // 04h UTC on a Monday: a quiet hour
    const tv = testVenue({ seed: 8, start: T0 + 4 * 3_600_000 });
    try {
      const { venue } = tv;
      const sim = new Simulator({ exchange: venue.exchange, clock: venue.clock, seed: 8 });
      const s = sim.symbol('BTCUSDT')!;
      const book = s.pair.book;
      const { tick, lot } = s.limits;
      let full = 0;
      const near: number[] = [];
      const best: number[] = [];
      const behind: number[] = [];
      const samples = 120;
      for (let i = 0; i < samples; i++) {
        sim.runUntil(sim.time + 1000);
        const bids = book.topLevels(1, 200);
        const asks = book.topLevels(2, 200);
        const within = (ls: Array<[number, number]>, n: number) =>
          ls.filter(([p]) => Math.abs(p - ls[0][0]) < n).length;
        if (within(bids, 20) >= 16 && within(asks, 20) >= 16 && within(bids, 100) >= 50 && within(asks, 100) >= 50)
          full++;
        let usdt = 0;
        for (const [p, q] of book.topLevels(1, 2000))
          if ((bids[0][0] - p) / bids[0][0] <= 0.0005) usdt += p * tick * q * lot;
        near.push(usdt);
        best.push(bids[0][1], asks[0][1]);
        for (const [p, q] of [...bids, ...asks]) {
          const d = Math.abs(p - (p < asks[0][0] ? bids[0][0] : asks[0][0]));
          if (d >= 1 && d < 20) behind.push(q);
        }
      }
      expect(full / samples).toBeGreaterThan(0.5);
      expect(median(near)).toBeGreaterThan(2.63e6 / 2);
      expect(median(behind)).toBeLessThan(median(best));
      sim.dispose();
    } finally {
      tv.close();
    }
  }, 180_000);
});
