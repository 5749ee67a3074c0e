// Malformed input on every trading route: each case gets the documented envelope error with
// a 4xx status, and none of them changes anything (open orders, balances, settings, rows).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Errors, type ErrorDef } from '../../src-shared/errors.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';
import {
  countRows,
  dataOf,
  makeAccount,
  orderBody,
  plain,
  signed,
  type Creds,
  type Reply,
  type SignedOptions,
} from '../helpers/signed.ts';

let t: TestApp;
let a: Creds;

type Method = 'GET' | 'POST' | 'DELETE';
interface Case {
  label: string;
  kind: 'signed' | 'bot';
  method: Method;
  path: string;
  opts: SignedOptions;
  def: ErrorDef;
}

const cases: Case[] = [];
function add(
  kind: Case['kind'],
  method: Method,
  path: string,
  def: ErrorDef,
  label: string,
  opts: SignedOptions,
): void {
  cases.push({ label: `${method} ${path} ${label}`, kind, method, path, opts, def });
}

const E = Errors;
const long = (n: number, c = 'a') => c.repeat(n);

// ------------------------------------------------------------ JSON-body routes

function bodyCases(kind: Case['kind'], path: string, valid: Record<string, unknown>): void {
  const json = (label: string, over: Record<string, unknown>, def: ErrorDef) =>
    add(kind, 'POST', path, def, label, { json: { ...valid, ...over } });
  const drop = (field: string) => {
    const b = { ...valid };
    delete b[field];
    // a limit order's price is conditional: the exchange, not the schema, asks for it
    add(kind, 'POST', path, field === 'price' ? E.PRICE_REQUIRED : E.MISSING_PARAMETER, `missing ${field}`, {
      json: b,
    });
  };
  for (const k of Object.keys(valid)) drop(k);
  json('extra field user_id', { user_id: 2 }, E.UNKNOWN_PARAMETER);
  add(kind, 'POST', path, E.MISSING_PARAMETER, 'empty object', { json: {} });
  add(kind, 'POST', path, E.INVALID_JSON, 'malformed JSON', { rawBody: '{"symbol":' });
  add(kind, 'POST', path, E.INVALID_JSON, 'empty body, JSON content type', { rawBody: '' });
  add(kind, 'POST', path, E.INVALID_JSON, 'prototype poisoning', { rawBody: '{"__proto__":{"x":1}}' });
  add(kind, 'POST', path, E.MISSING_PARAMETER, 'no body, no content type', {});
  add(kind, 'POST', path, E.UNSUPPORTED_MEDIA_TYPE, 'text/plain body', {
    rawBody: JSON.stringify(valid),
    contentType: 'text/plain',
  });
  add(kind, 'POST', path, E.UNSUPPORTED_MEDIA_TYPE, 'form body', {
    rawBody: 'symbol=BTCUSDT',
    contentType: 'application/x-www-form-urlencoded',
  });
  add(kind, 'POST', path, E.INVALID_PARAMETER, 'JSON array body', { rawBody: '[]' });
  add(kind, 'POST', path, E.INVALID_PARAMETER, 'JSON null body', { rawBody: 'null' });
  add(kind, 'POST', path, E.INVALID_PARAMETER, 'JSON string body', { rawBody: '"BTCUSDT"' });
  add(kind, 'POST', path, E.BODY_TOO_LARGE, 'body over 64 KiB', { json: { ...valid, pad: long(70_000) } });
  add(kind, 'POST', path, E.UNKNOWN_PARAMETER, 'unknown query parameter', { json: valid, query: { foo: 1 } });
}

