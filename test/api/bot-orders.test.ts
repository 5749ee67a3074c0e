// Bot routes through inject: placement, the need_cache switch, cancel, the IP whitelist, and
// the spec's promise that bot orders are never written to the database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Errors } from '../../src-shared/errors.ts';
import { ORDER_RECORD_FIELDS, PLACEMENT_RESULT_FIELDS } from '../../src-shared/types.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';
import {
  countRows,
  dataOf,
  expectError,
  makeAccount,
  orderBody,
  plain,
  signed,
  type Creds,
} from '../helpers/signed.ts';

let t: TestApp;
let u: Creds;
const FOREIGN = '10.1.2.3';

const botBody = (over: Record<string, unknown> = {}) =>
  orderBody({ side: 2, position_side: 2, price: '97000.0', ...over });
const botPlace = (over: Record<string, unknown> = {}, remoteAddress?: string) =>
  plain(t.app, 'POST', '/fapi/v1/bot/orders', { json: botBody(over), remoteAddress });
const cached = async (symbol?: string) =>
  dataOf(await plain(t.app, 'GET', `/fapi/v1/bot/openOrders${symbol ? `?symbol=${symbol}` : ''}`));

beforeAll(async () => {
  t = await makeApp();
  t.venue.clock.pause();
  u = makeAccount(t.venue, 'botuser');
});
afterAll(() => t.close());

describe('placement and the order cache', () => {
  it('need_cache false: the order rests but is not listed; true: listed with every field', async () => {
    const rowsBefore = countRows(t.venue, 'orders');
    const plainOrder = dataOf(await botPlace({ price: '97000.0' }));
    expect(Object.keys(plainOrder)).toEqual([...PLACEMENT_RESULT_FIELDS]);
    expect(plainOrder).toEqual({
      order_id: plainOrder.order_id,
      client_order_id: `bot.${plainOrder.order_id}`,
      status: 1,
      filled_qty: '0.000',
      filled_quote: '0.00000000',
    });
    expect(await cached()).toEqual([]);

    const c = dataOf(await botPlace({ price: '97100.0', qty: '0.020', client_order_id: 'mm-1', need_cache: true }));
    const list = await cached();
    expect(list).toHaveLength(1);
    expect(Object.keys(list[0])).toEqual([...ORDER_RECORD_FIELDS]);
    const now = t.venue.clock.now();
    expect(list[0]).toStrictEqual({
      id: c.order_id,
      client_order_id: 'mm-1',
      symbol: 'BTCUSDT',
      side: 2,
      type: 1,
      status: 1,
      price: '97100.0',
      qty: '0.020',
      filled_qty: '0.000',
      filled_quote: '0.00000000',
      avg_price: '0.0',
      total_fee: '0.00000000',
      fee_asset: 'USDT',
      leverage: 1,
      margin_mode: 2,
      position_action: 1,
      position_side: 2,
      created_at: now,
      updated_at: now,
      user_id: '0',
    });
    expect(await cached('ETHUSDT')).toEqual([]);
    expect(await cached('btcusdt')).toHaveLength(1);
    // a cached client id may not repeat while the order lives
    expectError(
      await botPlace({ price: '97200.0', client_order_id: 'mm-1', need_cache: true }),
      Errors.DUPLICATE_CLIENT_ORDER_ID,
    );
    expect(countRows(t.venue, 'orders')).toBe(rowsBefore);
  });

  it('a user order fills against bot orders; only the user side is stored', async () => {
    const before = { orders: countRows(t.venue, 'orders'), trades: countRows(t.venue, 'trades') };
    const r = dataOf(
      await signed(t.app, u, 'POST', '/fapi/v1/orders', {
        json: orderBody({ type: 2, price: undefined, qty: '0.015' }),
      }),
    );
    // 0.010 at 97000.0 (uncached) then 0.005 at 97100.0 (cached)
    expect(r).toMatchObject({ status: 3, filled_qty: '0.015', filled_quote: '1455.50000000' });
    expect(countRows(t.venue, 'orders')).toBe(before.orders + 1);
    expect(countRows(t.venue, 'trades')).toBe(before.trades + 2);
    const [mm] = await cached();
    expect(mm).toMatchObject({
      client_order_id: 'mm-1',
      status: 2,
      filled_qty: '0.005',
      filled_quote: '485.50000000',
      avg_price: '97100.0',
    });
  });

  it('cancel: cached or not, by id; then gone (1102)', async () => {
    const [mm] = await cached();
    const r = dataOf(await plain(t.app, 'DELETE', `/fapi/v1/bot/order?symbol=BTCUSDT&order_id=${mm.id}`));
    expect(r).toStrictEqual({ order_id: mm.id, status: 4 });
    expect(await cached()).toEqual([]);
    expectError(
      await plain(t.app, 'DELETE', `/fapi/v1/bot/order?symbol=BTCUSDT&order_id=${mm.id}`),
      Errors.ORDER_NOT_FOUND,
    );

    const loose = dataOf(await botPlace({ symbol: 'ETHUSDT', price: '3450.00', qty: '0.010' }));
    expectError(
      await plain(t.app, 'DELETE', `/fapi/v1/bot/order?symbol=BTCUSDT&order_id=${loose.order_id}`),
      Errors.ORDER_NOT_FOUND,
    );
    expect(
      dataOf(await plain(t.app, 'DELETE', `/fapi/v1/bot/order?symbol=ETHUSDT&order_id=${loose.order_id}`)).status,
    ).toBe(4);
    // the ETH book is empty again: a market buy finds nothing and expires
    const m = dataOf(
      await signed(t.app, u, 'POST', '/fapi/v1/orders', {
        json: orderBody({ symbol: 'ETHUSDT', type: 2, price: undefined, qty: '0.010' }),
      }),
    );
    expect(m).toMatchObject({ status: 6, filled_qty: '0.000' });
    // a user's order is not a bot order
    const mine = dataOf(await signed(t.app, u, 'POST', '/fapi/v1/orders', { json: orderBody({ price: '90000.0' }) }));
    expectError(
      await plain(t.app, 'DELETE', `/fapi/v1/bot/order?symbol=BTCUSDT&order_id=${mine.order_id}`),
      Errors.ORDER_NOT_FOUND,
    );
    expect(dataOf(await signed(t.app, u, 'GET', '/fapi/v1/openOrders'))).toHaveLength(1);
  });

  it('order rejections reach the bot with their codes', async () => {
    expectError(await botPlace({ symbol: 'FTTUSDT', price: '2.5000', qty: '10.0' }), Errors.SYMBOL_NOT_TRADING);
    expectError(await botPlace({ price: '97000.05' }), Errors.PRICE_OFF_TICK);
    expectError(await botPlace({ qty: '0.0001' }), Errors.QTY_OFF_STEP);
    expectError(await botPlace({ side: 1 }), Errors.POSITION_SIDE_MISMATCH);
    expectError(await botPlace({ need_cache: 'true' }), Errors.INVALID_PARAMETER);
    expectError(await botPlace({ user_id: 1 }), Errors.UNKNOWN_PARAMETER);
  });
});

