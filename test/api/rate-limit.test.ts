// Rate limits per IP and per API key, with an injected clock (no waiting).
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src-main/api/app.ts';
import { signedQuerystring } from '../../src-main/api/auth.ts';
import { ok } from '../../src-main/api/envelope.ts';
import {
  DEFAULT_RATE_LIMITS,
  FixedWindowLimiter,
  limitMessage,
  resolveRateLimits,
  type RateLimitOptions,
} from '../../src-main/api/rate-limit.ts';
import type { Venue } from '../../src-main/services/venue.ts';
import { openVenue } from '../../src-main/venue.ts';
import { Errors } from '../../src-shared/errors.ts';
import { buildSignedQuery } from '../../src-shared/sign.ts';

const T0 = 1_700_000_000_000;
let clock = T0;
const open: Array<{ app: FastifyInstance; venue: Venue }> = [];

async function makeApp(rateLimit: RateLimitOptions | false | undefined): Promise<FastifyInstance> {
  clock = T0;
  const venue = openVenue({ dataDir: ':memory:' });
  venue.accounts.upsert({ apiKey: 'key_aaaa_01', apiSecret: 'secret_aaaa_01', kind: 'user', balance: 1n }, T0);
  venue.accounts.upsert({ apiKey: 'key_bbbb_02', apiSecret: 'secret_bbbb_02', kind: 'user', balance: 1n }, T0);
  const app = await buildApp({ venue, now: () => clock, rateLimit });
  app.get(
    '/fapi/v1/test/signed',
    { config: { auth: 'signed' }, schema: { querystring: signedQuerystring() } },
    async () => ok(1),
  );
  app.get('/fapi/v1/test/klines-style', { config: { errorStyle: 'klines' } }, async () => [1]);
  await app.ready();
  open.push({ app, venue });
  return app;
}

afterEach(async () => {
  for (const { app, venue } of open.splice(0)) {
    await app.close();
    venue.close();
  }
});

async function get(app: FastifyInstance, url: string, ip = '127.0.0.1', key?: string) {
  const r = await app.inject({ method: 'GET', url, remoteAddress: ip, headers: key ? { 'x-api-key': key } : {} });
  return { status: r.statusCode, body: JSON.parse(r.body), retryAfter: r.headers['retry-after'] };
}

function signed(key: 'a' | 'b'): { url: string; key: string } {
  const [k, s] = key === 'a' ? ['key_aaaa_01', 'secret_aaaa_01'] : ['key_bbbb_02', 'secret_bbbb_02'];
  return { url: '/fapi/v1/test/signed?' + buildSignedQuery({ timestamp: clock }, s), key: k };
}

describe('FixedWindowLimiter', () => {
  it('allows max per window, then tells the wait, then resets when the window ends', () => {
    let now = 1000;
    const l = new FixedWindowLimiter({ max: 3, windowMs: 10_000 }, () => now);
    expect([l.hit('a'), l.hit('a'), l.hit('a')]).toEqual([0, 0, 0]);
    expect(l.hit('a')).toBe(10_000);
    now += 2500;
    expect(l.hit('a')).toBe(7500);
    expect(l.hit('b')).toBe(0);
    now = 1000 + 9999;
    expect(l.hit('a')).toBe(1);
    now = 1000 + 10_000;
    expect(l.hit('a')).toBe(0);
    expect([l.hit('a'), l.hit('a'), l.hit('a')]).toEqual([0, 0, 10_000]);
  });

  it('resets a window exactly windowMs after its first request, sweeps aside', () => {
    let now = 0;
    const l = new FixedWindowLimiter({ max: 1, windowMs: 10_000 }, () => now);
    now = 5000;
    expect(l.hit('a')).toBe(0);
    now = 10_000; // a sweep runs here and must keep 'a', whose window is still open
    expect(l.hit('a')).toBe(5000);
    now = 14_999;
    expect(l.hit('a')).toBe(1);
    now = 15_000;
    expect(l.hit('a')).toBe(0);
    expect(l.hit('a')).toBe(10_000);
  });

  it('forgets idle callers after a window', () => {
    let now = 0;
    const l = new FixedWindowLimiter({ max: 1, windowMs: 100 }, () => now);
    for (let i = 0; i < 50; i++) l.hit(`ip${i}`);
    expect(l.size).toBe(50);
    now = 100;
    l.hit('new');
    expect(l.size).toBe(1);
  });
});

