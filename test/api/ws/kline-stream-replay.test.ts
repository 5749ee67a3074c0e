// The native kline@ stream when the market clock outruns its pushes: a lockstep replay of the 1m
// BTCUSDT klines (test/fixtures/binance/SOURCES.md) stepped a minute at a time, each step awaited,
// closes a candle per step, far faster than the stream's 250 ms cadence. Every one of them is
// pushed once, in order, in its final form, equal to history on every column, before the step's
// answer, and then the open candle; the /binance dialect's btcusdt@kline_1m pushes the same closed
// candles.
import path from 'node:path';
import { readFileSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type ServiceHandle } from '../../../src-main/service.ts';
import { openDatabase } from '../../../src-main/store/database.ts';
import { importInto, KLINES, replayDataOf } from '../../replay/harness.ts';
import { WsTestClient } from '../../replay/ws-client.ts';
import { TestClient } from './ws-test-client.ts';

const START = Date.UTC(2021, 4, 16);
const MINUTE = 60_000;
const STEPS = 30;
const M1 = path.join(KLINES, 'binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv');
const STREAM = 'kline@BTCUSDT,1m';

let db: DatabaseSync;
let svc: ServiceHandle;

beforeAll(async () => {
  db = openDatabase({ dataDir: ':memory:' });
  const ds = await importInto(db, [
    { paths: [M1], opts: { market: 'spot', symbol: 'BTCUSDT', kind: 'klines', interval: '1m' } },
  ]);
  svc = await startService({
    dataDir: ':memory:',
    rateLimit: false,
    replay: { options: { symbols: ['BTCUSDT'], start: START }, data: replayDataOf(ds), lockstep: true },
  });
}, 60_000);

afterAll(async () => {
  await svc?.close();
  db?.close();
});

/** Polls until `pred` holds (pushes arrive on the hub's 100 ms tick), at most `ms`. */
async function until(pred: () => boolean, ms = 5000): Promise<void> {
  const t0 = Date.now();
  while (!pred()) {
    if (Date.now() - t0 > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The source's 1m rows in the venue's wire order [t, T, o, h, l, c, v, q, n, V, Q] as numbers. */
function history(n: number): number[][] {
  return readFileSync(M1, 'utf8')
    .trim()
    .split('\n')
    .slice(1, n + 1)
    .map((l) => l.split(',').map(Number))
    .map((r) => [r[0], r[6], r[1], r[2], r[3], r[4], r[5], r[7], r[8], r[9], r[10]]);
}

describe('native kline@ on a lockstep replay: a candle closed every step', () => {
  it(`${STEPS} minute steps push ${STEPS} closed candles, once each, in order, with history's values, then the open one`, async () => {
    const c = new WsTestClient(svc.url);
    await c.open();
    expect((await c.send('SUBSCRIBE', [STREAM])).result).toBeNull();
    const binance = await TestClient.open(`${svc.url.replace('http', 'ws')}/binance/ws/btcusdt@kline_1m`);
    try {
      const pushes = () => c.pushes.filter((m) => m.stream === STREAM).map((m) => m.data.k as unknown[]);
      const atAnswer: unknown[] = []; // the newest closed candle pushed when each step was answered
      for (let i = 1; i <= STEPS; i++) {
        const a = await c.send('REPLAY', { action: 'step', ms: MINUTE });
        expect(a.result.time).toBe(START + i * MINUTE);
        atAnswer.push(pushes().findLast((k) => k[11] === true)?.[0]);
      }
      const open = START + STEPS * MINUTE;
      await until(() => pushes().some((k) => k[11] === false && k[0] === open));

      const all = pushes();
      const closed = all.filter((k) => k[11] === true);
      expect(closed.map((k) => k[0])).toEqual(Array.from({ length: STEPS }, (_, i) => START + i * MINUTE));
      // the final form: the venue's own candles (REST), and those are history's on every column
      const venue = svc.venue.klines.klines('BTCUSDT', '1m', { limit: STEPS + 1 }).reverse();
      expect(venue[STEPS][0]).toBe(open);
      expect(closed).toEqual(venue.slice(0, STEPS));
      expect(closed.map((k) => k.slice(0, 11).map(Number))).toEqual(history(STEPS));
      // each step's answer came after the candle it closed (the open candle follows on the tick)
      expect(atAnswer).toEqual(closed.map((k) => k[0]));
      // the open candle follows the last closed one, and no closed candle comes after it
      const firstOpen = all.findIndex((k) => k[11] === false && k[0] === open);
      expect(firstOpen).toBeGreaterThan(all.findLastIndex((k) => k[11] === true));

      await until(() => binance.messages.filter((m) => m.k.x === true).length >= STEPS);
      expect(binance.messages.filter((m) => m.k.x === true).map((m) => m.k.t)).toEqual(closed.map((k) => k[0]));
    } finally {
      binance.ws.close();
      await c.close();
    }
  });
});