function orderFieldCases(kind: Case['kind'], path: string): void {
  const base = orderBody({ price: '90000.0' });
  const json = (label: string, over: Record<string, unknown>, def: ErrorDef = E.INVALID_PARAMETER) =>
    add(kind, 'POST', path, def, label, { json: { ...base, ...over } });
  json('side as a string', { side: '1' });
  json('side 1.5', { side: 1.5 });
  json('side 3', { side: 3 });
  json('side 0', { side: 0 });
  json('position_side 3', { position_side: 3 });
  json('position_action 0', { position_action: 0 });
  json('type 3', { type: 3 });
  json('type "LIMIT"', { type: 'LIMIT' });
  json('time_in_force 5', { time_in_force: 5 });
  json('margin_mode 0', { margin_mode: 0 });
  json('qty as a number', { qty: 0.01 });
  json('price as a number', { price: 90000 });
  json('negative qty', { qty: '-0.010' });
  json('zero qty', { qty: '0' });
  json('zero qty with decimals', { qty: '0.000' });
  json('qty with exponent', { qty: '1e-2' });
  json('qty with blanks', { qty: ' 0.010' });
  json('qty with leading zero', { qty: '00.010' });
  json('empty qty', { qty: '' });
  json('qty of 41 chars', { qty: long(41, '9') });
  json('huge qty', { qty: '99999999999999999999' });
  json('zero price', { price: '0' });
  json('negative price', { price: '-90000.0' });
  json('price NaN', { price: 'NaN' });
  json('price with exponent', { price: '9e4' });
  json('price off the tick', { price: '90000.05' }, E.PRICE_OFF_TICK);
  json('price far off the tick', { price: '90000.123456789' }, E.PRICE_OFF_TICK);
  json('leverage 0', { leverage: 0 });
  json('leverage -1', { leverage: -1 });
  json('leverage 1001', { leverage: 1001 });
  json('leverage 1e30', { leverage: 1e30 });
  json('leverage as a string', { leverage: '20' });
  json('leverage 2.5', { leverage: 2.5 });
  json('reduce_only as a string', { reduce_only: 'true' });
  json('reduce_only 1', { reduce_only: 1 });
  json('reduce_only null', { reduce_only: null });
  json('client_order_id of 37 chars', { client_order_id: long(37) });
  json('client_order_id with a blank', { client_order_id: 'a b' });
  json('empty client_order_id', { client_order_id: '' });
  json('client_order_id as a number', { client_order_id: 12 });
  json('client_order_id not ASCII', { client_order_id: 'café' });
  json('symbol with a dash', { symbol: 'BTC-USDT' });
  json('empty symbol', { symbol: '' });
  json('symbol as a number', { symbol: 1 });
  json('symbol of 31 chars', { symbol: long(31, 'A') });
  json('unknown symbol', { symbol: 'NOPEUSDT' }, E.SYMBOL_NOT_FOUND);
}

bodyCases('signed', '/fapi/v1/orders', orderBody({ price: '90000.0' }));
orderFieldCases('signed', '/fapi/v1/orders');
add('signed', 'POST', '/fapi/v1/orders', E.UNKNOWN_PARAMETER, 'need_cache (bot only)', {
  json: orderBody({ need_cache: false }),
});

bodyCases('bot', '/fapi/v1/bot/orders', orderBody({ side: 2, position_side: 2, price: '99000.0' }));
orderFieldCases('bot', '/fapi/v1/bot/orders');
add('bot', 'POST', '/fapi/v1/bot/orders', E.INVALID_PARAMETER, 'need_cache as a string', {
  json: orderBody({ need_cache: 'true' }),
});
add('bot', 'POST', '/fapi/v1/bot/orders', E.INVALID_PARAMETER, 'need_cache 1', { json: orderBody({ need_cache: 1 }) });

