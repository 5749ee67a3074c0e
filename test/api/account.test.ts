// Account routes through inject: balance summary, leverage, margin mode and position mode,
// with the exchange's refusals (3013, 3014, 3015) reaching the client and changing nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Errors } from '../../src-shared/errors.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';
import { dataOf, expectError, makeAccount, orderBody, plain, signed, type Creds } from '../helpers/signed.ts';

let t: TestApp;
let a: Creds;

const get = (path: string, query?: Record<string, string>) => signed(t.app, a, 'GET', path, { query });
const post = (path: string, json: unknown) => signed(t.app, a, 'POST', path, { json });

beforeAll(async () => {
  t = await makeApp();
  a = makeAccount(t.venue, 'acct', 100_000);
});
afterAll(() => t.close());

describe('account summary', () => {
  it('a fresh account: everything in the wallet, nothing held', async () => {
    expect(dataOf(await get('/fapi/v1/account'))).toStrictEqual({
      user_id: a.id,
      asset: 'USDT',
      wallet_balance: '100000.00000000',
      available_balance: '100000.00000000',
      frozen_margin: '0.00000000',
      position_margin: '0.00000000',
      unrealized_pnl: '0.00000000',
      margin_balance: '100000.00000000',
      total_deposits: '100000.00000000',
      position_mode: 'hedge',
    });
  });

  it('the paper reset answers the account summary, as GET /fapi/v1/account does, and /openapi.json says so', async () => {
    const b = makeAccount(t.venue, 'acct-reset', 5_000);
    const reset = dataOf(await signed(t.app, b, 'POST', '/fapi/v1/account/reset', { json: { balance: '7000' } }));
    const summary = dataOf(await signed(t.app, b, 'GET', '/fapi/v1/account'));
    expect(reset).toStrictEqual(summary);
    expect(reset.wallet_balance).toBe('7000.00000000');
    const doc = (await t.app.inject({ url: '/openapi.json' })).json();
    const dataSchema = (path: string, method: string) =>
      doc.paths[path][method].responses['200'].content['application/json'].schema.properties.data;
    expect(dataSchema('/fapi/v1/account/reset', 'post')).toStrictEqual(dataSchema('/fapi/v1/account', 'get'));
    // the component names exactly the answer's fields, each required
    const component = doc.components.schemas.AccountSummary;
    expect(Object.keys(component.properties).sort()).toEqual(Object.keys(reset).sort());
    expect([...component.required].sort()).toEqual(Object.keys(reset).sort());
  });

  it('answers only signed requests', async () => {
    const r = await t.app.inject({ url: '/fapi/v1/account' });
    expect([r.statusCode, JSON.parse(r.body).code]).toEqual([401, Errors.API_KEY_MISSING.code]);
    const forged = await signed(t.app, { ...a, apiSecret: 'not-the-secret' }, 'GET', '/fapi/v1/account');
    expectError(forged, Errors.SIGNATURE_INVALID);
  });
});

