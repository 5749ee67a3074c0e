// Order routes end to end through inject: placement results, open orders, cancels, fills seen
// in myTrades, history paging, account isolation and every order rejection code.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openVenue } from '../../src-main/venue.ts';
import { Errors } from '../../src-shared/errors.ts';
import { ORDER_RECORD_FIELDS, PLACEMENT_RESULT_FIELDS, TRADE_RECORD_FIELDS } from '../../src-shared/types.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';
import { openingLimit } from '../helpers/exchange-commands.ts';
import { dataOf, makeAccount, orderBody, plain, signed, type Creds } from '../helpers/signed.ts';

const place = (t: TestApp, who: Creds, over: Record<string, unknown> = {}) =>
  signed(t.app, who, 'POST', '/fapi/v1/orders', { json: orderBody(over) });
const bot = (t: TestApp, body: Record<string, unknown>) => plain(t.app, 'POST', '/fapi/v1/bot/orders', { json: body });
const botSell = (price: string, qty: string, symbol = 'BTCUSDT', needCache = false) => ({
  ...openingLimit(2, price, qty, symbol),
  need_cache: needCache,
});
/** A bot's sell of `qty` that closes (a long): below the min notional, which binds opening orders only. */
const botSmallSell = (price: string, qty: string) => ({ ...botSell(price, qty), position_side: 1, position_action: 2 });
const botBuy = (price: string, qty: string, symbol = 'BTCUSDT', needCache = false) => ({
  ...openingLimit(1, price, qty, symbol),
  need_cache: needCache,
});

function expectError(r: { status: number; body: any }, def: { code: number; http: number }): void {
  expect({ status: r.status, code: r.body?.code }).toEqual({ status: def.http, code: def.code });
  expect(r.body.data).toBeNull();
  expect(typeof r.body.message).toBe('string');
  expect(r.body.message.length).toBeGreaterThan(0);
}

