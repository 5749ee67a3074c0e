// Every /binance REST route answers what /openapi.json documents for it. Each route is called as
// ccxt calls it (raw.ts: signed, the parameters in the query for GET / DELETE and in a form body
// for POST / PUT; listenKey with the key only), in a venue where its answers have content: fills,
// one-way and hedge positions, an isolated position and its margin changes, a funding settlement,
// a liquidation, open-interest and long/short samples, algo orders through a fire. Every answer,
// and a few refusals, is held by AnswerChecker to the route's documented schema for its status:
// Ajv, strict mode, every object closed (a field sent but not documented fails, as does a
// required one missing), its fields in the documented order. At the end every REST route of the
// document has answered, and every list of every answer schema has been seen with entries, every
// union branch (one pair or all, an order or its refusal in a batch) and every optional field.
// Prices stand still (clock paused); liquidity is the house's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MarginMode, OrderType, PositionAction, PositionSide, Side } from '../../../src-shared/enums.ts';
import type { OrderInput } from '../../../src-main/trading/exchange.ts';
import {
  houseLimit,
  placeOrder,
  setLeverage,
  setMarginMode,
  setPrices,
  settleFunding,
} from '../../helpers/exchange-commands.ts';
import { makeApp, type TestApp } from '../../helpers/app.ts';
import type { Creds } from '../../helpers/signed.ts';
import { AnswerChecker } from './answer-check.ts';
import { account } from './helpers.ts';
import { signedInjectText } from './raw.ts';

const MARK = 96_000;
const M5 = 5 * 60_000;
const BTC = { symbol: 'BTCUSDT' };
/** Routes whose objects are known to send their fields in another order than documented (Binance's). */
const UNORDERED: Record<string, string> = {};

let t: TestApp;
let checker: AnswerChecker;
/** The accounts: one-way, hedge, isolated, liquidated, algo orders, settings changes, the short side. */
const c = {} as Record<'one' | 'hedge' | 'iso' | 'liq' | 'algo' | 'fresh' | 'short', Creds>;

type Params = Record<string, string | number>;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The answer `text` of route `key` with HTTP `got`, which must be `status`, held to its schema; its body. */
function held(key: string, got: number, text: string, status: number): any {
  expect(got, `${key}: ${text.slice(0, 300)}`).toBe(status);
  expect.soft(checker.check(key, got, text)).toEqual([]);
  return JSON.parse(text);
}

/** A public GET. */
async function pub(path: string, params: Params = {}, status = 200): Promise<any> {
  const q = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const r = await t.app.inject({ method: 'GET', url: `/binance${path}${q === '' ? '' : `?${q}`}` });
  return held(`GET ${path}`, r.statusCode, r.body, status);
}

/** A signed request of `who`. */
async function call(who: Creds, method: Method, path: string, params: Params = {}, status = 200): Promise<any> {
  const r = await signedInjectText(t.app, who, method, path, params);
  return held(`${method} ${path}`, r.status, r.text, status);
}

/** A listenKey request: the X-MBX-APIKEY header, an empty form body, as ccxt sends it. */
async function listenKey(who: Creds, method: Method, status = 200): Promise<any> {
  const r = await t.app.inject({
    method,
    url: '/binance/fapi/v1/listenKey',
    headers: { 'x-mbx-apikey': who.apiKey, 'content-type': 'application/x-www-form-urlencoded' },
    payload: '',
  });
  return held(`${method} /fapi/v1/listenKey`, r.statusCode, r.body, status);
}

/** A native order of `who` on BTCUSDT: a market order unless a price is given. */
function order(who: Creds, side: number, o: { qty: string; price?: string; positionSide?: number; close?: boolean }) {
  const input: OrderInput = {
    symbol: 'BTCUSDT',
    side,
    position_side: o.positionSide ?? PositionSide.LONG,
    position_action: o.close === true ? PositionAction.CLOSE : PositionAction.OPEN,
    type: o.price === undefined ? OrderType.MARKET : OrderType.LIMIT,
    qty: o.qty,
    ...(o.price === undefined ? {} : { price: o.price, time_in_force: 1 }),
  };
  return placeOrder(t.venue.exchange, who.id, input);
}

