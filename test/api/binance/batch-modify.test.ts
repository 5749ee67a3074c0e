// Modify Multiple Orders (PUT /fapi/v1/batchOrders; ccxt editOrders): up to 5 modifications,
// each run as PUT /fapi/v1/order runs it and answered in its place with the modified order or
// Binance's {code, msg}; a refused entry leaves the others as they ran. More than 5 entries is
// -1130 for the whole request, as POST batchOrders. The request weighs 5 in the rate limits.
import ccxt from 'ccxt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Side } from '../../../src-shared/enums.ts';
import { buildApp } from '../../../src-main/api/app.ts';
import { openVenue } from '../../../src-main/venue.ts';
import { ORDER_FIELDS, limit, pausedWithAsk } from './book.ts';
import { account, binanceusdm, type Service } from './helpers.ts';
import { signedCall, signedInject } from './raw.ts';

const BTC = 'BTC/USDT:USDT';
let svc: Service;
let mid: number;
const px = (k: number) => (mid + k).toFixed(1);

beforeAll(async () => {
  ({ svc, mid } = await pausedWithAsk('bmodmm', '0.050'));
});
afterAll(async () => svc?.close());

const rest = (c: { id: number }, k: number, clientId?: string) =>
  Number(limit(svc.venue, c, { side: Side.BUY, price: px(k), qty: '0.010', clientId }).order_id);

