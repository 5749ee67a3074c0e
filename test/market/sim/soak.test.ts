// Bounded soak: the driver in fast mode (every step simulated, as fast as the CPU allows) over a
// busy pair and two small ones; no error, nothing piles up, the books stay what their owners hold.
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

/** Market time: a warm-up, then the measured span. */
const WARMUP_MS = 60_000;
const SPAN_MS = 6 * 60_000;
const SYMBOLS = ['BTCUSDT', 'DOGEUSDT', '1000PEPEUSDT'];

describe('simulator soak', () => {
  it(`runs ${SPAN_MS / 60_000} min of market time in fast mode with heap growth under ${HEAP_BOUND_MB} MB and no error`, () => {
    const venue = openVenue({ dataDir: ':memory:', seed: 77, wall: () => T0 });
    try {
      const errors: unknown[] = [];
      const sim = new Simulator({
        exchange: venue.exchange,
        clock: venue.clock,
        seed: 77,
        symbols: SYMBOLS,
        onError: (e) => errors.push(e),
      });
      expect(sim.symbols.map((s) => s.symbol)).toEqual(SYMBOLS);
      const driver = new SimDriver(sim, venue.clock, { onError: (e) => errors.push(e) });
      // fast mode: the clock is paused and the driver moves it; its ticks are called here in turn
      venue.clock.pause();
      driver.setFast(true);
      let trades = 0;
      venue.exchange.events.on('trade', () => trades++);
      const runTo = (t: number) => {
        while (sim.time < t) driver.fastTick();
      };
      runTo(T0 + WARMUP_MS);
      const before = heapMb();
      const trades0 = trades;
      const t0 = sim.time;
      runTo(t0 + SPAN_MS);
      const growth = heapMb() - before;
      expect(errors).toEqual([]);
      expect(driver.stats.overloadTicks).toBe(0);
      expect(sim.stats.skips).toBe(0);
      expect(sim.stats.steps).toBe((sim.time - T0) / sim.stepMs);
      expect(venue.clock.now()).toBeGreaterThanOrEqual(sim.time);
      // every pair trades every second
      expect(trades - trades0).toBeGreaterThan(((sim.time - t0) / 1000) * sim.symbols.length);
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
  }, 120_000);
});
