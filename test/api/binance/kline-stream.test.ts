// The facade's kline streams over real sockets, on a market clock the test moves: the final form
// of a candle (x true) goes out once, when that interval's candle closes, never again when a
// candle of another interval (the 1 s one, every second) closes.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src-main/api/app.ts';
import { openVenue, type LocalVenue as Venue } from '../../../src-main/venue.ts';
import { tradeAtMark } from '../../helpers/exchange-commands.ts';
import { TestClient } from '../ws/ws-test-client.ts';

const T0 = Date.parse('2025-03-05T09:59:30Z');
let W = T0;
let venue: Venue;
let app: FastifyInstance;
let ws: string;
const clients: TestClient[] = [];

beforeAll(async () => {
  venue = openVenue({ dataDir: ':memory:', wall: () => W });
  app = await buildApp({ venue, rateLimit: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  ws = `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/binance`;
});

afterAll(async () => {
  for (const c of clients) c.ws.close();
  await app.close();
  await venue.close();
});

async function open(path: string): Promise<TestClient> {
  const c = await TestClient.open(ws + path);
  clients.push(c);
  return c;
}

/** One trade of 0.002 BTCUSDT at the mark; it fills whole. */
function trade(): void {
  expect(tradeAtMark(venue.exchange).filled_qty).toBe('0.002');
}

/** Moves the market clock to `t` and the candles with it (closing what ended). */
function moveTo(t: number): void {
  W = t;
  venue.klines.advanceTo(venue.clock.now());
}

/** Everything the server sent before this answer has arrived (one socket, in order). */
const settle = (c: TestClient) => c.request('LIST_SUBSCRIPTIONS');

const finals = (c: TestClient, stream?: string) =>
  c.messages
    .map((m) => (stream === undefined ? m : m.stream === stream ? m.data : undefined))
    .filter((e) => e?.e === 'kline' && e.k.x === true)
    .map((e) => e.k.t as number);

describe('kline streams: the closed candle once', () => {
  it('each interval sends its final candle once when it closes, not again as the 1 s candles close', async () => {
    const combined = await open('/stream?streams=btcusdt@kline_1m/btcusdt@kline_1h/btcusdt@kline_1d');
    const raw = await open('/ws/btcusdt@kline_5m');
    trade(); // 09:59:30: every interval has a current candle
    moveTo(Date.parse('2025-03-05T10:00:00.200Z')); // 1m, 5m and 1h close; 1d does not
    for (let i = 1; i <= 5; i++) moveTo(W + 1_000); // five 1 s candles close, nothing else
    // the current candles (x false) go out on the 100 ms tick: wait for one, then for the rest
    await combined.waitFor((m) => m.stream === 'btcusdt@kline_1m' && m.data.k.x === false);
    await settle(combined);
    await raw.waitFor((m) => m.e === 'kline' && m.k.x === false);
    await settle(raw);

    expect(finals(combined, 'btcusdt@kline_1m')).toEqual([Date.parse('2025-03-05T09:59:00Z')]);
    expect(finals(combined, 'btcusdt@kline_1h')).toEqual([Date.parse('2025-03-05T09:00:00Z')]);
    expect(finals(combined, 'btcusdt@kline_1d')).toEqual([]);
    expect(finals(raw)).toEqual([Date.parse('2025-03-05T09:55:00Z')]);

    // the next minute's end: that minute's final candle, once; the hour's is not sent again
    moveTo(Date.parse('2025-03-05T10:01:00.200Z'));
    for (let i = 1; i <= 3; i++) moveTo(W + 1_000);
    await settle(combined);
    expect(finals(combined, 'btcusdt@kline_1m')).toEqual([
      Date.parse('2025-03-05T09:59:00Z'),
      Date.parse('2025-03-05T10:00:00Z'),
    ]);
    expect(finals(combined, 'btcusdt@kline_1h')).toEqual([Date.parse('2025-03-05T09:00:00Z')]);
    await settle(raw);
    expect(finals(raw)).toEqual([Date.parse('2025-03-05T09:55:00Z')]);
  });

  it('candles closed together (a jump of the clock) each send their final form, in order', async () => {
    const c = await open('/ws/btcusdt@kline_1m');
    trade();
    const first = Math.floor(W / 60_000) * 60_000;
    moveTo(first + 5 * 60_000 + 100); // one advance closes five 1m candles
    await c.waitFor((m) => m.e === 'kline' && m.k.x === false && m.k.t === first + 5 * 60_000);
    await settle(c);
    expect(finals(c)).toEqual([0, 1, 2, 3, 4].map((i) => first + i * 60_000));
  });
});

// binance-connector's continuous_kline (btcusdt_perpetual@continuousKline_1m) was refused as an
// unknown stream
describe('the continuous contract kline stream', () => {
  it("<pair>_perpetual@continuousKline_<iv>: the pair's candles in Binance's continuous_kline layout, final forms included", async () => {
    const c = await open('/stream?streams=btcusdt@kline_1m/btcusdt_perpetual@continuousKline_1m');
    trade();
    const first = Math.floor(W / 60_000) * 60_000;
    moveTo(first + 60_000 + 100);
    await c.waitFor((m) => m.stream === 'btcusdt_perpetual@continuousKline_1m' && m.data.k.t === first + 60_000);
    await settle(c);
    const plain = c.messages.filter((m) => m.stream === 'btcusdt@kline_1m').map((m) => m.data);
    const continuous = c.messages.filter((m) => m.stream === 'btcusdt_perpetual@continuousKline_1m').map((m) => m.data);
    expect(continuous.length).toBe(plain.length);
    expect(continuous).toEqual(
      plain.map(({ E, k: { s: _s, ...k } }) => ({ e: 'continuous_kline', E, ps: 'BTCUSDT', ct: 'PERPETUAL', k })),
    );
    expect(continuous.filter((e) => e.k.x).map((e) => e.k.t)).toContain(first);
    expect(Object.keys(continuous[0].k)).toEqual('t T i f L o c h l v n x q V Q B'.split(' '));
  });
});
