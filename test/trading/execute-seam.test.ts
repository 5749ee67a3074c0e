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

const u = { id: 0, apiKey: '', apiSecret: '' };
const order = {
  symbol: 'BTCUSDT',
  side: 1,
  position_side: 1,
  position_action: 1,
  type: 1,
  price: '95000.0',
  qty: '0.010',
};
// a resting bot ask, taken by a market buy, gives the account a position to put a stop on
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
const buy = { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.005' };
let placed: { order_id: string } | undefined;
let botOrderId = '';

interface Step {
  name: string;
  /** What must be in place first (its commands are not recorded). */
  before?: () => Promise<unknown>;
  send: () => Promise<unknown>;
  sent: () => Command[];
}

/** Each request, in order (later steps use what earlier ones made), and the one command it sent. */
const STEPS: Step[] = [
  {
    name: 'POST /fapi/v1/leverage',
    send: () => signed(t.app, u, 'POST', '/fapi/v1/leverage', { json: { symbol: 'BTCUSDT', leverage: 10 } }),
    sent: () => [{ kind: 'setLeverage', accountId: u.id, symbol: 'BTCUSDT', leverage: 10 }],
  },
  {
    name: 'POST /fapi/v1/marginType',
    send: () => signed(t.app, u, 'POST', '/fapi/v1/marginType', { json: { symbol: 'BTCUSDT', margin_mode: 1 } }),
    sent: () => [{ kind: 'setMarginMode', accountId: u.id, symbol: 'BTCUSDT', marginMode: 1 }],
  },
  {
    name: 'POST /fapi/v1/orders',
    send: async () => {
      placed = dataOf(await signed(t.app, u, 'POST', '/fapi/v1/orders', { json: order }));
    },
    sent: () => [{ kind: 'place', accountId: u.id, input: order }],
  },
  {
    name: 'DELETE /fapi/v1/order',
    send: () =>
      signed(t.app, u, 'DELETE', '/fapi/v1/order', { query: { symbol: 'BTCUSDT', order_id: placed!.order_id } }),
    sent: () => [
      {
        kind: 'cancel',
        accountId: u.id,
        symbol: 'BTCUSDT',
        orderId: Number(placed!.order_id),
        clientOrderId: undefined,
      },
    ],
  },
  {
    name: 'DELETE /fapi/v1/allOpenOrders',
    send: () => signed(t.app, u, 'DELETE', '/fapi/v1/allOpenOrders', { query: { symbol: 'BTCUSDT' } }),
    sent: () => [{ kind: 'cancelAll', accountId: u.id, symbol: 'BTCUSDT' }],
  },
  {
    name: 'POST /fapi/v1/bot/orders',
    send: () => plain(t.app, 'POST', '/fapi/v1/bot/orders', { json: ask }),
    sent: () => [{ kind: 'placeBot', input: ask }],
  },
  {
    name: 'POST /fapi/v1/position/tpsl',
    before: async () => dataOf(await signed(t.app, u, 'POST', '/fapi/v1/orders', { json: buy })),
    send: () =>
      signed(t.app, u, 'POST', '/fapi/v1/position/tpsl', {
        json: { symbol: 'BTCUSDT', position_side: 1, stop_loss_price: '90000.0' },
      }),
    sent: () => [
      {
        kind: 'setTpSl',
        accountId: u.id,
        symbol: 'BTCUSDT',
        positionSide: 1,
        tp: undefined,
        sl: { price: '90000.0', trigger: 1 },
      },
    ],
  },
  {
    name: 'DELETE /fapi/v1/bot/order',
    before: async () => {
      const open = t.venue.exchange.botOrders('BTCUSDT');
      expect(open).toHaveLength(1);
      botOrderId = open[0].id;
    },
    send: () => plain(t.app, 'DELETE', `/fapi/v1/bot/order?symbol=BTCUSDT&order_id=${botOrderId}`),
    sent: () => [{ kind: 'cancelBot', symbol: 'BTCUSDT', orderId: Number(botOrderId) }],
  },
  {
    name: 'POST /fapi/v1/account/reset',
    send: () => signed(t.app, u, 'POST', '/fapi/v1/account/reset', { json: { balance: '5000' } }),
    sent: () => [{ kind: 'reset', accountId: u.id, balance: 5000n * 100_000_000n }],
  },
  {
    name: 'POST /fapi/v1/positionMode',
    send: () => signed(t.app, u, 'POST', '/fapi/v1/positionMode', { json: { position_mode: 'one_way' } }),
    sent: () => [{ kind: 'setPositionMode', accountId: u.id, mode: 'one_way' }],
  },
  {
    // one rotateKey command carrying the fresh credentials it answers
    name: 'POST /fapi/v1/account/apiKey/regenerate',
    send: async () => {
      const fresh: { api_key: string; api_secret: string } = dataOf(
        await signed(t.app, u, 'POST', '/fapi/v1/account/apiKey/regenerate'),
      );
      expect(fresh.api_key).not.toBe(u.apiKey);
      u.apiKey = fresh.api_key;
      u.apiSecret = fresh.api_secret;
    },
    sent: () => [
      { kind: 'rotateKey', accountId: u.id, apiKey: u.apiKey, apiSecret: u.apiSecret, now: expect.any(Number) },
    ],
  },
  { name: 'GET /fapi/v1/account (a read)', send: () => signed(t.app, u, 'GET', '/fapi/v1/account'), sent: () => [] },
  {
    name: 'GET /fapi/v1/openOrders (a read)',
    send: () => signed(t.app, u, 'GET', '/fapi/v1/openOrders'),
    sent: () => [],
  },
];

describe('routes change state only through execute(), one typed command a request', () => {
  beforeAll(() => {
    Object.assign(u, makeAccount(t.venue, 'seam-a'));
  });

  it.each(STEPS)('$name', async (step) => {
    if (step.before) await step.before();
    expect(await commandsOf(step.send)).toEqual(step.sent());
  });
});