describe('placement, open orders, cancels', () => {
  let t: TestApp;
  let a: Creds;
  beforeAll(async () => {
    t = await makeApp();
    t.venue.clock.pause();
    a = makeAccount(t.venue, 'place');
  });
  afterAll(() => t.close());

  it('places a limit order: exact result, frozen margin, and openOrders shows every field with its type', async () => {
    const r = await place(t, a, { client_order_id: 'c-1' });
    const res = dataOf(r);
    expect(Object.keys(res)).toEqual([...PLACEMENT_RESULT_FIELDS]);
    expect(res).toEqual({
      order_id: res.order_id,
      client_order_id: 'c-1',
      status: 1,
      filled_qty: '0.000',
      filled_quote: '0.00000000',
    });
    expect(res.order_id).toMatch(/^[1-9][0-9]*$/);

    // 950 USDT notional at 20x: 47.5 margin + 0.475 taker fee held back
    const acct = dataOf(await signed(t.app, a, 'GET', '/fapi/v1/account'));
    expect(acct.frozen_margin).toBe('47.97500000');
    expect(acct.available_balance).toBe('99952.02500000');

    const open = dataOf(await signed(t.app, a, 'GET', '/fapi/v1/openOrders', { query: { symbol: 'btcusdt' } }));
    expect(open).toHaveLength(1);
    expect(Object.keys(open[0])).toEqual([...ORDER_RECORD_FIELDS]);
    const now = t.venue.clock.now();
    expect(open[0]).toStrictEqual({
      id: res.order_id,
      client_order_id: 'c-1',
      symbol: 'BTCUSDT',
      side: 1,
      type: 1,
      status: 1,
      price: '95000.0',
      qty: '0.010',
      filled_qty: '0.000',
      filled_quote: '0.00000000',
      avg_price: '0.0',
      total_fee: '0.00000000',
      fee_asset: 'USDT',
      leverage: 20,
      margin_mode: 2,
      position_action: 1,
      position_side: 1,
      created_at: now,
      updated_at: now,
      user_id: String(a.id),
    });
    expect(dataOf(await signed(t.app, a, 'GET', '/fapi/v1/openOrders', { query: { symbol: 'ETHUSDT' } }))).toEqual([]);
  });

  it('a market order fills against resting bot liquidity; with none it expires', async () => {
    dataOf(await bot(t, botSell('96000.0', '0.010', 'BTCUSDT', true)));
    const r = dataOf(await place(t, a, { type: 2, price: undefined, qty: '0.004', client_order_id: 'm-1' }));
    expect(r).toEqual({
      order_id: r.order_id,
      client_order_id: 'm-1',
      status: 3,
      filled_qty: '0.004',
      filled_quote: '384.00000000',
    });
    // nothing rests on the ETH book: the market order expires unfilled (status 6), nothing stays open
    const e = dataOf(await place(t, a, { symbol: 'ETHUSDT', type: 2, price: undefined, qty: '0.010' }));
    expect(e).toMatchObject({ status: 6, filled_qty: '0.000', filled_quote: '0.00000000' });
    const open = dataOf(await signed(t.app, a, 'GET', '/fapi/v1/openOrders'));
    expect(open.map((o: any) => o.client_order_id)).toEqual(['c-1']);
  });

  it('a finished order named on another symbol is 1102 there, 3019 on its own symbol', async () => {
    // The same client id on two symbols: one order cancelled on ETHUSDT, the other still open on BTCUSDT.
    const eth = dataOf(
      await place(t, a, { symbol: 'ETHUSDT', price: '3300.00', qty: '0.010', client_order_id: 'twin' }),
    );
    dataOf(
      await signed(t.app, a, 'DELETE', '/fapi/v1/order', {
        query: { symbol: 'ETHUSDT', order_id: Number(eth.order_id) },
      }),
    );
    const onEth = await signed(t.app, a, 'DELETE', '/fapi/v1/order', {
      query: { symbol: 'ETHUSDT', client_order_id: 'twin' },
    });
    expectError(onEth, Errors.ORDER_NOT_CANCELLABLE);
    // named on a symbol where no order of that client id ever was: not found, by either id
    expectError(
      await signed(t.app, a, 'DELETE', '/fapi/v1/order', { query: { symbol: 'SOLUSDT', client_order_id: 'twin' } }),
      Errors.ORDER_NOT_FOUND,
    );
    expectError(
      await signed(t.app, a, 'DELETE', '/fapi/v1/order', {
        query: { symbol: 'BTCUSDT', order_id: Number(eth.order_id) },
      }),
      Errors.ORDER_NOT_FOUND,
    );
    // a live order with that client id on BTCUSDT is cancelled there, not mistaken for the ETH one
    const btc = dataOf(await place(t, a, { price: '94000.0', client_order_id: 'twin' }));
    const c = dataOf(
      await signed(t.app, a, 'DELETE', '/fapi/v1/order', { query: { symbol: 'BTCUSDT', client_order_id: 'twin' } }),
    );
    expect(c).toMatchObject({ id: btc.order_id, status: 4 });
  });

  it('cancels by order_id and by client_order_id, then cancels all', async () => {
    const o1 = dataOf(await place(t, a, { price: '94000.0', client_order_id: 'k-1' }));
    dataOf(await place(t, a, { price: '94100.0', client_order_id: 'k-2' }));
    dataOf(await place(t, a, { price: '94200.0', client_order_id: 'k-3' }));

    const c1 = dataOf(
      await signed(t.app, a, 'DELETE', '/fapi/v1/order', {
        query: { symbol: 'BTCUSDT', order_id: Number(o1.order_id) },
      }),
    );
    expect(Object.keys(c1)).toEqual([...ORDER_RECORD_FIELDS]);
    expect(c1).toMatchObject({ id: o1.order_id, client_order_id: 'k-1', status: 4, price: '94000.0' });
    const c2 = dataOf(
      await signed(t.app, a, 'DELETE', '/fapi/v1/order', { query: { symbol: 'BTCUSDT', client_order_id: 'k-2' } }),
    );
    expect(c2).toMatchObject({ client_order_id: 'k-2', status: 4, price: '94100.0' });

    // cancelling again: the order is ours but no longer open
    expectError(
      await signed(t.app, a, 'DELETE', '/fapi/v1/order', {
        query: { symbol: 'BTCUSDT', order_id: Number(o1.order_id) },
      }),
      Errors.ORDER_NOT_CANCELLABLE,
    );
    // the same by client_order_id (the same answer, whichever id names the order)
    const again = await signed(t.app, a, 'DELETE', '/fapi/v1/order', {
      query: { symbol: 'BTCUSDT', client_order_id: 'k-2' },
    });
    expectError(again, Errors.ORDER_NOT_CANCELLABLE);
    expect(again.body.message).toBe(`Order ${c2.id} (client_order_id 'k-2') is no longer open (status 4)`);
    // ids that name no order of this account are 1102
    expectError(
      await signed(t.app, a, 'DELETE', '/fapi/v1/order', { query: { symbol: 'BTCUSDT', order_id: 999_999 } }),
      Errors.ORDER_NOT_FOUND,
    );
    expectError(
      await signed(t.app, a, 'DELETE', '/fapi/v1/order', {
        query: { symbol: 'BTCUSDT', client_order_id: 'never-used' },
      }),
      Errors.ORDER_NOT_FOUND,
    );

    const open = dataOf(await signed(t.app, a, 'GET', '/fapi/v1/openOrders'));
    expect(open.map((o: any) => o.client_order_id)).toEqual(['c-1', 'k-3']);
    expect(
      dataOf(await signed(t.app, a, 'DELETE', '/fapi/v1/allOpenOrders', { query: { symbol: 'BTCUSDT' } })),
    ).toEqual({ symbol: 'BTCUSDT', cancelled: 2 });
    expect(dataOf(await signed(t.app, a, 'GET', '/fapi/v1/openOrders'))).toEqual([]);
    expect(
      dataOf(await signed(t.app, a, 'DELETE', '/fapi/v1/allOpenOrders', { query: { symbol: 'BTCUSDT' } })),
    ).toEqual({ symbol: 'BTCUSDT', cancelled: 0 });
    // nothing held back any more (the 0.004 long from the market order holds position margin, not frozen)
    expect(dataOf(await signed(t.app, a, 'GET', '/fapi/v1/account')).frozen_margin).toBe('0.00000000');
  });

  it('DELETE /fapi/v1/order takes exactly one of order_id and client_order_id', async () => {
    expectError(
      await signed(t.app, a, 'DELETE', '/fapi/v1/order', { query: { symbol: 'BTCUSDT' } }),
      Errors.MISSING_PARAMETER,
    );
    expectError(
      await signed(t.app, a, 'DELETE', '/fapi/v1/order', {
        query: { symbol: 'BTCUSDT', order_id: 1, client_order_id: 'c-1' },
      }),
      Errors.INVALID_PARAMETER,
    );
  });
});

