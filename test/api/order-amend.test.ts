// PUT /fapi/v1/order, the native modify (Binance's, the exchange's amend command): a resting
// limit order's new price and total quantity, its margin following, a crossing price trading at
// once, a quantity down to what has filled cancelling it, and every refusal changing nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Errors } from '../../src-shared/errors.ts';
import { ORDER_RECORD_FIELDS } from '../../src-shared/types.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';
import { openingLimit } from '../helpers/exchange-commands.ts';
import { dataOf, makeAccount, orderBody, plain, signed, type Creds } from '../helpers/signed.ts';

const place = (t: TestApp, who: Creds, over: Record<string, unknown> = {}) =>
  signed(t.app, who, 'POST', '/fapi/v1/orders', { json: orderBody(over) });
const amend = (t: TestApp, who: Creds, body: Record<string, unknown>) =>
  signed(t.app, who, 'PUT', '/fapi/v1/order', { json: { symbol: 'BTCUSDT', ...body } });
const frozen = async (t: TestApp, who: Creds): Promise<string> =>
  dataOf(await signed(t.app, who, 'GET', '/fapi/v1/account')).frozen_margin;
const openOrders = async (t: TestApp, who: Creds) => dataOf(await signed(t.app, who, 'GET', '/fapi/v1/openOrders'));

function expectError(r: { status: number; body: any }, def: { code: number; http: number }, message?: RegExp): void {
  expect({ status: r.status, code: r.body?.code }).toEqual({ status: def.http, code: def.code });
  expect(r.body.data).toBeNull();
  if (message) expect(r.body.message).toMatch(message);
}

