// POST /fapi/v1/order/test (Binance's New Order Test, python-binance's futures_create_test_order): the
// parameters and every check a new order meets, answered with the new order's codes, and {} when
// it would be accepted; nothing placed, frozen, stored or counted as an order id.
import { describe, expect, it } from 'vitest';
import { account, binanceusdm, injectedWithAccount, placeLimitBuy, startService } from './helpers.ts';
import { signedInject } from './raw.ts';

const t = injectedWithAccount('ordertest');

const LIMIT = {
  symbol: 'BTCUSDT',
  side: 'BUY',
  type: 'LIMIT',
  timeInForce: 'GTC',
  quantity: '0.010',
  price: '90000',
};
const test = (over: Record<string, string> = {}) =>
  signedInject(t.app, t.c, 'POST', '/fapi/v1/order/test', { ...LIMIT, ...over });
const available = async () =>
  (await signedInject(t.app, t.c, 'GET', '/fapi/v2/account')).body.availableBalance as string;

describe('POST /fapi/v1/order/test', () => {
  it('answers {} for an order that would be accepted, and places nothing', async () => {
    const before = await available();
    const r = await test();
    expect(r).toEqual({ status: 200, body: {} });
    const open = await signedInject(t.app, t.c, 'GET', '/fapi/v1/openOrders', { symbol: 'BTCUSDT' });
    expect(open.body).toEqual([]);
    const all = await signedInject(t.app, t.c, 'GET', '/fapi/v1/allOrders', { symbol: 'BTCUSDT' });
    expect(all.body).toEqual([]);
    expect(await available()).toBe(before);
  });

  it.each([
    [{ quantity: '0' }, -4003],
    [{ quantity: 'abc' }, -1100],
    [{ side: 'HOLD' }, -1117],
    [{ price: '90000.05' }, -4014],
    [{ symbol: 'NOPEUSDT' }, -1121],
    // one-way: nothing to reduce
    [{ reduceOnly: 'true' }, -2022],
    // at 1x (set first), 2 BTC at 90,000 needs 180,000 USDT of margin; the account has 100,000
    [{ quantity: '2' }, -2019],
  ])('%j is refused with the code a new order meets (%i)', async (over, code) => {
    if (code === -2019) {
      const lev = await signedInject(t.app, t.c, 'POST', '/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: 1 });
      expect(lev.status).toBe(200);
    }
    const [checked, placed] = [await test(over), await placeLimitBuy(t, over)];
    expect(checked.status).toBe(400);
    expect(checked.body.code).toBe(code);
    expect(checked.body).toEqual(placed.body);
  });

  it('refuses the client id of a live order as a new order does (-4116), and takes no order id', async () => {
    const first = await placeLimitBuy(t, { newClientOrderId: 'keep-1' });
    expect(first.status).toBe(200);
    const r = await test({ newClientOrderId: 'keep-1' });
    expect(r.body.code).toBe(-4116);
    expect(await test({ newClientOrderId: 'keep-2' })).toEqual({ status: 200, body: {} });
    // the tests took no id: the next order's is the one after the first
    const next = await placeLimitBuy(t, {});
    expect(next.body.orderId).toBe(first.body.orderId + 1);
  });

  it('needs a signature like every order route', async () => {
    const r = await t.app.inject({
      method: 'POST',
      url: '/binance/fapi/v1/order/test',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ ...LIMIT, timestamp: String(Date.now()) }).toString(),
    });
    expect(r.statusCode).toBe(401);
    expect(JSON.parse(r.body).code).toBe(-2014);
  });
});

describe('through a real client over HTTP', () => {
  it('ccxt fapiPrivatePostOrderTest answers {} and a refusal as its error class', async () => {
    const svc = await startService();
    try {
      const ex = binanceusdm(svc.base, account(svc.venue, 'ccxtordertest', 100_000, 'one_way'));
      expect(await ex.fapiPrivatePostOrderTest(LIMIT)).toEqual({});
      await expect(ex.fapiPrivatePostOrderTest({ ...LIMIT, reduceOnly: 'true' })).rejects.toThrow(/-2022/);
      expect(await ex.fapiPrivateGetOpenOrders({ symbol: 'BTCUSDT' })).toEqual([]);
    } finally {
      await svc.close();
    }
  });
});