describe('fills in myTrades', () => {
  let t: TestApp;
  let a: Creds;
  beforeAll(async () => {
    t = await makeApp();
    t.venue.clock.pause();
    a = makeAccount(t.venue, 'fills');
  });
  afterAll(() => t.close());

  it('a maker fill, then a taker close: role, fee = notional x rate to the unit, realized PnL, wallet', async () => {
    const o = dataOf(await place(t, a, { price: '95000.1', qty: '0.003' }));
    const t1 = t.venue.clock.now() + 1000;
    t.venue.clock.advance(1000);
    const hit = dataOf(await bot(t, botSell('95000.1', '0.003')));
    expect(hit).toMatchObject({ status: 3, filled_qty: '0.003', filled_quote: '285.00030000' });

    dataOf(await bot(t, botBuy('96500.0', '0.003', 'BTCUSDT', true)));
    t.venue.clock.advance(1000);
    const close = dataOf(await place(t, a, { side: 2, position_action: 2, type: 2, price: undefined, qty: '0.003' }));
    expect(close).toMatchObject({ status: 3, filled_qty: '0.003', filled_quote: '289.50000000' });

    const page = dataOf(await signed(t.app, a, 'GET', '/fapi/v1/myTrades'));
    expect(page.has_more).toBe(false);
    expect(page.next_cursor).toBe('');
    expect(page.items).toHaveLength(2);
    for (const it of page.items) expect(Object.keys(it)).toEqual([...TRADE_RECORD_FIELDS]);
    const [closing, opening] = page.items; // newest first
    expect(opening).toStrictEqual({
      id: opening.id,
      order_id: o.order_id,
      symbol: 'BTCUSDT',
      side: 1,
      position_side: 1,
      price: '95000.1',
      qty: '0.003',
      // 285.0003 x 0.0002 (maker) = 0.05700006 exactly
      quote_qty: '285.00030000',
      fee: '0.05700006',
      fee_asset: 'USDT',
      fee_rate: '0.0002',
      role: 1,
      is_close: false,
      realized_pnl: '0.00000000',
      created_at: t1,
    });
    expect(closing).toStrictEqual({
      id: closing.id,
      order_id: close.order_id,
      symbol: 'BTCUSDT',
      side: 2,
      position_side: 1,
      price: '96500.0',
      qty: '0.003',
      // 289.5 x 0.0005 (taker) = 0.14475; PnL 289.5 - 285.0003 = 4.4997
      quote_qty: '289.50000000',
      fee: '0.14475000',
      fee_asset: 'USDT',
      fee_rate: '0.0005',
      role: 2,
      is_close: true,
      realized_pnl: '4.49970000',
      created_at: t1 + 1000,
    });
    expect(Number(closing.id)).toBeGreaterThan(Number(opening.id));
    // 100000 - 0.05700006 - 0.14475 + 4.4997
    expect(dataOf(await signed(t.app, a, 'GET', '/fapi/v1/account')).wallet_balance).toBe('100004.29794994');
    expect(dataOf(await signed(t.app, a, 'GET', '/fapi/v1/position/list'))).toEqual([]);
  });
});