describe('PUT /fapi/v1/order', () => {
  let t: TestApp;
  let a: Creds;
  let b: Creds;
  beforeAll(async () => {
    t = await makeApp();
    t.venue.clock.pause();
    a = makeAccount(t.venue, 'amend');
    b = makeAccount(t.venue, 'other');
  });
  afterAll(() => t.close());

  it("3009 on an amend says it counts the order's own hold beside the account's available balance", async () => {
    const c = makeAccount(t.venue, 'amend-3009');
    const id = dataOf(await place(t, c, { qty: '0.020' })).order_id;
    try {
      const account = dataOf(await signed(t.app, c, 'GET', '/fapi/v1/account'));
      const free = Number(account.available_balance).toFixed(2);
      const held = Number(account.frozen_margin).toFixed(2);
      const r = await amend(t, c, { order_id: Number(id), price: '95000.0', qty: '50.000' });
      expectError(r, Errors.INSUFFICIENT_MARGIN);
      const total = (Number(free) + Number(held)).toFixed(2);
      expect(r.body.message).toMatch(/^The modified order needs [0-9.]+ USDT of margin and fees; /);
      expect(r.body.message).toContain(
        `available with what this order holds is ${total} USDT (available balance ${free} + ${held} held by order ${id})`,
      );
    } finally {
      // (the book as the next tests expect it)
      dataOf(await signed(t.app, c, 'DELETE', '/fapi/v1/order', { query: { symbol: 'BTCUSDT', order_id: id } }));
    }
  });

  it('moves the price and the quantity, by order_id or client_order_id; the held margin follows', async () => {
    const id = dataOf(await place(t, a, { client_order_id: 'm-1' })).order_id;
    // 0.010 at 95,000 at 20x: 47.5 margin + the 0.475 taker fee
    expect(await frozen(t, a)).toBe('47.97500000');
    const r = dataOf(await amend(t, a, { order_id: Number(id), price: '94000.0', qty: '0.020' }));
    expect(Object.keys(r)).toEqual([...ORDER_RECORD_FIELDS]);
    expect(r).toMatchObject({ id, client_order_id: 'm-1', status: 1, price: '94000.0', qty: '0.020', side: 1 });
    // 0.020 at 94,000: 94 + 0.94
    expect(await frozen(t, a)).toBe('94.94000000');
    const back = dataOf(await amend(t, a, { client_order_id: 'm-1', price: '95000.0', qty: '0.010' }));
    expect(back).toMatchObject({ id, price: '95000.0', qty: '0.010', status: 1 });
    expect(await frozen(t, a)).toBe('47.97500000');
    const open = await openOrders(t, a);
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ id, price: '95000.0', qty: '0.010' });
  });

  it('refuses what would change nothing, a bad price or size, and more than the account holds: nothing changes', async () => {
    const [o] = await openOrders(t, a);
    const before = { open: await openOrders(t, a), frozen: await frozen(t, a) };
    expectError(
      await amend(t, a, { order_id: Number(o.id), price: '95000.0', qty: '0.010' }),
      Errors.INVALID_PARAMETER,
      /nothing to modify/,
    );
    expectError(await amend(t, a, { order_id: Number(o.id), price: '95000.05', qty: '0.010' }), Errors.PRICE_OFF_TICK);
    expectError(
      await amend(t, a, { order_id: Number(o.id), price: '95000.0', qty: '50.000' }),
      Errors.INSUFFICIENT_MARGIN,
    );
    expectError(
      await amend(t, a, { price: '94000.0', qty: '0.010' }),
      Errors.MISSING_PARAMETER,
      /one of 'order_id' or 'client_order_id'/,
    );
    expectError(
      await amend(t, a, { order_id: Number(o.id), client_order_id: 'm-1', price: '94000.0', qty: '0.010' }),
      Errors.INVALID_PARAMETER,
      /not both/,
    );
    // JSON types and unknown fields, as the placement's body (a side is not modified: 1003)
    expectError(await amend(t, a, { order_id: o.id, price: '94000.0', qty: '0.010' }), Errors.INVALID_PARAMETER);
    expectError(
      await amend(t, a, { order_id: Number(o.id), price: '94000.0', qty: '0.010', side: 2 }),
      Errors.UNKNOWN_PARAMETER,
    );
    // another user cannot name it
    expectError(await amend(t, b, { order_id: Number(o.id), price: '94000.0', qty: '0.010' }), Errors.ORDER_NOT_FOUND);
    expect({ open: await openOrders(t, a), frozen: await frozen(t, a) }).toEqual(before);
  });

  it('a price that crosses trades at once; a quantity down to what has filled cancels the order', async () => {
    const bot = (side: 1 | 2, price: string, qty: string) =>
      plain(t.app, 'POST', '/fapi/v1/bot/orders', {
        json: { ...openingLimit(side, price, qty, 'BTCUSDT'), need_cache: true },
      });
    // a bot sells 0.004 into the 95,000 bid: 0.004 of 0.010 filled
    const [o] = await openOrders(t, a);
    dataOf(await bot(2, '95000.0', '0.004'));
    expect((await openOrders(t, a))[0]).toMatchObject({ id: o.id, status: 2, filled_qty: '0.004' });
    const cut = dataOf(await amend(t, a, { order_id: Number(o.id), price: '95000.0', qty: '0.004' }));
    expect(cut).toMatchObject({ id: o.id, status: 4, filled_qty: '0.004' });
    expect(await openOrders(t, a)).toEqual([]);

    // a resting bot ask at 95,100; a bid at 94,000 moved to 95,200 takes it at 95,100
    dataOf(await bot(2, '95100.0', '0.010'));
    const id = dataOf(await place(t, a, { price: '94000.0', client_order_id: 'm-2' })).order_id;
    const hit = dataOf(await amend(t, a, { order_id: Number(id), price: '95200.0', qty: '0.010' }));
    expect(hit).toMatchObject({ id, status: 3, filled_qty: '0.010', avg_price: '95100.0' });
    // no longer open
    expectError(
      await amend(t, a, { order_id: Number(id), price: '95000.0', qty: '0.010' }),
      Errors.ORDER_NOT_CANCELLABLE,
    );
    expect(await frozen(t, a)).toBe('0.00000000');
  });
});