bodyCases('signed', '/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: 20 });
for (const [label, v] of [
  ['"20"', '20'],
  ['0', 0],
  ['1001', 1001],
  ['2.5', 2.5],
  ['true', true],
] as const) {
  add('signed', 'POST', '/fapi/v1/leverage', E.INVALID_PARAMETER, `leverage ${label}`, {
    json: { symbol: 'BTCUSDT', leverage: v },
  });
}
add('signed', 'POST', '/fapi/v1/leverage', E.SYMBOL_NOT_FOUND, 'unknown symbol', {
  json: { symbol: 'NOPEUSDT', leverage: 20 },
});
add('signed', 'POST', '/fapi/v1/leverage', E.LEVERAGE_INVALID, 'above the pair max', {
  json: { symbol: 'BTCUSDT', leverage: 126 },
});

bodyCases('signed', '/fapi/v1/marginType', { symbol: 'BTCUSDT', margin_mode: 2 });
for (const [label, v] of [
  ['3', 3],
  ['0', 0],
  ['"1"', '1'],
  ['"ISOLATED"', 'ISOLATED'],
] as const) {
  add('signed', 'POST', '/fapi/v1/marginType', E.INVALID_PARAMETER, `margin_mode ${label}`, {
    json: { symbol: 'BTCUSDT', margin_mode: v },
  });
}
add('signed', 'POST', '/fapi/v1/marginType', E.SYMBOL_NOT_FOUND, 'unknown symbol', {
  json: { symbol: 'NOPEUSDT', margin_mode: 1 },
});

bodyCases('signed', '/fapi/v1/positionMode', { position_mode: 'hedge' });
for (const [label, v] of [
  ['HEDGE', 'HEDGE'],
  ['empty', ''],
  ['1', 1],
  ['true', true],
] as const) {
  add('signed', 'POST', '/fapi/v1/positionMode', E.INVALID_PARAMETER, `position_mode ${label}`, {
    json: { position_mode: v },
  });
}

// ------------------------------------------------------------ query routes

const q = (
  kind: Case['kind'],
  method: Method,
  path: string,
  def: ErrorDef,
  label: string,
  query: Record<string, string | number>,
  rawQuery?: string,
) => add(kind, method, path, def, label, { query, rawQuery });

for (const [kind, path] of [
  ['signed', '/fapi/v1/order'],
  ['bot', '/fapi/v1/bot/order'],
] as const) {
  q(kind, 'DELETE', path, E.MISSING_PARAMETER, 'missing symbol', { order_id: 1 });
  q(kind, 'DELETE', path, E.INVALID_PARAMETER, 'order_id abc', { symbol: 'BTCUSDT', order_id: 'abc' });
  q(kind, 'DELETE', path, E.INVALID_PARAMETER, 'order_id 0', { symbol: 'BTCUSDT', order_id: 0 });
  q(kind, 'DELETE', path, E.INVALID_PARAMETER, 'order_id -1', { symbol: 'BTCUSDT', order_id: -1 });
  q(kind, 'DELETE', path, E.INVALID_PARAMETER, 'order_id 1.5', { symbol: 'BTCUSDT', order_id: '1.5' });
  q(kind, 'DELETE', path, E.INVALID_PARAMETER, 'order_id 1e20', {
    symbol: 'BTCUSDT',
    order_id: '100000000000000000000',
  });
  q(kind, 'DELETE', path, E.INVALID_PARAMETER, 'symbol given twice', { order_id: 1 }, 'symbol=BTCUSDT&symbol=ETHUSDT');
  q(kind, 'DELETE', path, E.UNKNOWN_PARAMETER, 'unknown parameter', { symbol: 'BTCUSDT', order_id: 1, foo: 'x' });
  q(kind, 'DELETE', path, E.SYMBOL_NOT_FOUND, 'unknown symbol', { symbol: 'NOPEUSDT', order_id: 1 });
  q(kind, 'DELETE', path, E.ORDER_NOT_FOUND, 'unknown order', { symbol: 'BTCUSDT', order_id: 999_999 });
}
q('bot', 'DELETE', '/fapi/v1/bot/order', E.MISSING_PARAMETER, 'missing order_id', { symbol: 'BTCUSDT' });
q('signed', 'DELETE', '/fapi/v1/order', E.MISSING_PARAMETER, 'neither id', { symbol: 'BTCUSDT' });
q('signed', 'DELETE', '/fapi/v1/order', E.INVALID_PARAMETER, 'both ids', {
  symbol: 'BTCUSDT',
  order_id: 1,
  client_order_id: 'x',
});
q('signed', 'DELETE', '/fapi/v1/order', E.INVALID_PARAMETER, 'client_order_id with a blank', {
  symbol: 'BTCUSDT',
  client_order_id: 'a b',
});
q('signed', 'DELETE', '/fapi/v1/order', E.INVALID_PARAMETER, 'client_order_id of 37 chars', {
  symbol: 'BTCUSDT',
  client_order_id: long(37),
});

q('signed', 'DELETE', '/fapi/v1/allOpenOrders', E.MISSING_PARAMETER, 'missing symbol', {});
q('signed', 'DELETE', '/fapi/v1/allOpenOrders', E.INVALID_PARAMETER, 'bad symbol', { symbol: 'BTC/USDT' });
q('signed', 'DELETE', '/fapi/v1/allOpenOrders', E.SYMBOL_NOT_FOUND, 'unknown symbol', { symbol: 'NOPEUSDT' });
q('signed', 'DELETE', '/fapi/v1/allOpenOrders', E.UNKNOWN_PARAMETER, 'unknown parameter', {
  symbol: 'BTCUSDT',
  all: 1,
});

for (const [kind, path] of [
  ['signed', '/fapi/v1/openOrders'],
  ['bot', '/fapi/v1/bot/openOrders'],
] as const) {
  q(kind, 'GET', path, E.INVALID_PARAMETER, 'bad symbol', { symbol: 'BTC USDT' });
  q(kind, 'GET', path, E.SYMBOL_NOT_FOUND, 'unknown symbol', { symbol: 'NOPEUSDT' });
  q(kind, 'GET', path, E.UNKNOWN_PARAMETER, 'unknown parameter', { limit: 5 });
  q(kind, 'GET', path, E.INVALID_PARAMETER, 'symbol given twice', {}, 'symbol=BTCUSDT&symbol=ETHUSDT');
}

const pageCases = (path: string, max: number, extra: Array<[string, Record<string, string | number>, ErrorDef]>) => {
  for (const [label, query] of [
    ['limit 0', { limit: 0 }],
    [`limit ${max + 1}`, { limit: max + 1 }],
    ['limit abc', { limit: 'abc' }],
    ['limit -1', { limit: -1 }],
    ['limit 2.5', { limit: '2.5' }],
    ['cursor with bad chars', { cursor: '!!' }],
    ['cursor of 65 chars', { cursor: long(65) }],
    ['cursor not issued', { cursor: 'abc' }],
    ['symbol with a dash', { symbol: 'BTC-USDT' }],
  ] as const) {
    q('signed', 'GET', path, E.INVALID_PARAMETER, label, query);
  }
  q('signed', 'GET', path, E.SYMBOL_NOT_FOUND, 'unknown symbol', { symbol: 'NOPEUSDT' });
  q('signed', 'GET', path, E.UNKNOWN_PARAMETER, 'unknown parameter', { page: 2 });
  for (const [label, query, def] of extra) q('signed', 'GET', path, def, label, query);
};
pageCases('/fapi/v1/allOrders', 500, [
  ['status 0', { status: 0 }, E.INVALID_PARAMETER],
  ['status 7', { status: 7 }, E.INVALID_PARAMETER],
  ['status NEW', { status: 'NEW' }, E.INVALID_PARAMETER],
]);
pageCases('/fapi/v1/myTrades', 500, [
  ['side 3', { side: 3 }, E.INVALID_PARAMETER],
  ['side BUY', { side: 'BUY' }, E.INVALID_PARAMETER],
  ['start_time -1', { start_time: -1 }, E.INVALID_PARAMETER],
  ['start_time 1.5', { start_time: '1.5' }, E.INVALID_PARAMETER],
  ['end_time 1e20', { end_time: '100000000000000000000' }, E.INVALID_PARAMETER],
  ['start_time after end_time', { start_time: 2000, end_time: 1000 }, E.INVALID_PARAMETER],
  ['camelCase startTime', { startTime: 1 }, E.UNKNOWN_PARAMETER],
]);
pageCases('/fapi/v1/position/history', 100, [
  ['positionSide 3', { positionSide: 3 }, E.INVALID_PARAMETER],
  ['marginMode 0', { marginMode: 0 }, E.INVALID_PARAMETER],
  ['closeType 0', { closeType: 0 }, E.INVALID_PARAMETER],
  ['closeType 7', { closeType: 7 }, E.INVALID_PARAMETER],
  ['startTime -5', { startTime: -5 }, E.INVALID_PARAMETER],
  ['startTime after endTime', { startTime: 2000, endTime: 1000 }, E.INVALID_PARAMETER],
  ['snake_case position_side', { position_side: 1 }, E.UNKNOWN_PARAMETER],
]);

for (const [label, query] of [
  ['position_id abc', { position_id: 'abc' }],
  ['position_id 0', { position_id: 0 }],
  ['position_id -1', { position_id: -1 }],
  ['position_id 1.5', { position_id: '1.5' }],
  ['position_id 1e20', { position_id: '100000000000000000000' }],
] as const) {
  q('signed', 'GET', '/fapi/v1/position/history/detail', E.INVALID_PARAMETER, label, query);
}
q('signed', 'GET', '/fapi/v1/position/history/detail', E.MISSING_PARAMETER, 'missing position_id', {});
q(
  'signed',
  'GET',
  '/fapi/v1/position/history/detail',
  E.INVALID_PARAMETER,
  'position_id twice',
  {},
  'position_id=1&position_id=2',
);
q('signed', 'GET', '/fapi/v1/position/history/detail', E.UNKNOWN_PARAMETER, 'unknown parameter', {
  position_id: 1,
  x: 1,
});
q('signed', 'GET', '/fapi/v1/position/history/detail', E.POSITION_NOT_FOUND, 'no such position', {
  position_id: 424242,
});

q('signed', 'GET', '/fapi/v1/position/list', E.UNKNOWN_PARAMETER, 'unknown parameter', { symbol: 'BTCUSDT' });
q('signed', 'GET', '/fapi/v1/account', E.UNKNOWN_PARAMETER, 'unknown parameter', { asset: 'USDT' });
q('signed', 'GET', '/fapi/v1/leverage', E.MISSING_PARAMETER, 'missing symbol', {});
q('signed', 'GET', '/fapi/v1/leverage', E.INVALID_PARAMETER, 'bad symbol', { symbol: '**' });
q('signed', 'GET', '/fapi/v1/leverage', E.SYMBOL_NOT_FOUND, 'unknown symbol', { symbol: 'NOPEUSDT' });

// ------------------------------------------------------------ the run

async function send(c: Case): Promise<Reply> {
  if (c.kind === 'signed') return signed(t.app, a, c.method, c.path, c.opts);
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(c.opts.query ?? {})) if (v !== undefined) params.append(k, String(v));
  const qs = [c.opts.rawQuery, params.toString()].filter((s) => s).join('&');
  return plain(t.app, c.method, qs ? `${c.path}?${qs}` : c.path, {
    json: c.opts.json,
    rawBody: c.opts.rawBody,
    contentType: c.opts.contentType,
  });
}