describe('history paging and filters (myTrades, allOrders)', () => {
  let t: TestApp;
  let a: Creds;
  let t0: number;
  beforeAll(async () => {
    t = await makeApp();
    t.venue.clock.pause();
    a = makeAccount(t.venue, 'pages');
    t0 = t.venue.clock.now();
    // 7 BTC buys of 0.001 (t0+1s .. t0+7s), 1 ETH buy (t0+8s), 1 BTC closing sell (t0+9s)
    dataOf(await place(t, a, { qty: '0.007', client_order_id: 'btc-buy' }));
    for (let i = 1; i <= 7; i++) {
      t.venue.clock.advance(1000);
      dataOf(await bot(t, botSmallSell('95000.0', '0.001')));
    }
    dataOf(await place(t, a, { symbol: 'ETHUSDT', price: '3400.00', qty: '0.010', client_order_id: 'eth-buy' }));
    t.venue.clock.advance(1000);
    dataOf(await bot(t, botSell('3400.00', '0.010', 'ETHUSDT')));
    dataOf(await bot(t, botBuy('95000.0', '0.002', 'BTCUSDT', true)));
    t.venue.clock.advance(1000);
    dataOf(
      await place(t, a, {
        side: 2,
        position_action: 2,
        type: 2,
        price: undefined,
        qty: '0.002',
        client_order_id: 'btc-close',
      }),
    );
    dataOf(await place(t, a, { price: '90000.0', qty: '0.002', client_order_id: 'resting' }));
    const r = dataOf(await place(t, a, { price: '90001.0', qty: '0.002', client_order_id: 'gone' }));
    dataOf(
      await signed(t.app, a, 'DELETE', '/fapi/v1/order', {
        query: { symbol: 'BTCUSDT', order_id: Number(r.order_id) },
      }),
    );
  });
  afterAll(() => t.close());

  async function walk(path: string, query: Record<string, string | number>): Promise<{ pages: any[]; items: any[] }> {
    const pages: any[] = [];
    const items: any[] = [];
    let cursor: string | undefined;
    for (let guard = 0; guard < 20; guard++) {
      const p = dataOf(await signed(t.app, a, 'GET', path, { query: { ...query, cursor } }));
      pages.push(p);
      items.push(...p.items);
      if (!p.has_more) break;
      expect(p.next_cursor).not.toBe('');
      cursor = p.next_cursor;
    }
    return { pages, items };
  }

  it('myTrades: default page holds everything newest first', async () => {
    const all = dataOf(await signed(t.app, a, 'GET', '/fapi/v1/myTrades'));
    expect(all).toMatchObject({ has_more: false, next_cursor: '' });
    expect(all.items).toHaveLength(9);
    const times = all.items.map((x: any) => x.created_at);
    expect(times).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1].map((s) => t0 + s * 1000));
  });

  it.each([3, 4, 9, 10])('myTrades pages of %i: no gap, no duplicate, "" at the end', async (limit) => {
    const all = dataOf(await signed(t.app, a, 'GET', '/fapi/v1/myTrades')).items.map((x: any) => x.id);
    const { pages, items } = await walk('/fapi/v1/myTrades', { limit });
    expect(items.map((x: any) => x.id)).toEqual(all);
    expect(pages.map((p) => p.items.length)).toEqual(
      Array.from({ length: Math.ceil(9 / limit) }, (_, i) => Math.min(limit, 9 - i * limit)),
    );
    expect(pages.map((p) => p.has_more)).toEqual(pages.map((_, i) => i < pages.length - 1));
    expect(pages[pages.length - 1].next_cursor).toBe('');
  });

  it('myTrades filters: symbol, side, time range, combined with paging', async () => {
    const eth = dataOf(await signed(t.app, a, 'GET', '/fapi/v1/myTrades', { query: { symbol: 'ETHUSDT' } })).items;
    expect(eth.map((x: any) => [x.symbol, x.created_at])).toEqual([['ETHUSDT', t0 + 8000]]);
    const sells = dataOf(await signed(t.app, a, 'GET', '/fapi/v1/myTrades', { query: { side: 2 } })).items;
    expect(sells.map((x: any) => [x.side, x.is_close, x.qty])).toEqual([[2, true, '0.002']]);
    const range = dataOf(
      await signed(t.app, a, 'GET', '/fapi/v1/myTrades', { query: { start_time: t0 + 2000, end_time: t0 + 4000 } }),
    ).items;
    expect(range.map((x: any) => x.created_at)).toEqual([t0 + 4000, t0 + 3000, t0 + 2000]);
    const btc = await walk('/fapi/v1/myTrades', { symbol: 'BTCUSDT', side: 1, limit: 5 });
    expect(btc.pages.map((p) => p.items.length)).toEqual([5, 2]);
    expect(btc.items.every((x: any) => x.symbol === 'BTCUSDT' && x.side === 1)).toBe(true);
  });

  it('a cursor that is not a next_cursor of this list is 1001', async () => {
    const ordersCursor = dataOf(
      await signed(t.app, a, 'GET', '/fapi/v1/allOrders', { query: { limit: 1 } }),
    ).next_cursor;
    expect(ordersCursor).not.toBe('');
    for (const cursor of [
      'abc',
      ordersCursor,
      Buffer.from('trades:x').toString('base64url'),
      Buffer.from('trades:0').toString('base64url'),
    ]) {
      expectError(await signed(t.app, a, 'GET', '/fapi/v1/myTrades', { query: { cursor } }), Errors.INVALID_PARAMETER);
    }
    // a cursor of this list sent with other filters would skip the rows it did not see: 1001; with
    // the same filters it pages on, whatever the page size
    const first = dataOf(await signed(t.app, a, 'GET', '/fapi/v1/myTrades', { query: { limit: 1 } }));
    expect(first.has_more).toBe(true);
    const other = await signed(t.app, a, 'GET', '/fapi/v1/myTrades', {
      query: { cursor: first.next_cursor, symbol: 'ETHUSDT' },
    });
    expectError(other, Errors.INVALID_PARAMETER);
    expect(other.body.message).toContain('with these filters');
    const next = dataOf(
      await signed(t.app, a, 'GET', '/fapi/v1/myTrades', { query: { cursor: first.next_cursor, limit: 2 } }),
    );
    expect(next.items.length).toBeGreaterThan(0);
    expect(next.items.every((x: { id: string }) => Number(x.id) < Number(first.items[0].id))).toBe(true);
    // the pair in another case is the same filter (symbol is case-insensitive): it pages on
    const lower = dataOf(
      await signed(t.app, a, 'GET', '/fapi/v1/myTrades', { query: { symbol: 'btcusdt', limit: 1 } }),
    );
    expect(lower.has_more).toBe(true);
    const upper = dataOf(
      await signed(t.app, a, 'GET', '/fapi/v1/myTrades', {
        query: { symbol: 'BTCUSDT', limit: 1, cursor: lower.next_cursor },
      }),
    );
    expect(Number(upper.items[0].id)).toBeLessThan(Number(lower.items[0].id));
  });

  it('allOrders: every status, newest first, paged, filtered by status and symbol', async () => {
    const { pages, items } = await walk('/fapi/v1/allOrders', { limit: 2 });
    expect(pages.map((p) => p.items.length)).toEqual([2, 2, 1]);
    expect(items.map((o: any) => [o.client_order_id, o.status])).toEqual([
      ['gone', 4],
      ['resting', 1],
      ['btc-close', 3],
      ['eth-buy', 3],
      ['btc-buy', 3],
    ]);
    for (const o of items) expect(Object.keys(o)).toEqual([...ORDER_RECORD_FIELDS]);
    expect(items[4]).toMatchObject({
      filled_qty: '0.007',
      filled_quote: '665.00000000',
      avg_price: '95000.0',
      total_fee: '0.13300000',
    });
    const filled = dataOf(
      await signed(t.app, a, 'GET', '/fapi/v1/allOrders', { query: { status: 3, symbol: 'BTCUSDT' } }),
    );
    expect(filled.items.map((o: any) => o.client_order_id)).toEqual(['btc-close', 'btc-buy']);
  });
});

