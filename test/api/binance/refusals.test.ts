// Every refusal under /binance is Binance's {code, msg} in Binance's words: native parameter
// names never show (quantity, not qty), and the service's own guards (the Host check against DNS
// rebinding, the URL length limit) answer in that shape too, with their HTTP status.
import { describe, expect, it } from 'vitest';
import { injectedWithAccount, placeLimitBuy } from './helpers.ts';
import { signedInject } from './raw.ts';

const t = injectedWithAccount('refuse');

const NATIVE_NAMES = /\b(qty|client_order_id|time_in_force|position_side|order_id|min_qty|max_qty)\b/;

const order = (p: Record<string, string>) => placeLimitBuy(t, p);

describe("refusals in Binance's words", () => {
  it.each([
    [{ quantity: 'abc' }, -1100, "parameter 'quantity'"],
    [{ quantity: '-1' }, -1100, "parameter 'quantity'"],
    [{ price: 'abc' }, -1100, "parameter 'price'"],
    [{ quantity: '100000' }, -4005, 'quantity 100000'],
    [{ newClientOrderId: 'api.5' }, -1130, "parameter 'newClientOrderId'"],
  ])('%j -> %i naming %s, no native name', async (p, code, named) => {
    const r = await order(p as Record<string, string>);
    expect(r.status).toBe(400);
    expect(Object.keys(r.body)).toEqual(['code', 'msg']);
    expect(r.body.code).toBe(code);
    expect(r.body.msg).toContain(named);
    expect(r.body.msg).not.toMatch(NATIVE_NAMES);
  });

  it.each([
    // Binance's own codes for a quantity or price that is no positive number, or too large
    [{ quantity: '0' }, -4003, 'Quantity less than or equal to zero.'],
    [{ quantity: '0.000' }, -4003, 'Quantity less than or equal to zero.'],
    [{ quantity: '999999999999999999' }, -4005, 'Quantity greater than max quantity.'],
    [{ price: '0' }, -4001, 'Price less than 0.'],
    [{ price: '300000000' }, -4002, 'Price greater than max price.'],
  ])('%j -> %i %s', async (p, code, text) => {
    const r = await order(p as Record<string, string>);
    expect([r.status, r.body.code]).toEqual([400, code]);
    expect(r.body.msg.startsWith(text)).toBe(true);
    expect(r.body.msg).not.toMatch(NATIVE_NAMES);
  });

  // Binance's USD-M error list names these refusals with codes of their own (ccxt's generic table
  // too); -4006 is its "Stop price less than zero.", and -1130 none of them
  it.each([
    ['positionSide', 'UP', -4060, 'Invalid position side.'],
    ['newOrderRespType', 'FULL', -1136, 'Invalid newOrderRespType.'],
    ['workingType', 'LAST_PRICE', -4031, 'Invalid parameter working type'],
    ['selfTradePreventionMode', 'EXPIRE_ALL', -5039, 'Invalid self trade prevention mode'],
  ])('%s=%s -> %i on the order, batch and algo routes', async (name, value, code, msg) => {
    const limit = {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GTC',
      quantity: '0.010',
      price: '90000',
    };
    const single = await order({ [name]: value });
    expect([single.status, single.body]).toEqual([400, { code, msg }]);
    const batch = await signedInject(t.app, t.c, 'POST', '/fapi/v1/batchOrders', {
      batchOrders: JSON.stringify([{ ...limit, [name]: value }]),
    });
    expect([batch.status, batch.body]).toEqual([200, [{ code, msg }]]);
    const algo = await signedInject(t.app, t.c, 'POST', '/fapi/v1/algoOrder', {
      algoType: 'CONDITIONAL',
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'STOP_MARKET',
      quantity: '0.010',
      triggerPrice: '200000',
      [name]: value,
    });
    expect([algo.status, algo.body]).toEqual([400, { code, msg }]);
  });

  it('positionSide=UP on positionMargin and PUT order is -4060 too', async () => {
    const margin = await signedInject(t.app, t.c, 'POST', '/fapi/v1/positionMargin', {
      symbol: 'BTCUSDT',
      amount: '1',
      type: '1',
      positionSide: 'UP',
    });
    expect(margin.body).toEqual({ code: -4060, msg: 'Invalid position side.' });
    const modify = await signedInject(t.app, t.c, 'PUT', '/fapi/v1/batchOrders', {
      batchOrders: JSON.stringify([
        { symbol: 'BTCUSDT', side: 'BUY', orderId: '1', quantity: '0.010', price: '90000', positionSide: 'UP' },
      ]),
    });
    expect(modify.body).toEqual([{ code: -4060, msg: 'Invalid position side.' }]);
  });

  it("checks exchangeInfo's PERCENT_PRICE per side: a buy above the band or a sell below it, not a far sell or buy", async () => {
    const info = await t.app.inject({ method: 'GET', url: '/binance/fapi/v1/exchangeInfo' });
    const btc = (
      info.json() as { symbols: Array<{ symbol: string; filters: Array<Record<string, string>> }> }
    ).symbols.find((x) => x.symbol === 'BTCUSDT')!;
    const band = btc.filters.find((f) => f.filterType === 'PERCENT_PRICE')!;
    const premium = await t.app.inject({ method: 'GET', url: '/binance/fapi/v1/premiumIndex?symbol=BTCUSDT' });
    const mark = Number((premium.json() as { markPrice: string }).markPrice);
    const up = mark * Number(band.multiplierUp);
    const down = mark * Number(band.multiplierDown);
    const buyAbove = await order({ price: (Math.ceil(up) + 10).toFixed(1) });
    expect([buyAbove.body.code, buyAbove.body.msg]).toEqual([
      -4016,
      expect.stringMatching(/^Limit price can't be higher than /),
    ]);
    const sellBelow = await order({ side: 'SELL', price: (Math.floor(down) - 10).toFixed(1) });
    expect([sellBelow.body.code, sellBelow.body.msg]).toEqual([
      -4024,
      expect.stringMatching(/^Limit price can't be lower than /),
    ]);
    // a sell far above the mark and a buy far below it rest (they cannot trade worse than their price)
    const farSell = await order({
      side: 'SELL',
      price: Math.round(mark * 3).toFixed(1),
      newClientOrderId: 'band-far-sell',
    });
    const farBuy = await order({ price: Math.round(mark / 3).toFixed(1), newClientOrderId: 'band-far-buy' });
    expect([farSell.status, farSell.body.status, farBuy.status, farBuy.body.status]).toEqual([200, 'NEW', 200, 'NEW']);
  });

  it('the Host guard answers {code, msg} under /binance, the envelope elsewhere', async () => {
    const r = await t.app.inject({ url: '/binance/fapi/v1/ping', headers: { host: 'evil.example' } });
    expect(r.statusCode).toBe(403);
    const b = JSON.parse(r.body);
    expect(Object.keys(b)).toEqual(['code', 'msg']);
    expect(b.code).toBe(-1002);
    const native = await t.app.inject({ url: '/fapi/v1/time', headers: { host: 'evil.example' } });
    expect(JSON.parse(native.body)).toMatchObject({ code: 2103, data: null });
  });

  it('a URL over the limit under /binance is 414 with {code, msg}', async () => {
    const r = await t.app.inject({ url: `/binance/fapi/v1/ping?x=${'a'.repeat(9000)}` });
    expect(r.statusCode).toBe(414);
    expect(Object.keys(JSON.parse(r.body))).toEqual(['code', 'msg']);
  });

  it('an unknown path and a wrong method are {code, msg}', async () => {
    for (const [method, url] of [
      ['GET', '/binance/fapi/v1/nothing'],
      ['PATCH', '/binance/fapi/v1/order'],
      ['GET', '/binance/fapi/v1/listenKey'],
    ] as const) {
      const r = await t.app.inject({ method, url });
      expect(r.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(r.statusCode, url).toBeLessThan(500);
      expect(Object.keys(JSON.parse(r.body)), url).toEqual(['code', 'msg']);
    }
  });
});
