// Same seed + same market times = the same market (trades, prices, candles), byte for byte,
// however wall time groups the steps.
import { describe, expect, it } from 'vitest';
import { SimDriver } from '../../../src-main/market/sim/driver.ts';
import { Simulator } from '../../../src-main/market/sim/simulator.ts';
import { T0, testVenue, type TestVenue } from './helpers.ts';

const STEPS = 4 * 90; // 90 s of market time

/** Steps a fresh venue through STEPS steps; returns every trade and every step's prices as text. */
function run(seed: number): { trades: string; prices: string; tv: TestVenue; sim: Simulator } {
  const tv = testVenue({ seed });
  const sim = new Simulator({ exchange: tv.venue.exchange, clock: tv.venue.clock, seed });
  const prices: unknown[] = [];
  for (let i = 0; i < STEPS; i++) {
    sim.step();
    for (const p of tv.venue.exchange.pairs.values())
      prices.push([p.row.symbol, p.markPrice, p.indexPrice, p.fundingRate, p.lastPriceTicks]);
  }
  return { trades: JSON.stringify(tv.trades), prices: JSON.stringify(prices), tv, sim };
}

describe('simulator determinism', () => {
  it('two fresh venues with the same seed produce identical trades and prices; another seed differs', () => {
    const a = run(42);
    const b = run(42);
    const c = run(43);
    try {
      expect(a.tv.trades.length).toBeGreaterThan(500);
      expect(a.trades).toBe(b.trades);
      expect(a.prices).toBe(b.prices);
      expect(c.trades).not.toBe(a.trades);
      expect(c.prices).not.toBe(a.prices);
      // trades carry their orders' arrival times inside the steps: ascending over all symbols, inside the run
      const times = a.tv.trades.map((t) => t.time);
      expect(times.every((t, i) => i === 0 || t >= times[i - 1])).toBe(true);
      expect(times.some((t) => t % a.sim.stepMs !== 0)).toBe(true);
      expect(times[0]).toBeGreaterThan(T0);
      expect(times[times.length - 1]).toBeLessThanOrEqual(T0 + STEPS * a.sim.stepMs);
    } finally {
      a.tv.close();
      b.tv.close();
      c.tv.close();
    }
  });

  it('a driver ticking at irregular wall intervals gives the same market as stepping straight through', () => {
    const speed = 25;
    const driven = testVenue({ seed: 9, speed });
    const straight = testVenue({ seed: 9, speed });
    try {
      const simD = new Simulator({ exchange: driven.venue.exchange, clock: driven.venue.clock, seed: 9 });
      const simS = new Simulator({ exchange: straight.venue.exchange, clock: straight.venue.clock, seed: 9 });
      // candles follow the simulation's time, not the raw clock (the start-up wiring does the same)
      driven.venue.klines.autoAdvance = false;
      straight.venue.klines.autoAdvance = false;
      // no wall budget: full steps whatever the machine's speed
      const driver = new SimDriver(simD, driven.venue.clock, {
        onTick: (t) => driven.venue.klines.advanceTo(t),
        tickBudgetMs: Infinity,
      });
      const gaps = [13, 50, 7, 120, 3, 250, 41, 1, 90, 600, 17];
      const end = T0 + 60_000;
      for (let i = 0; driven.venue.clock.now() < end; i++) {
        driven.advanceWall(gaps[i % gaps.length]);
        driver.tick();
      }
      expect(driver.stats.overloadTicks).toBe(0);
      expect(simD.time).toBeGreaterThanOrEqual(end - simD.stepMs);
      simS.runUntil(simD.time);
      expect(simS.time).toBe(simD.time);
      expect(driven.trades.length).toBeGreaterThan(100);
      expect(JSON.stringify(driven.trades)).toBe(JSON.stringify(straight.trades));
      straight.venue.klines.advanceTo(simS.stampTime);
      for (const interval of ['1s', '1m'] as const) {
        for (const symbol of ['BTCUSDT', 'WIFUSDT']) {
          const d = driven.venue.klines.klinesJson(symbol, interval, { limit: 100 });
          expect(d.length).toBeGreaterThan(100);
          expect(d).toBe(straight.venue.klines.klinesJson(symbol, interval, { limit: 100 }));
        }
      }
      for (const [symbol, p] of driven.venue.exchange.pairs) {
        const q = straight.venue.exchange.pair(symbol)!;
        expect([p.markPrice, p.indexPrice, p.lastPriceTicks, p.book.updateId]).toEqual([
          q.markPrice,
          q.indexPrice,
          q.lastPriceTicks,
          q.book.updateId,
        ]);
      }
    } finally {
      driven.close();
      straight.close();
    }
  });

  it('adding a symbol does not change the market of the others', () => {
    // the same seed with BTCUSDT's settings changed: every other symbol trades exactly the same
    const base = testVenue({ seed: 5 });
    const other = testVenue({ seed: 5 });
    try {
      const simA = new Simulator({ exchange: base.venue.exchange, clock: base.venue.clock, seed: 5 });
      const simB = new Simulator({
        exchange: other.venue.exchange,
        clock: other.venue.clock,
        seed: 5,
        params: { BTCUSDT: { takerRate: 7, volatility: 2 } },
      });
      simA.runUntil(T0 + 30_000);
      simB.runUntil(T0 + 30_000);
      const strip = (tv: TestVenue, symbol: string) =>
        JSON.stringify(
          tv.trades.filter((t) => t.symbol === symbol).map((t) => [t.priceTicks, t.qtyLots, t.takerSide, t.time]),
        );
      expect(strip(base, 'ETHUSDT')).toBe(strip(other, 'ETHUSDT'));
      expect(strip(base, 'DOGEUSDT')).toBe(strip(other, 'DOGEUSDT'));
      expect(strip(base, 'BTCUSDT')).not.toBe(strip(other, 'BTCUSDT'));
    } finally {
      base.close();
      other.close();
    }
  });
});
