// A kline event's f / L, over a real socket on a market clock the test moves: the first and last
// trade ids of the candle, trades before the stream opened included (seeded from the pair's kept
// trades), the same in the candle's final form, -1 for a candle without trades; and -1 for a first
// id that is not known (the kept trades do not hold every trade of the candle).
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src-main/api/app.ts';
import { KlineTradeIds } from '../../../src-main/api/binance/streams/kline-trade-ids.ts';
import { openVenue, type LocalVenue as Venue } from '../../../src-main/venue.ts';
import { tradeAtMark } from '../../helpers/exchange-commands.ts';
import { TestClient } from '../ws/ws-test-client.ts';

const T0 = Date.parse('2025-03-05T09:59:30Z');
let W = T0;
let venue: Venue;
let app: FastifyInstance;
let ws: string;

beforeAll(async () => {
  venue = openVenue({ dataDir: ':memory:', wall: () => W });
  app = await buildApp({ venue, rateLimit: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  ws = `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/binance`;
});

afterAll(async () => {
  await app.close();
  await venue.close();
});

function trade(): number {
  expect(tradeAtMark(venue.exchange).filled_qty).toBe('0.002');
  return venue.recentTrades.newest('BTCUSDT', 1)[0].tradeId;
}

function moveTo(t: number): void {
  W = t;
  venue.klines.advanceTo(venue.clock.now());
}

describe('kline f / L', () => {
  it('first and last trade ids, trades before the stream included; -1 for a candle without trades', async () => {
    const minute = Date.parse('2025-03-05T10:00:00Z');
    moveTo(minute + 1_000);
    const first = trade();
    trade();
    const c = await TestClient.open(`${ws}/ws/btcusdt@kline_1m`); // mid-candle: two trades before it
    moveTo(minute + 2_000);
    const last = trade();
    const cur = await c.waitFor((m) => m.e === 'kline' && m.k.x === false && m.k.n === 3);
    expect({ t: cur.k.t, f: cur.k.f, L: cur.k.L }).toEqual({ t: minute, f: first, L: last });
    expect(last).toBeGreaterThan(first);
    moveTo(minute + 60_200); // closes it
    const fin = await c.waitFor((m) => m.e === 'kline' && m.k.x === true && m.k.t === minute);
    expect({ n: fin.k.n, f: fin.k.f, L: fin.k.L }).toEqual({ n: 3, f: first, L: last });
    // the next candle, begun while followed
    const next = trade();
    const nextEv = await c.waitFor((m) => m.e === 'kline' && m.k.t === minute + 60_000 && m.k.n === 1);
    expect({ f: nextEv.k.f, L: nextEv.k.L }).toEqual({ f: next, L: next });
    moveTo(minute + 180_200); // 10:01 closes with its trade, 10:02 without any
    const empty = await c.waitFor((m) => m.e === 'kline' && m.k.x === true && m.k.t === minute + 120_000);
    expect({ n: empty.k.n, f: empty.k.f, L: empty.k.L }).toEqual({ n: 0, f: -1, L: -1 });
    c.ws.close();
  });

  it('a first id not among the kept trades is -1, the last one still known', () => {
    const ids = new KlineTradeIds();
    const k = [60_000, 119_999, '1', '1', '1', '1', '1', '1', 5, '0', '0', false] as const;
    ids.follow('X', (iv) => (iv === '1m' ? [...k] : undefined), [
      { tradeId: 40, time: 70_000 },
      { tradeId: 31, time: 65_000 },
    ]);
    expect(ids.ids('X', '1m', 60_000, 5)).toEqual({ f: -1, L: 40 });
    ids.trade('X', { tradeId: 41, time: 71_000 });
    expect(ids.ids('X', '1m', 60_000, 6)).toEqual({ f: -1, L: 41 });
    // all of them kept: the first is known
    const all = new KlineTradeIds();
    all.follow(
      'X',
      (iv) => (iv === '1m' ? [...k] : undefined),
      [5, 4, 3, 2, 1].map((n) => ({ tradeId: n * 10, time: 60_000 + n })),
    );
    expect(all.ids('X', '1m', 60_000, 5)).toEqual({ f: 10, L: 50 });
  });
});
