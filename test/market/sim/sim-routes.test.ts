// GET /api/v1/sim (public) and POST /api/v1/sim (loopback only): envelope, schema checks, clock control.
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import simRoutes from '../../../src-main/api/routes/sim.ts';
import { buildApp } from '../../../src-main/api/app.ts';
import type { MarketSource } from '../../../src-main/market/market-source.ts';
import { SimulatedMarket } from '../../../src-main/market/sim/simulated-market.ts';
import { Simulator } from '../../../src-main/market/sim/simulator.ts';
import { T0, testVenue, tradingSymbols, type TestVenue } from './helpers.ts';
import { RestClient } from '../../../src-shared/sdk/rest-client.ts';

let tv: TestVenue;
let app: FastifyInstance;
let sim: Simulator;

beforeEach(async () => {
  tv = testVenue({ seed: 99 });
  sim = new Simulator({ exchange: tv.venue.exchange, clock: tv.venue.clock, seed: 99 });
  // the venue's market: the application registers the route for it
  Object.assign(tv.venue, { market: new SimulatedMarket(sim, tv.venue.clock) });
  app = await buildApp({ venue: tv.venue, rateLimit: false });
  await app.ready();
});

afterEach(async () => {
  await app.close();
  tv.close();
});

const post = (payload: unknown, remoteAddress?: string) =>
  app.inject({ method: 'POST', url: '/api/v1/sim', payload: payload as object, remoteAddress });

describe('/api/v1/sim', () => {
  it('GET shows the seed, the clock and every trading symbol with its settings', async () => {
    sim.runUntil(T0 + 2000);
    const r = await app.inject({ method: 'GET', url: '/api/v1/sim' });
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body.code).toBe(0);
    const d = body.data;
    expect(d).toMatchObject({ seed: 99, speed: 1, paused: false, market_time: T0, sim_time: T0 + 2000, step_ms: 100 });
    expect(d.symbols.map((s: { symbol: string }) => s.symbol)).toEqual(tradingSymbols(tv.venue));
    const btc = d.symbols.find((s: { symbol: string }) => s.symbol === 'BTCUSDT');
    const doge = d.symbols.find((s: { symbol: string }) => s.symbol === 'DOGEUSDT');
    expect(btc.volatility).toBeLessThan(doge.volatility); // BTC calmer than a meme
    expect(btc.maker_levels).toBe(10);
    expect(btc.venues.map((v: { name: string }) => v.name)).toEqual(['alpha', 'bravo', 'charlie']);
    expect(btc.index_price).toBeGreaterThan(0);
    expect(btc.funding_rate).toBe(0.0001);
    expect(Object.keys(btc).sort()).toEqual([
      'current_volatility',
      'funding_rate',
      'index_price',
      'jumps_per_day',
      'maker_depth_notional',
      'maker_levels',
      'mark_price',
      'symbol',
      'taker_median_notional',
      'taker_rate',
      'venues',
      'volatility',
    ]);
  });

  it('GET shows the overload sampling: behind now, the ticks and market ms thinned and their spans', async () => {
    const get = async () => (await app.inject({ method: 'GET', url: '/api/v1/sim' })).json().data;
    expect((await get()).overload).toEqual({ behind: false, thinned_ticks: 0, thinned_ms: 0, spans: [] });
    const market = new SimulatedMarket(sim, tv.venue.clock);
    const other = await buildApp({ venue: Object.assign(tv.venue, { market }), rateLimit: false });
    await other.ready();
    try {
      market.start();
      tv.venue.clock.setSpeed(10_000);
      const from = sim.time;
      tv.advanceWall(1000); // 10,000 s of market time for one tick: more than it may simulate in full
      market.catchUp();
      const o = (await other.inject({ method: 'GET', url: '/api/v1/sim' })).json().data.overload;
      expect(o.behind).toBe(true);
      expect(o.thinned_ticks).toBe(1);
      expect(o.thinned_ms).toBeGreaterThan(9_000_000);
      expect(o.spans).toEqual([{ from, to: sim.time }]);
    } finally {
      market.stop();
      await other.close();
    }
  });

  it('POST sets the speed and pauses / resumes the market clock', async () => {
    let r = await post({ speed: 1000 });
    expect(r.statusCode).toBe(200);
    expect(r.json().data).toMatchObject({ speed: 1000, paused: false });
    expect(tv.venue.clock.speed).toBe(1000);
    tv.advanceWall(10);
    expect(tv.venue.clock.now()).toBe(T0 + 10_000);

    r = await post({ paused: true });
    expect(r.json().data).toMatchObject({ speed: 1000, paused: true, market_time: T0 + 10_000 });
    tv.advanceWall(10);
    expect(tv.venue.clock.now()).toBe(T0 + 10_000); // stands still

    r = await post({ paused: false, speed: 0.5 });
    expect(r.json().data).toMatchObject({ speed: 0.5, paused: false });
    tv.advanceWall(1000);
    expect(tv.venue.clock.now()).toBe(T0 + 10_500);
  });

  it('POST fast: true runs the market off the wall clock, fast: false hands it back', async () => {
    let r = await post({ fast: true });
    expect(r.statusCode).toBe(200);
    expect(r.json().data).toMatchObject({ fast: true, paused: false });
    const at = tv.venue.clock.now();
    tv.advanceWall(10_000);
    expect(tv.venue.clock.now()).toBe(at); // the simulation moves the clock now, not the wall
    r = await post({ paused: true });
    expect(r.json().data).toMatchObject({ fast: true, paused: true });
    r = await post({ fast: false, paused: false });
    expect(r.json().data).toMatchObject({ fast: false, paused: false });
    tv.advanceWall(1_000);
    expect(tv.venue.clock.now()).toBe(at + 1_000);
    expect((await app.inject({ method: 'GET', url: '/api/v1/sim' })).json().data.fast).toBe(false);
  });

  it('POST fast on a market that is not simulated is refused (400 / 1001)', async () => {
    const replayLike: MarketSource = {
      kind: 'replay',
      seed: 1,
      stepMs: 100,
      time: T0,
      now: () => T0,
      speed: 1,
      paused: true,
      setSpeed: () => {},
      pause: () => {},
      resume: () => {},
      view: () => [],
      start: () => {},
      stop: () => {},
      dispose: () => {},
    };
    const other = await buildApp({ venue: Object.assign(tv.venue, { market: replayLike }), rateLimit: false });
    // (the app's own /api/v1/sim on a replay source answers 1108; the clock's route under a prefix)
    await other.register(simRoutes, { market: replayLike, clock: tv.venue.clock, seed: 1, prefix: '/alone' });
    await other.ready();
    try {
      const r = await other.inject({ method: 'POST', url: '/alone/api/v1/sim', payload: { fast: true } });
      expect(r.statusCode).toBe(400);
      expect(r.json()).toMatchObject({ code: 1001, data: null });
      expect(r.json().message).toMatch(/fast/);
      expect((await other.inject({ method: 'GET', url: '/alone/api/v1/sim' })).json().data.fast).toBe(false);
      expect((await other.inject({ method: 'GET', url: '/api/v1/sim' })).json().code).toBe(1108);
    } finally {
      await other.close();
    }
  });

  it('POST refuses bad input with the envelope and changes nothing', async () => {
    const cases: Array<[unknown, number]> = [
      [{ speed: 0.05 }, 1001],
      [{ speed: 10_001 }, 1001],
      [{ speed: 'fast' }, 1001],
      [{ paused: 'maybe' }, 1001],
      [{ fast: 'yes' }, 1001],
      [{ speed: 2, turbo: true }, 1003],
      [{}, 1001],
    ];
    for (const [payload, code] of cases) {
      const r = await post(payload);
      expect(r.statusCode, JSON.stringify(payload)).toBe(400);
      const b = r.json();
      expect(b, JSON.stringify(payload)).toMatchObject({ code, data: null });
      expect(typeof b.message).toBe('string');
    }
    const raw = await app.inject({
      method: 'POST',
      url: '/api/v1/sim',
      payload: '{"speed":',
      headers: { 'content-type': 'application/json' },
    });
    expect(raw.statusCode).toBe(400);
    expect(raw.json().data).toBeNull();
    // an empty body names the fields the route takes
    expect((await post({})).json().message).toBe("Empty body: give at least one of 'speed', 'paused', 'fast'");
    expect(tv.venue.clock.speed).toBe(1);
    expect(tv.venue.clock.paused).toBe(false);
  });

  it('POST answers loopback callers only', async () => {
    const r = await post({ speed: 5 }, '192.168.1.20');
    expect(r.statusCode).toBe(403);
    expect(r.json()).toMatchObject({ code: 2102, data: null });
    expect(tv.venue.clock.speed).toBe(1);
    const g = await app.inject({ method: 'GET', url: '/api/v1/sim', remoteAddress: '192.168.1.20' });
    expect(g.statusCode).toBe(200); // reading is public
  });
});

