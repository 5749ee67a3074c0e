// A leverage change moves the pair's open orders to it (their leverage, the margin they hold):
// each such order is announced on the `user` stream as GET /fapi/v1/openOrders now lists it.
// Before, only the positions and the balance were pushed: the stream's last record of a resting
// XRPUSDT order kept "leverage":20 while REST listed 5, so a client following the stream showed
// the order's margin at the old leverage.
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

const following = (who: Creds): Promise<TestClient> => svc.following(who);

describe('POST /fapi/v1/leverage and the user stream', () => {
  it('pushes each open order of the pair with its new leverage, the record REST lists, before the balance', async () => {
    const who = makeAccount(venue, 'wslev_a');
    const c = await following(who);
    const placed = dataOf(await signed(app, who, 'POST', '/fapi/v1/orders', { json: orderBody({ leverage: 20 }) }));
    const first = await c.waitFor((m) => m.stream === 'user' && m.data.kind === 'order');
    expect(first.data.data.leverage).toBe(20);
    const from = c.messages.length;

    dataOf(await signed(app, who, 'POST', '/fapi/v1/leverage', { json: { symbol: 'BTCUSDT', leverage: 5 } }));
    const pushed = await c.waitFor((m) => m.stream === 'user' && m.data.kind === 'order', 3000, from);
    const listed = dataOf(await signed(app, who, 'GET', '/fapi/v1/openOrders', { query: { symbol: 'BTCUSDT' } }));
    expect(listed).toHaveLength(1);
    expect(listed[0].id).toBe(placed.order_id);
    expect(pushed.data.data).toEqual(listed[0]);
    expect(pushed.data.data.leverage).toBe(5);
    const balance = await c.waitFor((m) => m.stream === 'user' && m.data.kind === 'balance', 3000, from);
    expect(c.messages.indexOf(balance)).toBeGreaterThan(c.messages.indexOf(pushed));
    expect(balance.data.data).toEqual(dataOf(await signed(app, who, 'GET', '/fapi/v1/account')));
  });
});