describe('PUT /fapi/v1/batchOrders', () => {
  it('modifies each order in its place; a refused entry is {code, msg} and the others stand', async () => {
    const c = account(svc.venue, 'bmod1', 100_000, 'one_way');
    const a = rest(c, -50, 'bm.a');
    const b = rest(c, -60, 'bm.b');
    const entries = [
      { symbol: 'BTCUSDT', side: 'BUY', orderId: a, quantity: '0.020', price: px(-55) },
      { symbol: 'BTCUSDT', side: 'BUY', orderId: 999999, quantity: '0.020', price: px(-55) }, // not the account's
      { symbol: 'BTCUSDT', side: 'BUY', origClientOrderId: 'bm.b', quantity: 0.03, price: Number(px(-65)) }, // numbers
      { symbol: 'BTCUSDT', side: 'SELL', orderId: b, quantity: '0.030', price: px(-65) }, // side cannot change
      { symbol: 'BTCUSDT', side: 'BUY', orderId: b, quantity: '0.030', price: px(-65) }, // nothing to change
    ];
    const r = await signedCall(svc.base, c, 'PUT', '/fapi/v1/batchOrders', { batchOrders: JSON.stringify(entries) });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toHaveLength(5);
    expect(Object.keys(r.body[0]).sort()).toEqual([...ORDER_FIELDS].sort());
    expect(r.body[0]).toMatchObject({ orderId: a, clientOrderId: 'bm.a', status: 'NEW', price: px(-55) });
    expect(r.body[0].origQty).toBe('0.020');
    expect(r.body[1]).toEqual({ code: -2013, msg: 'Order does not exist.' });
    expect(r.body[2]).toMatchObject({ orderId: b, status: 'NEW', price: px(-65), origQty: '0.030' });
    expect(r.body[3].code).toBe(-1130);
    expect(r.body[4]).toEqual({ code: -5027, msg: 'No need to modify the order.' });
    // the answers are PUT /fapi/v1/order's, field for field
    const one = await signedCall(svc.base, c, 'GET', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: a });
    expect(r.body[0]).toEqual({ ...one.body, time: r.body[0].time, updateTime: r.body[0].updateTime });
    // the native views hold the modifications
    const open = svc.venue.exchange.openOrders(c.id, 'BTCUSDT');
    expect(open.map((o) => [Number(o.id), o.price, o.qty])).toEqual([
      [a, px(-55), '0.020'],
      [b, px(-65), '0.030'],
    ]);
  });

  it('checks each entry in full: a malformed value is that entry refused', async () => {
    const c = account(svc.venue, 'bmod2', 100_000, 'one_way');
    const a = rest(c, -50);
    const base = { symbol: 'BTCUSDT', side: 'BUY', orderId: a, quantity: '0.020', price: px(-55) };
    const r = await signedCall(svc.base, c, 'PUT', '/fapi/v1/batchOrders', {
      batchOrders: JSON.stringify([
        { ...base, price: '1e5' },
        { ...base, side: 'HOLD' },
        { ...base, orderId: undefined, origClientOrderId: 'not valid!' },
        { ...base, orderId: undefined },
        { ...base, priceMatch: 'QUEUE' },
      ]),
    });
    expect(r.body.map((x: any) => x.code)).toEqual([-1100, -1117, -1100, -1102, -1130]);
    expect(svc.venue.exchange.openOrders(c.id)[0]).toMatchObject({ price: px(-50), qty: '0.010' });
  });

  it("an entry's empty parameter or malformed symbol is refused as PUT order refuses it, the order unchanged", async () => {
    // Found by a fuzzer: an empty positionSide was read as absent and the order modified, an
    // empty origType / priceMatch / orderId too, and a symbol off its pattern was -1121.
    const c = account(svc.venue, 'bmod4', 100_000, 'one_way');
    const a = rest(c, -50, 'bm.e');
    const base = { symbol: 'BTCUSDT', side: 'BUY', origClientOrderId: 'bm.e', quantity: '0.020', price: px(-55) };
    const cases: [Record<string, string>, number][] = [
      [{ positionSide: '' }, -1102],
      [{ origType: '' }, -1102],
      [{ priceMatch: '' }, -1102],
      [{ orderId: '' }, -1102],
      [{ symbol: 'BTC USDT' }, -1100],
      // -1130 word for word (until 2026-12-08 an entry said "It must be from 1 to ..." and
      // "priceMatch is not supported by this venue yet." where PUT order said the schema's words)
      [{ orderId: '0' }, -1130],
      [{ priceMatch: 'QUEUE' }, -1130],
      [{ priceMatch: 'XX' }, -1130],
    ];
    for (const [extra, code] of cases) {
      const entry = { ...base, ...extra };
      const single = await signedCall(svc.base, c, 'PUT', '/fapi/v1/order', entry);
      expect(single.body.code, JSON.stringify(extra)).toBe(code);
      const r = await signedCall(svc.base, c, 'PUT', '/fapi/v1/batchOrders', { batchOrders: JSON.stringify([entry]) });
      expect(r.body[0], JSON.stringify(extra)).toEqual(single.body);
    }
    expect(svc.venue.exchange.openOrders(c.id).map((o) => [Number(o.id), o.price, o.qty])).toEqual([
      [a, px(-50), '0.010'],
    ]);
  });

  it('refuses the whole request when the list is bad: more than 5 entries is -1130 and nothing changes', async () => {
    const c = account(svc.venue, 'bmod3', 100_000, 'one_way');
    const a = rest(c, -50);
    const one = { symbol: 'BTCUSDT', side: 'BUY', orderId: a, quantity: '0.020', price: px(-55) };
    const put = (batchOrders: string) => signedCall(svc.base, c, 'PUT', '/fapi/v1/batchOrders', { batchOrders });
    expect((await put(JSON.stringify(Array(6).fill(one)))).body).toEqual({
      code: -1130,
      msg: "Data sent for parameter 'batchOrders' is not valid. At most 5 entries a request.",
    });
    expect((await put('[{')).body.code).toBe(-1130);
    expect((await put('[]')).body.code).toBe(-1130);
    expect((await signedCall(svc.base, c, 'PUT', '/fapi/v1/batchOrders', {})).body.code).toBe(-1102);
    expect(svc.venue.exchange.openOrders(c.id)[0]).toMatchObject({ price: px(-50), qty: '0.010' });
  });
});

describe('through ccxt', () => {
  it('editOrders modifies each order; a refused one is ccxt rejected', async () => {
    const c = account(svc.venue, 'bmodccxt', 100_000, 'one_way');
    const ex = binanceusdm(svc.base, c);
    await ex.loadMarkets();
    const made = await ex.createOrders([
      { symbol: BTC, type: 'limit', side: 'buy', amount: 0.01, price: Number(px(-60)) },
      { symbol: BTC, type: 'limit', side: 'buy', amount: 0.01, price: Number(px(-70)) },
    ]);
    const edited = await ex.editOrders([
      { id: made[0].id, symbol: BTC, type: 'limit', side: 'buy', amount: 0.02, price: Number(px(-61)) },
      { id: made[1].id, symbol: BTC, type: 'limit', side: 'buy', amount: 0.01, price: Number(px(-70)) }, // no change
    ]);
    expect(edited).toHaveLength(2);
    expect(edited[0]).toMatchObject({ id: made[0].id, status: 'open', amount: 0.02, price: Number(px(-61)) });
    expect(edited[1].status).toBe('rejected');
    expect(edited[1].info).toEqual({ code: -5027, msg: 'No need to modify the order.' });
    // a one-entry answer that is an error: ccxt raises its class (OrderNotFound for -2013)
    await expect(
      ex.editOrders([{ id: '999999', symbol: BTC, type: 'limit', side: 'buy', amount: 0.02, price: Number(px(-61)) }]),
    ).rejects.toBeInstanceOf(ccxt.OrderNotFound);
    const open = svc.venue.exchange.openOrders(c.id, 'BTCUSDT');
    expect(open.map((o) => [o.id, o.price, o.qty])).toEqual([
      [made[0].id, px(-61), '0.020'],
      [made[1].id, px(-70), '0.010'],
    ]);
  });
});

