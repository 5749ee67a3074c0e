// A replay control is all or nothing (docs/replay.md "Session"): a step or seek whose history
// cannot be applied (here the datasets' database closed under the replay, as a store failing
// mid-session would) is answered 5000 naming the failure, and who holds the clock is as before it
// (the replay is then faulted for good, and stands paused: fault.test.ts). Before, the session took the hold and paused first, then failed: the
// REPLAY answer was an error while the asking connection held the clock (others got 2104), and a
// failed REST step or seek left a playing replay paused. A lockstep replay's free run that fails
// (on setImmediate, outside any request) threw out of the timer and ended the process; it now
// pauses the replay and logs.
import type { DatabaseSync } from 'node:sqlite';
import { afterEach, expect, it, vi } from 'vitest';
import type { ServiceHandle } from '../../src-main/service.ts';
import { trxDepthService } from './trx-depth-service.ts';
import { WsTestClient } from './ws-client.ts';

const open: Array<{ db: DatabaseSync; svc: ServiceHandle }> = [];

afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.svc.close();
    if (o.db.isOpen) o.db.close();
  }
  vi.restoreAllMocks();
});

/** A replay service of the TRXUSDT recording, and the database its datasets are read from. */
async function service(lockstep: boolean): Promise<{ db: DatabaseSync; svc: ServiceHandle }> {
  const o = await trxDepthService({ lockstep, speed: 0.1 });
  open.push(o);
  return o;
}

const post = async (url: string, body: unknown) => {
  const r = await fetch(`${url}/api/v1/replay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { http: r.status, body: (await r.json()) as any };
};

it('a REPLAY step that fails applying history leaves the clock unheld and answers 5000', async () => {
  const { db, svc } = await service(true);
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
  const session = svc.venue.replay!;
  const a = new WsTestClient(svc.url);
  const b = new WsTestClient(svc.url);
  await Promise.all([a.open(), b.open()]);
  const first = await a.send('REPLAY', { action: 'step', ms: 100 });
  expect(first.result).toMatchObject({ held: true });
  expect((await a.send('REPLAY', { action: 'release' })).result).toMatchObject({ held: false, paused: true });

  db.close();
  const before = session.status();
  const failed = await a.send('REPLAY', { action: 'step', ms: 20_000 });
  const after = session.status();
  expect(after).toMatchObject({ held: false, paused: true, lockstep: true, speed: before.speed });
  expect(failed.error.code).toBe(5000);
  expect(failed.error.message).toMatch(/^The replay's step failed applying its history \(.+\); the replay is faulted/);
  // another client may still take the clock (it got 2104 while the failed request held it)
  const other = await b.send('REPLAY', { action: 'pause' });
  expect(other.result).toMatchObject({ held: false });
  const otherStep = await b.send('REPLAY', { action: 'step', ms: 1 });
  expect(otherStep.error?.code).not.toBe(2104);
  expect(logged).toHaveBeenCalled();
  await Promise.all([a.close(), b.close()]);
});

it.each(['step', 'seek'] as const)(
  'a REST %s that fails applying history answers 5000 and stops a playing replay, faulted',
  async (what) => {
    const { db, svc } = await service(false);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const session = svc.venue.replay!;
    const s = session.status();
    expect(s).toMatchObject({ paused: false, lockstep: false, held: false });
    db.close();
    const r = await post(svc.url, what === 'step' ? { action: 'step', ms: 20_000 } : { action: 'seek', time: s.until });
    // faulted (fault.test.ts): it stops where history could not be read, the rest as before
    expect(session.status()).toMatchObject({ paused: true, lockstep: false, held: false, speed: s.speed });
    expect(session.status().fault).toMatchObject({ time: session.status().time });
    expect(r.http).toBe(500);
    expect(r.body).toMatchObject({ code: 5000 });
    expect(r.body.message).toMatch(new RegExp(`^The replay's ${what} failed applying its history`));
  },
);

it('a lockstep free run that fails applying history pauses the replay instead of ending the process', async () => {
  const { db, svc } = await service(true);
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
  const session = svc.venue.replay!;
  db.close();
  expect((await post(svc.url, { action: 'play' })).body.data).toMatchObject({ paused: false });
  const t0 = Date.now();
  while (!session.status().paused && Date.now() - t0 < 5000) await new Promise((r) => setTimeout(r, 20));
  expect(session.status()).toMatchObject({ paused: true, finished: false });
  expect(logged.mock.calls.some((c) => String(c[0]).includes('the replay stopped playing'))).toBe(true);
});