describe('accounts are isolated', () => {
  let t: TestApp;
  let a: Creds;
  let b: Creds;
  beforeAll(async () => {
    t = await makeApp();
    a = makeAccount(t.venue, 'alice');
    b = makeAccount(t.venue, 'bob');
    dataOf(await place(t, a, { qty: '0.002', client_order_id: 'alice-1' }));
    dataOf(await bot(t, botSmallSell('95000.0', '0.001')));
    dataOf(await place(t, a, { price: '94000.0', client_order_id: 'alice-2' }));
  });
  afterAll(() => t.close());

  it("another user sees none of alice's orders and trades, and cannot cancel them", async () => {
    const aliceOpen = dataOf(await signed(t.app, a, 'GET', '/fapi/v1/openOrders'));
    expect(aliceOpen).toHaveLength(2);
    expect(dataOf(await signed(t.app, a, 'GET', '/fapi/v1/myTrades')).items).toHaveLength(1);

    expect(dataOf(await signed(t.app, b, 'GET', '/fapi/v1/openOrders'))).toEqual([]);
    expect(dataOf(await signed(t.app, b, 'GET', '/fapi/v1/myTrades')).items).toEqual([]);
    expect(dataOf(await signed(t.app, b, 'GET', '/fapi/v1/allOrders')).items).toEqual([]);
    for (const o of aliceOpen) {
      expectError(
        await signed(t.app, b, 'DELETE', '/fapi/v1/order', { query: { symbol: 'BTCUSDT', order_id: Number(o.id) } }),
        Errors.ORDER_NOT_FOUND,
      );
    }
    expectError(
      await signed(t.app, b, 'DELETE', '/fapi/v1/order', { query: { symbol: 'BTCUSDT', client_order_id: 'alice-2' } }),
      Errors.ORDER_NOT_FOUND,
    );
    expect(
      dataOf(await signed(t.app, b, 'DELETE', '/fapi/v1/allOpenOrders', { query: { symbol: 'BTCUSDT' } })).cancelled,
    ).toBe(0);
    // bob may reuse alice's client ids: they are per account
    expect(dataOf(await place(t, b, { price: '93000.0', client_order_id: 'alice-2' })).client_order_id).toBe('alice-2');
    expect(dataOf(await signed(t.app, a, 'GET', '/fapi/v1/openOrders'))).toEqual(aliceOpen);
  });
});

