// Shared setup of the simulator tests: an in-memory venue on an injected wall clock, and a
// simulated market on a data folder of its own that a test stops and starts again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { SimulatedMarket } from '../../../src-main/market/sim/simulated-market.ts';
import type { TradeEvent } from '../../../src-main/trading/events.ts';
import { openVenue, type LocalVenue as Venue } from '../../../src-main/venue.ts';

export const T0 = Date.UTC(2025, 0, 6, 0, 0, 0); // a Monday, 00:00 UTC (a funding instant)

export interface TestVenue {
  venue: Venue;
  /** Moves the wall clock (and so the market clock, times speed). */
  advanceWall(ms: number): void;
  /** Every trade the exchange announced, in order. */
  trades: TradeEvent[];
  close(): void;
}

export function testVenue(opts: { seed?: number; start?: number; speed?: number } = {}): TestVenue {
  let wall = opts.start ?? T0;
  const venue = openVenue({ dataDir: ':memory:', seed: opts.seed ?? 1, speed: opts.speed, wall: () => wall });
  const trades: TradeEvent[] = [];
  venue.exchange.events.on('trade', (e) => trades.push({ ...e }));
  return {
    venue,
    advanceWall(ms: number) {
      wall += ms;
    },
    trades,
    close: () => venue.close(),
  };
}

export function tradingSymbols(venue: Venue): string[] {
  return [...venue.exchange.pairs.values()].filter((p) => p.row.status === 1).map((p) => p.row.symbol);
}

/** A service on the restart test's folder, its simulated market started, and one pair's simulator. */
export interface SimService {
  v: Venue;
  market: SimulatedMarket;
  s: NonNullable<ReturnType<SimulatedMarket['sim']['symbol']>>;
}

/**
 * For a restart test file: services on a data folder of their own (named `prefix`...) on one
 * injected wall clock from `start`, simulating with `seed`. `open(true)` makes the first (it
 * builds the history up to `start`), `open(false)` another on the same data after `stop`; `run`
 * drives the running one tick by tick (100 ms of wall time each), calling `each` once a second.
 * Every service is closed and the folder removed after each test.
 */
export function restartingSim(opts: { prefix: string; seed: number; start: number; symbol: string }): {
  open(first: boolean): SimService;
  stop(svc: SimService): Promise<void>;
  run(market: SimulatedMarket, ms: number, each?: () => void): void;
  /** Moves the wall clock on with no tick of the driver: the market time runs ahead of the simulation, as between two ticks. */
  idle(ms: number): void;
} {
  const venues: Venue[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const v of venues.splice(0)) await v.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  let wall = opts.start;
  let dataDir = '';
  return {
    open(first) {
      if (first) {
        dataDir = mkdtempSync(join(tmpdir(), opts.prefix));
        dirs.push(dataDir);
        wall = opts.start;
      }
      const v = openVenue({
        dataDir,
        simulate: true,
        seed: opts.seed,
        start: first ? opts.start : undefined,
        wall: () => wall,
      });
      venues.push(v);
      const market = v.market as SimulatedMarket;
      market.start();
      return { v, market, s: market.sim.symbol(opts.symbol)! };
    },
    async stop(svc) {
      await svc.v.close();
      venues.splice(venues.indexOf(svc.v), 1);
    },
    run(market, ms, each) {
      for (let t = 0; t < ms; t += 100) {
        wall += 100;
        market.catchUp();
        if (each !== undefined && t % 1_000 === 0) each();
      }
    },
    idle(ms) {
      wall += ms;
    },
  };
}