beforeAll(async () => {
  // limits on but out of reach, so exchangeInfo's rateLimits has rows to check against its schema
  const far = { max: 1_000_000_000, windowMs: 60_000 };
  t = await makeApp({}, { rateLimit: { perIp: far, perKey: far } });
  const v = t.venue;
  const ex = v.exchange;
  v.clock.pause();
  const prices = (mark = MARK) => setPrices(ex, 'BTCUSDT', { mark, index: mark });
  // just past a 5-minute boundary: the first price update samples it (open interest, long/short)
  const h = Math.floor(v.clock.now() / M5) * M5 + M5;
  v.clock.advance(h + 1_000 - v.clock.now());
  prices();
  checker = new AnswerChecker((await t.app.inject({ method: 'GET', url: '/openapi.json' })).json(), UNORDERED);

  c.one = account(v, 'ans-one', 100_000, 'one_way');
  c.hedge = account(v, 'ans-hedge');
  c.iso = account(v, 'ans-iso', 100_000, 'one_way');
  c.liq = account(v, 'ans-liq', 10_000, 'one_way');
  c.algo = account(v, 'ans-algo', 100_000, 'one_way');
  c.fresh = account(v, 'ans-fresh', 100_000, 'one_way');
  // the largest balance: the top traders' one, short, so the top ratios have rows
  c.short = account(v, 'ans-short', 1_000_000, 'one_way');
  houseLimit(ex, Side.SELL, '96000.0', '2.000');
  houseLimit(ex, Side.BUY, '95990.0', '2.000');
  // one-way long 0.015 (a reduce-only sell realizes a loss); hedge long and short; isolated long at
  // 5x; a 20x isolated long of 0.1 to liquidate; the algo orders' long; the short side
  order(c.one, Side.BUY, { qty: '0.020' });
  order(c.one, Side.SELL, { qty: '0.005', close: true });
  order(c.hedge, Side.BUY, { qty: '0.010' });
  order(c.hedge, Side.SELL, { qty: '0.010', positionSide: PositionSide.SHORT });
  setMarginMode(ex, c.iso.id, 'BTCUSDT', MarginMode.ISOLATED);
  setLeverage(ex, c.iso.id, 'BTCUSDT', 5);
  order(c.iso, Side.BUY, { qty: '0.010' });
  setMarginMode(ex, c.liq.id, 'BTCUSDT', MarginMode.ISOLATED);
  setLeverage(ex, c.liq.id, 'BTCUSDT', 20);
  order(c.liq, Side.BUY, { qty: '0.100' });
  order(c.algo, Side.BUY, { qty: '0.010' });
  order(c.short, Side.SELL, { qty: '0.010' });
  // two samples with positions and taker volume, then a funding settlement on the open positions
  for (let i = 0; i < 2; i++) {
    v.clock.advance(M5);
    prices();
  }
  settleFunding(ex, 'BTCUSDT', 0.0001, MARK, v.clock.now());
  // the 20x long liquidated (liquidation price about 91,566): its close order is a forced order
  prices(91_560);
  expect(ex.positions(c.liq.id)).toEqual([]);
  prices();
  houseLimit(ex, Side.BUY, '95990.0', '1.000');
});
afterAll(async () => t?.close());

