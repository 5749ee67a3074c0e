// The driver follows the virtual clock: pause, speed, bounded work per tick, the timer's lifecycle.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SimDriver } from '../../../src-main/market/sim/driver.ts';
import { Simulator } from '../../../src-main/market/sim/simulator.ts';
import { T0, testVenue } from './helpers.ts';

afterEach(() => {
  vi.useRealTimers();
});

function setup(speed = 1) {
  const tv = testVenue({ seed: 31, speed });
  // 250 ms steps (the default is 100 ms): the step counts below are written for them
  const sim = new Simulator({ exchange: tv.venue.exchange, clock: tv.venue.clock, seed: 31, stepMs: 250 });
  const seen: number[] = [];
  // no wall budget: these tests count full steps, whatever the machine's speed (the budget has its own test)
  const driver = new SimDriver(sim, tv.venue.clock, { onTick: (t) => seen.push(t), tickBudgetMs: Infinity });
  return { tv, sim, driver, seen, clock: tv.venue.clock };
}

describe('simulator driver', () => {
  it('steps up to the market clock; nothing while paused; more per tick when faster', () => {
    const { tv, sim, driver, seen, clock } = setup();
    try {
      tv.advanceWall(1000);
      expect(driver.tick()).toBe(4); // 1 s of market time at 250 ms steps
      expect(sim.time).toBe(T0 + 1000);
      expect(seen).toEqual([T0 + 1000]);
      clock.pause();
      tv.advanceWall(5000);
      expect(driver.tick()).toBe(0);
      expect(sim.time).toBe(T0 + 1000);
      clock.resume();
      clock.setSpeed(60);
      tv.advanceWall(1000);
      expect(driver.tick()).toBe(240);
      expect(sim.time).toBe(T0 + 61_000);
      // a partial step waits for the next tick
      tv.advanceWall(3);
      expect(driver.tick()).toBe(0);
      tv.advanceWall(2);
      expect(driver.tick()).toBe(1);
      expect(driver.stats.overloadTicks).toBe(0);
    } finally {
      tv.close();
    }
  });

  it('bounds the work of a tick far behind the clock, and still covers the span with trades', () => {
    const { tv, sim, driver, clock } = setup(10_000);
    try {
      tv.advanceWall(1000); // 10,000 s of market time in one tick
      const steps = driver.tick();
      expect(steps).toBeLessThanOrEqual(40);
      expect(driver.stats.overloadTicks).toBe(1);
      expect(clock.now() - sim.time).toBeLessThan(sim.stepMs);
      // every sample lands on the last step of a second, which must trade: trades spread over the span
      const btc = tv.trades.filter((t) => t.symbol === 'BTCUSDT').map((t) => t.time);
      expect(new Set(btc.map((t) => Math.floor((t - T0) / 1_000_000))).size).toBe(10);
      expect(sim.stats.errors).toBe(0);
      // and the market goes on normally once the clock slows down
      clock.setSpeed(1);
      const before = tv.trades.length;
      tv.advanceWall(2000);
      expect(driver.tick()).toBe(8);
      expect(tv.trades.length).toBeGreaterThan(before);
    } finally {
      tv.close();
    }
  });

  it('keeps the market time an overloaded tick thinned: consecutive ticks one span, behind while it samples', () => {
    const { tv, sim, driver, clock } = setup(10_000);
    try {
      expect(driver.behind).toBe(false);
      expect(driver.thinnedSpans()).toEqual([]);
      const start = sim.time;
      tv.advanceWall(1000); // 10,000 s of market time in one tick: sampled
      driver.tick();
      expect(driver.behind).toBe(true);
      tv.advanceWall(1000);
      driver.tick();
      // the two ticks thinned one stretch of market time, from where the first began to where the second left it
      expect(driver.thinnedSpans()).toEqual([{ from: start, to: sim.time }]);
      const end = sim.time;
      clock.setSpeed(1);
      tv.advanceWall(1000);
      expect(driver.tick()).toBe(4);
      expect(driver.behind).toBe(false); // caught up: the market is simulated in full again
      clock.setSpeed(10_000);
      tv.advanceWall(1000);
      driver.tick();
      const spans = driver.thinnedSpans();
      expect(spans).toHaveLength(2); // a full-speed tick in between: a second span
      expect(spans[0]).toEqual({ from: start, to: end });
      expect(spans[1]!.from).toBe(end + 1000);
      expect(spans[1]!.to).toBe(sim.time);
      expect(driver.stats.overloadTicks).toBe(3);
    } finally {
      tv.close();
    }
  });

  it('holds a tick to its wall budget when steps are slow: samples instead of holding the event loop', () => {
    const tv = testVenue({ seed: 33, speed: 100 });
    try {
      const sim = new Simulator({ exchange: tv.venue.exchange, clock: tv.venue.clock, seed: 33, stepMs: 100 });
      // every step made to cost at least 2 ms of wall time (a slow or busy machine)
      const realStep = sim.step.bind(sim);
      sim.step = () => {
        const t = performance.now();
        realStep();
        while (performance.now() - t < 2);
      };
      const driver = new SimDriver(sim, tv.venue.clock, { intervalMs: 50, tickBudgetMs: 25 });
      tv.advanceWall(50); // 5 s of market time: 50 steps, the step's cost not known yet
      expect(driver.tick()).toBe(50);
      expect(driver.stats.overloadTicks).toBe(0);
      for (let i = 0; i < 5; i++) {
        tv.advanceWall(50);
        // at most 25 ms / 2 ms = 12 steps a tick, and the tick still reaches the clock
        expect(driver.tick()).toBeLessThanOrEqual(12);
        expect(tv.venue.clock.now() - sim.time).toBeLessThan(sim.stepMs);
      }
      expect(driver.stats.overloadTicks).toBe(5);
      expect(sim.stats.errors).toBe(0);
      // a slow step never stops the market: at 1x every step is run again
      tv.venue.clock.setSpeed(1);
      for (let i = 0; i < 3; i++) {
        tv.advanceWall(100);
        expect(driver.tick()).toBe(1);
      }
      expect(driver.stats.overloadTicks).toBe(5);
    } finally {
      tv.close();
    }
  });

  it('measures a step by the steps alone: an expensive skip does not shrink the samples of the ticks after it', () => {
    const tv = testVenue({ seed: 34, speed: 10_000 });
    try {
      const sim = new Simulator({ exchange: tv.venue.exchange, clock: tv.venue.clock, seed: 34, stepMs: 100 });
      // a wall clock the test moves: a step costs 1 ms of it, a skip 100 ms (no timing of the machine)
      let wall = 0;
      vi.spyOn(performance, 'now').mockImplementation(() => wall);
      const realStep = sim.step.bind(sim);
      const realSkip = sim.skipTo.bind(sim);
      sim.step = () => {
        realStep();
        wall += 1;
      };
      sim.skipTo = (t: number) => {
        realSkip(t);
        wall += 100;
      };
      const driver = new SimDriver(sim, tv.venue.clock, {
        intervalMs: 50,
        maxStepsPerTick: 100,
        overloadSamples: 10,
        tickBudgetMs: 25,
      });
      // each tick: 500 s of market time, 5,000 steps: sampled; the budget allows 25 steps of 1 ms
      const steps: number[] = [];
      for (let i = 0; i < 5; i++) {
        tv.advanceWall(50);
        steps.push(driver.tick());
        expect(tv.venue.clock.now() - sim.time).toBeLessThan(sim.stepMs);
      }
      // every tick runs its 10 samples (a step's cost measured with the skips came to 111 ms, and
      // the ticks after the first ran 1 sample each)
      expect(steps).toEqual([10, 10, 10, 10, 10]);
      expect(driver.stats.overloadTicks).toBe(5);
      expect(sim.stats.errors).toBe(0);
    } finally {
      vi.restoreAllMocks();
      tv.close();
    }
  });

  it('runs on an unref timer until stopped; a failing tick is reported and the loop goes on', () => {
    vi.useFakeTimers();
    const tv = testVenue({ seed: 32 });
    try {
      const sim = new Simulator({ exchange: tv.venue.exchange, clock: tv.venue.clock, seed: 32, stepMs: 250 });
      const errors: unknown[] = [];
      const driver = new SimDriver(sim, tv.venue.clock, { intervalMs: 50, onError: (e) => errors.push(e) });
      driver.start();
      expect(driver.running).toBe(true);
      vi.spyOn(sim, 'runUntil').mockImplementationOnce(() => {
        throw new Error('boom');
      });
      for (let i = 0; i < 6; i++) {
        tv.advanceWall(50);
        vi.advanceTimersByTime(50);
      }
      expect(errors.map((e) => (e as Error).message)).toEqual(['boom']);
      expect(driver.stats.ticks).toBe(5);
      expect(sim.time).toBe(T0 + 250); // market time 300 ms: one whole step
      driver.stop();
      expect(driver.running).toBe(false);
      tv.advanceWall(500);
      vi.advanceTimersByTime(500);
      expect(driver.stats.ticks).toBe(5);
      expect(sim.time).toBe(T0 + 250);
      expect(() => driver.start()).toThrow(/stopped/);
    } finally {
      tv.close();
    }
  });
});
