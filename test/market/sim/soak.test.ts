// Bounded soak: two hours of market time at 1000x through the driver; no error, nothing piles up.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { SimDriver } from '../../../src-main/market/sim/driver.ts';
import { LIQUIDITY_ACCOUNT, MAKER_ACCOUNT, Simulator, TAKER_ACCOUNT } from '../../../src-main/market/sim/simulator.ts';
import { openVenue } from '../../../src-main/venue.ts';
import { T0 } from './helpers.ts';

/** Live-heap growth allowed over the run (measured after a full GC; a run here stays within +-3 MB). */
const HEAP_BOUND_MB = 16;

// A full GC without --expose-gc on the command line (vitest's config is not ours to change).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapMb(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

describe('simulator soak', () => {
  // the richer market (crowd ladder, deep book, tens of trades a second) takes 2.5-5 min of a loaded 2-core machine
  it(`runs 2 h of market time at 1000x with heap growth under ${HEAP_BOUND_MB} MB and no error`, () => {
    let wall = T0;
    const venue = openVenue({ dataDir: ':memory:', seed: 77, speed: 1000, wall: () => wall });
    try {
      const errors: unknown[] = [];
      const sim = new Simulator({
        exchange: venue.exchange,
        clock: venue.clock,
        seed: 77,
        onError: (e) => errors.push(e),
      });
      const driver = new SimDriver(sim, venue.clock, { onError: (e) => errors.push(e) });
      let trades = 0;
      venue.exchange.events.on('trade', () => trades++);
      const tick = () => {
        wall += 50; // 50 s of market time per tick
        driver.tick();
      };
      for (let i = 0; i < 12; i++) tick(); // 10 minutes of warm-up
      const before = heapMb();
      const trades0 = trades;
      for (let i = 0; i < 144; i++) tick(); // 2 hours
      const growth = heapMb() - before;
      expect(errors).toEqual([]);
      expect(driver.stats.overloadTicks).toBe(0);
      expect(sim.time).toBe(T0 + 156 * 50_000);
      expect(trades - trades0).toBeGreaterThan(7200 * sim.symbols.length);
      expect(growth).toBeLessThan(HEAP_BOUND_MB);
      for (const s of sim.symbols) {
        // the book holds the maker's and the crowd's quotes and nothing else, each matching its records
        expect(s.pair.book.openOrderIds(MAKER_ACCOUNT).sort()).toEqual(s.maker.orderIds().sort());
        // the crowd learns of its fills at its next refresh: look at every price now (the last
        // step's takers may have filled some of its orders whole)
        s.touch.house.sync(1, 2_000_000_000);
        s.deep.house.sync(1, 2_000_000_000);
        const crowd = [...s.touch.house.orders.keys(), ...s.deep.house.orders.keys()];
        expect(s.pair.book.openOrderIds(LIQUIDITY_ACCOUNT).sort()).toEqual(crowd.sort());
        expect(s.pair.book.orderCount).toBe(2 * s.params.makerLevels + crowd.length);
        // the deep book stays near its configured size (a leak would grow it)
        expect(s.deep.counts[0]).toBeLessThan(3 * s.params.deepOrders + 10);
        expect(s.pair.book.openOrderIds(TAKER_ACCOUNT)).toEqual([]);
        expect(s.pair.book.audit()).toEqual([]);
      }
      expect(venue.exchange.botOrders()).toEqual([]); // need_cache false: nothing is tracked
    } finally {
      venue.close();
    }
  }, 600_000);
});
