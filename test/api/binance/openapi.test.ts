// The facade in the OpenAPI document: its own tag, every /binance route listed under it (and only
// those), each saying what kind of route it is; the native operations keep their tags.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type Service } from './helpers.ts';

let svc: Service;
let doc: any;

beforeAll(async () => {
  svc = await startService();
  const r = await svc.app.inject({ method: 'GET', url: '/openapi.json' });
  expect(r.statusCode).toBe(200);
  doc = r.json();
});
afterAll(async () => svc?.close());

const ops = (pred: (path: string) => boolean) =>
  Object.entries<Record<string, { tags?: string[]; description?: string }>>(doc.paths)
    .filter(([p]) => pred(p))
    .flatMap(([p, m]) => Object.entries(m).map(([method, o]) => ({ key: `${method.toUpperCase()} ${p}`, o })));

describe('OpenAPI: the binance tag', () => {
  it('declares the tag and lists the facade routes under it', () => {
    expect(doc.tags.map((t: { name: string }) => t.name)).toContain('binance');
    const keys = ops((p) => p.startsWith('/binance/')).map((x) => x.key);
    for (const k of [
      'GET /binance/fapi/v1/exchangeInfo',
      'GET /binance/fapi/v1/fundingRate',
      'GET /binance/fapi/v1/markPriceKlines',
      'GET /binance/fapi/v1/indexPriceKlines',
      'GET /binance/fapi/v1/premiumIndexKlines',
      'GET /binance/fapi/v1/openInterest',
      'GET /binance/futures/data/openInterestHist',
      'GET /binance/futures/data/globalLongShortAccountRatio',
      'GET /binance/futures/data/topLongShortAccountRatio',
      'GET /binance/futures/data/topLongShortPositionRatio',
      'GET /binance/futures/data/takerlongshortRatio',
      'POST /binance/fapi/v1/order',
      'DELETE /binance/fapi/v1/order',
      'PUT /binance/fapi/v1/order',
      'POST /binance/fapi/v1/batchOrders',
      'DELETE /binance/fapi/v1/batchOrders',
      'GET /binance/fapi/v1/income',
      'POST /binance/fapi/v1/listenKey',
      'GET /binance/ws',
    ]) {
      expect(keys).toContain(k);
    }
  });

  it('tags every facade operation binance and no native one', () => {
    for (const { key, o } of ops((p) => p.startsWith('/binance/'))) expect(o.tags, key).toEqual(['binance']);
    const native = ops((p) => !p.startsWith('/binance/'));
    expect(native.length).toBeGreaterThan(30);
    for (const { key, o } of native) expect(o.tags ?? [], key).not.toContain('binance');
  });

  it('says how each kind of facade route is called', () => {
    const op = (method: string, path: string) => doc.paths[path][method];
    expect(op('get', '/binance/fapi/v1/depth').description).toMatch(/public market data/);
    expect(op('post', '/binance/fapi/v1/order').description).toMatch(/X-MBX-APIKEY.*signature/);
    expect(op('post', '/binance/fapi/v1/listenKey').description).toMatch(/X-MBX-APIKEY header only/);
    expect(op('get', '/binance/ws').description).toMatch(/WebSocket/);
  });

  it('documents every operation: its parameters with types and which are required, its answers and errors', () => {
    const streams = /^\/binance\/(ws|stream|public|market|private)/;
    const all = ops((p) => p.startsWith('/binance/') && !streams.test(p));
    expect(all.length).toBeGreaterThanOrEqual(50);
    for (const { key, o } of all) {
      const op = o as { responses?: Record<string, unknown> };
      // (POST multiAssetsMargin never succeeds: Single-Asset Mode is the only one, -4171 / -1130)
      const answers = key === 'POST /binance/fapi/v1/multiAssetsMargin' ? ['400'] : ['200', '400'];
      expect(Object.keys(op.responses ?? {}), key).toEqual(expect.arrayContaining(answers));
    }
    const params = (method: string, path: string) =>
      Object.fromEntries(
        (doc.paths[path][method].parameters as Array<{ name: string; required?: boolean; schema: any }>).map((x) => [
          x.name,
          x,
        ]),
      );
    const order = params('post', '/binance/fapi/v1/order');
    // mandatory by type, as Binance documents it (a Close-All order is refused for its type first)
    expect(order.quantity.required ?? false).toBe(false);
    expect(order.price.required ?? false).toBe(false);
    expect(order.side.schema.enum).toEqual(['BUY', 'SELL']);
    expect(order.timestamp.required).toBe(true);
    expect(params('get', '/binance/fapi/v1/klines').limit.schema).toMatchObject({ type: 'integer', maximum: 1500 });
    const err = doc.paths['/binance/fapi/v1/order'].post.responses['400'].content['application/json'].schema;
    expect(Object.keys(err.properties)).toEqual(['code', 'msg']);
  });
});