describe('options', () => {
  it('defaults to 6000 per 10 s per IP and 3000 per 10 s per key', () => {
    expect(DEFAULT_RATE_LIMITS).toEqual({
      perIp: { max: 6000, windowMs: 10_000 },
      perKey: { max: 3000, windowMs: 10_000 },
    });
    expect(resolveRateLimits(undefined)).toEqual(DEFAULT_RATE_LIMITS);
    expect(resolveRateLimits({})).toEqual(DEFAULT_RATE_LIMITS);
    expect(resolveRateLimits(false)).toEqual({ perIp: null, perKey: null });
    expect(resolveRateLimits({ perIp: false })).toEqual({ perIp: null, perKey: DEFAULT_RATE_LIMITS.perKey });
  });

  it('refuses nonsense limits', () => {
    expect(() => resolveRateLimits({ perIp: { max: 0, windowMs: 1000 } })).toThrow(/perIp/);
    expect(() => resolveRateLimits({ perKey: { max: 5, windowMs: 1.5 } })).toThrow(/perKey/);
  });

  it('states the limit in the message', () => {
    expect(limitMessage({ max: 1200, windowMs: 10_000 }, 'IP')).toBe('Too many requests: limit 1200 per 10 s per IP');
    expect(limitMessage({ max: 5, windowMs: 1500 }, 'API key')).toBe(
      'Too many requests: limit 5 per 1500 ms per API key',
    );
  });
});

describe('per-IP limit', () => {
  it('answers 429 / 4290 with the limit and Retry-After, and resets after the window', async () => {
    const app = await makeApp({ perIp: { max: 3, windowMs: 10_000 }, perKey: false });
    for (let i = 0; i < 3; i++) expect((await get(app, '/fapi/v1/time')).status).toBe(200);
    const r = await get(app, '/api/v1/symbols');
    expect(r.status).toBe(429);
    expect(r.body).toEqual({
      code: Errors.RATE_LIMITED.code,
      message: 'Too many requests: limit 3 per 10 s per IP',
      data: null,
    });
    expect(r.retryAfter).toBe('10');
    clock += 6500;
    expect((await get(app, '/fapi/v1/time')).retryAfter).toBe('4');
    // Another IP has its own budget.
    expect((await get(app, '/fapi/v1/time', '10.0.0.9')).status).toBe(200);
    clock = T0 + 10_000;
    expect((await get(app, '/fapi/v1/time')).status).toBe(200);
  });

  it('counts unknown /fapi paths but not docs, logos or the UI', async () => {
    const app = await makeApp({ perIp: { max: 1, windowMs: 10_000 }, perKey: false });
    expect((await get(app, '/fapi/v1/nothing')).status).toBe(404);
    expect((await get(app, '/fapi/v1/time')).status).toBe(429);
    for (let i = 0; i < 3; i++) {
      expect((await app.inject({ url: '/openapi.json' })).statusCode).toBe(200);
      expect((await app.inject({ url: '/logos/BTC.svg' })).statusCode).not.toBe(429);
      expect((await app.inject({ url: '/docs/' })).statusCode).not.toBe(429);
      expect((await app.inject({ url: '/' })).statusCode).toBe(200);
    }
  });

  it('keeps the klines error style: HTTP 200 with code 4290', async () => {
    const app = await makeApp({ perIp: { max: 1, windowMs: 10_000 }, perKey: false });
    expect((await get(app, '/fapi/v1/test/klines-style')).body).toEqual([1]);
    const r = await get(app, '/fapi/v1/test/klines-style');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ code: 4290, message: 'Too many requests: limit 1 per 10 s per IP' });
    expect(r.retryAfter).toBe('10');
  });

  it('uses the default of 6000 per 10 s; false turns the limits off', async () => {
    const app = await makeApp(undefined);
    for (let i = 0; i < 6000; i++) {
      const r = await app.inject({ url: '/fapi/v1/time' });
      if (r.statusCode !== 200) throw new Error(`request ${i + 1} answered ${r.statusCode}`);
    }
    const r = await get(app, '/fapi/v1/time');
    expect(r.status).toBe(429);
    expect(r.body.message).toBe('Too many requests: limit 6000 per 10 s per IP');

    const off = await makeApp(false);
    for (let i = 0; i < 6001; i++) {
      const x = await off.inject({ url: '/fapi/v1/time' });
      if (x.statusCode !== 200) throw new Error(`request ${i + 1} answered ${x.statusCode}`);
    }
  });
});

