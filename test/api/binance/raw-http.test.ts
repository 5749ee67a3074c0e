// The facade route by route over raw HTTP (inject), against the field lists of the reference
// (binance-usdm.md a.3 / a.2): Binance's signing rules, {code, msg} errors, defaults and limits.
import { openingMarket, placeOrder } from '../../helpers/exchange-commands.ts';
import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src-main/api/app.ts';
import { openVenue, type LocalVenue as Venue } from '../../../src-main/venue.ts';
import { Side } from '../../../src-shared/enums.ts';
import { ORDER_FIELDS, limit, midOf } from './book.ts';
import { account, injectService, type Injected } from './helpers.ts';
import type { Creds } from '../../helpers/signed.ts';

let svc: Injected;
let venue: Venue;
let app: FastifyInstance;
let c: Creds;
let mid: number;

const USER_TRADE_FIELDS = [
  'symbol',
  'id',
  'orderId',
  'side',
  'price',
  'qty',
  'realizedPnl',
  'marginAsset',
  'quoteQty',
  'commission',
  'commissionAsset',
  'time',
  'positionSide',
  'buyer',
  'maker',
];
const POSITION_V3_FIELDS = [
  'symbol',
  'positionSide',
  'positionAmt',
  'entryPrice',
  'breakEvenPrice',
  'markPrice',
  'unRealizedProfit',
  'liquidationPrice',
  'isolatedMargin',
  'notional',
  'marginAsset',
  'isolatedWallet',
  'initialMargin',
  'maintMargin',
  'positionInitialMargin',
  'openOrderInitialMargin',
  'adl',
  'bidNotional',
  'askNotional',
  'updateTime',
];
const sorted = (xs: string[]) => [...xs].sort();

function sign(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text).digest('hex');
}

async function call(
  method: 'GET' | 'POST' | 'DELETE' | 'PUT',
  path: string,
  params: Record<string, string | number> = {},
  opts: { where?: 'query' | 'body' | 'split'; who?: Creds; ts?: number; recvWindow?: number; badSig?: boolean } = {},
) {
  const who = opts.who ?? c;
  const all = new URLSearchParams({
    timestamp: String(opts.ts ?? Date.now()),
    ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])),
  });
  if (opts.recvWindow !== undefined) all.set('recvWindow', String(opts.recvWindow));
  const where = opts.where ?? (method === 'POST' || method === 'PUT' ? 'body' : 'query');
  let query = '';
  let body = '';
  if (where === 'query') query = all.toString();
  else if (where === 'body') body = all.toString();
  else {
    const entries = [...all];
    const half = Math.ceil(entries.length / 2);
    query = new URLSearchParams(entries.slice(0, half)).toString();
    body = new URLSearchParams(entries.slice(half)).toString();
  }
  const sig = opts.badSig ? '0'.repeat(64) : sign(who.apiSecret, query + body);
  if (body !== '') body += `&signature=${sig}`;
  else query += `${query ? '&' : ''}signature=${sig}`;
  const r = await app.inject({
    method,
    url: `/binance${path}${query ? `?${query}` : ''}`,
    headers: { 'x-mbx-apikey': who.apiKey, ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    payload: body || undefined,
  });
  return { status: r.statusCode, body: JSON.parse(r.body), headers: r.headers };
}

const pub = async (path: string) => {
  const r = await app.inject({ method: 'GET', url: `/binance${path}` });
  return { status: r.statusCode, body: JSON.parse(r.body) };
};

beforeAll(async () => {
  svc = await injectService();
  ({ venue, app } = svc);
  c = account(venue, 'raw', 100_000, 'one_way');
  const mm = account(venue, 'rawmm');
  mid = midOf(venue);
  limit(venue, mm, { side: Side.SELL, price: (mid + 5).toFixed(1), qty: '1.000' });
  limit(venue, mm, { side: Side.BUY, price: (mid - 5).toFixed(1), qty: '1.000' });
});
afterAll(async () => svc?.close());

