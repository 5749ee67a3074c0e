// The simulator steps market time up to now in arrears (a driver tick every 50 ms of wall time,
// 100 ms steps whose takers arrive inside the step), while a user's command is stamped with the
// clock's now. No record may follow another with an earlier time: a fill never comes before its
// order. So the simulation stamps nothing earlier than the latest command (Exchange
// lastCommandTime), and a user's command first runs the steps that are due (SimDriver.catchUp).
import { describe, expect, it } from 'vitest';
import { SimDriver } from '../../../src-main/market/sim/driver.ts';
import { Simulator } from '../../../src-main/market/sim/simulator.ts';
import { placeBotOrder } from '../../helpers/exchange-commands.ts';
import { T0, testVenue } from './helpers.ts';

describe('the simulation after a command', () => {
  it('stamps nothing earlier than the command, whatever step it was behind', () => {
    const tv = testVenue({ seed: 5 });
    try {
      const { exchange, clock } = tv.venue;
      const sim = new Simulator({ exchange, clock, seed: 5 });
      sim.runUntil(T0 + 5_000);
      // the clock is 1.45 s ahead of the simulation: 14 steps are due and one is partial
      tv.advanceWall(6_450);
      const pair = exchange.pairs.get('BTCUSDT')!;
      const before = tv.trades.length;
      const placed = placeBotOrder(exchange, {
        symbol: 'BTCUSDT',
        side: 1,
        position_side: 1,
        position_action: 1,
        type: 1,
        // the best bid's ticks as they are (bid x tick as a float string can miss the tick: 95982.40000000001)
        price: pair.math.formatPrice(pair.book.bestBid()),
        qty: '0.010',
      });
      expect(placed.status).toBe(1); // resting at the best bid
      expect(exchange.lastCommandTime).toBe(T0 + 6_450);
      sim.runUntil(clock.now());
      tv.advanceWall(2_000);
      sim.runUntil(clock.now());
      const after = tv.trades.slice(before);
      expect(after.length).toBeGreaterThan(100); // 3.4 s of 12 pairs' flow
      const early = after.filter((t) => t.time < T0 + 6_450);
      expect(early).toEqual([]);
      for (let i = 1; i < after.length; i++) expect(after[i].time).toBeGreaterThanOrEqual(after[i - 1].time);
      // the flow of the 1.45 s the simulation was behind is there, at the command's time
      expect(after.filter((t) => t.time === T0 + 6_450).length).toBeGreaterThan(0);
      expect(sim.stats.errors).toBe(0);
    } finally {
      tv.close();
    }
  });

  it('a command of a simulated market first runs the steps that are due', () => {
    const tv = testVenue({ seed: 6 });
    const { exchange, clock } = tv.venue;
    const sim = new Simulator({ exchange, clock, seed: 6 });
    const driver = new SimDriver(sim, clock, { tickBudgetMs: Infinity });
    try {
      tv.advanceWall(1_234);
      driver.catchUp();
      expect(sim.time).toBe(T0); // not started: the venue's market runs only once started
      driver.start();
      driver.catchUp();
      expect(sim.time).toBe(T0 + 1_200); // the partial step waits
      tv.advanceWall(50);
      driver.catchUp();
      expect(sim.time).toBe(T0 + 1_200);
      tv.advanceWall(16);
      driver.catchUp();
      expect(sim.time).toBe(T0 + 1_300);
      driver.setFast(true); // fast mode: the clock follows the simulation, nothing is due
      tv.advanceWall(5_000);
      driver.catchUp();
      expect(sim.time).toBe(T0 + 1_300);
    } finally {
      driver.stop();
      tv.close();
    }
  });
});
