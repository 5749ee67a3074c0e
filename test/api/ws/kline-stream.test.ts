// The native kline@ streams over real sockets, on a market clock the test moves: a closed candle
// is pushed in its final form (isClosed true) once, when its own interval closes, not each time
// the 1 s candle closes; and every candle that closed between two pushes goes out, in order,
// before the current one, however fast the clock runs.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src-main/api/app.ts';
import { openVenue, type LocalVenue as Venue } from '../../../src-main/venue.ts';
import { tradeAtMark } from '../../helpers/exchange-commands.ts';
import { TestClient } from './ws-test-client.ts';

let W = Date.parse('2025-03-05T09:59:30Z');
let venue: Venue;
let app: FastifyInstance;
let c: TestClient;

beforeAll(async () => {
  venue = openVenue({ dataDir: ':memory:', wall: () => W });
  app = await buildApp({ venue, rateLimit: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  c = await TestClient.open(`ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/ws`);
});

afterAll(async () => {
  c?.ws.close();
  await app.close();
  await venue.close();
});

/** One trade of 0.002 BTCUSDT at the mark; it fills whole. */
function trade(): void {
  expect(tradeAtMark(venue.exchange).filled_qty).toBe('0.002');
}

function moveTo(t: number): void {
  W = t;
  venue.klines.advanceTo(venue.clock.now());
}

/** Waits for a push of the current candle (isClosed false) of `stream` opening at `open`, from message `from` on. */
const current = (stream: string, open: number, from: number) =>
  c.waitFor((m) => m.stream === stream && m.data.k[11] === false && m.data.k[0] === open, 3000, from);

const finals = (stream: string) =>
  c.messages.filter((m) => m.stream === stream && m.data.k[11] === true).map((m) => m.data.k[0] as number);

describe('native kline streams: an unchanged candle is not pushed again', () => {
  it('while nothing trades, the 1 s candles closing each second push nothing; the next trade does', async () => {
    const stream = 'kline@BTCUSDT,1h';
    const q = await TestClient.open(`ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/ws`);
    const hub = app.wsHub;
    const hubNow = hub.now;
    hub.now = () => W; // the kline throttle's clock: each step below is a second after the last push
    try {
      expect((await q.request('SUBSCRIBE', [stream])).result).toBeNull();
      const hour = Math.floor(W / 3_600_000) * 3_600_000;
      const first = await q.waitFor((m) => m.stream === stream && m.data.k[0] === hour);
      const before = q.pushes(stream).length;
      // five quiet seconds: each closes a 1 s candle of BTCUSDT; a tick after each (the hub's step)
      for (let i = 0; i < 5; i++) {
        moveTo(W + 1_000);
        hub.tick();
        expect((await q.request('PING')).result).toBe('PONG'); // answered after the tick's pushes
      }
      expect(q.pushes(stream).length).toBe(before);
      // a trade changes the candle: pushed
      trade();
      await q.waitFor((m) => m.stream === stream && m.data.k[8] === first.data.k[8] + 1);
      const pushed = q.pushes(stream).map((m) => JSON.stringify(m.data.k));
      expect(pushed.every((k, i) => i === 0 || k !== pushed[i - 1])).toBe(true);
    } finally {
      hub.now = hubNow;
      q.close();
    }
  });
});

describe('native kline streams: the closed candle once', () => {
  it('a closed candle goes out once, not again on each push after a 1 s candle closed', async () => {
    const streams = ['kline@BTCUSDT,1m', 'kline@BTCUSDT,1h', 'kline@BTCUSDT,1d'];
    expect((await c.request('SUBSCRIBE', streams)).result).toBeNull();
    trade();
    const minute = Date.parse('2025-03-05T10:00:00Z');
    const mark = c.messages.length;
    moveTo(minute + 200); // 1m and 1h close, 1d does not
    await current('kline@BTCUSDT,1m', minute, mark);
    await current('kline@BTCUSDT,1h', minute, mark);
    // each second a 1 s candle closes and the current candles change: one push each, none final
    for (let i = 1; i <= 4; i++) {
      const from = c.messages.length;
      moveTo(W + 1_000);
      trade();
      await current('kline@BTCUSDT,1m', minute, from);
      await current('kline@BTCUSDT,1h', minute, from);
    }
    expect(finals('kline@BTCUSDT,1m')).toEqual([Date.parse('2025-03-05T09:59:00Z')]);
    expect(finals('kline@BTCUSDT,1h')).toEqual([Date.parse('2025-03-05T09:00:00Z')]);
    expect(finals('kline@BTCUSDT,1d')).toEqual([]);
  });

  it('candles closing faster than the 250 ms cadence are each pushed once, in order, final, then the current one', async () => {
    const stream = 'kline@BTCUSDT,1m';
    const from = c.messages.length;
    const first = Math.floor(W / 60_000) * 60_000; // the current minute, already pushed open
    // ten minutes with a trade each and five without, all inside one of the hub's ticks
    for (let i = 1; i <= 10; i++) {
      trade();
      moveTo(first + i * 60_000 + 100);
    }
    moveTo(W + 5 * 60_000); // one advance closes five flat candles
    trade();
    const open = first + 15 * 60_000;
    await current(stream, open, from);

    const pushed = c.messages.slice(from).filter((m) => m.stream === stream);
    const closed = pushed.filter((m) => m.data.k[11] === true).map((m) => m.data.k);
    const served = venue.klines.klines('BTCUSDT', '1m', { limit: 16 }).reverse();
    expect(served[15][0]).toBe(open);
    expect(closed.map((k) => k[0])).toEqual(Array.from({ length: 15 }, (_, i) => first + i * 60_000));
    expect(closed).toEqual(served.slice(0, 15));
    expect(closed.slice(0, 10).every((k) => k[8] > 0)).toBe(true);
    expect(closed.slice(10).map((k) => k[8])).toEqual([0, 0, 0, 0, 0]);
    const openAt = pushed.findIndex((m) => m.data.k[11] === false && m.data.k[0] === open);
    expect(openAt).toBeGreaterThan(pushed.findLastIndex((m) => m.data.k[11] === true));
    // the hour and the day did not close
    expect(finals('kline@BTCUSDT,1h')).toEqual([Date.parse('2025-03-05T09:00:00Z')]);
    expect(finals('kline@BTCUSDT,1d')).toEqual([]);
  });
});
