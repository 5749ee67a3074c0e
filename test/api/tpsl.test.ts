import { placeBotOrder } from '../helpers/exchange-commands.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUSE_ACCOUNT } from '../../src-main/trading/exchange.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';
import { dataOf, makeAccount, signed } from '../helpers/signed.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeApp();
});
afterAll(() => t.close());

describe('take-profit / stop-loss routes', () => {
  it('set, list, change, remove; another account sees nothing', async () => {
    const u = makeAccount(t.venue, 'tpsl-a');
    const other = makeAccount(t.venue, 'tpsl-b');
    placeBotOrder(
      t.venue.exchange,
      { symbol: 'BTCUSDT', side: 2, position_side: 2, position_action: 1, type: 1, price: '96000.0', qty: '0.010' },
      HOUSE_ACCOUNT,
    );
    dataOf(
      await signed(t.app, u, 'POST', '/fapi/v1/orders', {
        json: { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.010' },
      }),
    );
    expect(dataOf(await signed(t.app, u, 'GET', '/fapi/v1/position/tpsl'))).toEqual([
      { symbol: 'BTCUSDT', position_side: 1, take_profit_price: null, stop_loss_price: null, working_type: 1 },
    ]);
    const set = dataOf(
      await signed(t.app, u, 'POST', '/fapi/v1/position/tpsl', {
        json: {
          symbol: 'BTCUSDT',
          position_side: 1,
          take_profit_price: '99000.0',
          stop_loss_price: '93000.0',
          working_type: 2,
        },
      }),
    );
    expect(set).toMatchObject({
      symbol: 'BTCUSDT',
      take_profit_price: '99000.0',
      stop_loss_price: '93000.0',
      working_type: 2,
    });
    dataOf(
      await signed(t.app, u, 'POST', '/fapi/v1/position/tpsl', {
        json: { symbol: 'BTCUSDT', position_side: 1, take_profit_price: null },
      }),
    );
    expect(dataOf(await signed(t.app, u, 'GET', '/fapi/v1/position/tpsl'))).toEqual([
      { symbol: 'BTCUSDT', position_side: 1, take_profit_price: null, stop_loss_price: '93000.0', working_type: 2 },
    ]);
    expect(dataOf(await signed(t.app, other, 'GET', '/fapi/v1/position/tpsl'))).toEqual([]);
    const r = await signed(t.app, other, 'POST', '/fapi/v1/position/tpsl', {
      json: { symbol: 'BTCUSDT', position_side: 1, stop_loss_price: '93000.0' },
    });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe(1103);
  });

  it.each([
    [{ symbol: 'BTCUSDT', position_side: 3 }, 1001],
    [{ symbol: 'BTCUSDT' }, 1002],
    [{ symbol: 'BTCUSDT', position_side: 1, take_profit_price: 'abc' }, 1001],
    [{ symbol: 'BTCUSDT', position_side: 1, extra: 1 }, 1003],
  ])('bad body %j -> %i', async (body, code) => {
    const u = makeAccount(t.venue, `tpsl-bad-${code}-${Object.keys(body).length}`);
    const r = await signed(t.app, u, 'POST', '/fapi/v1/position/tpsl', { json: body });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(code);
  });

  it('a price sent as a JSON number or boolean is refused, not converted (string or null only)', async () => {
    const u = makeAccount(t.venue, 'tpsl-types');
    for (const value of [200000, true]) {
      const r = await signed(t.app, u, 'POST', '/fapi/v1/position/tpsl', {
        json: { symbol: 'BTCUSDT', position_side: 1, take_profit_price: value },
      });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({
        code: 1001,
        message: "Invalid body parameter 'take_profit_price': must be a JSON string or null",
      });
    }
    expect(dataOf(await signed(t.app, u, 'GET', '/fapi/v1/position/tpsl'))).toEqual([]); // nothing stored
  });
});
