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
});
