// A replay hosted by the live venue reads its datasets from the live venue's database a page at
// a time, each page's query run to its end: no read transaction is left open between its turns.
// One was (an iterate() per dataset, open for the whole replay), and it kept the checkpointer's
// RESTART waiting with the write lock taken: every write of the live venue waited behind it,
// imports and spec edits failed 5000, the simulator's steps "database is locked", and the WAL grew
// for as long as the replay read (an L2 replay; reported in Chromium, 2026-12-06).
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startService, type ServiceHandle } from '../../src-main/service.ts';
import { tempDir } from '../data/archive-fixtures.ts';
import { LASOTA } from './harness.ts';

const SNAPSHOT_TIME = 1744588800061;
let live: ServiceHandle;
let dir: string;

async function call(base: string, method: string, url: string, body?: unknown) {
  const r = await fetch(base + url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await r.json()) as { code: number; data: any; message: string };
}

beforeAll(async () => {
  dir = tempDir('perpdesk-replay-snapshot-');
  live = await startService({ dataDir: dir, simulate: false, rateLimit: false });
  const imported = await call(live.url, 'POST', '/api/v1/datasets/import', {
    paths: [
      path.join(LASOTA, 'rest_depth_snapshot.csv'),
      path.join(LASOTA, 'diff_depth_stream.csv'),
      path.join(LASOTA, 'trade_stream.csv'),
    ],
    market: 'um',
    symbol: 'TRXUSDT',
  });
  expect(imported.data.results.every((r: { ok: boolean }) => r.ok)).toBe(true);
});
afterAll(() => live?.close());

it('an L2 replay partway through its data leaves no read open: a RESTART checkpoint completes at once', async () => {
  const started = await call(live.url, 'POST', '/api/v1/replays', {
    symbols: ['TRXUSDT'],
    start: SNAPSHOT_TIME + 1000,
    lockstep: true,
  });
  expect(started.code, started.message).toBe(0);
  // partway: the depth and trade readers have read some rows and have more to give
  const stepped = await call(started.data.url, 'POST', '/api/v1/replay', { action: 'step', ms: 8000 });
  expect(stepped.data.finished).toBe(false);
  expect(stepped.data.events).toBeGreaterThan(0);
  await new Promise((r) => setTimeout(r, 50));
  const other = new DatabaseSync(path.join(dir, 'perpdesk.db'));
  try {
    other.exec('PRAGMA busy_timeout = 0');
    // busy 1: a reader of this connection's snapshot (or the write lock) kept it from completing.
    // The live venue's own writes and checkpoints take the write lock for moments: a read left
    // open keeps every try busy, a moment's lock only some, so the checkpoint is tried again
    // (up to 40 times, 50 ms apart) until one completes
    const restart = other.prepare('PRAGMA wal_checkpoint(RESTART)');
    let busy = 1;
    for (let i = 0; i < 40 && busy !== 0; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 50));
      busy = (restart.all() as { busy: number }[])[0].busy;
    }
    expect(busy).toBe(0);
  } finally {
    other.close();
  }
  // and the live venue writes: a dataset's specs edited while the replay is open
  const list = await call(live.url, 'GET', '/api/v1/datasets');
  const edit = await call(live.url, 'PUT', `/api/v1/datasets/${list.data[0].id}/specs`, {
    tick_size: '0.00001',
    step_size: '1',
  });
  expect(edit.code, edit.message).toBe(0);
  // the replay reads on from where it was
  const more = await call(started.data.url, 'POST', '/api/v1/replay', { action: 'step', ms: 5000 });
  expect(more.data.events).toBeGreaterThan(stepped.data.events);
  await call(live.url, 'DELETE', `/api/v1/replays/${started.data.id}`);
});
