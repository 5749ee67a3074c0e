// The --queue URL's database (docs/sweeps.md, Many machines): a Redis without the database
// `redis://HOST:PORT/DB` names refuses the sweep and `sweep:worker` in one line (exit 2), and a
// connection whose SELECT fails is never used on database 0 (ioredis's own handshake went on there:
// the jobs of `/99` went to the workers of database 0).
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import IORedis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reachRedis, redisOptions } from '../../src-main/sweep/redis-url.ts';
import { SqliteSweepStore } from '../../src-main/sweep/sqlite-store.ts';
import { runCli } from './cli-helpers.ts';
import { freePort, HAS_REDIS, startRedis, stop } from './redis-helpers.ts';

describe.skipIf(!HAS_REDIS)("the --queue URL's database", () => {
  let redis: ChildProcess;
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `redis://127.0.0.1:${port}`;
    redis = await startRedis(port, mkdtempSync(path.join(tmpdir(), 'perpdesk-redis-')));
  });
  afterAll(() => stop(redis));

  it('one Redis does not have is refused for the sweep and for sweep:worker, one line, exit 2', async () => {
    await expect(reachRedis(`${base}/15`)).resolves.toMatchObject({ db: 15 });
    const dir = mkdtempSync(path.join(tmpdir(), 'perpdesk-sweep-db-'));
    const url = `${base}/99`;
    const [sweep, worker] = await Promise.all([
      runCli(['--data-dir', dir, '--bot', 'node x.ts', '--replay', 'BTCUSDT@2025-01-06..2025-01-06', '--queue', url]),
      runCli(['worker', '--queue', url, '--concurrency', '2']),
    ]);
    for (const r of [sweep, worker]) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toBe(
        `perpdesk sweep: --queue ${url}: Redis has no database 99 (ERR DB index is out of range)\n`,
      );
      expect(r.stdout).toBe('');
    }
    const s = new SqliteSweepStore(dir);
    expect(s.list()).toEqual([]);
    s.close();
  }, 30_000);

  it("a connection whose SELECT fails writes nothing to database 0 (the queue's connections)", async () => {
    const conn = new IORedis({ ...redisOptions(`${base}/99`), retryStrategy: () => null });
    conn.on('error', () => undefined);
    const wrote = await conn.set('perpdesk-db-test', 'x').then(
      () => 'written',
      (err: Error) => err.message,
    );
    conn.disconnect();
    const db0 = new IORedis(redisOptions(base));
    try {
      expect(await db0.exists('perpdesk-db-test')).toBe(0);
    } finally {
      db0.disconnect();
    }
    expect(wrote).not.toBe('written');
  });
});
