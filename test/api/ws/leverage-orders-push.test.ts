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
    // the setting that caused them came first
    const setting = await c.waitFor((m) => m.stream === 'user' && m.data.kind === 'setting', 3000, from);
    expect(c.messages.indexOf(setting)).toBeLessThan(c.messages.indexOf(pushed));
    expect(setting.data.data).toMatchObject({ symbol: 'BTCUSDT', leverage: 5, margin_mode: 2 });
  });

  // Until 2026-12-07 a change with nothing open pushed nothing: another tab's order form, or a bot
  // following the stream, kept the old leverage until its next REST read.
  it('pushes the setting of a leverage or margin mode change with nothing open on the pair', async () => {
    const who = makeAccount(venue, 'wslev_b');
    const c = await following(who);
    const from = c.messages.length;
    dataOf(await signed(app, who, 'POST', '/fapi/v1/leverage', { json: { symbol: 'ETHUSDT', leverage: 7 } }));
    const lev = await c.waitFor((m) => m.stream === 'user' && m.data.kind === 'setting', 3000, from);
    expect(Object.keys(lev.data.data)).toEqual(['symbol', 'leverage', 'margin_mode', 'time']);
    expect(lev.data.data).toMatchObject({ symbol: 'ETHUSDT', leverage: 7, margin_mode: 2 });
    expect(typeof lev.data.data.time).toBe('number');
    const next = c.messages.length;
    dataOf(await signed(app, who, 'POST', '/fapi/v1/marginType', { json: { symbol: 'ETHUSDT', margin_mode: 1 } }));
    const mode = await c.waitFor((m) => m.stream === 'user' && m.data.kind === 'setting', 3000, next);
    expect(mode.data.data).toMatchObject({ symbol: 'ETHUSDT', leverage: 7, margin_mode: 1 });
    // a setting sent again unchanged is not a change: nothing pushed
    const after = c.messages.length;
    dataOf(await signed(app, who, 'POST', '/fapi/v1/leverage', { json: { symbol: 'ETHUSDT', leverage: 7 } }));
    dataOf(await signed(app, who, 'POST', '/fapi/v1/leverage', { json: { symbol: 'ETHUSDT', leverage: 8 } }));
    const eight = await c.waitFor((m) => m.stream === 'user' && m.data.kind === 'setting', 3000, after);
    expect(eight.data.data.leverage).toBe(8);
  });
  // Until 2026-12-07 a leverage change on a pair where the account had only a resting order (no
  // position) pushed the position list as well, unchanged: only the order and the balance moved.
  it('pushes no position list when no position changed, only the setting, the order and the balance', async () => {
    const who = makeAccount(venue, 'wslev_c');
    const c = await following(who);
    dataOf(await signed(app, who, 'POST', '/fapi/v1/orders', { json: orderBody({ leverage: 20 }) }));
    await c.waitFor((m) => m.stream === 'user' && m.data.kind === 'balance');
    const from = c.messages.length;
    dataOf(await signed(app, who, 'POST', '/fapi/v1/leverage', { json: { symbol: 'BTCUSDT', leverage: 5 } }));
    // a marker after it: a change on another pair, whose setting comes once the first one's pushes are out
    dataOf(await signed(app, who, 'POST', '/fapi/v1/leverage', { json: { symbol: 'ETHUSDT', leverage: 9 } }));
    await c.waitFor(
      (m) => m.stream === 'user' && m.data.kind === 'setting' && m.data.data.symbol === 'ETHUSDT',
      3000,
      from,
    );
    const kinds = c.messages
      .slice(from)
      .filter((m) => m.stream === 'user')
      .map((m) => `${m.data.kind}${m.data.kind === 'setting' ? `:${m.data.data.symbol}` : ''}`);
    expect(kinds).toEqual(['setting:BTCUSDT', 'order', 'balance', 'setting:ETHUSDT']);
  });
});
