// One command, one market time: an order, its fills and the answer to it carry the same stamp, however
// long the command takes. The market clock here moves 1 ms at every read, as a busy clock at
// speed would between the reads of a command: a market order that takes three levels, its
// fills, the POST answer's updateTime and GET order's time and updateTime must all agree, and
// fetchMyTrades(since = the order's timestamp) must find its fills (ccxt's use of updateTime).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Side } from '../../../src-shared/enums.ts';
import { makeApp, type TestApp } from '../../helpers/app.ts';
import type { Creds } from '../../helpers/signed.ts';
import { limit } from './book.ts';
import { account } from './helpers.ts';
import { signedInject } from './raw.ts';

let t: TestApp;
let c: Creds;
const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
let reads = 0;

beforeAll(async () => {
  t = await makeApp({ simulate: false, wall: () => T0 + reads++ }, { rateLimit: false });
  c = account(t.venue, 'onetime', 100_000, 'one_way');
  const mm = account(t.venue, 'onetimemm');
  for (const [i, price] of ['95000.0', '95001.0', '95002.0'].entries())
    limit(t.venue, mm, { side: Side.SELL, price, qty: '0.010', clientId: `ask${i}` });
});
afterAll(async () => t?.close());

describe('one market time a command', () => {
  it('a market order over three levels: its answer, its record and its fills share one time', async () => {
    const before = t.venue.clock.now();
    const placed = await signedInject(t.app, c, 'POST', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '0.030',
      newOrderRespType: 'RESULT',
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const answer = placed.body as { orderId: number; status: string; executedQty: string; updateTime: number };
    expect([answer.status, answer.executedQty]).toEqual(['FILLED', '0.030']);
    // the clock did move while the command ran (else this test could not fail)
    expect(t.venue.clock.now()).toBeGreaterThan(before + 3);

    const got = await signedInject(t.app, c, 'GET', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: answer.orderId });
    const order = got.body as { time: number; updateTime: number };
    expect(order.time).toBe(answer.updateTime);
    expect(order.updateTime).toBe(answer.updateTime);

    const fills = await signedInject(t.app, c, 'GET', '/fapi/v1/userTrades', {
      symbol: 'BTCUSDT',
      orderId: answer.orderId,
    });
    const trades = fills.body as { price: string; time: number }[];
    expect(trades.map((f) => f.price)).toEqual(['95000.0', '95001.0', '95002.0']);
    for (const f of trades) expect(f.time).toBe(answer.updateTime);

    // since = the order's own timestamp finds its fills
    const since = await signedInject(t.app, c, 'GET', '/fapi/v1/userTrades', {
      symbol: 'BTCUSDT',
      startTime: answer.updateTime,
    });
    expect((since.body as unknown[]).length).toBe(3);
  });

  it('the next command has a time of its own, later than the last one', async () => {
    const first = t.venue.exchange.lastCommandTime;
    const r = await signedInject(t.app, c, 'POST', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'LIMIT',
      timeInForce: 'GTC',
      price: '99000',
      quantity: '0.010',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const answer = r.body as { updateTime: number };
    expect(answer.updateTime).toBeGreaterThan(first);
    expect(t.venue.exchange.lastCommandTime).toBe(answer.updateTime);
  });
});
