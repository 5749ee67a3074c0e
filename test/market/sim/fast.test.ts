// Fast mode: the simulated market runs as fast as the CPU allows with every step simulated, the
// market clock following the simulation, so a fast run is reproducible from its seed (and start).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCli } from '../../../src-main/cli-args.ts';
import { SimulatedMarket } from '../../../src-main/market/sim/simulated-market.ts';
import { Simulator } from '../../../src-main/market/sim/simulator.ts';
import { openVenue } from '../../../src-main/venue.ts';
import { T0, testVenue } from './helpers.ts';

const MINUTES = 3;

/** Every trade of a fast run's first MINUTES of market time, as text lines; the wall clock never moves. */
async function fastTape(seed: number): Promise<{ lines: string[]; steps: number; skips: number; clockAhead: boolean }> {
  const tv = testVenue({ seed });
  try {
    const { venue } = tv;
    const sim = new Simulator({ exchange: venue.exchange, clock: venue.clock, seed });
    const lines: string[] = [];
    const end = T0 + MINUTES * 60_000;
    venue.exchange.events.on('trade', (e) => {
      if (e.time <= end) lines.push(`${e.symbol} ${e.time} ${e.priceTicks} ${e.qtyLots} ${e.takerSide}`);
    });
    const market = new SimulatedMarket(sim, venue.clock);
    market.setFast(true);
    market.start();
    expect(market.fast).toBe(true);
    expect(market.paused).toBe(false);
    while (sim.time < end) await new Promise((r) => setTimeout(r, 20));
    market.stop();
    return {
      lines,
      steps: sim.stats.steps,
      skips: sim.stats.skips,
      clockAhead: venue.clock.now() >= sim.time && venue.clock.now() <= sim.stampTime,
    };
  } finally {
    tv.close();
  }
}

describe('fast mode', () => {
  it('runs every step with the wall clock standing still; two runs of one seed print the same tape, another seed another', async () => {
    const a = await fastTape(5);
    const b = await fastTape(5);
    const c = await fastTape(6);
    expect(a.skips).toBe(0);
    expect(a.steps).toBeGreaterThanOrEqual((MINUTES * 60_000) / 100);
    expect(a.clockAhead).toBe(true); // the market clock followed the simulation
    expect(a.lines.length).toBeGreaterThan(1000);
    expect(b.lines).toEqual(a.lines);
    expect(c.lines).not.toEqual(a.lines);
  }, 120_000);

  it('pauses and resumes while fast, and hands back to the clock at the time reached', async () => {
    const tv = testVenue({ seed: 3 });
    try {
      const { venue } = tv;
      const sim = new Simulator({ exchange: venue.exchange, clock: venue.clock, seed: 3 });
      const market = new SimulatedMarket(sim, venue.clock);
      market.setFast(true);
      market.start();
      while (sim.time < T0 + 5_000) await new Promise((r) => setTimeout(r, 10));
      market.pause();
      expect(market.paused).toBe(true);
      await new Promise((r) => setTimeout(r, 30)); // a slice under way ends; then nothing moves
      const held = sim.time;
      await new Promise((r) => setTimeout(r, 60));
      expect(sim.time).toBe(held);
      market.resume();
      while (sim.time < held + 5_000) await new Promise((r) => setTimeout(r, 10));
      market.setFast(false);
      expect(market.fast).toBe(false);
      expect(market.paused).toBe(false);
      // the clock goes on from the market time reached, at its speed, with the wall
      const reached = venue.clock.now();
      expect(reached).toBeGreaterThanOrEqual(held + 5_000);
      tv.advanceWall(1_000);
      expect(venue.clock.now()).toBe(reached + 1_000);
      market.stop();
    } finally {
      tv.close();
    }
  }, 60_000);

  it('the CLI turns it on with --fast, an option of the simulated market only', () => {
    expect(parseCli(['--fast']).simFast).toBe(true);
    expect(parseCli([]).simFast).toBeUndefined();
    expect(() => parseCli(['--fast', '--replay', 'BTCUSDT@2025-01-06'])).toThrow(
      /--fast is an option of the simulated market/,
    );
  });

  it('--start sets the market time a new venue starts from: with --seed and --fast the tape follows from the command line', async () => {
    const argv = ['--seed', '5', '--start', '2025-01-06T00:00Z', '--fast'];
    const o = parseCli(argv);
    expect(o.simStart).toBe(T0);
    // two runs of the same command line, on different days of the wall clock
    const run = async (wallStart: number) => {
      let wall = wallStart;
      const venue = openVenue({ dataDir: ':memory:', seed: o.seed, start: o.simStart, wall: () => wall });
      try {
        expect(venue.clock.now()).toBe(T0);
        const sim = new Simulator({
          exchange: venue.exchange,
          clock: venue.clock,
          seed: o.seed!,
          symbols: ['ETHUSDT'],
        });
        const lines: string[] = [];
        venue.exchange.events.on('trade', (e) => lines.push(`${e.time} ${e.priceTicks} ${e.qtyLots} ${e.takerSide}`));
        const market = new SimulatedMarket(sim, venue.clock);
        market.setFast(o.simFast === true);
        market.start();
        while (sim.time < T0 + 20_000) await new Promise((r) => setTimeout(r, 10));
        market.stop();
        wall += 1;
        return lines.filter((l) => Number(l.split(' ')[0]) <= T0 + 20_000);
      } finally {
        venue.close();
      }
    };
    const a = await run(Date.UTC(2026, 10, 1));
    const b = await run(Date.UTC(2027, 2, 3));
    expect(a.length).toBeGreaterThan(100);
    expect(b).toEqual(a);
  }, 60_000);

  it('--start is refused where it cannot apply: a bad time, with --replay, or a data folder whose clock has run', async () => {
    expect(() => parseCli(['--start', '2025-13-01'])).toThrow(/--start must be a UTC time/);
    expect(() => parseCli(['--start', '2025-01-06', '--replay', 'BTCUSDT@2025-01-06'])).toThrow(
      /--start is an option of the simulated market/,
    );
    const dir = mkdtempSync(join(tmpdir(), 'perpdesk-start-'));
    try {
      await openVenue({ dataDir: dir, seed: 1, wall: () => T0 }).close();
      expect(() => openVenue({ dataDir: dir, seed: 1, start: T0, wall: () => T0 })).toThrow(
        /--start applies to a new data folder/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
