// A 1001 / 1002 raised by the trading checks (not by a route's schema) names the parameter and
// where it was sent, as docs/api.md Errors says of every 1001-1003: `Invalid body parameter
// 'qty': ...`. The checks do not know the transport; the native REST error handler words it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Errors } from '../../src-shared/errors.ts';
import { HOUSE_ACCOUNT } from '../../src-main/trading/exchange.ts';
import { placeBotOrder, setPrices } from '../helpers/exchange-commands.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';
import { dataOf, makeAccount, orderBody, signed, type Creds } from '../helpers/signed.ts';

let t: TestApp;
let a: Creds;
beforeAll(async () => {
  t = await makeApp({ simulate: false });
  setPrices(t.venue.exchange, 'BTCUSDT', { mark: 96000 });
  a = makeAccount(t.venue, 'param-msg');
});
afterAll(() => t.close());

const stop = (over: Record<string, unknown>) => ({
  symbol: 'BTCUSDT',
  side: 1,
  position_side: 1,
  position_action: 1,
  type: 2,
  qty: '0.010',
  trigger_price: '97000.0',
  trigger_direction: 1,
  ...over,
});

async function said(path: string, json: object): Promise<{ code: number; message: string }> {
  const r = await signed(t.app, a, 'POST', path, { json });
  expect(r.status).toBe(400);
  return { code: r.body.code, message: r.body.message };
}

describe('a trading check names the parameter and where it was sent', () => {
  it.each([
    [{ qty: '0' }, "Invalid body parameter 'qty': must be greater than zero (got '0')"],
    [{ price: '0' }, "Invalid body parameter 'price': must be greater than zero (got '0')"],
    [
      { qty: '999999999999999999999' },
      "Invalid body parameter 'qty': 999999999999999999999 is out of range: above the maximum",
    ],
    [
      { client_order_id: 'api.12' },
      "Invalid body parameter 'client_order_id': 'api.12' has the form of the venue's generated ids",
    ],
  ])('POST /fapi/v1/orders %j', async (over, message) => {
    const r = await said('/fapi/v1/orders', orderBody({ price: '90000.0', ...over }));
    expect(r.code).toBe(Errors.INVALID_PARAMETER.code);
    expect(r.message.startsWith(message)).toBe(true);
  });

  it.each([
    [
      { trigger_price: undefined, callback_rate: '11' },
      Errors.INVALID_PARAMETER,
      "Invalid body parameter 'callback_rate': must be a percent from 0.1 to 10 with at most one decimal (got '11')",
    ],
    [
      { trigger_direction: undefined },
      Errors.MISSING_PARAMETER,
      "Missing required body parameter 'trigger_direction': must be sent with trigger_price",
    ],
    [
      { trigger_price: undefined },
      Errors.MISSING_PARAMETER,
      "Missing required body parameter 'trigger_price': must be sent (or callback_rate, for a trailing stop)",
    ],
    [
      { qty: undefined },
      Errors.MISSING_PARAMETER,
      "Missing required body parameter 'qty': must be sent unless close_position is true",
    ],
    [
      { close_position: true },
      Errors.INVALID_PARAMETER,
      "Invalid body parameter 'qty': must not be sent with close_position",
    ],
    [
      // a close_position stop sent as an open, or with reduce_only false, was taken for a close unsaid
      { close_position: true, qty: undefined },
      Errors.INVALID_PARAMETER,
      "Invalid body parameter 'position_action': must be 2 (close) with close_position",
    ],
    [
      { close_position: true, qty: undefined, position_action: 2, reduce_only: false },
      Errors.INVALID_PARAMETER,
      "Invalid body parameter 'reduce_only': must be true or not sent with close_position",
    ],
    [
      { close_position: true, qty: undefined, type: 1, price: '97000.0' },
      Errors.INVALID_PARAMETER,
      "Invalid body parameter 'type': must be 2 (market) with close_position (a market close)",
    ],
    [
      { trigger_price: undefined, callback_rate: '1.0', trigger_direction: 2 },
      Errors.INVALID_PARAMETER,
      "Invalid body parameter 'trigger_direction': must be 1 (rises to) or not sent: a trailing buy fires as the price rises",
    ],
  ])('POST /fapi/v1/conditional/order %j', async (over, def, message) => {
    const r = await said('/fapi/v1/conditional/order', stop(over));
    expect(r).toEqual({ code: def.code, message });
  });

  it('POST /fapi/v1/position/tpsl stop_loss_price "0" and triggers on the wrong side', async () => {
    placeBotOrder(
      t.venue.exchange,
      { symbol: 'BTCUSDT', side: 2, position_side: 2, position_action: 1, type: 1, price: '96000.0', qty: '0.010' },
      HOUSE_ACCOUNT,
    );
    dataOf(
      await signed(t.app, a, 'POST', '/fapi/v1/orders', {
        json: { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.010' },
      }),
    );
    const r = await said('/fapi/v1/position/tpsl', { symbol: 'BTCUSDT', position_side: 1, stop_loss_price: '0' });
    expect(r).toEqual({
      code: Errors.INVALID_PARAMETER.code,
      message: "Invalid body parameter 'stop_loss_price': must be a positive decimal string (got '0')",
    });
    // a trigger on the wrong side of the price it watches names its field too (before: "A long's
    // stop-loss must be below the mark price 96000.0", no field, no price sent)
    const wrong = await said('/fapi/v1/position/tpsl', {
      symbol: 'BTCUSDT',
      position_side: 1,
      stop_loss_price: '96100.0',
    });
    expect(wrong).toEqual({
      code: Errors.INVALID_PARAMETER.code,
      message:
        "Invalid body parameter 'stop_loss_price': must be below the mark price 96000.0 for a long (got '96100.0')",
    });
    const tp = await said('/fapi/v1/position/tpsl', {
      symbol: 'BTCUSDT',
      position_side: 1,
      take_profit_price: '95000.0',
    });
    expect(tp.message).toBe(
      "Invalid body parameter 'take_profit_price': must be above the mark price 96000.0 for a long (got '95000.0')",
    );
  });
});

describe('the signed-request parameters on a real route', () => {
  it('recv_window=05000 is 401 / 2008 from the signature layer, not a 1001 of the schema', async () => {
    const r = await signed(t.app, a, 'GET', '/fapi/v1/account', { rawQuery: 'recv_window=05000' });
    expect([r.status, r.body.code]).toEqual([401, Errors.RECV_WINDOW_INVALID.code]);
    expect(r.body.message).toContain('"05000"');
  });
});