describe('every order rejection reaches the client with its code and status', () => {
  let t: TestApp;
  let a: Creds;
  let poor: Creds;
  beforeAll(async () => {
    t = await makeApp();
    a = makeAccount(t.venue, 'rej');
    poor = makeAccount(t.venue, 'poor', 100);
    dataOf(await place(t, a, { client_order_id: 'dup-1' }));
  });
  afterAll(() => t.close());

  const cases: Array<[string, Record<string, unknown>, { code: number; http: number }]> = [
    ['paused pair FTTUSDT', { symbol: 'FTTUSDT', price: '2.5000', qty: '10.0' }, Errors.SYMBOL_NOT_TRADING],
    ['delisted pair LUNA2USDT', { symbol: 'LUNA2USDT', price: '0.4000', qty: '100' }, Errors.SYMBOL_NOT_TRADING],
    ['unknown pair', { symbol: 'NOPEUSDT' }, Errors.SYMBOL_NOT_FOUND],
    ['price off the tick', { price: '95000.05' }, Errors.PRICE_OFF_TICK],
    ['qty off the step', { qty: '0.0015' }, Errors.QTY_OFF_STEP],
    ['qty above max', { qty: '1000.001' }, Errors.QTY_ABOVE_MAX],
    ['notional below min', { qty: '0.001' }, Errors.NOTIONAL_BELOW_MIN],
    ['buy above the band', { price: '100900.0' }, Errors.PRICE_OUTSIDE_BAND],
    ['sell below the band', { side: 2, position_side: 2, price: '91100.0' }, Errors.PRICE_OUTSIDE_BAND],
    ['reduce-only with no position', { reduce_only: true }, Errors.REDUCE_ONLY_REJECTED],
    ['close with no position', { side: 2, position_action: 2 }, Errors.NO_POSITION_TO_CLOSE],
    ['duplicate client_order_id', { client_order_id: 'dup-1' }, Errors.DUPLICATE_CLIENT_ORDER_ID],
    ['sell to open a long (hedge)', { side: 2 }, Errors.POSITION_SIDE_MISMATCH],
    // the side mismatch is told before the band the (wrong) side would have had
    ['sell to open a long, below the sell band', { side: 2, price: '91100.0' }, Errors.POSITION_SIDE_MISMATCH],
    ['sell to close a short', { side: 2, position_side: 2, position_action: 2 }, Errors.POSITION_SIDE_MISMATCH],
    ['leverage above the max', { leverage: 126 }, Errors.LEVERAGE_INVALID],
    [
      'leverage above a small max',
      { symbol: 'HYPEUSDT', price: '25.000', qty: '1.00', leverage: 21 },
      Errors.LEVERAGE_INVALID,
    ],
    ['limit without price', { price: undefined }, Errors.PRICE_REQUIRED],
    ['market with price', { type: 2 }, Errors.PRICE_NOT_ALLOWED],
  ];

  it.each(cases)('%s', async (_name, over, def) => {
    expectError(await place(t, a, over), def);
  });

  it('insufficient margin', async () => {
    expectError(await place(t, poor, { qty: '0.100' }), Errors.INSUFFICIENT_MARGIN);
    expect(dataOf(await signed(t.app, poor, 'GET', '/fapi/v1/account')).frozen_margin).toBe('0.00000000');
  });

  it('the rejections changed nothing', async () => {
    const open = dataOf(await signed(t.app, a, 'GET', '/fapi/v1/openOrders'));
    expect(open.map((o: any) => o.client_order_id)).toEqual(['dup-1']);
    const acct = dataOf(await signed(t.app, a, 'GET', '/fapi/v1/account'));
    expect(acct).toMatchObject({ wallet_balance: '100000.00000000', frozen_margin: '47.97500000' });
    expect(dataOf(await signed(t.app, a, 'GET', '/fapi/v1/leverage', { query: { symbol: 'HYPEUSDT' } })).leverage).toBe(
      20,
    );
    expect(dataOf(await signed(t.app, a, 'GET', '/fapi/v1/leverage', { query: { symbol: 'BTCUSDT' } })).leverage).toBe(
      20,
    );
  });

  it('market-not-allowed and below-min-qty, on a pair configured for them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'perpdesk-orders-'));
    try {
      const v = openVenue({ dataDir: dir });
      v.db.prepare("UPDATE symbols SET allow_market = 0, min_qty = '1.00' WHERE symbol = 'SOLUSDT'").run();
      await v.close();
      const t2 = await makeApp({ dataDir: dir });
      try {
        const u = makeAccount(t2.venue, 'cfg');
        const sol = { symbol: 'SOLUSDT', price: '185.00', qty: '1.00' };
        expectError(await place(t2, u, { ...sol, type: 2, price: undefined }), Errors.MARKET_NOT_ALLOWED);
        expectError(await place(t2, u, { ...sol, qty: '0.50' }), Errors.QTY_BELOW_MIN);
        expect(dataOf(await place(t2, u, sol)).status).toBe(1);
      } finally {
        await t2.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// Exchange defects found while writing these routes, with their reproductions;
// reproductions); kept as regression tests now that they are fixed.
describe('exchange regressions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp();
  });
  afterAll(() => t.close());

  it('a rejected order leaves leverage and margin mode as they were', async () => {
    const u = makeAccount(t.venue, 'bug-a', 100);
    expectError(await place(t, u, { qty: '1.000', leverage: 5, margin_mode: 1 }), Errors.INSUFFICIENT_MARGIN);
    const s = dataOf(await signed(t.app, u, 'GET', '/fapi/v1/leverage', { query: { symbol: 'BTCUSDT' } }));
    expect([s.leverage, s.margin_mode]).toEqual([20, 2]);
  });

  it('hedge mode: a reduce-only buy on the long side never closes the long', async () => {
    const u = makeAccount(t.venue, 'bug-b');
    dataOf(await bot(t, botSell('96000.0', '0.010', 'BTCUSDT', true)));
    dataOf(await place(t, u, { type: 2, price: undefined, qty: '0.002' }));
    // a BUY cannot reduce a long: it must be refused (or at least not close the position)
    await place(t, u, { type: 2, price: undefined, qty: '0.002', reduce_only: true });
    const pos = dataOf(await signed(t.app, u, 'GET', '/fapi/v1/position/list'));
    expect(pos.map((p: any) => [p.position_side, p.quantity])).toEqual([[1, 0.002]]);
  });

  it('cancelling a live order under the wrong symbol is 1102, not "no longer open"', async () => {
    const u = makeAccount(t.venue, 'bug-d');
    const o = dataOf(await place(t, u, { price: '90000.0' }));
    expectError(
      await signed(t.app, u, 'DELETE', '/fapi/v1/order', {
        query: { symbol: 'ETHUSDT', order_id: Number(o.order_id) },
      }),
      Errors.ORDER_NOT_FOUND,
    );
  });
});