describe('public market data', () => {
  it('answers as documented', async () => {
    await pub('/fapi/v1/ping');
    await pub('/fapi/v1/time');
    await pub('/fapi/v1/exchangeInfo');
    await pub('/fapi/v1/depth', { ...BTC, limit: 5 });
    expect(await pub('/fapi/v1/trades', BTC)).not.toEqual([]);
    await pub('/fapi/v1/aggTrades', BTC);
    const [oldest] = await pub('/fapi/v1/historicalTrades', { ...BTC, limit: 500 });
    await pub('/fapi/v1/historicalTrades', { ...BTC, fromId: oldest.id, limit: 2 });
    await pub('/fapi/v1/klines', { ...BTC, interval: '1m' });
    await pub('/fapi/v1/continuousKlines', { pair: 'BTCUSDT', contractType: 'PERPETUAL', interval: '1m' });
    await pub('/fapi/v1/markPriceKlines', { ...BTC, interval: '1m' });
    await pub('/fapi/v1/indexPriceKlines', { pair: 'BTCUSDT', interval: '1m' });
    await pub('/fapi/v1/premiumIndexKlines', { ...BTC, interval: '1m' });
    for (const path of [
      '/fapi/v1/ticker/24hr',
      '/fapi/v1/ticker/bookTicker',
      '/fapi/v1/ticker/price',
      '/fapi/v2/ticker/price',
      '/fapi/v1/premiumIndex',
      '/fapi/v1/insuranceBalance',
    ]) {
      await pub(path, BTC);
      await pub(path);
    }
    await pub('/fapi/v1/fundingRate', BTC);
    await pub('/fapi/v1/fundingInfo');
    await pub('/fapi/v1/openInterest', BTC);
    for (const path of ['/api/v3/exchangeInfo', '/dapi/v1/exchangeInfo', '/sapi/v1/system/status']) await pub(path);
    for (const path of ['capital/config/getall', 'margin/allPairs', 'margin/isolated/allPairs'])
      await pub(`/sapi/v1/${path}`);
    for (const path of [
      'openInterestHist',
      'globalLongShortAccountRatio',
      'topLongShortAccountRatio',
      'topLongShortPositionRatio',
      'takerlongshortRatio',
    ])
      await pub(`/futures/data/${path}`, { ...BTC, period: '5m' });
  });

  it("refuses as documented, the service's guards too", async () => {
    await pub('/fapi/v1/depth', {}, 400);
    await pub('/fapi/v1/klines', { ...BTC, interval: '7m' }, 400);
    const guarded = async (status: number, url: string, headers: Record<string, string> = {}) => {
      const r = await t.app.inject({ method: 'GET', url: `/binance${url}`, headers });
      return held('GET /fapi/v1/depth', r.statusCode, r.body, status);
    };
    expect((await guarded(403, '/fapi/v1/depth?symbol=BTCUSDT', { host: 'perpdesk.example' })).code).toBe(-1002);
    expect((await guarded(414, `/fapi/v1/depth?symbol=BTCUSDT&x=${'1'.repeat(9000)}`)).code).toBe(-1000);
  });
});

