// The replay's WebSocket side (docs/replay.md, Bots and determinism): the `replay` stream, the
// REPLAY method's input rules, the lockstep hold (one client at a time, let go on release or
// disconnect), and the live venue's answers.
import type { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type ServiceHandle } from '../../src-main/service.ts';
import { openDatabase } from '../../src-main/store/database.ts';
import { importInto, replayDataOf, TRX_DEPTH_IMPORT } from './harness.ts';
import { WsTestClient } from './ws-client.ts';

const SNAPSHOT_TIME = 1744588800061;
let db: DatabaseSync;
let ds: Awaited<ReturnType<typeof importInto>>;
let replay: ServiceHandle;
let live: ServiceHandle;

beforeAll(async () => {
  db = openDatabase({ dataDir: ':memory:' });
  ds = await importInto(db, [TRX_DEPTH_IMPORT]);
  replay = await startService({
    dataDir: ':memory:',
    rateLimit: false,
    replay: { options: { symbols: ['TRXUSDT'], start: SNAPSHOT_TIME + 1000 }, data: replayDataOf(ds), lockstep: true },
  });
  live = await startService({ dataDir: ':memory:', simulate: false, rateLimit: false });
});
afterAll(async () => {
  await replay?.close();
  await live?.close();
  db?.close();
});

describe('replay over the WebSocket', () => {
  it('REPLAY refuses bad params by name; the replay stream pushes the status', async () => {
    const c = new WsTestClient(replay.url);
    await c.open();
    for (const [params, code, msg] of [
      [undefined, 1000, /REPLAY takes/],
      [{ ms: 5 }, 1002, /action/],
      [{ action: 'step' }, 1002, /needs 'ms'/],
      [{ action: 'step', ms: '5' }, 1001, /'ms' must be a number/],
      [{ action: 'step', ms: 0 }, 1001, /ms must be an integer from 1/],
      [{ action: 'pause', time: 5 }, 1001, /'time' goes with action 'seek'/],
      [{ action: 'release', ms: 5 }, 1001, /'ms' goes with action 'step', not 'release'/],
      [{ action: 'rewind' }, 1001, /action must be/],
      [{ action: 'step', ms: 5, extra: 1 }, 1003, /extra/],
      [{ action: 'seek', time: SNAPSHOT_TIME }, 1001, /forward only/],
    ] as const) {
      const a = await c.send('REPLAY', params);
      expect(a.error, JSON.stringify(params)).toMatchObject({ code });
      expect(a.error.message).toMatch(msg);
    }
    expect(replay.venue.replay!.status().held).toBe(false);
    expect((await c.send('SUBSCRIBE', ['replay'])).result).toBeNull();
    await new Promise((r) => setTimeout(r, 50));
    expect(c.pushes.at(-1)).toMatchObject({
      stream: 'replay',
      data: { symbols: ['TRXUSDT'], lockstep: true, held: false },
    });
    await c.close();
  });

  it('a step holds the clock for its client until release or disconnect', async () => {
    const a = new WsTestClient(replay.url);
    const b = new WsTestClient(replay.url);
    await Promise.all([a.open(), b.open()]);
    const t0 = replay.venue.replay!.status().time;
    const s1 = await a.send('REPLAY', [{ action: 'step', ms: 200 }]);
    expect(s1.result).toMatchObject({ time: t0 + 200, held: true });
    // another client, and REST, may not move it while a holds it
    expect((await b.send('REPLAY', { action: 'step', ms: 10 })).error.code).toBe(2104);
    const rest = await fetch(`${replay.url}/api/v1/replay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'play' }),
    });
    expect(((await rest.json()) as any).code).toBe(2104);
    // pausing and the speed are not moves
    expect((await b.send('REPLAY', { action: 'speed', speed: 5 })).result.speed).toBe(5);
    expect((await a.send('REPLAY', { action: 'release' })).result.held).toBe(false);
    expect((await b.send('REPLAY', { action: 'step', ms: 10 })).result).toMatchObject({ time: t0 + 210, held: true });
    await b.close();
    await new Promise((r) => setTimeout(r, 50));
    expect(replay.venue.replay!.status()).toMatchObject({ held: false, paused: true, time: t0 + 210 });
    expect((await a.send('REPLAY', { action: 'step', ms: 10 })).result.time).toBe(t0 + 220);
    await a.send('REPLAY', { action: 'release' });
    await a.close();
  });

  it('play by the client holding the clock hands it back and runs the history (it said playing and stood still)', async () => {
    const own = await startService({
      dataDir: ':memory:',
      rateLimit: false,
      replay: {
        options: { symbols: ['TRXUSDT'], start: SNAPSHOT_TIME + 1000 },
        data: replayDataOf(ds),
        lockstep: true,
      },
    });
    const a = new WsTestClient(own.url);
    const b = new WsTestClient(own.url);
    try {
      await Promise.all([a.open(), b.open()]);
      const t0 = own.venue.replay!.status().time;
      expect((await a.send('REPLAY', { action: 'step', ms: 100 })).result).toMatchObject({
        time: t0 + 100,
        held: true,
      });
      expect((await a.send('REPLAY', { action: 'play' })).result).toMatchObject({ held: false, paused: false });
      const w0 = Date.now();
      while (!own.venue.replay!.status().finished && Date.now() - w0 < 10_000)
        await new Promise((r) => setTimeout(r, 20));
      const after = own.venue.replay!.status();
      expect(after).toMatchObject({ finished: true, time: after.until, held: false });
      // nobody holds it now: another client may move it
      expect((await b.send('REPLAY', { action: 'pause' })).result).toMatchObject({ paused: true, held: false });
    } finally {
      await a.close();
      await b.close();
      await own.close();
    }
  });

  it('in lockstep with nobody holding it, play runs the history as fast as it can, to the end', async () => {
    const post = async (body: unknown) =>
      (
        (await (
          await fetch(`${replay.url}/api/v1/replay`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          })
        ).json()) as any
      ).data;
    const before = replay.venue.replay!.status();
    expect(before.finished).toBe(false);
    expect(await post({ action: 'play' })).toMatchObject({ paused: false, held: false });
    const t0 = Date.now();
    while (!replay.venue.replay!.status().finished && Date.now() - t0 < 10_000)
      await new Promise((r) => setTimeout(r, 20));
    const after = replay.venue.replay!.status();
    // ~20 s of history in well under the 20 s a speed-1 clock would take
    expect(after).toMatchObject({ finished: true, time: after.until });
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(after.events).toBeGreaterThan(before.events);
    expect(await post({ action: 'pause' })).toMatchObject({ paused: true });
  });

  it('on the live venue REPLAY and the replay stream answer 1108', async () => {
    const c = new WsTestClient(live.url);
    await c.open();
    expect((await c.send('REPLAY', { action: 'step', ms: 10 })).error.code).toBe(1108);
    expect((await c.send('SUBSCRIBE', ['replay'])).error.code).toBe(1108);
    await c.close();
  });
});