let before: Record<string, unknown>;

async function snapshot(): Promise<Record<string, unknown>> {
  const get = async (path: string, query?: Record<string, string>) =>
    dataOf(await signed(t.app, a, 'GET', path, { query }));
  return {
    open: await get('/fapi/v1/openOrders'),
    account: await get('/fapi/v1/account'),
    positions: await get('/fapi/v1/position/list'),
    btc: await get('/fapi/v1/leverage', { symbol: 'BTCUSDT' }),
    eth: await get('/fapi/v1/leverage', { symbol: 'ETHUSDT' }),
    bots: dataOf(await plain(t.app, 'GET', '/fapi/v1/bot/openOrders')),
    rows: (['orders', 'trades', 'positions', 'closed_positions'] as const).map((x) => countRows(t.venue, x)),
  };
}

beforeAll(async () => {
  t = await makeApp();
  t.venue.clock.pause();
  a = makeAccount(t.venue, 'bad-input');
  // something to lose: a resting user order and a cached bot order
  dataOf(
    await signed(t.app, a, 'POST', '/fapi/v1/orders', {
      json: orderBody({ price: '91000.0', client_order_id: 'keep' }),
    }),
  );
  dataOf(
    await plain(t.app, 'POST', '/fapi/v1/bot/orders', {
      json: orderBody({ side: 2, position_side: 2, price: '99500.0', need_cache: true }),
    }),
  );
  before = await snapshot();
});
afterAll(() => t.close());