describe('GET /fapi/v1/time on a simulated market', () => {
  it('says paused only when the market is: not while a fast market runs its clock itself', async () => {
    const market = new SimulatedMarket(sim, tv.venue.clock);
    const timeApp = await buildApp({ venue: { ...tv.venue, market }, rateLimit: false });
    await timeApp.ready();
    try {
      const time = async () => (await timeApp.inject({ method: 'GET', url: '/fapi/v1/time' })).json().data;
      expect(await time()).toMatchObject({ paused: false });
      market.setFast(true);
      expect(tv.venue.clock.paused).toBe(true); // the clock is held off the wall all through fast mode
      expect(await time()).toMatchObject({ paused: false });
      market.pause();
      expect(await time()).toMatchObject({ paused: true });
      market.resume();
      market.setFast(false);
      expect(await time()).toMatchObject({ paused: false });
    } finally {
      await timeApp.close();
    }
  });

  it("the SDK's setSim takes every field the route takes, fast included, and sim() reads fast back", async () => {
    const fetchViaInject = (async (input: string | URL | Request, init?: RequestInit) => {
      const u = new URL(String(input));
      const r = await app.inject({
        method: (init?.method ?? 'GET') as 'GET',
        url: u.pathname + u.search,
        headers: (init?.headers ?? {}) as Record<string, string>,
        payload: init?.body === undefined || init?.body === null ? undefined : String(init.body),
      });
      return new Response(r.body, { status: r.statusCode, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    const api = new RestClient({ baseUrl: 'http://127.0.0.1:1', fetch: fetchViaInject });
    expect((await api.sim()).fast).toBe(false);
    const on = await api.setSim({ fast: true });
    expect(on.fast).toBe(true);
    expect((await api.setSim({ fast: false, speed: 3 })).fast).toBe(false);
    expect(tv.venue.clock.speed).toBe(3);
  });
});