describe('orders', () => {
  it('answers placing, modifying, querying, listing and cancelling as documented', async () => {
    const limit = { ...BTC, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.010', price: '90000' };
    const a = await call(c.one, 'POST', '/fapi/v1/order', limit);
    expect(await call(c.one, 'POST', '/fapi/v1/order/test', limit)).toEqual({});
    await call(c.one, 'POST', '/fapi/v1/order', { ...limit, newOrderRespType: 'RESULT', newClientOrderId: 'ans-b' });
    await call(c.one, 'POST', '/fapi/v1/order', {
      ...BTC,
      side: 'BUY',
      type: 'MARKET',
      quantity: '0.002',
      newOrderRespType: 'RESULT',
    });
    await call(c.one, 'PUT', '/fapi/v1/order', {
      ...BTC,
      orderId: a.orderId,
      side: 'BUY',
      quantity: '0.010',
      price: '90100',
    });
    await call(c.one, 'GET', '/fapi/v1/order', { ...BTC, orderId: a.orderId });
    await call(c.one, 'GET', '/fapi/v1/openOrder', { ...BTC, origClientOrderId: 'ans-b' });
    await call(c.one, 'GET', '/fapi/v1/openOrders', BTC);
    await call(c.one, 'GET', '/fapi/v1/openOrders');
    const batch = await call(c.one, 'POST', '/fapi/v1/batchOrders', {
      batchOrders: JSON.stringify([
        { ...limit, price: '89000' },
        { ...limit, type: 'NOPE' },
      ]),
    });
    expect(batch[1].code).toBe(-1116);
    const modified = await call(c.one, 'PUT', '/fapi/v1/batchOrders', {
      batchOrders: JSON.stringify([
        { ...BTC, side: 'BUY', orderId: batch[0].orderId, quantity: limit.quantity, price: '88900' },
        { ...BTC, side: 'BUY', orderId: 999_999_999, quantity: limit.quantity, price: '88900' },
      ]),
    });
    expect(modified[0].price).toBe('88900.0');
    expect(modified[1].code).toBe(-2013);
    const cancelled = await call(c.one, 'DELETE', '/fapi/v1/batchOrders', {
      ...BTC,
      orderIdList: JSON.stringify([batch[0].orderId, 999_999_999]),
    });
    expect(cancelled[1].code).toBe(-2011);
    await call(c.one, 'DELETE', '/fapi/v1/order', { ...BTC, orderId: a.orderId });
    await call(c.one, 'DELETE', '/fapi/v1/allOpenOrders', BTC);
    await call(c.one, 'POST', '/fapi/v1/countdownCancelAll', { ...BTC, countdownTime: 60_000 });
    await call(c.one, 'POST', '/fapi/v1/countdownCancelAll', { ...BTC, countdownTime: 0 });
    await call(c.one, 'GET', '/fapi/v1/allOrders', BTC);
    await call(c.liq, 'GET', '/fapi/v1/allOrders', BTC);
    await call(c.one, 'GET', '/fapi/v1/userTrades', BTC);
    expect(await call(c.liq, 'GET', '/fapi/v1/forceOrders')).toHaveLength(1);
  });

  it('answers algo orders as documented: placed, waiting, trailing, fired, cancelled', async () => {
    const algo = (p: Params) => call(c.algo, 'POST', '/fapi/v1/algoOrder', { algoType: 'CONDITIONAL', ...BTC, ...p });
    const stop = await algo({
      side: 'SELL',
      type: 'STOP_MARKET',
      closePosition: 'true',
      triggerPrice: '95500',
      workingType: 'MARK_PRICE',
    });
    const trailing = await algo({
      side: 'SELL',
      type: 'TRAILING_STOP_MARKET',
      quantity: '0.005',
      callbackRate: '1',
      activatePrice: '97000',
    });
    const buy = await algo({ side: 'BUY', type: 'STOP', quantity: '0.010', price: '99000', triggerPrice: '99500' });
    await call(c.algo, 'GET', '/fapi/v1/openAlgoOrders');
    // the Close-All stop fires at a mark of 95,450 and closes the long
    setPrices(t.venue.exchange, 'BTCUSDT', { mark: 95_450, index: 95_450 });
    setPrices(t.venue.exchange, 'BTCUSDT', { mark: MARK, index: MARK });
    expect((await call(c.algo, 'GET', '/fapi/v1/algoOrder', { algoId: stop.algoId })).algoStatus).toBe('FINISHED');
    await call(c.algo, 'GET', '/fapi/v1/algoOrder', { algoId: trailing.algoId });
    await call(c.algo, 'DELETE', '/fapi/v1/algoOrder', { algoId: buy.algoId });
    await call(c.algo, 'GET', '/fapi/v1/allAlgoOrders', BTC);
    await call(c.algo, 'DELETE', '/fapi/v1/algoOpenOrders', BTC);
  });

  it('refuses as documented', async () => {
    await call(c.one, 'GET', '/fapi/v1/order', { ...BTC, orderId: 999_999_999 }, 400);
    await call(
      c.one,
      'POST',
      '/fapi/v1/order',
      { ...BTC, side: 'BUY', type: 'MARKET', quantity: '0.002', timestamp: 1 },
      400,
    );
    await call({ id: 0, apiKey: 'bkey_nobody_0000', apiSecret: 'none' }, 'GET', '/fapi/v1/openOrders', {}, 401);
  });
});

describe('account', () => {
  it('answers the account, its positions, settings and history as documented', async () => {
    for (const who of [c.one, c.hedge, c.iso]) {
      await call(who, 'GET', '/fapi/v3/positionRisk');
      await call(who, 'GET', '/fapi/v2/positionRisk', BTC);
      await call(who, 'GET', '/fapi/v1/adlQuantile');
    }
    for (const path of ['/fapi/v3/account', '/fapi/v2/account', '/fapi/v3/balance', '/fapi/v2/balance'])
      await call(c.one, 'GET', path);
    await call(c.one, 'GET', '/fapi/v1/leverageBracket', BTC);
    await call(c.one, 'GET', '/fapi/v1/leverageBracket');
    await call(c.one, 'GET', '/fapi/v1/symbolConfig', BTC);
    await call(c.one, 'GET', '/fapi/v1/symbolConfig');
    await call(c.one, 'GET', '/fapi/v1/commissionRate', BTC);
    await call(c.one, 'GET', '/fapi/v1/multiAssetsMargin');
    await call(c.one, 'GET', '/fapi/v1/accountConfig');
    await call(c.fresh, 'POST', '/fapi/v1/leverage', { ...BTC, leverage: 10 });
    await call(c.fresh, 'POST', '/fapi/v1/marginType', { ...BTC, marginType: 'ISOLATED' });
    await call(c.fresh, 'POST', '/fapi/v1/positionSide/dual', { dualSidePosition: 'true' });
    expect(await call(c.fresh, 'GET', '/fapi/v1/positionSide/dual')).toEqual({ dualSidePosition: true });
    await call(c.iso, 'POST', '/fapi/v1/positionMargin', { ...BTC, amount: '10.5', type: 1 });
    await call(c.iso, 'GET', '/fapi/v1/positionMargin/history', BTC);
    const incomeTypes = new Set((await call(c.one, 'GET', '/fapi/v1/income')).map((e: any) => e.incomeType));
    expect([...incomeTypes].sort()).toEqual(['COMMISSION', 'FUNDING_FEE', 'REALIZED_PNL', 'TRANSFER']);
  });

  it('answers the user stream key as documented, and refuses as documented', async () => {
    await listenKey(c.one, 'POST');
    await listenKey(c.one, 'PUT');
    await listenKey(c.one, 'DELETE');
    await listenKey(c.one, 'PUT', 400);
    await call(c.fresh, 'POST', '/fapi/v1/marginType', { ...BTC, marginType: 'ISOLATED' }, 400);
  });
});

describe('how answers are written', () => {
  it('POST /fapi/v1/order through the serializer compiled from its schema; the others as their handlers return them', async () => {
    // the answer objects JSON.stringify writes: a route whose schema is documentation hands it its
    // answer; POST order's compiled serializer writes its own
    const stringify = JSON.stringify;
    const written: string[] = [];
    JSON.stringify = (value: any, replacer?: any, space?: any) => {
      if (typeof value?.orderId === 'number' || typeof value?.serverTime === 'number')
        written.push(Object.keys(value)[0]);
      return stringify(value, replacer, space);
    };
    try {
      const placed = { ...BTC, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.010', price: '90000' };
      const o = await call(c.one, 'POST', '/fapi/v1/order', placed);
      expect(written).toEqual([]);
      await call(c.one, 'DELETE', '/fapi/v1/order', { ...BTC, orderId: o.orderId });
      await pub('/fapi/v1/time');
      expect(written).toEqual(['orderId', 'serverTime']);
    } finally {
      JSON.stringify = stringify;
    }
  });
});

describe('the document', () => {
  it('every REST route has answered 200, and every part of every answer schema has met a real answer', () => {
    const all = checker.restRoutes();
    // a route that never succeeds documents no 200 answer (POST multiAssetsMargin: Single-Asset Mode only)
    const routes = all.filter((k) => checker.schemaOf(k, 200) !== undefined);
    expect(all.filter((k) => !routes.includes(k))).toEqual(['POST /fapi/v1/multiAssetsMargin']);
    expect(routes.length).toBeGreaterThanOrEqual(70);
    expect(routes.filter((k) => !checker.answered.get(k)?.has(200))).toEqual([]);
    expect(routes.flatMap((k) => checker.unexercised(k, 200))).toEqual([]);
  });
});
