// The isolated margin routes (routes/position-margin.ts) over the real application: add and
// remove with exact decimal strings, how far the margin may move, the history with its cursor,
// every refusal with its code and HTTP status (and nothing changed by it), and the OpenAPI
// document listing the three operations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MarginMode } from '../../src-shared/enums.ts';
import { HOUSE_ACCOUNT } from '../../src-main/trading/exchange.ts';
import { placeBotOrder, setMarginMode, setPrices } from '../helpers/exchange-commands.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';
import { dataOf, makeAccount, signed, type Creds } from '../helpers/signed.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeApp({ simulate: false });
  setPrices(t.venue.exchange, 'BTCUSDT', { mark: 60_000 });
});
afterAll(() => t.close());

/** An account with a position of 0.100 BTCUSDT at 60,000 (20x: margin 300), isolated unless `cross`. */
async function withPosition(name: string, side: 1 | 2 = 1, cross = false): Promise<Creds> {
  const u = makeAccount(t.venue, name, 1_000);
  if (!cross) setMarginMode(t.venue.exchange, u.id, 'BTCUSDT', MarginMode.ISOLATED);
  const other = side === 1 ? 2 : 1;
  const order = { symbol: 'BTCUSDT', position_action: 1, type: 1, price: '60000.0', qty: '0.100' };
  placeBotOrder(t.venue.exchange, { ...order, side: other, position_side: other }, HOUSE_ACCOUNT);
  dataOf(await signed(t.app, u, 'POST', '/fapi/v1/orders', { json: { ...order, side, position_side: side } }));
  return u;
}

const adjust = (u: Creds, body: Record<string, unknown>) =>
  signed(t.app, u, 'POST', '/fapi/v1/position/margin', { json: { symbol: 'BTCUSDT', position_side: 1, ...body } });