describe('IP whitelist', () => {
  it('a caller off the whitelist gets 403 / 2101 on every bot route and writes nothing', async () => {
    const keep = dataOf(await botPlace({ price: '98000.0', need_cache: true }));
    const before = {
      orders: countRows(t.venue, 'orders'),
      trades: countRows(t.venue, 'trades'),
      cached: await cached(),
    };

    expectError(
      await botPlace({ price: '96000.0', side: 1, position_side: 1, need_cache: true }, FOREIGN),
      Errors.IP_NOT_WHITELISTED,
    );
    expectError(
      await plain(t.app, 'DELETE', `/fapi/v1/bot/order?symbol=BTCUSDT&order_id=${keep.order_id}`, {
        remoteAddress: FOREIGN,
      }),
      Errors.IP_NOT_WHITELISTED,
    );
    expectError(
      await plain(t.app, 'GET', '/fapi/v1/bot/openOrders', { remoteAddress: FOREIGN }),
      Errors.IP_NOT_WHITELISTED,
    );
    // had it gone through, this buy would have taken the kept ask
    expectError(await botPlace({ side: 1, position_side: 1, price: '98000.0' }, FOREIGN), Errors.IP_NOT_WHITELISTED);

    expect(countRows(t.venue, 'orders')).toBe(before.orders);
    expect(countRows(t.venue, 'trades')).toBe(before.trades);
    expect(await cached()).toEqual(before.cached);
  });

  it('admitting the IP through the admin whitelist opens the routes to it', async () => {
    const put = await t.app.inject({ method: 'PUT', url: '/admin/v1/whitelist', payload: { ips: [FOREIGN] } });
    expect(put.statusCode).toBe(200);
    expect(dataOf(await plain(t.app, 'GET', '/fapi/v1/bot/openOrders', { remoteAddress: FOREIGN }))).toHaveLength(1);
    const r = await botPlace({ price: '98500.0' }, FOREIGN);
    expect(dataOf(r).status).toBe(1);
  });
});
