// The `user` stream's pushes of one command, in a bot's order: an order's record before its
// fills (a resting order filled by another account's taker as well as the taker's own), then the
// positions and the balance; and one balance push per command.
// Before 2026-12-07 a resting (maker) order's fill came first and its record after it
// ("fill","order","position","balance"), while the taker got "order","fill",...; and a paper
// reset pushed the account summary twice.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalVenue } from '../../../src-main/venue.ts';
import { dataOf, makeAccount, orderBody, signed, type Creds } from '../../helpers/signed.ts';
import { startWsService, type TestClient, type WsService } from './ws-test-client.ts';

let svc: WsService;
let venue: LocalVenue;
let app: FastifyInstance;

beforeAll(async () => {
  svc = await startWsService();
  ({ venue, app } = svc);
});

afterAll(() => svc.close());

const userPushes = (c: TestClient, from: number): Array<{ kind: string; data: any }> =>
  c.messages.slice(from).flatMap((m) => (m.stream === 'user' ? [m.data] : []));

/** The pushes of the next command of `who` after `from`, up to its balance push (the last of a command). */
async function commandPushes(c: TestClient, from: number): Promise<Array<{ kind: string; data: any }>> {
  await c.waitFor((m) => m.stream === 'user' && m.data.kind === 'balance', 3000, from);
  return userPushes(c, from);
}

describe('the user stream, one command', () => {
  it("pushes a resting order's record before its fill, as the taker's, each as REST answers after", async () => {
    const maker: Creds = makeAccount(venue, 'wsorder_maker');
    const taker: Creds = makeAccount(venue, 'wsorder_taker');
    const m = await svc.following(maker);
    const t = await svc.following(taker);
    const rest = dataOf(
      await signed(app, maker, 'POST', '/fapi/v1/orders', { json: orderBody({ price: '96000.0', qty: '0.020' }) }),
    );
    await commandPushes(m, 0);
    const mFrom = m.messages.length;
    const tFrom = t.messages.length;
    // the taker sells 0.010 into it: a partial fill of the resting order
    const sold = dataOf(
      await signed(app, taker, 'POST', '/fapi/v1/orders', {
        json: orderBody({ side: 2, position_side: 2, type: 2, price: undefined, qty: '0.010' }),
      }),
    );
    for (const [c, from, who, id] of [
      [m, mFrom, maker, rest.order_id],
      [t, tFrom, taker, sold.order_id],
    ] as const) {
      const got = await commandPushes(c, from);
      expect(got.map((p) => p.kind)).toEqual(['order', 'fill', 'position', 'balance']);
      const order = dataOf(
        await signed(app, who, 'GET', '/fapi/v1/order', { query: { symbol: 'BTCUSDT', order_id: id } }),
      );
      expect(got[0].data).toEqual(order);
      const trades = dataOf(await signed(app, who, 'GET', '/fapi/v1/myTrades', { query: { limit: 1 } })).items;
      expect(got[1].data).toEqual(trades[0]);
      expect(got[1].data.order_id).toBe(id);
      expect(got[2].data).toEqual(dataOf(await signed(app, who, 'GET', '/fapi/v1/position/list')));
      expect(got[3].data).toEqual(dataOf(await signed(app, who, 'GET', '/fapi/v1/account')));
    }
    expect(userPushes(m, mFrom)[0].data).toMatchObject({ status: 2, filled_qty: '0.010' });
  });

  it('pushes the summary once for a paper reset', async () => {
    const who = makeAccount(venue, 'wsorder_reset');
    const c = await svc.following(who);
    const from = c.messages.length;
    dataOf(await signed(app, who, 'POST', '/fapi/v1/account/reset', { json: { balance: '5000' } }));
    // a later command's balance push closes the reset's pushes
    const next = await c.waitFor((m) => m.stream === 'user' && m.data.kind === 'balance', 3000, from);
    const after = c.messages.indexOf(next) + 1;
    dataOf(await signed(app, who, 'POST', '/fapi/v1/account/deposit', { json: { amount: '1' } }));
    await c.waitFor((m) => m.stream === 'user' && m.data.kind === 'balance', 3000, after);
    const balances = userPushes(c, from).filter((p) => p.kind === 'balance');
    expect(balances.map((b) => b.data.wallet_balance)).toEqual(['5000.00000000', '5001.00000000']);
  });
});
