// The routes change exchange state only through Exchange.execute(command), with commands that
// are plain data (what a command log or a second API surface builds). Each request below is
// matched to the one command it sent, in order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command } from '../../src-main/trading/exchange.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';
import { dataOf, makeAccount, plain, signed } from '../helpers/signed.ts';

let t: TestApp;
const sent: Command[] = [];

beforeAll(async () => {
  t = await makeApp();
  const ex = t.venue.exchange;
  const real = ex.execute.bind(ex);
  ex.execute = ((c: Command) => {
    sent.push(structuredClone(c));
    return real(c);
  }) as typeof ex.execute;
});
afterAll(() => t.close());

/** The commands a request sent (and clears the record). */
async function commandsOf(run: () => Promise<unknown>): Promise<Command[]> {
  sent.length = 0;
  await run();
  return sent.splice(0);
}

describe('routes go through execute()', () => {
  it('orders, cancels, settings, TP/SL, reset and bot orders each send one typed command', async () => {
    const u = makeAccount(t.venue, 'seam-a');
    const order = {
      symbol: 'BTCUSDT',
      side: 1,
      position_side: 1,
      position_action: 1,
      type: 1,
      price: '95000.0',
      qty: '0.010',
    };

    expect(
      await commandsOf(() =>
        signed(t.app, u, 'POST', '/fapi/v1/leverage', { json: { symbol: 'BTCUSDT', leverage: 10 } }),
      ),
    ).toEqual([{ kind: 'setLeverage', accountId: u.id, symbol: 'BTCUSDT', leverage: 10 }]);
    expect(
      await commandsOf(() =>
        signed(t.app, u, 'POST', '/fapi/v1/marginType', { json: { symbol: 'BTCUSDT', margin_mode: 1 } }),
      ),
    ).toEqual([{ kind: 'setMarginMode', accountId: u.id, symbol: 'BTCUSDT', marginMode: 1 }]);

    let placed: { order_id: string } | undefined;
    expect(
      await commandsOf(async () => {
        placed = dataOf(await signed(t.app, u, 'POST', '/fapi/v1/orders', { json: order }));
      }),
    ).toEqual([{ kind: 'place', accountId: u.id, input: order }]);
    expect(
      await commandsOf(() =>
        signed(t.app, u, 'DELETE', '/fapi/v1/order', { query: { symbol: 'BTCUSDT', order_id: placed!.order_id } }),
      ),
    ).toEqual([
      {
        kind: 'cancel',
        accountId: u.id,
        symbol: 'BTCUSDT',
        orderId: Number(placed!.order_id),
        clientOrderId: undefined,
      },
    ]);
    expect(
      await commandsOf(() => signed(t.app, u, 'DELETE', '/fapi/v1/allOpenOrders', { query: { symbol: 'BTCUSDT' } })),
    ).toEqual([{ kind: 'cancelAll', accountId: u.id, symbol: 'BTCUSDT' }]);

    // a position to put a stop on: a bot ask taken by a market buy
    const ask = {
      symbol: 'BTCUSDT',
      side: 2,
      position_side: 2,
      position_action: 1,
      type: 1,
      price: '96000.0',
      qty: '0.010',
      need_cache: true,
    };
    const botSent = await commandsOf(() => plain(t.app, 'POST', '/fapi/v1/bot/orders', { json: ask }));
    expect(botSent).toEqual([{ kind: 'placeBot', input: ask }]);
    const buy = { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.005' };
    dataOf(await signed(t.app, u, 'POST', '/fapi/v1/orders', { json: buy }));
    expect(
      await commandsOf(() =>
        signed(t.app, u, 'POST', '/fapi/v1/position/tpsl', {
          json: { symbol: 'BTCUSDT', position_side: 1, stop_loss_price: '90000.0' },
        }),
      ),
    ).toEqual([
      {
        kind: 'setTpSl',
        accountId: u.id,
        symbol: 'BTCUSDT',
        positionSide: 1,
        tp: undefined,
        sl: { price: '90000.0', trigger: 1 },
      },
    ]);
    const open = t.venue.exchange.botOrders('BTCUSDT');
    expect(open).toHaveLength(1);
    expect(
      await commandsOf(() => plain(t.app, 'DELETE', `/fapi/v1/bot/order?symbol=BTCUSDT&order_id=${open[0].id}`)),
    ).toEqual([{ kind: 'cancelBot', symbol: 'BTCUSDT', orderId: Number(open[0].id) }]);

    expect(
      await commandsOf(() => signed(t.app, u, 'POST', '/fapi/v1/account/reset', { json: { balance: '5000' } })),
    ).toEqual([{ kind: 'reset', accountId: u.id, balance: 5000n * 100_000_000n }]);
    expect(
      await commandsOf(() => signed(t.app, u, 'POST', '/fapi/v1/positionMode', { json: { position_mode: 'one_way' } })),
    ).toEqual([{ kind: 'setPositionMode', accountId: u.id, mode: 'one_way' }]);
    // key rotation: one rotateKey command carrying the fresh credentials it answers
    const rotated = await commandsOf(async () => {
      const fresh: { api_key: string; api_secret: string } = dataOf(
        await signed(t.app, u, 'POST', '/fapi/v1/account/apiKey/regenerate'),
      );
      expect(fresh.api_key).not.toBe(u.apiKey);
      u.apiKey = fresh.api_key;
      u.apiSecret = fresh.api_secret;
    });
    expect(rotated).toEqual([
      { kind: 'rotateKey', accountId: u.id, apiKey: u.apiKey, apiSecret: u.apiSecret, now: expect.any(Number) },
    ]);
    // reads send no command
    expect(await commandsOf(() => signed(t.app, u, 'GET', '/fapi/v1/account'))).toEqual([]);
    expect(await commandsOf(() => signed(t.app, u, 'GET', '/fapi/v1/openOrders'))).toEqual([]);
  });
});