describe('malformed input on the trading routes', () => {
  it('covers every trading route', () => {
    const routes = new Set(cases.map((c) => `${c.method} ${c.path}`));
    expect([...routes].sort()).toEqual([
      'DELETE /fapi/v1/allOpenOrders',
      'DELETE /fapi/v1/bot/order',
      'DELETE /fapi/v1/order',
      'GET /fapi/v1/account',
      'GET /fapi/v1/allOrders',
      'GET /fapi/v1/bot/openOrders',
      'GET /fapi/v1/leverage',
      'GET /fapi/v1/myTrades',
      'GET /fapi/v1/openOrders',
      'GET /fapi/v1/position/history',
      'GET /fapi/v1/position/history/detail',
      'GET /fapi/v1/position/list',
      'POST /fapi/v1/bot/orders',
      'POST /fapi/v1/leverage',
      'POST /fapi/v1/marginType',
      'POST /fapi/v1/orders',
      'POST /fapi/v1/positionMode',
    ]);
  });

  it.each(cases.map((c) => [c.label, c] as const))('%s', async (_label, c) => {
    const r = await send(c);
    expect({ status: r.status, code: r.body?.code }).toEqual({ status: c.def.http, code: c.def.code });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(Object.keys(r.body)).toEqual(['code', 'message', 'data']);
    expect(r.body.data).toBeNull();
    expect(r.body.message.length).toBeGreaterThan(0);
    expect(r.raw).not.toMatch(/at .*\.ts:\d+|<html/i);
  });

  it('changed nothing: open orders, balances, positions, settings, cached bot orders, stored rows', async () => {
    expect(await snapshot()).toEqual(before);
  });
});