describe('rate limits', () => {
  it('a batch of new or modified orders weighs 5, as on Binance; a cancel batch 1', async () => {
    const venue = openVenue({ dataDir: ':memory:' });
    const app = await buildApp({ venue, rateLimit: { perIp: false, perKey: { max: 11, windowMs: 60_000 } } });
    await app.ready();
    try {
      const c = account(venue, 'bmodrl', 100_000, 'one_way');
      const list = JSON.stringify([{ symbol: 'BTCUSDT', side: 'BUY', orderId: 1, quantity: '1', price: '1' }]);
      const call = (method: 'PUT' | 'POST' | 'DELETE') =>
        signedInject(app, c, method, '/fapi/v1/batchOrders', {
          ...(method === 'DELETE' ? { symbol: 'BTCUSDT', orderIdList: '[1]' } : { batchOrders: list }),
        });
      expect((await call('PUT')).status).toBe(200); // 5
      expect((await call('POST')).status).toBe(200); // 10
      expect((await call('DELETE')).status).toBe(200); // 11
      const over = await call('PUT');
      expect(over.status).toBe(429);
      expect(over.body.code).toBe(-1003);
    } finally {
      await app.close();
      await venue.close();
    }
  });

  // Binance answers every request with X-MBX-USED-WEIGHT-1M (and the order counts), which
  // binance-connector (show_limit_usage) and hummingbot read; none was sent
  it("every answer carries the weight used, named after the venue's windows: X-MBX-USED-WEIGHT-10S, X-MBX-ORDER-COUNT-1M", async () => {
    const venue = openVenue({ dataDir: ':memory:' });
    const app = await buildApp({
      venue,
      rateLimit: { perIp: { max: 100, windowMs: 10_000 }, perKey: { max: 100, windowMs: 60_000 } },
    });
    await app.ready();
    try {
      const c = account(venue, 'bmodrl3', 100_000, 'one_way');
      const ping = await app.inject({ url: '/binance/fapi/v1/ping' });
      expect(ping.headers['x-mbx-used-weight-10s']).toBe('1');
      expect(ping.headers).not.toHaveProperty('x-mbx-order-count-1m');
      const key = await app.inject({
        method: 'POST',
        url: '/binance/fapi/v1/listenKey',
        headers: { 'x-mbx-apikey': c.apiKey },
      });
      expect([key.headers['x-mbx-used-weight-10s'], key.headers['x-mbx-order-count-1m']]).toEqual(['2', '1']);
      // a batch weighs 5 in both
      const list = JSON.stringify([{ symbol: 'BTCUSDT', side: 'BUY', orderId: 1, quantity: '1', price: '1' }]);
      const batch = await app.inject({
        method: 'PUT',
        url: '/binance/fapi/v1/batchOrders',
        headers: { 'x-mbx-apikey': c.apiKey, 'content-type': 'application/x-www-form-urlencoded' },
        payload: `batchOrders=${encodeURIComponent(list)}`,
      });
      expect([batch.headers['x-mbx-used-weight-10s'], batch.headers['x-mbx-order-count-1m']]).toEqual(['7', '6']);
    } finally {
      await app.close();
      await venue.close();
    }
  });

  it('a weight-5 request does not fit in a window with 4 left', async () => {
    const venue = openVenue({ dataDir: ':memory:' });
    const app = await buildApp({ venue, rateLimit: { perIp: { max: 6, windowMs: 60_000 }, perKey: false } });
    await app.ready();
    try {
      const c = account(venue, 'bmodrl2', 100_000, 'one_way');
      expect((await app.inject({ url: '/binance/fapi/v1/ping' })).statusCode).toBe(200);
      expect((await app.inject({ url: '/binance/fapi/v1/ping' })).statusCode).toBe(200);
      const r = await signedInject(app, c, 'PUT', '/fapi/v1/batchOrders', { batchOrders: '[]' });
      expect(r.status).toBe(429);
      expect((await app.inject({ url: '/binance/fapi/v1/ping' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await venue.close();
    }
  });
});
