// The REST book's times are Binance's: GET /fapi/v1/depth's T and bookTicker's time are when the
// pair's book last changed (the market time of the command that changed it), E the answer's time.
// The market clock here is set by the test, so a read long after the last change must keep T. The
// streams' depthUpdate T and bookTicker T are the same time, E the push's.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderStatus } from '../../../src-shared/enums.ts';
import { openLimit } from '../../helpers/exchange-commands.ts';
import { TestClient } from '../ws/ws-test-client.ts';
import { makeApp, type TestApp } from '../../helpers/app.ts';
import type { Creds } from '../../helpers/signed.ts';
import { account } from './helpers.ts';
import { signedInject } from './raw.ts';

let t: TestApp;
let c: Creds;
const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
let wall = T0;

beforeAll(async () => {
  t = await makeApp({ simulate: false, wall: () => wall }, { rateLimit: false });
  c = account(t.venue, 'booktime', 100_000, 'one_way');
});
afterAll(async () => t?.close());

const get = async (url: string) => {
  const r = await t.app.inject({ method: 'GET', url });
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as Record<string, unknown>;
};

async function bid(price: string, symbol = 'BTCUSDT'): Promise<number> {
  const r = await signedInject(t.app, c, 'POST', '/fapi/v1/order', {
    symbol,
    side: 'BUY',
    type: 'LIMIT',
    timeInForce: 'GTC',
    price,
    quantity: '0.010',
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return (r.body as { updateTime: number }).updateTime;
}

describe('the REST book is timed by its last change', () => {
  it("a book unchanged since the start, an empty one's too: the start's time", async () => {
    wall += 30_000;
    // ETHUSDT: no order on it before the next test's (and none from a simulator: simulate false)
    const depth = await get('/binance/fapi/v1/depth?symbol=ETHUSDT&limit=5');
    expect(depth.lastUpdateId).toBe(0);
    expect(depth.T).toBe(T0);
    expect(depth.E).toBe(t.venue.clock.now());
  });

  it('depth T and bookTicker time: the change; depth E: the answer', async () => {
    wall += 1_000;
    const placed = await bid('90000.0');
    wall += 60_000;
    const now = t.venue.clock.now();
    expect(now).toBeGreaterThan(placed);
    const depth = await get('/binance/fapi/v1/depth?symbol=BTCUSDT&limit=5');
    expect(depth.T).toBe(placed);
    expect(depth.E).toBe(now);
    const top = await get('/binance/fapi/v1/ticker/bookTicker?symbol=BTCUSDT');
    expect(top.time).toBe(placed);
    expect(top.lastUpdateId).toBe(depth.lastUpdateId);
  });

  it('a command that leaves the book alone does not move it; the next change does', async () => {
    const before = (await get('/binance/fapi/v1/depth?symbol=BTCUSDT')).T as number;
    wall += 5_000;
    const lev = await signedInject(t.app, c, 'POST', '/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: 5 });
    expect(lev.status, JSON.stringify(lev.body)).toBe(200);
    expect((await get('/binance/fapi/v1/depth?symbol=BTCUSDT')).T).toBe(before);
    // another pair's book changing leaves this one's time
    wall += 5_000;
    const eth = await bid('2000.00', 'ETHUSDT');
    expect((await get('/binance/fapi/v1/depth?symbol=ETHUSDT')).T).toBe(eth);
    expect((await get('/binance/fapi/v1/depth?symbol=BTCUSDT')).T).toBe(before);
    wall += 5_000;
    const placed = await bid('89000.0');
    expect(placed).toBeGreaterThan(before);
    wall += 5_000;
    expect((await get('/binance/fapi/v1/depth?symbol=BTCUSDT')).T).toBe(placed);
    expect((await get('/binance/fapi/v1/ticker/bookTicker?symbol=BTCUSDT')).time).toBe(placed);
  });
});

describe('the streamed book is timed by its last change', () => {
  it('depthUpdate T and bookTicker T: the change; E: the push', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const port = (t.app.server.address() as AddressInfo).port;
    const names = ['btcusdt@depth@100ms', 'btcusdt@depth5@100ms', 'btcusdt@bookTicker'];
    const ws = await TestClient.open(`ws://127.0.0.1:${port}/binance/stream?streams=${names.join('/')}`);
    try {
      wall += 1_000;
      const changed = t.venue.clock.now();
      // the change and the clock's jump in one turn: every push of it comes a minute after it
      expect(openLimit(t.venue.exchange, c.id, { side: 1, price: '95000.0', qty: '0.010' }).status).toBe(
        OrderStatus.NEW,
      );
      wall += 60_000;
      const pushed = t.venue.clock.now();
      for (const name of names) {
        const m = await ws.waitFor((x) => x.stream === name, 3_000);
        expect(m.data.T, name).toBe(changed);
        expect(m.data.E, name).toBe(pushed);
      }
    } finally {
      ws.close();
    }
  });
});
