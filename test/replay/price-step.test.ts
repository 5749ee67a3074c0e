// A lockstep bot's `price@` stream (docs/replay.md, Bots and determinism): the answer of a REPLAY
// step brings the mark the step reached, as it brings the step's trades and book changes, at most
// once a market second. Until 2026-12-07 price@ went out on the hub's wall-clock second only, so a
// bot stepping faster than the machine's seconds saw no mark at all (480 steps of 15 s of the 1m
// BTCUSDT klines: not one price@ push), and which marks it saw depended on the machine's speed.
import type { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startService, type ServiceHandle } from '../../src-main/service.ts';
import { openDatabase } from '../../src-main/store/database.ts';
import { importInto, replayDataOf, TRX_DEPTH_IMPORT, TRX_TRADES_IMPORT } from './harness.ts';
import { WsTestClient } from './ws-client.ts';

const START = 1744588804000; // TRXUSDT recording, 00:00:04: its prints begin at 00:00:04.438
let db: DatabaseSync;
let replay: ServiceHandle;

beforeAll(async () => {
  db = openDatabase({ dataDir: ':memory:' });
  const ds = await importInto(db, [TRX_DEPTH_IMPORT, TRX_TRADES_IMPORT]);
  replay = await startService({
    dataDir: ':memory:',
    rateLimit: false,
    replay: { options: { symbols: ['TRXUSDT'], start: START }, data: replayDataOf(ds), lockstep: true },
  });
});
afterAll(async () => {
  await replay?.close();
  db?.close();
});

it('each step of at least a market second answers after a price@ push of the mark it reached', async () => {
  const c = new WsTestClient(replay.url);
  await c.open();
  expect((await c.send('SUBSCRIBE', ['price@TRXUSDT'])).result).toBeNull();
  for (let i = 1; i <= 6; i++) {
    c.pushes = [];
    const answer = await c.send('REPLAY', { action: 'step', ms: 1500 });
    const time = answer.result.time;
    expect(time).toBe(START + 1500 * i);
    const p = (await replay.app.inject({ method: 'GET', url: '/fapi/v1/complete_price?symbol=TRXUSDT' })).json().data;
    // pushed before the answer, stamped with the step's time, with the mark, index and last price then
    const pushed = c.pushes.filter((x) => x.stream === 'price@TRXUSDT' && x.data.E === time);
    expect(
      pushed.map((x) => [x.data.m, x.data.i, x.data.l]),
      `step ${i}`,
    ).toEqual([[p.mark_price, p.index_price, p.last_price]]);
  }
  await c.close();
});
