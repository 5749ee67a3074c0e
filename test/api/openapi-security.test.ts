// The OpenAPI document tells clients how to authenticate: every signed operation carries the
// apiKey (X-API-KEY) security requirement and every other says it needs none (`security: []`);
// every 403 a route gives is listed. "Signed" is found by asking each documented operation,
// unsigned and from a remote IP: a signed route answers 2001, loopback and bot routes 2102 /
// 2101 (no route acts on the probe). The Binance facade's keyed routes carry its X-MBX-APIKEY
// scheme: asked with a well-formed key no account has, they answer -2015 and no other does.
// Every operation has an operationId, and no two share one.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src-main/api/app.ts';
import { SimulatedMarket } from '../../src-main/market/sim/simulated-market.ts';
import { Simulator } from '../../src-main/market/sim/simulator.ts';
import { openVenue, type LocalVenue } from '../../src-main/venue.ts';
import { Errors } from '../../src-shared/errors.ts';

let venue: LocalVenue;
let app: FastifyInstance;

let doc: any;
/** "METHOD /path" -> error code of the unsigned remote probe (0 when it succeeded). */
const probe = new Map<string, number>();
/** "METHOD /binance/path" -> Binance error code of the unknown-key probe (0 when it succeeded). */
const binanceProbe = new Map<string, number>();
const UNKNOWN_BINANCE_KEY = 'A'.repeat(64);
/** Every route's mandatory parameters, so that none is refused for a missing one before its key is read. */
const PROBE_PARAMS = new URLSearchParams({
  symbol: 'BTCUSDT',
  side: 'BUY',
  type: 'LIMIT',
  timeInForce: 'GTC',
  quantity: '0.001',
  price: '1000',
  leverage: '5',
  marginType: 'CROSSED',
  amount: '1',
  dualSidePosition: 'true',
  interval: '1m',
  pair: 'BTCUSDT',
  period: '5m',
  countdownTime: '0',
  batchOrders: JSON.stringify([
    { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.001', price: '1000', timeInForce: 'GTC' },
  ]),
}).toString();

const SAMPLE: Record<string, string> = { symbol: 'BTCUSDT', file: 'BTC.svg' };

beforeAll(async () => {
  venue = openVenue({ dataDir: ':memory:' });
  // a simulated market (never started) behind /api/v1/sim, for its whole answer
  Object.assign(venue, {
    market: new SimulatedMarket(new Simulator({ exchange: venue.exchange, clock: venue.clock, seed: 1 }), venue.clock),
  });
  app = await buildApp({ venue, rateLimit: false });
  await app.ready();
  const r = await app.inject({ method: 'GET', url: '/openapi.json' });
  expect(r.statusCode).toBe(200);
  doc = r.json();
  for (const [path, ops] of Object.entries<Record<string, unknown>>(doc.paths)) {
    const url = path.replace(/\{(\w+)\}/g, (_m, name: string) => SAMPLE[name] ?? 'x');
    for (const method of Object.keys(ops)) {
      if (path === '/ws') continue; // the WebSocket endpoint (a plain GET is error 1000)
      if (path.startsWith('/binance/')) {
        // the facade's auth and errors are Binance's: a signed-looking request with an unknown key
        // positionMargin's type is 1 or 2 (add / remove), an order's LIMIT
        const params = path.includes('positionMargin') ? PROBE_PARAMS.replace('type=LIMIT', 'type=1') : PROBE_PARAMS;
        const q = `${params}&timestamp=${Date.now()}&signature=${'0'.repeat(64)}`;
        const headers = { 'x-mbx-apikey': UNKNOWN_BINANCE_KEY };
        const b = await app.inject({ method: method.toUpperCase() as 'GET', url: `${url}?${q}`, headers });
        const json = String(b.headers['content-type']).startsWith('application/json') ? JSON.parse(b.body) : null;
        binanceProbe.set(`${method.toUpperCase()} ${path}`, typeof json?.code === 'number' ? json.code : 0);
        continue;
      }
      const a = await app.inject({ method: method.toUpperCase() as 'GET', url, remoteAddress: '192.0.2.7' });
      // non-JSON answers (the logo SVG) are public successes
      const json = String(a.headers['content-type']).startsWith('application/json');
      probe.set(`${method.toUpperCase()} ${path}`, json ? (JSON.parse(a.body) as { code: number }).code : 0);
    }
  }
});

afterAll(async () => {
  await app.close();
  venue.close();
});

const op = (method: string, path: string) => doc.paths[path]?.[method.toLowerCase()];

describe('/openapi.json security', () => {
  it('declares the X-API-KEY scheme and says where the signature goes', () => {
    const s = doc.components.securitySchemes.apiKey;
    expect(s).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-KEY' });
    expect(s.description).toMatch(/signature/);
    expect(s.description).toMatch(/query/);
    expect(s.description).toMatch(/LAST/);
  });

  it('marks the signed routes named in the review and not a public one', () => {
    for (const [m, p] of [
      ['POST', '/fapi/v1/orders'],
      ['GET', '/fapi/v1/openOrders'],
      ['GET', '/fapi/v1/position/list'],
    ]) {
      expect(op(m, p)?.security, `${m} ${p}`).toEqual([{ apiKey: [] }]);
    }
    expect(op('GET', '/fapi/v1/depth')).toBeDefined();
    expect(op('GET', '/fapi/v1/depth').security).toEqual([]);
  });

  it('every operation that demands a key carries security, and no other does', () => {
    const signed = [...probe].filter(([, code]) => code === Errors.API_KEY_MISSING.code).map(([k]) => k);
    expect(signed.length).toBeGreaterThanOrEqual(15);
    for (const [key, code] of probe) {
      const [m, p] = key.split(' ');
      if (code === Errors.API_KEY_MISSING.code) expect(op(m, p).security, key).toEqual([{ apiKey: [] }]);
      else expect(op(m, p).security, key).toEqual([]);
    }
  });

  it('every operation that refused the remote caller with 403 documents 403', () => {
    const forbidden = [...probe].filter(
      ([, code]) => code === Errors.LOOPBACK_ONLY.code || code === Errors.IP_NOT_WHITELISTED.code,
    );
    expect(forbidden.map(([k]) => k)).toContain('POST /api/v1/sim');
    for (const [key] of forbidden) {
      const [m, p] = key.split(' ');
      expect(Object.keys(op(m, p).responses), key).toContain('403');
    }
  });

  it("GET /api/v1/sim is public: it answers a remote caller, so its 403 is the Host guard's alone", () => {
    expect(probe.get('GET /api/v1/sim')).toBe(0);
    const forbidden = op('GET', '/api/v1/sim').responses['403'].description;
    expect(forbidden).toMatch(/^2103: /);
    expect(forbidden).not.toMatch(/2101|2102/);
  });

  it("the Binance facade's keyed operations carry the X-MBX-APIKEY scheme, and its public ones none", () => {
    const s = doc.components.securitySchemes.binanceApiKey;
    expect(s).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-MBX-APIKEY' });
    const keyed = [...binanceProbe].filter(([, code]) => code === -2015).map(([k]) => k);
    expect(keyed).toEqual(expect.arrayContaining(['POST /binance/fapi/v1/order', 'POST /binance/fapi/v1/listenKey']));
    expect(binanceProbe.get('GET /binance/fapi/v1/depth')).toBe(0);
    for (const [key, code] of binanceProbe) {
      const [m, p] = key.split(' ');
      expect(op(m, p).security, `${key} answered ${code}`).toEqual(code === -2015 ? [{ binanceApiKey: [] }] : []);
    }
  });

  it('every operation has an operationId, and no two share one', () => {
    const ids: string[] = [];
    for (const ops of Object.values<Record<string, { operationId?: unknown }>>(doc.paths))
      for (const o of Object.values(ops)) ids.push(String(o.operationId));
    expect(ids.length).toBeGreaterThan(100);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z0-9]+$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(op('GET', '/fapi/v1/openOrders').operationId).toBe('getFapiV1OpenOrders');
    expect(op('GET', '/api/v1/symbols/{symbol}').operationId).toBe('getApiV1SymbolsBySymbol');
  });
});
