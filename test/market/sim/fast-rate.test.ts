// The speed GET /fapi/v1/time answers while the simulated market is fast (docs/api.md, "Two
// clocks"): the rate the market clock runs at, measured, not the speed set for later. Before, a
// fast market at --speed 10000 answered speed 10000 while its clock ran 4 to 17 times the wall
// clock on a loaded host: the screen's funding countdown (projected at that speed) ran down in
// seconds and jumped back at each price push, and a bot projecting market_time overshot by hours.
import { describe, expect, it } from 'vitest';
import { SimulatedMarket } from '../../../src-main/market/sim/simulated-market.ts';
import { Simulator } from '../../../src-main/market/sim/simulator.ts';
import { testVenue } from './helpers.ts';

describe('a fast market’s rate', () => {
  it('is the market time run per wall ms, not the unused speed', async () => {
    const tv = testVenue({ seed: 2 });
    try {
      const { venue } = tv;
      const sim = new Simulator({ exchange: venue.exchange, clock: venue.clock, seed: 2 });
      // every step costs one ms of this wall clock: 100 ms of market time a wall ms, 100x
      let wall = 0;
      const market = new SimulatedMarket(sim, venue.clock, undefined, false, { wall: () => ++wall });
      // what GET /fapi/v1/time answers as speed (routes/time.ts: the market's rate, else the clock's speed)
      const answered = (): number => market.rate ?? venue.clock.speed;
      market.setSpeed(10_000);
      expect(answered()).toBe(10_000); // the clock's speed while not fast
      market.setFast(true);
      market.start();
      const from = sim.time;
      // a few seconds of this wall clock (bounded: the loop ends when the market has run 10 minutes)
      while (wall < 3_000 && sim.time < from + 600_000) await new Promise((r) => setTimeout(r, 5));
      expect(market.speed).toBe(10_000);
      expect(answered()).toBeLessThanOrEqual(100);
      expect(answered()).toBeGreaterThan(90);
      expect(wall).toBeGreaterThanOrEqual(3_000);
      market.stop();
    } finally {
      await tv.close();
    }
  }, 120_000);
});