describe('public routes', () => {
  it('ping, time (wall clock), exchangeInfo filters as the reference lists them', async () => {
    expect((await pub('/fapi/v1/ping')).body).toEqual({});
    const t = (await pub('/fapi/v1/time')).body;
    expect(Math.abs(t.serverTime - Date.now())).toBeLessThan(2000);
    const info = (await pub('/fapi/v1/exchangeInfo')).body;
    expect(info.timezone).toBe('UTC');
    // this app's rate limits are off: none said
    expect(info.rateLimits).toEqual([]);
    expect(info.futuresType).toBe('U_MARGINED');
    const s = info.symbols.find((x: any) => x.symbol === 'BTCUSDT');
    const row = venue.symbols.get('BTCUSDT')!;
    expect(s.status).toBe('TRADING');
    expect(s.contractType).toBe('PERPETUAL');
    expect(s.marginAsset).toBe('USDT');
    expect(s).not.toHaveProperty('underlying');
    const f = Object.fromEntries(s.filters.map((x: any) => [x.filterType, x]));
    expect(f.PRICE_FILTER.tickSize).toBe(row.tickSize);
    expect(f.LOT_SIZE).toEqual({
      filterType: 'LOT_SIZE',
      minQty: row.minQty,
      maxQty: row.maxQty,
      stepSize: row.stepSize,
    });
    expect(f.MARKET_LOT_SIZE.minQty).toBe(row.minQty);
    expect(f.MIN_NOTIONAL).toEqual({ filterType: 'MIN_NOTIONAL', notional: row.minNotional });
    expect(f.MAX_NUM_ORDERS).toEqual({ filterType: 'MAX_NUM_ORDERS', limit: 200 });
    const r = Number(row.marketPriceProtectRatio);
    expect(Number(f.PERCENT_PRICE.multiplierUp)).toBeCloseTo(1 + r, 10);
    expect(Number(f.PERCENT_PRICE.multiplierDown)).toBeCloseTo(1 - r, 10);
    expect(s.orderTypes).toContain('LIMIT');
    expect(s.timeInForce).toEqual(['GTC', 'IOC', 'FOK', 'GTX']);
  });

  it('depth: default 500 levels, lastUpdateId = native id, limits 5..1000 only', async () => {
    const d = (await pub('/fapi/v1/depth?symbol=btcusdt')).body;
    expect(sorted(Object.keys(d))).toEqual(sorted(['lastUpdateId', 'E', 'T', 'bids', 'asks']));
    expect(d.lastUpdateId).toBe(venue.exchange.pair('BTCUSDT')!.book.depth(1).updateId);
    expect(d.asks[0]).toEqual([(mid + 5).toFixed(1), '1.000']);
    expect((await pub('/fapi/v1/depth?symbol=BTCUSDT&limit=1000')).status).toBe(200);
    const bad = await pub('/fapi/v1/depth?symbol=BTCUSDT&limit=7');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(-1130);
  });

  it('klines: Binance columns, oldest first; unknown interval -1120; extra parameters ignored', async () => {
    placeOrder(venue.exchange, c.id, openingMarket(1, '0.010'));
    const k = (await pub('/fapi/v1/klines?symbol=BTCUSDT&interval=1m&limit=2&whatever=1')).body;
    const last = k[k.length - 1];
    const native = venue.klines.currentKline('BTCUSDT', '1m')!;
    expect(last).toEqual([
      native[0],
      native[2],
      native[3],
      native[4],
      native[5],
      native[6],
      native[1],
      native[7],
      native[8],
      native[9],
      native[10],
      '0',
    ]);
    expect((await pub('/fapi/v1/klines?symbol=BTCUSDT&interval=7m')).body.code).toBe(-1120);
    const since = (await pub(`/fapi/v1/klines?symbol=BTCUSDT&interval=1m&startTime=${native[0]}&limit=10`)).body;
    expect(since[0][0]).toBe(native[0]);
  });

  it('trades and aggTrades: field lists; limit up to 1000 is clamped, not refused', async () => {
    const t = (await pub('/fapi/v1/trades?symbol=BTCUSDT&limit=1000')).body;
    expect(t.length).toBeGreaterThan(0);
    expect(sorted(Object.keys(t[0]))).toEqual(sorted(['id', 'price', 'qty', 'quoteQty', 'time', 'isBuyerMaker']));
    expect(Number.isInteger(t[0].id)).toBe(true);
    const a = (await pub('/fapi/v1/aggTrades?symbol=BTCUSDT&limit=1000')).body;
    expect(sorted(Object.keys(a[0]))).toEqual(sorted(['a', 'p', 'q', 'f', 'l', 'T', 'm']));
    expect((await pub('/fapi/v1/trades?symbol=BTCUSDT&limit=1001')).body.code).toBe(-1130);
  });

  it('tickers, book ticker, prices, premiumIndex: one object with symbol, an array without', async () => {
    const t = (await pub('/fapi/v1/ticker/24hr?symbol=BTCUSDT')).body;
    for (const f of [
      'symbol',
      'priceChange',
      'priceChangePercent',
      'weightedAvgPrice',
      'lastPrice',
      'lastQty',
      'openPrice',
      'highPrice',
      'lowPrice',
      'volume',
      'quoteVolume',
      'openTime',
      'closeTime',
      'count',
    ]) {
      expect(t).toHaveProperty(f);
    }
    expect(Array.isArray((await pub('/fapi/v1/ticker/24hr')).body)).toBe(true);
    const b = (await pub('/fapi/v1/ticker/bookTicker?symbol=BTCUSDT')).body;
    expect(b).toMatchObject({ symbol: 'BTCUSDT', bidPrice: (mid - 5).toFixed(1), askPrice: (mid + 5).toFixed(1) });
    const p2 = (await pub('/fapi/v2/ticker/price')).body;
    expect(sorted(Object.keys(p2[0]))).toEqual(['price', 'symbol', 'time']);
    const pi = (await pub('/fapi/v1/premiumIndex?symbol=BTCUSDT')).body;
    expect(sorted(Object.keys(pi))).toEqual(
      sorted([
        'symbol',
        'markPrice',
        'indexPrice',
        'estimatedSettlePrice',
        'lastFundingRate',
        'interestRate',
        'nextFundingTime',
        'time',
      ]),
    );
    // the mark and index the risk figures use, to 8 decimals as Binance sends them (not the tick)
    const pair = venue.exchange.pair('BTCUSDT')!;
    expect(pi.markPrice).toMatch(/^\d+\.\d{8}$/);
    expect(Number(pi.markPrice)).toBe(Math.round(pair.markPrice * 1e8) / 1e8);
    expect(pi.indexPrice).toBe(pair.indexPrice.toFixed(8));
  });

  it('stubs: spot and COIN-M exchangeInfo empty, sapi lists empty', async () => {
    expect((await pub('/api/v3/exchangeInfo')).body.symbols).toEqual([]);
    expect((await pub('/dapi/v1/exchangeInfo')).body.symbols).toEqual([]);
    expect((await pub('/sapi/v1/capital/config/getall')).body).toEqual([]);
  });
});