describe('leverage', () => {
  it('defaults: 20x cross, and the pair maximum', async () => {
    // max_notional: the tier cap at that leverage (BTCUSDT's table: 20x -> 100,000,000; HYPEUSDT's
    // first tier, 20x, caps at 5,000)
    expect(dataOf(await get('/fapi/v1/leverage', { symbol: 'BTCUSDT' }))).toStrictEqual({
      symbol: 'BTCUSDT',
      leverage: 20,
      margin_mode: 2,
      max_leverage: 125,
      max_notional: '100000000',
      brackets: expect.any(Array),
    });
    expect(dataOf(await get('/fapi/v1/leverage', { symbol: 'hypeusdt' }))).toStrictEqual({
      symbol: 'HYPEUSDT',
      leverage: 20,
      margin_mode: 2,
      max_leverage: 20,
      max_notional: '5000',
      brackets: expect.any(Array),
    });
    expectError(await get('/fapi/v1/leverage', { symbol: 'NOPEUSDT' }), Errors.SYMBOL_NOT_FOUND);
  });

  it('set to 50x: the setting in force comes back as GET answers it, with the tier cap; new orders use it', async () => {
    expect(dataOf(await post('/fapi/v1/leverage', { symbol: 'btcusdt', leverage: 50 }))).toStrictEqual({
      symbol: 'BTCUSDT',
      leverage: 50,
      margin_mode: 2,
      max_leverage: 125,
      max_notional: '12000000',
      brackets: expect.any(Array),
    });
    expect(dataOf(await get('/fapi/v1/leverage', { symbol: 'BTCUSDT' })).leverage).toBe(50);
    dataOf(await post('/fapi/v1/orders', orderBody({ client_order_id: 'lev-50' })));
    const [o] = dataOf(await get('/fapi/v1/openOrders'));
    expect(o.leverage).toBe(50);
    // 950 / 50 + 950 x 0.0005
    expect(dataOf(await get('/fapi/v1/account')).frozen_margin).toBe('19.47500000');
  });

  it("lists the pair's maintenance tiers, as reference/exchange.md has BTCUSDT's", async () => {
    // what the screen's estimated liquidation price is worked out with (preview.ts): before, no
    // route of the native API gave the maintenance amounts, and the order form estimated with the
    // first tier alone (a 1.5 BTC short it put at 102,874.6 liquidated at 102,787.1)
    const { brackets } = dataOf(await get('/fapi/v1/leverage', { symbol: 'BTCUSDT' }));
    const row = (t: number, floor: string, cap: string, mmr: string, cum: string, lev: number) => ({
      tier: t,
      notional_floor: floor,
      notional_cap: cap,
      maintenance_margin_rate: mmr,
      maintenance_amount: cum,
      max_leverage: lev,
    });
    expect(brackets).toHaveLength(12);
    expect(brackets.slice(0, 4)).toStrictEqual([
      row(1, '0', '50000', '0.004', '0', 125),
      row(2, '50000', '600000', '0.005', '50', 100),
      row(3, '600000', '3000000', '0.0065', '950', 75),
      row(4, '3000000', '12000000', '0.01', '11450', 50),
    ]);
    expect(brackets[11]).toStrictEqual(row(12, '1200000000', '1800000000', '0.5', '421481450', 1));
    // the POST answers them too
    expect(dataOf(await post('/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: 50 })).brackets).toStrictEqual(
      brackets,
    );
  });

  it('out of range is 3013 and changes nothing', async () => {
    expectError(await post('/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: 126 }), Errors.LEVERAGE_INVALID);
    expectError(await post('/fapi/v1/leverage', { symbol: 'HYPEUSDT', leverage: 21 }), Errors.LEVERAGE_INVALID);
    expect(dataOf(await get('/fapi/v1/leverage', { symbol: 'BTCUSDT' })).leverage).toBe(50);
    expect(dataOf(await get('/fapi/v1/leverage', { symbol: 'HYPEUSDT' })).leverage).toBe(20);
  });

  it('a position too large for the tier of a higher leverage is 3013', async () => {
    const u = makeAccount(t.venue, 'lev-pos');
    dataOf(
      await plain(t.app, 'POST', '/fapi/v1/bot/orders', {
        json: orderBody({ side: 2, position_side: 2, price: '96000.0', qty: '0.600', need_cache: true }),
      }),
    );
    dataOf(
      await signed(t.app, u, 'POST', '/fapi/v1/orders', {
        json: orderBody({ type: 2, price: undefined, qty: '0.600' }),
      }),
    );
    // 0.6 x 96000 = 57600 USDT > 50000, the 125x tier cap
    expectError(
      await signed(t.app, u, 'POST', '/fapi/v1/leverage', { json: { symbol: 'BTCUSDT', leverage: 125 } }),
      Errors.LEVERAGE_INVALID,
    );
    expect(
      dataOf(await signed(t.app, u, 'POST', '/fapi/v1/leverage', { json: { symbol: 'BTCUSDT', leverage: 100 } }))
        .leverage,
    ).toBe(100);
    const [p] = dataOf(await signed(t.app, u, 'GET', '/fapi/v1/position/list'));
    expect([p.leverage, p.quantity]).toEqual([100, 0.6]);
  });
});

describe('margin mode', () => {
  it('cannot change while an order is open on the pair (3014); the same mode is a no-op', async () => {
    const r = await post('/fapi/v1/marginType', { symbol: 'BTCUSDT', margin_mode: 1 });
    expectError(r, Errors.MARGIN_MODE_CHANGE_REFUSED);
    // the message names what blocks the change
    expect(r.body.message).toBe('Margin mode of BTCUSDT cannot change while the account has 1 open order on it');
    expect(dataOf(await get('/fapi/v1/leverage', { symbol: 'BTCUSDT' })).margin_mode).toBe(2);
    expect(dataOf(await post('/fapi/v1/marginType', { symbol: 'BTCUSDT', margin_mode: 2 }))).toStrictEqual({
      symbol: 'BTCUSDT',
      margin_mode: 2,
    });
  });

  it('changes on a quiet pair and new orders carry it', async () => {
    expect(dataOf(await post('/fapi/v1/marginType', { symbol: 'ethusdt', margin_mode: 1 }))).toStrictEqual({
      symbol: 'ETHUSDT',
      margin_mode: 1,
    });
    expect(dataOf(await get('/fapi/v1/leverage', { symbol: 'ETHUSDT' }))).toMatchObject({
      margin_mode: 1,
      leverage: 20,
    });
    dataOf(
      await post(
        '/fapi/v1/orders',
        orderBody({ symbol: 'ETHUSDT', price: '3300.00', qty: '0.010', client_order_id: 'eth-iso' }),
      ),
    );
    const eth = dataOf(await get('/fapi/v1/openOrders', { symbol: 'ETHUSDT' }));
    expect(eth.map((o: any) => o.margin_mode)).toEqual([1]);
  });
});

describe('position mode', () => {
  it('cannot change while orders are open (3015)', async () => {
    const r = await post('/fapi/v1/positionMode', { position_mode: 'one_way' });
    expectError(r, Errors.POSITION_MODE_CHANGE_REFUSED);
    expect(r.body.message).toMatch(/^Position mode cannot change while the account has \d+ open orders?$/);
    expect(dataOf(await get('/fapi/v1/account')).position_mode).toBe('hedge');
  });

  it('one-way once nothing is open: position_side must be 1, a close needs a position', async () => {
    dataOf(await signed(t.app, a, 'DELETE', '/fapi/v1/allOpenOrders', { query: { symbol: 'BTCUSDT' } }));
    dataOf(await signed(t.app, a, 'DELETE', '/fapi/v1/allOpenOrders', { query: { symbol: 'ETHUSDT' } }));
    expect(dataOf(await post('/fapi/v1/positionMode', { position_mode: 'one_way' }))).toStrictEqual({
      position_mode: 'one_way',
    });
    expect(dataOf(await get('/fapi/v1/account')).position_mode).toBe('one_way');
    expectError(await post('/fapi/v1/orders', orderBody({ side: 2, position_side: 2 })), Errors.POSITION_SIDE_MISMATCH);
    expectError(await post('/fapi/v1/orders', orderBody({ side: 2, position_action: 2 })), Errors.NO_POSITION_TO_CLOSE);
    // a sell opens a short in one-way mode, with position_side 1
    expect(dataOf(await post('/fapi/v1/orders', orderBody({ side: 2, price: '99000.0' }))).status).toBe(1);
    expectError(await post('/fapi/v1/positionMode', { position_mode: 'hedge' }), Errors.POSITION_MODE_CHANGE_REFUSED);
  });
});
