// Client order ids on the native routes: Binance's characters ('.', ':', '/' besides letters,
// digits, '_', '-'), so one id works on both APIs; the venue's generated form (api.<n>,
// bot.<n>) is refused (1001) so a chosen id never collides with a generated one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Errors } from '../../src-shared/errors.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';
import { countRows, dataOf, makeAccount, orderBody, plain, signed, type Creds } from '../helpers/signed.ts';

let t: TestApp;
let a: Creds;
beforeAll(async () => {
  t = await makeApp();
  a = makeAccount(t.venue, 'client-ids');
});
afterAll(() => t.close());

describe('client_order_id', () => {
  it("takes Binance's characters; the order is found and cancelled by that id", async () => {
    const cid = 'x-cvBP.a:b/c_9';
    const r = dataOf(
      await signed(t.app, a, 'POST', '/fapi/v1/orders', {
        json: orderBody({ price: '91000.0', client_order_id: cid }),
      }),
    );
    expect(r.client_order_id).toBe(cid);
    const open = dataOf(await signed(t.app, a, 'GET', '/fapi/v1/openOrders', { query: { symbol: 'BTCUSDT' } }));
    expect(open.map((o: { client_order_id: string }) => o.client_order_id)).toEqual([cid]);
    const c = dataOf(
      await signed(t.app, a, 'DELETE', '/fapi/v1/order', { query: { symbol: 'BTCUSDT', client_order_id: cid } }),
    );
    expect(c).toMatchObject({ id: r.order_id, client_order_id: cid, status: 4 });
  });

  it('refuses the generated form on the user and the bot route, storing nothing', async () => {
    const rows = countRows(t.venue, 'orders');
    for (const cid of ['api.12', 'bot.7']) {
      const u = await signed(t.app, a, 'POST', '/fapi/v1/orders', {
        json: orderBody({ price: '91000.0', client_order_id: cid }),
      });
      expect(u.body.code).toBe(Errors.INVALID_PARAMETER.code);
      expect(u.body.message).toContain(cid);
      const b = await plain(t.app, 'POST', '/fapi/v1/bot/orders', {
        json: orderBody({ price: '91000.0', client_order_id: cid, need_cache: true }),
      });
      expect(b.body.code).toBe(Errors.INVALID_PARAMETER.code);
    }
    expect(countRows(t.venue, 'orders')).toBe(rows);
    expect(dataOf(await plain(t.app, 'GET', '/fapi/v1/bot/openOrders'))).toEqual([]);
    // a dot elsewhere is a client's id like any other
    const ok = dataOf(
      await signed(t.app, a, 'POST', '/fapi/v1/orders', {
        json: orderBody({ price: '91000.0', client_order_id: 'api.v2' }),
      }),
    );
    expect(ok.client_order_id).toBe('api.v2');
  });

  it('still refuses characters outside the set (1001)', async () => {
    for (const cid of ['a b', 'a#b', 'a+b']) {
      const u = await signed(t.app, a, 'POST', '/fapi/v1/orders', {
        json: orderBody({ price: '91000.0', client_order_id: cid }),
      });
      expect(u.body.code).toBe(Errors.INVALID_PARAMETER.code);
    }
  });

  it('an empty id or one past 36 characters is refused in words (1001), nothing stored', async () => {
    const rows = countRows(t.venue, 'orders');
    const said = async (cid: string): Promise<string> => {
      const u = await signed(t.app, a, 'POST', '/fapi/v1/orders', {
        json: orderBody({ price: '91000.0', client_order_id: cid }),
      });
      expect(u.body.code).toBe(Errors.INVALID_PARAMETER.code);
      return u.body.message as string;
    };
    expect(await said('')).toBe("Invalid body parameter 'client_order_id': must not be empty");
    expect(await said('x'.repeat(37))).toBe(
      "Invalid body parameter 'client_order_id': must be at most 36 characters long",
    );
    // a decimal past its 40 characters, likewise
    const long = await signed(t.app, a, 'POST', '/fapi/v1/orders', {
      json: orderBody({ price: '9'.repeat(41) }),
    });
    expect(long.body.message).toBe("Invalid body parameter 'price': must be at most 40 characters long");
    expect(countRows(t.venue, 'orders')).toBe(rows);
  });
});

