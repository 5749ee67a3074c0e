// Lowering a leverage is margin-checked, as on a real exchange: the change is refused whole (3009,
// nothing changed) when the pair's cross positions and opening orders would need more initial
// margin at the new leverage than the account can hold, or when an isolated position's margin
// would not cover its initial margin at the new leverage. Raising is never refused for margin.
// Prices stand still (clock paused, mark set), so every figure is worked out by hand.
import { setPrices } from '../helpers/exchange-commands.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Errors } from '../../src-shared/errors.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';
import { dataOf, makeAccount, orderBody, plain, signed, type Creds } from '../helpers/signed.ts';

let t: TestApp;

const get = (who: Creds, path: string, query?: Record<string, string>) => signed(t.app, who, 'GET', path, { query });
const post = (who: Creds, path: string, json: unknown) => signed(t.app, who, 'POST', path, { json });
const leverage = (who: Creds, lev: number) => post(who, '/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: lev });

/** The user opens a long of `qty` BTC at 96000 with a resting limit buy that a bot sell takes. */
async function openLong(who: Creds, qty: string): Promise<void> {
  dataOf(await post(who, '/fapi/v1/orders', orderBody({ price: '96000.0', qty })));
  dataOf(
    await plain(t.app, 'POST', '/fapi/v1/bot/orders', {
      json: { symbol: 'BTCUSDT', side: 2, position_side: 2, position_action: 1, type: 1, price: '96000.0', qty },
    }),
  );
}

/** Everything a refused change must leave as it was. */
async function state(who: Creds) {
  return {
    setting: dataOf(await get(who, '/fapi/v1/leverage', { symbol: 'BTCUSDT' })),
    account: dataOf(await get(who, '/fapi/v1/account')),
    positions: dataOf(await get(who, '/fapi/v1/position/list')),
    orders: dataOf(await get(who, '/fapi/v1/openOrders')),
  };
}

function expectRefused(r: { status: number; body: any }): void {
  expect({ status: r.status, code: r.body?.code, data: r.body?.data }).toEqual({
    status: Errors.INSUFFICIENT_MARGIN.http,
    code: Errors.INSUFFICIENT_MARGIN.code,
    data: null,
  });
}

beforeAll(async () => {
  t = await makeApp();
  t.venue.clock.pause();
  setPrices(t.venue.exchange, 'BTCUSDT', { mark: 96000 });
});
afterAll(() => t.close());

describe('lowering the leverage of a cross position', () => {
  it('refuses a leverage whose initial margin the account cannot hold, and changes nothing', async () => {
    const u = makeAccount(t.venue, 'lm-cross', 99_000);
    await openLong(u, '5.000'); // 480,000 USDT notional, 24,000 of margin at 20x
    const before = await state(u);
    expect([before.positions[0].leverage, before.positions[0].quantity]).toEqual([20, 5]);
    // 1x needs 480,000 and 4x 120,000 of a wallet under 99,000
    for (const lev of [1, 4]) {
      const r = await leverage(u, lev);
      expectRefused(r);
      expect(r.body.message).toContain(`${lev}x`);
      expect(r.body.message).toContain('BTCUSDT');
      expect(await state(u)).toStrictEqual(before);
    }
  });

  it('accepts one whose margin fits (5x needs 96,000), and raising again', async () => {
    const u = makeAccount(t.venue, 'lm-cross-ok', 99_000);
    await openLong(u, '5.000');
    expect(dataOf(await leverage(u, 5)).leverage).toBe(5);
    const [p] = dataOf(await get(u, '/fapi/v1/position/list'));
    expect([p.leverage, p.margin]).toEqual([5, 96000]);
    expect(dataOf(await leverage(u, 50)).leverage).toBe(50);
  });

  it("counts the pair's open orders at the new leverage, as they will fill into the position", async () => {
    const u = makeAccount(t.venue, 'lm-orders', 50_000);
    await openLong(u, '2.000'); // 192,000 notional
    // a resting buy of 1 BTC at 95,000: 4,750 + 47.5 fee frozen at 20x, 19,000 + 47.5 at 5x
    dataOf(await post(u, '/fapi/v1/orders', orderBody({ price: '95000.0', qty: '1.000', client_order_id: 'rest' })));
    const before = await state(u);
    // 5x: 38,400 for the position + 19,047.5 for the order > 50,000 (with the order's 20x
    // margin it would have fit)
    expectRefused(await leverage(u, 5));
    expect(await state(u)).toStrictEqual(before);
    // 8x: 24,000 + 11,922.5 fits
    expect(dataOf(await leverage(u, 8)).leverage).toBe(8);
  });

  it('without the order the same 5x fits', async () => {
    const u = makeAccount(t.venue, 'lm-no-order', 50_000);
    await openLong(u, '2.000');
    expect(dataOf(await leverage(u, 5)).leverage).toBe(5);
  });

  it('an order that asks for a lower leverage is held to the same rule', async () => {
    const u = makeAccount(t.venue, 'lm-order-lev', 99_000);
    await openLong(u, '5.000');
    const before = await state(u);
    const r = await post(u, '/fapi/v1/orders', orderBody({ price: '95000.0', qty: '0.010', leverage: 1 }));
    expectRefused(r);
    expect(await state(u)).toStrictEqual(before);
  });
});

describe('lowering the leverage of an isolated position', () => {
  it("needs the position's own margin to cover the new initial margin, whatever the wallet holds", async () => {
    const u = makeAccount(t.venue, 'lm-iso', 100_000);
    dataOf(await post(u, '/fapi/v1/marginType', { symbol: 'BTCUSDT', margin_mode: 1 }));
    await openLong(u, '1.000'); // 4,800 of isolated margin at 20x
    const before = await state(u);
    expect(before.positions[0]).toMatchObject({ margin_mode: 1, leverage: 20, margin: 4800 });
    // 19x needs 5,052.63 > 4,800, though 95,000 USDT are available
    const r = await leverage(u, 19);
    expectRefused(r);
    expect(r.body.message).toContain('isolated');
    expect(await state(u)).toStrictEqual(before);
    // raising keeps the margin as allocated; back to 20x needs exactly the 4,800 it holds
    expect(dataOf(await leverage(u, 25)).leverage).toBe(25);
    expect(dataOf(await leverage(u, 20)).leverage).toBe(20);
    const [p] = dataOf(await get(u, '/fapi/v1/position/list'));
    expect([p.leverage, p.margin]).toEqual([20, 4800]);
  });
});
