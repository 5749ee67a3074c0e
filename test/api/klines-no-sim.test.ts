// A venue without the simulated market (--no-sim) has no stored candle at all: every kline route
// answered [] for a pair until it traded (and a kline stream pushed nothing), while its price
// routes showed the listing price. Every interval's current candle opens at the pair's price from
// the start, flat with no trades, as the simulated venue's do; a trade then goes into it.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERVALS, openTimeOf } from '../../src-shared/intervals.ts';
import { tradeAtMark } from '../helpers/exchange-commands.ts';
import { getJson, makeApp, type TestApp } from '../helpers/app.ts';
import { TestClient } from './ws/ws-test-client.ts';

const T0 = Date.parse('2025-03-05T10:17:42.250Z');
let W = T0;
let t: TestApp;
let c: TestClient | null = null;

beforeAll(async () => {
  t = await makeApp({ simulate: false, wall: () => W }, { rateLimit: false });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  c?.ws.close();
  await t?.close();
});

const flat = (price: string) => [price, price, price, price];

describe('klines of a venue without the simulated market', () => {
  it('every interval of every route holds the current candle at the pair price before any trade', async () => {
    const last = (await getJson(t.app, '/api/v1/ticker/24h?symbols=BTCUSDT')).body.data[0].last_price;
    expect(last).toBe('96000.0');
    for (const iv of INTERVALS) {
      const r = await getJson(t.app, `/fapi/v1/klines?symbol=BTCUSDT&interval=${iv}&limit=2`);
      expect(r.status, `${iv} ${r.raw}`).toBe(200);
      expect(r.body, iv).toHaveLength(1);
      const [open, , o, h, l, cl, volume, , trades, , , closed] = r.body[0];
      expect(open, iv).toBe(openTimeOf(iv, T0));
      expect([o, h, l, cl], iv).toEqual(flat(last));
      expect([volume, trades, closed], iv).toEqual(['0.000', 0, false]);
    }
    const batch = await getJson(t.app, '/fapi/v1/klines/batch?symbols=BTCUSDT,ETHUSDT&interval=1m');
    expect(batch.body.BTCUSDT).toHaveLength(1);
    expect(batch.body.ETHUSDT).toHaveLength(1);
    expect(batch.body.ETHUSDT[0].slice(2, 6)).toEqual(flat('3400.00'));
    const bn = await getJson(t.app, '/binance/fapi/v1/klines?symbol=ETHUSDT&interval=1m&limit=2');
    expect(bn.status).toBe(200);
    expect(bn.body).toHaveLength(1);
    expect(bn.body[0][0]).toBe(openTimeOf('1m', T0));
    expect(bn.body[0].slice(1, 5)).toEqual(flat('3400.00'));
  });

  it('the seconds without trades close flat, a kline stream pushes them, a trade goes into the current candle', async () => {
    const port = (t.app.server.address() as AddressInfo).port;
    c = await TestClient.open(`ws://127.0.0.1:${port}/ws`);
    expect((await c.request('SUBSCRIBE', ['kline@ETHUSDT,1s'])).result).toBeNull();
    const from = c.messages.length;
    W = T0 + 2_000;
    t.venue.klines.advanceTo(t.venue.clock.now());
    const pushed = await c.waitFor((m) => m.stream === 'kline@ETHUSDT,1s' && m.data.k[11] === false, 3000, from);
    expect(pushed.data.k[0]).toBe(openTimeOf('1s', W));
    expect(pushed.data.k.slice(2, 6)).toEqual(flat('3400.00'));

    const seconds = (await getJson(t.app, '/fapi/v1/klines?symbol=ETHUSDT&interval=1s&limit=5')).body;
    expect(seconds.map((k: unknown[]) => k[0])).toEqual([0, 1, 2].map((i) => openTimeOf('1s', W) - i * 1_000));
    expect(seconds.map((k: unknown[]) => k[11])).toEqual([false, true, true]);

    tradeAtMark(t.venue.exchange);
    const [k] = (await getJson(t.app, '/fapi/v1/klines?symbol=BTCUSDT&interval=1m&limit=1')).body;
    expect(k[0]).toBe(openTimeOf('1m', T0));
    expect([k[6], k[8]]).toEqual(['0.002', 1]);
  });
});