describe('GET /fapi/v1/order: one order by either id, any status', () => {
  const get = (who: Creds, query: Record<string, string>) =>
    signed(t.app, who, 'GET', '/fapi/v1/order', { query: { symbol: 'BTCUSDT', ...query } });

  it('finds an open order and, once cancelled, the cancelled one: what a bot asks after a lost answer', async () => {
    const cid = 'lost-answer-1';
    const r = dataOf(
      await signed(t.app, a, 'POST', '/fapi/v1/orders', {
        json: orderBody({ price: '91000.0', client_order_id: cid }),
      }),
    );
    expect(dataOf(await get(a, { client_order_id: cid }))).toMatchObject({ id: r.order_id, status: 1 });
    await signed(t.app, a, 'DELETE', '/fapi/v1/order', { query: { symbol: 'BTCUSDT', order_id: r.order_id } });
    const byCid = dataOf(await get(a, { client_order_id: cid }));
    expect(byCid).toMatchObject({ id: r.order_id, client_order_id: cid, status: 4, price: '91000.0' });
    expect(dataOf(await get(a, { order_id: r.order_id }))).toEqual(byCid);
    // the record allOrders lists for it
    const all = dataOf(await signed(t.app, a, 'GET', '/fapi/v1/allOrders', { query: { symbol: 'BTCUSDT' } }));
    expect(all.items.find((o: { id: string }) => o.id === r.order_id)).toEqual(byCid);
  });

  it("another user's order, another pair's, an unknown id: 1102; both ids or neither refused", async () => {
    const r = dataOf(
      await signed(t.app, a, 'POST', '/fapi/v1/orders', {
        json: orderBody({ price: '91000.0', client_order_id: 'mine-1' }),
      }),
    );
    const other = makeAccount(t.venue, 'client-ids-other');
    for (const res of [
      await get(other, { order_id: r.order_id }),
      await get(other, { client_order_id: 'mine-1' }),
      await signed(t.app, a, 'GET', '/fapi/v1/order', { query: { symbol: 'ETHUSDT', order_id: r.order_id } }),
      await get(a, { order_id: '999999999' }),
    ]) {
      expect([res.status, res.body.code]).toEqual([404, Errors.ORDER_NOT_FOUND.code]);
    }
    // the message names what was asked for, as the cancel's does
    expect((await get(other, { client_order_id: 'mine-1' })).body.message).toBe(
      "No order of yours on BTCUSDT has client_order_id 'mine-1'",
    );
    expect((await get(a, { order_id: '999999999' })).body.message).toBe(
      'No order of yours on BTCUSDT has order_id 999999999',
    );
    expect((await get(a, { order_id: r.order_id, client_order_id: 'mine-1' })).body.code).toBe(
      Errors.INVALID_PARAMETER.code,
    );
    expect((await get(a, {})).body.code).toBe(Errors.MISSING_PARAMETER.code);
  });

  it('a cancel by client id on another pair names the client id asked for, not the open order it found', async () => {
    // (it said 'No open order 7 on ETHUSDT', the id of the BTCUSDT order the client id named)
    const r = dataOf(
      await signed(t.app, a, 'POST', '/fapi/v1/orders', {
        json: orderBody({ price: '91000.0', client_order_id: 'pair-1' }),
      }),
    );
    const cancel = (query: Record<string, string>) => signed(t.app, a, 'DELETE', '/fapi/v1/order', { query });
    for (const [query, message] of [
      [{ symbol: 'ETHUSDT', client_order_id: 'pair-1' }, "No open order with client_order_id 'pair-1' on ETHUSDT"],
      [{ symbol: 'ETHUSDT', order_id: r.order_id }, `No open order ${r.order_id} on ETHUSDT`],
      [{ symbol: 'BTCUSDT', order_id: '999999999' }, 'No open order 999999999 on BTCUSDT'],
    ] as const) {
      const res = await cancel(query);
      expect([res.status, res.body]).toEqual([404, { code: Errors.ORDER_NOT_FOUND.code, message, data: null }]);
    }
    // refused, it stays open
    const open = dataOf(await signed(t.app, a, 'GET', '/fapi/v1/openOrders', { query: { symbol: 'BTCUSDT' } }));
    expect(open.map((o: { id: string }) => o.id)).toContain(r.order_id);
    // a finished order of the pair named with that client id is the one asked for: 3019
    const eth = dataOf(
      await signed(t.app, a, 'POST', '/fapi/v1/orders', {
        json: orderBody({ symbol: 'ETHUSDT', price: '3000.00', qty: '0.05', client_order_id: 'pair-2' }),
      }),
    );
    await cancel({ symbol: 'ETHUSDT', order_id: eth.order_id });
    await signed(t.app, a, 'POST', '/fapi/v1/orders', {
      json: orderBody({ price: '91000.0', client_order_id: 'pair-2' }),
    });
    const finished = await cancel({ symbol: 'ETHUSDT', client_order_id: 'pair-2' });
    expect([finished.status, finished.body.code, finished.body.message]).toEqual([
      400,
      Errors.ORDER_NOT_CANCELLABLE.code,
      `Order ${eth.order_id} (client_order_id 'pair-2') is no longer open (status 4)`,
    ]);
  });
});