describe('signing', () => {
  it('form body, query, and split between both are all accepted', async () => {
    for (const where of ['body', 'query', 'split'] as const) {
      const r = await call('POST', '/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: 9 }, { where });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toEqual({ leverage: 9, maxNotionalValue: expect.any(String), symbol: 'BTCUSDT' });
    }
  });

  it('refusals: -1022 signature, -1021 stale, -1131 recvWindow, -1102 timestamp, -2015 key', async () => {
    expect((await call('GET', '/fapi/v3/balance', {}, { badSig: true })).body).toEqual({
      code: -1022,
      msg: 'Signature for this request is not valid.',
    });
    expect((await call('GET', '/fapi/v3/balance', {}, { ts: Date.now() - 10_000 })).body).toEqual({
      code: -1021,
      msg: 'Timestamp for this request is outside of the recvWindow.',
    });
    expect((await call('GET', '/fapi/v3/balance', {}, { ts: Date.now() - 10_000, recvWindow: 20_000 })).status).toBe(
      200,
    );
    expect((await call('GET', '/fapi/v3/balance', {}, { recvWindow: 70_000 })).body.code).toBe(-1131);
    const r = await app.inject({
      method: 'GET',
      url: '/binance/fapi/v3/balance',
      headers: { 'x-mbx-apikey': c.apiKey },
    });
    expect(JSON.parse(r.body).code).toBe(-1102);
    const u = await call('GET', '/fapi/v3/balance', {}, { who: { ...c, apiKey: 'nobody_0000' } });
    expect(u.status).toBe(401);
    expect(u.body).toEqual({ code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' });
  });

  it("exchangeInfo's rateLimits are the venue's defaults (api/rate-limit.ts), not Binance's figures", async () => {
    const v = openVenue({ dataDir: ':memory:' });
    const a = await buildApp({ venue: v });
    try {
      expect(JSON.parse((await a.inject({ url: '/binance/fapi/v1/exchangeInfo' })).body).rateLimits).toEqual([
        { rateLimitType: 'REQUEST_WEIGHT', interval: 'SECOND', intervalNum: 10, limit: 6000 },
        { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: 3000 },
      ]);
    } finally {
      await a.close();
      await v.close();
    }
  });

  it('429 with Retry-After and -1003 when the per-IP limit is reached', async () => {
    const v = openVenue({ dataDir: ':memory:' });
    const a = await buildApp({ venue: v, rateLimit: { perIp: { max: 2, windowMs: 60_000 }, perKey: false } });
    await a.ready();
    try {
      // exchangeInfo says the venue's limits as they are set (a minute of 2 requests an IP, none a key)
      const info = await a.inject({ url: '/binance/fapi/v1/exchangeInfo' });
      expect(JSON.parse(info.body).rateLimits).toEqual([
        { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 2 },
      ]);
      expect((await a.inject({ url: '/binance/fapi/v1/ping' })).statusCode).toBe(200);
      const r = await a.inject({ url: '/binance/fapi/v1/ping' });
      expect(r.statusCode).toBe(429);
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
      expect(JSON.parse(r.body).code).toBe(-1003);
    } finally {
      await a.close();
      await v.close();
    }
  });
});

describe('signed routes, field lists', () => {
  it('order: create (RESULT and default ACK), query, cancel, lists; every documented parameter accepted', async () => {
    const res = await call('POST', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.010',
      price: (mid - 50).toFixed(1),
      timeInForce: 'GTC',
      newClientOrderId: 'my.bot:1/a',
      newOrderRespType: 'RESULT',
      workingType: 'CONTRACT_PRICE',
      priceProtect: 'false',
      selfTradePreventionMode: 'NONE',
      positionSide: 'BOTH',
      goodTillDate: 0,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // the create answer has updateTime and no time (reference a.3); queries and lists have both
    expect(sorted(Object.keys(res.body))).toEqual(sorted(ORDER_FIELDS.filter((f) => f !== 'time')));
    expect(Math.abs(res.body.updateTime - venue.trading.order(res.body.orderId)!.createdAt)).toBeLessThanOrEqual(1);
    expect(res.body).toMatchObject({
      status: 'NEW',
      clientOrderId: 'my.bot:1/a',
      timeInForce: 'GTC',
      positionSide: 'BOTH',
      reduceOnly: false,
    });
    expect(res.body).not.toHaveProperty('code');
    const ack = await call('POST', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '0.010',
    });
    expect(ack.body.status).toBe('NEW'); // ACK: as accepted
    const filled = await call('GET', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: ack.body.orderId });
    expect(filled.body.status).toBe('FILLED');
    const byCid = await call('GET', '/fapi/v1/order', { symbol: 'BTCUSDT', origClientOrderId: 'my.bot:1/a' });
    expect(byCid.body.orderId).toBe(res.body.orderId);
    expect(sorted(Object.keys(byCid.body))).toEqual(sorted(ORDER_FIELDS));
    expect({ ...byCid.body, time: undefined }).toEqual({
      ...res.body,
      time: undefined,
      updateTime: byCid.body.updateTime,
    });
    const open = await call('GET', '/fapi/v1/openOrders', { symbol: 'BTCUSDT' });
    expect(open.body.map((o: any) => o.orderId)).toEqual([res.body.orderId]);
    // a DELETE's parameters in a form body, as /openapi.json documents for every facade change
    const del = await call(
      'DELETE',
      '/fapi/v1/order',
      { symbol: 'BTCUSDT', origClientOrderId: 'my.bot:1/a' },
      { where: 'body' },
    );
    expect(del.body.status).toBe('CANCELED');
    expect((await call('DELETE', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: res.body.orderId })).body).toEqual({
      code: -2011,
      msg: 'Unknown order sent.',
    });
    expect((await call('GET', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: 99999 })).body).toEqual({
      code: -2013,
      msg: 'Order does not exist.',
    });
    const all = await call('GET', '/fapi/v1/allOrders', { symbol: 'BTCUSDT' });
    // oldest first: the native history (newest first) reversed
    const native = venue.trading
      .orders({ accountId: c.id, symbol: 'BTCUSDT', limit: 500 })
      .map((o) => o.id)
      .reverse();
    expect(all.body.map((o: any) => o.orderId)).toEqual(native);
    expect(native).toEqual(expect.arrayContaining([res.body.orderId, ack.body.orderId]));
    const trades = await call('GET', '/fapi/v1/userTrades', { symbol: 'BTCUSDT', limit: 1000 });
    expect(trades.body.length).toBeGreaterThan(0);
    expect(sorted(Object.keys(trades.body[0]))).toEqual(sorted(USER_TRADE_FIELDS));
    expect((await call('DELETE', '/fapi/v1/allOpenOrders', { symbol: 'BTCUSDT' })).body).toEqual({
      code: 200,
      msg: 'The operation of cancel all open order is done.',
    });
  });

  it('position, account, balance, brackets, commission, listenKey', async () => {
    const pr = await call('GET', '/fapi/v3/positionRisk');
    expect(pr.body.length).toBeGreaterThan(0);
    expect(sorted(Object.keys(pr.body[0]))).toEqual(sorted(POSITION_V3_FIELDS));
    // an open order's figures on its entry: remaining x price, and its margin at the pair's leverage
    const rest = await call('POST', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.010',
      price: (mid - 100).toFixed(1),
      timeInForce: 'GTC',
    });
    const withOrder = (await call('GET', '/fapi/v3/positionRisk', { symbol: 'BTCUSDT' })).body[0];
    const lev = venue.exchange.pairSetting(c.id, 'BTCUSDT').leverage;
    expect(Number(withOrder.bidNotional)).toBeCloseTo(0.01 * (mid - 100), 6);
    expect(Number(withOrder.askNotional)).toBe(0);
    // what the venue holds for it: its margin at the pair's leverage and its taker fee
    const frozen = venue.exchange.summary(c.id).frozen_margin;
    expect(Number(frozen)).toBeGreaterThan((0.01 * (mid - 100)) / lev);
    expect(Number(withOrder.openOrderInitialMargin)).toBeCloseTo(Number(frozen), 8);
    await call('DELETE', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: rest.body.orderId });
    const v2 = await call('GET', '/fapi/v2/positionRisk', { symbol: 'ETHUSDT' });
    expect(v2.body).toHaveLength(1);
    expect(v2.body[0]).toMatchObject({
      symbol: 'ETHUSDT',
      positionSide: 'BOTH',
      positionAmt: expect.stringMatching(/^0(\.0+)?$/),
      marginType: 'cross',
    });
    const acc = await call('GET', '/fapi/v3/account');
    expect(acc.body.assets[0]).toMatchObject({
      asset: 'USDT',
      walletBalance: venue.exchange.summary(c.id).wallet_balance,
    });
    expect(acc.body.assets[0].updateTime).toBeGreaterThan(0);
    const bal = await call('GET', '/fapi/v2/balance');
    expect(bal.body[0]).toMatchObject({ asset: 'USDT', balance: venue.exchange.summary(c.id).wallet_balance });
    const br = await call('GET', '/fapi/v1/leverageBracket', { symbol: 'BTCUSDT' });
    const tiers = venue.exchange.pair('BTCUSDT')!.row.brackets;
    expect(br.body.brackets).toHaveLength(tiers.length);
    expect(br.body.brackets[0]).toEqual({
      bracket: 1,
      initialLeverage: tiers[0].maxLeverage,
      notionalCap: tiers[0].cap,
      notionalFloor: 0,
      maintMarginRatio: tiers[0].mmr,
      cum: tiers[0].cum,
    });
    const fee = await call('GET', '/fapi/v1/commissionRate', { symbol: 'BTCUSDT' });
    expect(fee.body.takerCommissionRate).toBe(venue.symbols.get('BTCUSDT')!.takerFeeRate);
    expect((await call('GET', '/fapi/v1/multiAssetsMargin')).body).toEqual({ multiAssetsMargin: false });
    const keyOnly = (method: 'POST' | 'PUT' | 'DELETE') =>
      app.inject({
        method,
        url: '/binance/fapi/v1/listenKey',
        headers: { 'x-mbx-apikey': c.apiKey, 'content-type': 'application/x-www-form-urlencoded' },
        payload: '',
      });
    const k1 = JSON.parse((await keyOnly('POST')).body).listenKey;
    const k2 = JSON.parse((await keyOnly('POST')).body).listenKey;
    expect(k1).toBe(k2);
    expect(JSON.parse((await keyOnly('PUT')).body).listenKey).toBe(k1);
    expect((await keyOnly('DELETE')).statusCode).toBe(200);
    expect(JSON.parse((await keyOnly('PUT')).body).code).toBe(-1125);
  });

  it('no-op margin type is -4046 with the exact text', async () => {
    const r = await call('POST', '/fapi/v1/marginType', { symbol: 'BTCUSDT', marginType: 'CROSSED' });
    expect(r.body).toEqual({ code: -4046, msg: 'No need to change margin type.' });
  });
});
