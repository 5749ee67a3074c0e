// The desktop's sleep guard (desktop/sleep-guard.ts) on a real venue with its simulated market and
// the real POST /api/v1/sim, wired as electron-main.ts wires it (sleepControl): fast mode switched
// on while the guard holds the market for a sleep must not keep the market paused after the wake.
// Before, the guard paused the clock; fast mode took that pause for the user's (its own pause of
// the clock counted one more), and GET /api/v1/sim said paused: true, fast: true for good.
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src-main/api/app.ts';
import { SleepGuard, sleepControl } from '../../src-main/desktop/sleep-guard.ts';
import { SimulatedMarket } from '../../src-main/market/sim/simulated-market.ts';
import { Simulator } from '../../src-main/market/sim/simulator.ts';
import { testVenue, type TestVenue } from '../market/sim/helpers.ts';

let tv: TestVenue;
let market: SimulatedMarket;
let app: FastifyInstance;
let guard: SleepGuard;

beforeEach(async () => {
  tv = testVenue({ seed: 7 });
  market = new SimulatedMarket(
    new Simulator({ exchange: tv.venue.exchange, clock: tv.venue.clock, seed: 7 }),
    tv.venue.clock,
  );
  Object.assign(tv.venue, { market });
  app = await buildApp({ venue: tv.venue, rateLimit: false });
  await app.ready();
  market.start();
  guard = new SleepGuard(sleepControl(tv.venue), 30_000);
});

afterEach(async () => {
  market.stop();
  await app.close();
  tv.close();
});

interface SimView {
  paused: boolean;
  fast: boolean;
  market_time: number;
}

async function sim(body?: object): Promise<SimView> {
  const r = await app.inject(
    body === undefined ? { method: 'GET', url: '/api/v1/sim' } : { method: 'POST', url: '/api/v1/sim', payload: body },
  );
  expect(r.statusCode, r.body).toBe(200);
  const { paused, fast, market_time } = r.json().data as SimView;
  return { paused, fast, market_time };
}

/** Market time moves by itself (fast mode runs on its own timers): polled for up to 5 s. */
async function moves(): Promise<boolean> {
  const from = (await sim()).market_time;
  for (let i = 0; i < 100; i++) {
    await new Promise((r) => setTimeout(r, 50));
    if ((await sim()).market_time > from) return true;
  }
  return false;
}

describe('the sleep guard and fast mode', () => {
  it('runs the market fast after the wake when fast mode was switched on during the hold', async () => {
    guard.suspend(0);
    expect(await sim({ fast: true })).toMatchObject({ paused: true, fast: true }); // still held: the machine slept
    guard.resume(); // the wake
    expect(await sim()).toMatchObject({ paused: false, fast: true });
    expect(await moves()).toBe(true);
  });

  it('resumes on the watchdog after fast mode was switched on and off during the hold', async () => {
    guard.suspend(0);
    await sim({ fast: true });
    await sim({ fast: false });
    guard.tick(30_000); // no resume event came
    expect(await sim()).toMatchObject({ paused: false, fast: false });
    const before = (await sim()).market_time;
    tv.advanceWall(1_000);
    expect((await sim()).market_time).toBe(before + 1_000);
  });

  it("holds a fast market over a sleep, and keeps the user's pause asked for during the hold", async () => {
    await sim({ fast: true });
    guard.suspend(0);
    expect(await sim()).toMatchObject({ paused: true, fast: true });
    await sim({ paused: true }); // the user's own pause, while held
    guard.resume();
    expect(await sim()).toMatchObject({ paused: true, fast: true });
    expect(await sim({ paused: false })).toMatchObject({ paused: false, fast: true });
  });

  it('pauses the clock itself on a venue without a simulated market (--no-sim)', () => {
    const clock = tv.venue.clock;
    expect(sleepControl({ clock, market: null })).toBe(clock);
  });
});