describe('per-key limit', () => {
  it('limits each API key on signed routes, with its own message', async () => {
    const app = await makeApp({ perIp: false, perKey: { max: 2, windowMs: 10_000 } });
    for (let i = 0; i < 2; i++) {
      const s = signed('a');
      expect((await get(app, s.url, '127.0.0.1', s.key)).body.code).toBe(0);
    }
    const s = signed('a');
    const r = await get(app, s.url, '::1', s.key);
    expect(r.status).toBe(429);
    expect(r.body.code).toBe(4290);
    expect(r.body.message).toBe('Too many requests: limit 2 per 10 s per API key');
    expect(r.retryAfter).toBe('10');
    // The other key is unaffected; public routes are not counted per key.
    const b = signed('b');
    expect((await get(app, b.url, '127.0.0.1', b.key)).body.code).toBe(0);
    expect((await get(app, '/fapi/v1/time', '127.0.0.1', s.key)).status).toBe(200);
    clock = T0 + 10_000;
    const again = signed('a');
    expect((await get(app, again.url, '127.0.0.1', again.key)).body.code).toBe(0);
  });

  it('does not count unknown keys', async () => {
    const app = await makeApp({ perIp: false, perKey: { max: 1, windowMs: 10_000 } });
    for (let i = 0; i < 3; i++) {
      expect((await get(app, signed('a').url, '127.0.0.1', 'no_such_key')).body.code).toBe(Errors.API_KEY_UNKNOWN.code);
    }
  });
});

describe('OpenAPI', () => {
  it('documents the 429 answer on every envelope route the per-IP limit covers', async () => {
    const app = await makeApp(undefined);
    const doc = JSON.parse((await app.inject({ url: '/openapi.json' })).body) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const missing: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      if (!path.startsWith('/api/') && !path.startsWith('/fapi/')) continue;
      for (const [method, op] of Object.entries(ops)) {
        const codes = Object.keys(op.responses);
        // the candlestick routes answer every error, 4290 included, inside their 200 (docs/api.md);
        // 431 and 408 are everywhere (Node refuses the headers, or their not coming in time, before
        // any route is known)
        const envelopeErrors = codes.some((c) => c.startsWith('4') && c !== '431' && c !== '408');
        if (envelopeErrors && !codes.includes('429')) missing.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('lists no 429 on the routes no limit covers (/admin), and a burst there is never refused', async () => {
    const app = await makeApp({ perIp: { max: 2, windowMs: 10_000 }, perKey: false });
    const doc = JSON.parse((await app.inject({ url: '/openapi.json' })).body) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const admin = Object.entries(doc.paths).filter(([p]) => p.startsWith('/admin/'));
    expect(admin.length).toBe(2); // accounts, whitelist
    for (const [path, ops] of admin)
      for (const [method, op] of Object.entries(ops))
        expect(op.responses, `${method} ${path}`).not.toHaveProperty('429');
    for (let i = 0; i < 5; i++) expect((await get(app, '/admin/v1/whitelist')).status).toBe(200);
  });

  it('answers complete_price over the limit with 429 / 4290, not its 7000', async () => {
    const app = await makeApp({ perIp: { max: 1, windowMs: 10_000 }, perKey: false });
    expect((await get(app, '/fapi/v1/insuranceBalance')).status).toBe(200);
    const r = await get(app, '/fapi/v1/complete_price?symbol=BTCUSDT');
    expect([r.status, r.body.code, r.retryAfter]).toEqual([429, Errors.RATE_LIMITED.code, '10']);
  });
});