describe('POST /fapi/v1/position/margin', () => {
  it('adds and removes exact amounts; the limits and the history follow', async () => {
    const u = await withPosition('pm-main');
    expect(dataOf(await signed(t.app, u, 'GET', '/fapi/v1/account')).available_balance).toBe('697.00000000');
    const added = dataOf(await adjust(u, { type: 1, amount: '100.5' }));
    expect(added).toMatchObject({
      symbol: 'BTCUSDT',
      position_side: 1,
      type: 1,
      amount: '100.50000000',
      margin: '400.50000000',
      position: { symbol: 'BTCUSDT', position_side: 1, margin: 400.5, margin_mode: 1 },
    });
    // LP = (WB + cum - Q x EP) / (Q x MMR - Q), tier 1 (MMR 0.4 %, cum 0), on the tick
    expect(added.position.liquidation_price).toBe(Number(((400.5 - 6_000) / (0.1 * 0.004 - 0.1)).toFixed(1)));
    const account = dataOf(await signed(t.app, u, 'GET', '/fapi/v1/account'));
    expect(account).toMatchObject({ wallet_balance: '997.00000000', available_balance: '596.50000000' });
    expect(
      dataOf(
        await signed(t.app, u, 'GET', '/fapi/v1/position/margin', { query: { symbol: 'btcusdt', position_side: 1 } }),
      ),
    ).toEqual({
      symbol: 'BTCUSDT',
      position_side: 1,
      margin: '400.50000000',
      initial_margin: '300.00000000',
      max_add: '596.50000000',
      max_remove: '100.50000000',
    });
    const removed = dataOf(await adjust(u, { type: 2, amount: '0.00000001' }));
    expect(removed).toMatchObject({ type: 2, amount: '0.00000001', margin: '400.49999999' });
    expect(dataOf(await signed(t.app, u, 'GET', '/fapi/v1/position/list'))[0].margin).toBe(400.49999999);

    const all = dataOf(await signed(t.app, u, 'GET', '/fapi/v1/position/margin/history'));
    expect(all.has_more).toBe(false);
    expect(all.next_cursor).toBe('');
    expect(all.items).toEqual([
      {
        id: expect.any(String),
        symbol: 'BTCUSDT',
        position_side: 1,
        position_id: added.position.id,
        type: 2,
        amount: '0.00000001',
        margin: '400.49999999',
        created_at: expect.any(Number),
      },
      expect.objectContaining({ type: 1, amount: '100.50000000', margin: '400.50000000' }),
    ]);
    const first = dataOf(await signed(t.app, u, 'GET', '/fapi/v1/position/margin/history', { query: { limit: 1 } }));
    expect(first.has_more).toBe(true);
    expect(first.items.map((r: { type: number }) => r.type)).toEqual([2]);
    const next = dataOf(
      await signed(t.app, u, 'GET', '/fapi/v1/position/margin/history', {
        query: { limit: 1, cursor: first.next_cursor },
      }),
    );
    expect(next.items.map((r: { type: number }) => r.type)).toEqual([1]);
    expect(next.has_more).toBe(false);
    const adds = dataOf(await signed(t.app, u, 'GET', '/fapi/v1/position/margin/history', { query: { type: 1 } }));
    expect(adds.items).toHaveLength(1);
    // another account sees none of it
    const other = makeAccount(t.venue, 'pm-other');
    expect(dataOf(await signed(t.app, other, 'GET', '/fapi/v1/position/margin/history')).items).toEqual([]);
  });

  it('a short in hedge mode, by its side', async () => {
    const u = await withPosition('pm-short', 2);
    expect(dataOf(await adjust(u, { position_side: 2, type: 1, amount: '50' }))).toMatchObject({
      position_side: 2,
      margin: '350.00000000',
    });
    const r = await adjust(u, { position_side: 1, type: 1, amount: '50' });
    expect([r.status, r.body.code]).toEqual([404, 1103]);
  });

  it('refusals: each code, its HTTP status and message; nothing changes', async () => {
    const u = await withPosition('pm-refused');
    const cross = await withPosition('pm-cross', 1, true);
    const before = JSON.stringify([
      dataOf(await signed(t.app, u, 'GET', '/fapi/v1/position/list')),
      dataOf(await signed(t.app, u, 'GET', '/fapi/v1/account')),
    ]);
    const cases: Array<[Creds, Record<string, unknown>, number, number, string]> = [
      [cross, { type: 1, amount: '10' }, 400, 3024, 'cross margin'],
      [u, { position_side: 2, type: 1, amount: '10' }, 404, 1103, 'No open short position on BTCUSDT'],
      [u, { type: 1, amount: '0' }, 400, 1001, "Invalid body parameter 'amount': must be greater than 0"],
      [u, { type: 1, amount: '0.000000000' }, 400, 1001, 'greater than 0'],
      [u, { type: 1, amount: '1.123456789' }, 400, 1001, "Invalid body parameter 'amount': at most 8 decimals"],
      [u, { type: 1, amount: '-1' }, 400, 1001, 'amount'],
      [u, { type: 1, amount: 10 }, 400, 1001, 'must be a JSON string'],
      [u, { type: 1, amount: '99999999999' }, 400, 1001, "Invalid body parameter 'amount': at most 10000000000 USDT"],
      [u, { type: 3, amount: '10' }, 400, 1001, 'type'],
      [u, { type: 1 }, 400, 1002, 'amount'],
      [u, { type: 1, amount: '10', extra: 1 }, 400, 1003, 'extra'],
      [u, { type: 1, amount: '697.00000001' }, 400, 3009, '697.00000000 USDT available'],
      [u, { type: 2, amount: '0.00000001' }, 400, 3025, 'At most 0.00000000 USDT can be removed'],
    ];
    for (const [who, body, status, code, text] of cases) {
      const r = await adjust(who, body);
      expect([r.status, r.body.code, r.body.message], JSON.stringify(body)).toEqual([
        status,
        code,
        expect.stringContaining(text),
      ]);
    }
    const unknown = await signed(t.app, u, 'POST', '/fapi/v1/position/margin', {
      json: { symbol: 'NOPEUSDT', position_side: 1, type: 1, amount: '1' },
    });
    expect([unknown.status, unknown.body.code]).toEqual([404, 1101]);
    const limits = await signed(t.app, cross, 'GET', '/fapi/v1/position/margin', {
      query: { symbol: 'BTCUSDT', position_side: 1 },
    });
    expect([limits.status, limits.body.code]).toEqual([400, 3024]);
    expect(
      JSON.stringify([
        dataOf(await signed(t.app, u, 'GET', '/fapi/v1/position/list')),
        dataOf(await signed(t.app, u, 'GET', '/fapi/v1/account')),
      ]),
    ).toBe(before);
    expect(dataOf(await signed(t.app, u, 'GET', '/fapi/v1/position/margin/history')).items).toEqual([]);
    // unsigned: 2001
    const bare = await t.app.inject({ method: 'POST', url: '/fapi/v1/position/margin', payload: {} });
    expect(bare.statusCode).toBe(401);
  });

  it('the OpenAPI document lists the three operations, signed, in the positions tag', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const [path, method] of [
      ['/fapi/v1/position/margin', 'post'],
      ['/fapi/v1/position/margin', 'get'],
      ['/fapi/v1/position/margin/history', 'get'],
    ]) {
      const op = doc.paths[path][method];
      expect(op.tags, `${method} ${path}`).toEqual(['positions']);
      expect(op.security, `${method} ${path}`).toEqual([{ apiKey: [] }]);
    }
    const body = doc.paths['/fapi/v1/position/margin'].post.requestBody.content['application/json'].schema;
    expect(body.required.sort()).toEqual(['amount', 'position_side', 'symbol', 'type']);
  });
});
