// Named cases of bad input: non-finite and loosely written numbers, unknown
// parameters on the routes that ignored them, required bodies. (The generated suite,
// generated-input.test.ts, covers every route; these pin the reported cases.)
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src-main/api/app.ts';
import { SimulatedMarket } from '../../src-main/market/sim/simulated-market.ts';
import { Simulator } from '../../src-main/market/sim/simulator.ts';
import { openVenue, type LocalVenue as Venue } from '../../src-main/venue.ts';
import { Errors } from '../../src-shared/errors.ts';
import { makeAccount, signed, type Creds } from '../helpers/signed.ts';

let app: FastifyInstance;
let venue: Venue;
let who: Creds;

beforeAll(async () => {
  venue = openVenue({ dataDir: ':memory:' });
  // a simulated market (never started) behind /api/v1/sim, for its whole answer
  Object.assign(venue, {
    market: new SimulatedMarket(new Simulator({ exchange: venue.exchange, clock: venue.clock, seed: 3 }), venue.clock),
  });
  app = await buildApp({ venue, rateLimit: false });
  await app.ready();
  who = makeAccount(venue, 'hardening');
});

afterAll(async () => {
  await app.close();
  await venue.close();
});

const get = async (url: string) => {
  const r = await app.inject({ method: 'GET', url });
  return { status: r.statusCode, body: JSON.parse(r.body) };
};

const NON_FINITE = ['Infinity', '-Infinity', '1e309', '-1e309', 'NaN'];
const LOOSE = ['0x10', '1e1', '+5', ' 1 ', '0005', '1.0', '10.', '', '9007199254740993'];

describe('numbers in the query are finite integers of one syntax', () => {
  it.each([...NON_FINITE, ...LOOSE])('signed history routes: limit=%j is 1001 naming limit', async (v) => {
    for (const path of ['/fapi/v1/myTrades', '/fapi/v1/allOrders', '/fapi/v1/position/history']) {
      const r = await signed(app, who, 'GET', path, { query: { limit: v } });
      expect({ path, status: r.status, code: r.body.code }).toEqual({
        path,
        status: 400,
        code: Errors.INVALID_PARAMETER.code,
      });
      expect(r.body.message).toContain("'limit'");
    }
  });

  it.each(NON_FINITE)('start_time / endTime = %j are 1001, not an empty page', async (v) => {
    const a = await signed(app, who, 'GET', '/fapi/v1/myTrades', { query: { start_time: v } });
    expect([a.status, a.body.code]).toEqual([400, Errors.INVALID_PARAMETER.code]);
    expect(a.body.message).toContain("'start_time'");
    const b = await signed(app, who, 'GET', '/fapi/v1/position/history', { query: { endTime: v } });
    expect([b.status, b.body.code]).toEqual([400, Errors.INVALID_PARAMETER.code]);
    expect(b.body.message).toContain("'endTime'");
  });

  it.each([...NON_FINITE, ...LOOSE])('public routes: %j is refused by name', async (v) => {
    const q = encodeURIComponent(v);
    const t = await get(`/fapi/v1/trades?symbol=BTCUSDT&limit=${q}`);
    expect([t.status, t.body.code]).toEqual([400, Errors.INVALID_PARAMETER.code]);
    expect(t.body.message).toContain("'limit'");
    const d = await get(`/fapi/v1/depth?symbol=BTCUSDT&limit=${q}`);
    expect([d.status, d.body.code]).toEqual([400, Errors.INVALID_PARAMETER.code]);
    const s = await get(`/api/v1/symbols?status=${q}`);
    expect([s.status, s.body.code]).toEqual([400, Errors.INVALID_PARAMETER.code]);
    // klines: HTTP 200 and the spec's 6004 for limit, 6000 for the times
    const k = await get(`/fapi/v1/klines?symbol=BTCUSDT&interval=1m&limit=${q}`);
    expect([k.status, k.body.code]).toEqual([200, Errors.KLINES_LIMIT_OUT_OF_RANGE.code]);
    const kt = await get(`/fapi/v1/klines?symbol=BTCUSDT&interval=1m&start_time=${q}&end_time=1`);
    expect([kt.status, kt.body.code]).toEqual([200, Errors.KLINES_INVALID_PARAMETER.code]);
    expect(kt.body.message).toContain('start_time');
  });

  it('the refusal says the syntax in words, not as the regular expression (docs/api.md, Errors)', async () => {
    const r = await signed(app, who, 'GET', '/fapi/v1/allOrders', { query: { limit: '01' } });
    expect(r.body.message).toBe(
      "Invalid query parameter 'limit': must be a whole number written plainly, such as 10 or -3 (no sign '+', exponent, hex, fraction, blanks or leading zeros)",
    );
  });

  it('the candlestick routes word a value that is no number at all the same way (it was "must be integer")', async () => {
    // the validator, which runs after the strict syntax check, replaced its words with its own
    const words =
      "must be a whole number written plainly, such as 10 or -3 (no sign '+', exponent, hex, fraction, blanks or leading zeros)";
    const k = await get('/fapi/v1/klines?symbol=BTCUSDT&interval=1m&start_time=abc&end_time=1');
    expect([k.status, k.body]).toEqual([
      200,
      { code: 6000, message: `Invalid parameter 'start_time': ${words} (got 'abc')` },
    ]);
    const d = await get('/api/v1/datasets/abc/klines?interval=1m');
    expect([d.status, d.body]).toEqual([200, { code: 6000, message: `Invalid parameter 'id': ${words}` }]);
  });

  it('the strict syntax still takes plain integers, 0 and negatives where the range allows', async () => {
    expect((await get('/fapi/v1/trades?symbol=BTCUSDT&limit=1')).body.code).toBe(0);
    expect((await get('/fapi/v1/trades?symbol=BTCUSDT&limit=0')).body.code).toBe(Errors.INVALID_PARAMETER.code);
    const r = await signed(app, who, 'GET', '/fapi/v1/myTrades', {
      query: { start_time: '0', end_time: '9007199254740991', limit: '500' },
    });
    expect(r.body.code).toBe(0);
    const neg = await signed(app, who, 'GET', '/fapi/v1/myTrades', { query: { start_time: '-1' } });
    expect(neg.body.message).toContain("'start_time'");
    expect(neg.body.message).toContain('>= 0');
  });
});