describe('auth and documentation of the trading routes', () => {
  const signedRoutes: Array<[Method, string]> = [
    ['POST', '/fapi/v1/orders'],
    ['DELETE', '/fapi/v1/order'],
    ['DELETE', '/fapi/v1/allOpenOrders'],
    ['GET', '/fapi/v1/openOrders'],
    ['GET', '/fapi/v1/allOrders'],
    ['GET', '/fapi/v1/myTrades'],
    ['GET', '/fapi/v1/position/list'],
    ['GET', '/fapi/v1/position/history'],
    ['GET', '/fapi/v1/position/history/detail'],
    ['GET', '/fapi/v1/account'],
    ['GET', '/fapi/v1/leverage'],
    ['POST', '/fapi/v1/leverage'],
    ['POST', '/fapi/v1/marginType'],
    ['POST', '/fapi/v1/positionMode'],
  ];

  it.each(signedRoutes)('%s %s answers an unsigned request with 401 / 2001', async (method, url) => {
    const r = await t.app.inject({ method, url, payload: method === 'POST' ? {} : undefined });
    expect([r.statusCode, JSON.parse(r.body).code]).toEqual([401, Errors.API_KEY_MISSING.code]);
  });

  it('OpenAPI documents each route with its parameters and response records', async () => {
    const doc = JSON.parse((await t.app.inject({ url: '/openapi.json' })).body);
    const routes: Array<[Method, string]> = [
      ...signedRoutes,
      ['POST', '/fapi/v1/bot/orders'],
      ['DELETE', '/fapi/v1/bot/order'],
      ['GET', '/fapi/v1/bot/openOrders'],
    ];
    for (const [method, path] of routes) {
      const op = doc.paths[path]?.[method.toLowerCase()];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op.summary, path).toBeTruthy();
      expect(Object.keys(op.responses), path).toEqual(expect.arrayContaining(['200', '400']));
    }
    const placeBody = doc.paths['/fapi/v1/orders'].post.requestBody.content['application/json'].schema;
    expect(Object.keys(placeBody.properties)).toEqual([
      'symbol',
      'side',
      'position_side',
      'position_action',
      'type',
      'price',
      'qty',
      'leverage',
      'margin_mode',
      'time_in_force',
      'reduce_only',
      'client_order_id',
    ]);
    const botBody = doc.paths['/fapi/v1/bot/orders'].post.requestBody.content['application/json'].schema;
    expect(Object.keys(botBody.properties).at(-1)).toBe('need_cache');
    const names = doc.paths['/fapi/v1/myTrades'].get.parameters.map((p: any) => p.name);
    expect(names).toEqual(
      expect.arrayContaining(['symbol', 'side', 'start_time', 'end_time', 'cursor', 'limit', 'timestamp', 'signature']),
    );
    for (const s of [
      'OrderRecord',
      'TradeRecord',
      'PositionRecord',
      'ClosedPositionRecord',
      'ClosedPositionDetail',
      'PlacementResult',
      'AccountSummary',
    ]) {
      expect(doc.components.schemas[s], s).toBeDefined();
    }
    expect(doc.components.schemas.ClosedPositionRecord.properties.position_id.type).toBe('integer');
    expect(doc.components.schemas.ClosedPositionDetail.properties.position_id.type).toBe('string');
  });
});

