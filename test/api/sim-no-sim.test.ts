// A venue without the simulated market (--no-sim) answered 404 / 1100 "No route" on GET and POST
// /api/v1/sim, so its running market clock could not be read, paused or sped up there. The route
// answers for the clock alone: speed and paused act on it, fast is refused (a simulated market's
// mode), and it has no simulated pairs to describe.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.ts';

const T0 = Date.parse('2025-03-05T10:00:00Z');
let W = T0;
let t: TestApp;

beforeAll(async () => {
  t = await makeApp({ simulate: false, seed: 7, wall: () => W }, { rateLimit: false });
});
afterAll(async () => t?.close());

const get = async () => (await t.app.inject({ method: 'GET', url: '/api/v1/sim' })).json();
const post = (payload: object) => t.app.inject({ method: 'POST', url: '/api/v1/sim', payload });

describe('/api/v1/sim without the simulated market', () => {
  it('GET reads the market clock; POST pauses, resumes and speeds it', async () => {
    const read = await get();
    expect(read.code).toBe(0);
    expect(read.data).toEqual({
      seed: 7,
      speed: 1,
      paused: false,
      fast: false,
      market_time: T0,
      sim_time: T0,
      step_ms: 0,
      overload: null,
      symbols: [],
    });

    const paused = await post({ paused: true });
    expect(paused.statusCode).toBe(200);
    expect(paused.json().data.paused).toBe(true);
    W += 5_000;
    expect(t.venue.clock.now()).toBe(T0);

    const fast = (await post({ paused: false, speed: 10 })).json().data;
    expect(fast).toMatchObject({ paused: false, speed: 10, market_time: T0 });
    W += 1_000;
    expect(t.venue.clock.now()).toBe(T0 + 10_000);
    expect((await get()).data).toMatchObject({ speed: 10, market_time: T0 + 10_000, sim_time: T0 + 10_000 });
  });

  it('POST fast is refused: only a simulated market has a fast mode (400 / 1001), nothing changes', async () => {
    const before = (await get()).data;
    const r = await post({ fast: true, speed: 2 });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ code: 1001, data: null });
    expect(r.json().message).toMatch(/only a simulated market has a fast mode/);
    expect((await get()).data).toEqual(before);
  });
});