describe('numbers in JSON bodies are finite', () => {
  it.each(['1e309', '-1e309', '1e300', '9007199254740993'])('leverage %s is 1001 naming leverage', async (lit) => {
    const r = await signed(app, who, 'POST', '/fapi/v1/leverage', {
      rawBody: `{"symbol":"BTCUSDT","leverage":${lit}}`,
    });
    expect([r.status, r.body.code]).toEqual([400, Errors.INVALID_PARAMETER.code]);
    expect(r.body.message).toContain("'leverage'");
  });

  it('sim speed 1e309 is 1001 and leaves the clock alone', async () => {
    const r = await app.inject({
      method: 'POST',
      url: '/api/v1/sim',
      headers: { 'content-type': 'application/json' },
      payload: '{"speed":1e309}',
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toContain("'speed'");
    expect(venue.clock.speed).toBe(1);
  });
});

describe('unknown parameters are 1003 on every route', () => {
  it.each([
    ['GET', '/api/v1/symbols/BTCUSDT?foo=1'],
    ['GET', '/logos/BTC.svg?foo=1'],
    ['POST', '/admin/v1/accounts?foo=1'],
    ['PUT', '/admin/v1/whitelist?foo=1'],
    ['POST', '/api/v1/sim?foo=1'],
    ['POST', '/api/v1/session?foo=1'],
  ])('%s %s', async (method, url) => {
    const payload =
      method === 'PUT'
        ? { ips: ['127.0.0.1'] }
        : url.startsWith('/api/v1/sim')
          ? { paused: false }
          : url.startsWith('/api/v1/session')
            ? { token: 'x' }
            : {};
    const r = await app.inject({ method: method as 'GET', url, ...(method === 'GET' ? {} : { payload }) });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({
      code: Errors.UNKNOWN_PARAMETER.code,
      message: "Unknown query parameter 'foo'",
      data: null,
    });
  });
});

describe('a route that declares no body refuses one with anything in it (1003)', () => {
  const place = async (id: string) => {
    const r = await signed(app, who, 'POST', '/fapi/v1/orders', {
      json: {
        symbol: 'BTCUSDT',
        side: 1,
        position_side: 1,
        position_action: 1,
        type: 1,
        price: '90000.0',
        qty: '0.002',
        client_order_id: id,
      },
    });
    expect(r.body.code).toBe(0);
    return r.body.data.order_id as string;
  };

  it('DELETE /fapi/v1/order with a field in a body: 1003 naming it, the order still open', async () => {
    const id = await place('nobody-1');
    // the order of the query would have been cancelled, the body's field dropped
    const r = await signed(app, who, 'DELETE', '/fapi/v1/order', {
      query: { symbol: 'BTCUSDT', order_id: id },
      json: { order_id: '1' },
    });
    expect([r.status, r.body]).toEqual([
      400,
      {
        code: Errors.UNKNOWN_PARAMETER.code,
        message: "Unknown body parameter 'order_id': this route takes no body",
        data: null,
      },
    ]);
    const o = await signed(app, who, 'GET', '/fapi/v1/order', { query: { symbol: 'BTCUSDT', order_id: id } });
    expect(o.body.data.status).toBe(1);
    // an empty object is no field: the cancel goes through
    const ok = await signed(app, who, 'DELETE', '/fapi/v1/order', {
      query: { symbol: 'BTCUSDT', order_id: id },
      json: {},
    });
    expect([ok.status, ok.body.code, ok.body.data.status]).toEqual([200, 0, 4]);
  });

  it.each([
    ['POST', '/fapi/v1/account/apiKey/regenerate', '{"x":1}', "Unknown body parameter 'x': this route takes no body"],
    [
      'DELETE',
      '/fapi/v1/allOpenOrders',
      '{"symbol":"ETHUSDT"}',
      "Unknown body parameter 'symbol': this route takes no body",
    ],
    ['DELETE', '/fapi/v1/allOpenOrders', '[1]', 'This route takes no request body'],
    ['POST', '/fapi/v1/account/apiKey/regenerate', '"x"', 'This route takes no request body'],
  ] as const)('%s %s with %s', async (method, path, body, message) => {
    const r = await signed(app, who, method, path, {
      rawBody: body,
      ...(path === '/fapi/v1/allOpenOrders' ? { query: { symbol: 'BTCUSDT' } } : {}),
    });
    expect([r.status, r.body]).toEqual([400, { code: Errors.UNKNOWN_PARAMETER.code, message, data: null }]);
  });
});

describe('a declared body is required', () => {
  it.each([
    ['POST', '/admin/v1/accounts'],
    ['PUT', '/admin/v1/whitelist'],
    ['POST', '/api/v1/sim'],
    ['POST', '/api/v1/session'],
  ])('%s %s: none is 1002, null is 1001', async (method, url) => {
    const none = await app.inject({ method: method as 'POST', url });
    expect([none.statusCode, none.json().code]).toEqual([400, Errors.MISSING_PARAMETER.code]);
    const nul = await app.inject({
      method: method as 'POST',
      url,
      headers: { 'content-type': 'application/json' },
      payload: 'null',
    });
    expect([nul.statusCode, nul.json().code]).toEqual([400, Errors.INVALID_PARAMETER.code]);
  });

  it('signed reset: no body is 1002, {} resets to the default', async () => {
    const none = await signed(app, who, 'POST', '/fapi/v1/account/reset');
    expect([none.status, none.body.code]).toEqual([400, Errors.MISSING_PARAMETER.code]);
    const ok = await signed(app, who, 'POST', '/fapi/v1/account/reset', { json: {} });
    expect(ok.body.code).toBe(0);
    expect(ok.body.data.wallet_balance).toBe('10000.00000000');
  });

  it('tpsl: an empty string price is 1001, not read as null', async () => {
    const r = await signed(app, who, 'POST', '/fapi/v1/position/tpsl', {
      json: { symbol: 'BTCUSDT', position_side: 1, take_profit_price: '' },
    });
    expect([r.status, r.body.code]).toEqual([400, Errors.INVALID_PARAMETER.code]);
    expect(r.body.message).toContain("'take_profit_price'");
  });
});

describe('path parameters', () => {
  it('a long path parameter reaches its schema and is refused by name', async () => {
    const r = await get(`/api/v1/symbols/${'A'.repeat(500)}`);
    expect([r.status, r.body.code]).toEqual([400, Errors.INVALID_PARAMETER.code]);
    expect(r.body.message).toBe(
      `Invalid path parameter 'symbol': must be 2 to 30 letters and digits, such as "BTCUSDT"`,
    );
  });
});