describe('what a refused value is told', () => {
  const order = (over: Record<string, unknown>) =>
    signed(t.app, a, 'POST', '/fapi/v1/orders', { json: orderBody({ price: '90000.0', ...over }) });
  it.each([
    // positive, only too large: said so (as a huge price is), never "must be a positive decimal"
    [
      'qty 999999999999999999999',
      { qty: '999999999999999999999' },
      /^Invalid body parameter 'qty': 999999999999999999999 is out of range/,
    ],
    ['qty 0', { qty: '0' }, /^Invalid body parameter 'qty': must be greater than zero/],
    ['price 0', { price: '0' }, /^Invalid body parameter 'price': must be greater than zero/],
    ['leverage 10.5', { leverage: 10.5 }, /'leverage': must be a whole number/],
  ])('%s', async (_label, over, said) => {
    const r = await order(over);
    expect([r.status, r.body.code]).toEqual([400, E.INVALID_PARAMETER.code]);
    expect(r.body.message).toMatch(said);
    expect(r.body.message).not.toMatch(/positive decimal string|safe integer/);
  });

  it('POST /fapi/v1/leverage 10.5: a whole number', async () => {
    const r = await signed(t.app, a, 'POST', '/fapi/v1/leverage', { json: { symbol: 'BTCUSDT', leverage: 10.5 } });
    expect([r.status, r.body.code]).toEqual([400, E.INVALID_PARAMETER.code]);
    expect(r.body.message).toBe("Invalid body parameter 'leverage': must be a whole number (an integer such as 10)");
  });

  it('an integer beyond 2^53 is still told it is not a safe integer', async () => {
    const r = await signed(t.app, a, 'POST', '/fapi/v1/leverage', {
      rawBody: '{"symbol":"BTCUSDT","leverage":9007199254740993}',
    });
    expect(r.body.message).toBe("Invalid body parameter 'leverage': must be a safe integer (|n| <= 2^53 - 1)");
  });
});
