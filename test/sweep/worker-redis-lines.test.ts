// What a queue worker says when its Redis goes away and comes back without its data (docs/sweeps.md,
// Many machines): `redis at URL: ...; retrying` once and `redis at URL is back` once, as the
// coordinator says them (it printed BullMQ's `connect ECONNREFUSED ...` once and nothing when Redis
// came back); a job whose record the restart lost is told in words, once (it printed BullMQ's raw
// `its start not told (Missing key for job ID. updateProgress)`, and `was no longer this worker's`
// twice a job). A real redis-server without persistence, restarted on the same port, and a real
// `npm run sweep:worker`.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPack, type PackRef } from '../../src-main/sweep/pack.ts';
import { QueueRunner } from '../../src-main/sweep/queue.ts';
import { startCli } from './cli-helpers.ts';
import { DAY, JAN6, klinesDataDir, testJob } from './fixture.ts';
import { freePort, HAS_REDIS, startRedis, stop, until } from './redis-helpers.ts';

describe.skipIf(!HAS_REDIS)('a queue worker whose Redis restarts without its data', () => {
  let redis: ChildProcess | undefined;
  let worker: ChildProcess | undefined;
  let port = 0;
  let url = '';
  let redisDir = '';
  let ref: PackRef;

  beforeAll(async () => {
    const dir = await klinesDataDir();
    const pack = await buildPack(dir, ['BTCUSDT'], path.join(dir, 'pack.db'));
    ref = { path: path.join(dir, 'pack.db'), sha256: pack.sha256 };
    port = Number(process.env.PERPDESK_TEST_REDIS_PORT ?? 0) || (await freePort());
    url = `redis://127.0.0.1:${port}`;
    redisDir = mkdtempSync(path.join(tmpdir(), 'perpdesk-redis-'));
    redis = await startRedis(port, redisDir);
  }, 60_000);

  afterAll(async () => {
    await stop(worker);
    await stop(redis);
  });

  it('says Redis is away and back once each, and each lost job once, in words', async () => {
    const cli = startCli(['worker', '--queue', url, '--concurrency', '1', '--stall-ms', '60000']);
    worker = cli.child;
    let err = '';
    worker.stderr!.on('data', (b: Buffer) => (err += b.toString()));
    const log = () => cli.stdout() + err;
    await until('the worker to take jobs', () => log().includes('taking jobs'));
    // two hanging bots: one runs, the other is held, its venue started ahead, its bot not yet spawned
    const jobs = [0, 1].map((i) =>
      testJob({
        id: `swRL:${i}`,
        sweepId: 'swRL',
        index: i,
        until: JAN6 + DAY / 8,
        params: { mode: 'hang' },
        timeoutMs: 15_000,
      }),
    );
    const runner = await QueueRunner.connect(url);
    void runner.run(jobs, ref, { onResult: () => undefined });
    await until('one job started, the other held', () => /started/.test(log()) && /started ahead/.test(log()));
    // no coordinator to add the lost jobs again: this worker's two are all there is
    await runner.stop();
    await stop(redis);
    await until('the worker to see Redis gone', () => /ECONNREFUSED/.test(log()));
    redis = await startRedis(port, redisDir);
    await until('the worker to see Redis back', () => / is back/.test(log()));
    // the running job ends (its time bound), the held one's bot starts and ends
    await until('both jobs to end', () => new Set(log().match(/job swRL-\d was no longer/g)).size === 2);
    await stop(worker);
    const out = log();
    const shown = `redis://127.0.0.1:${port}`;
    expect(out.match(/ECONNREFUSED/g), out).toHaveLength(1);
    expect(out).toMatch(
      new RegExp(`perpdesk sweep worker: redis at ${shown}: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}; retrying`),
    );
    expect(out.match(/ is back/g), out).toHaveLength(1);
    expect(out).toContain(`perpdesk sweep worker: redis at ${shown} is back`);
    // the held job's start: what happened and what comes next, not BullMQ's words
    expect(out).not.toMatch(/Missing key/);
    const lost = [...out.matchAll(/job (swRL-\d) is no longer in Redis \(its record was lost: Redis restarted/g)];
    expect(lost, out).toHaveLength(1);
    expect(out).toMatch(/its outcome will be dropped; the sweep's coordinator adds the job again/);
    // each job's end told once
    for (const id of ['swRL-0', 'swRL-1'])
      expect(out.match(new RegExp(`job ${id} was no longer this worker's`, 'g')), out).toHaveLength(1);
  }, 180_000);

  it('with --concurrency 2, says Redis is away and back once for both processes', async () => {
    const cli = startCli(['worker', '--queue', url, '--concurrency', '2', '--stall-ms', '60000']);
    worker = cli.child;
    const log = cli.stdout;
    await until('both processes to take jobs', () => (log().match(/taking jobs/g) ?? []).length === 2);
    const pids = [...log().matchAll(/perpdesk sweep worker (\d+): taking jobs/g)].map((m) => m[1]);
    await stop(redis);
    await until('the workers to see Redis gone', () => /ECONNREFUSED/.test(log()));
    redis = await startRedis(port, redisDir);
    await until('the workers to see Redis back', () => / is back/.test(log()));
    // both processes connected again (their connections carry their pid): each has seen it back
    const client = new Redis({ host: '127.0.0.1', port });
    let names = '';
    try {
      await until(
        'both processes to reconnect',
        () => pids.every((pid) => names.includes(`-${pid} `)),
        90_000,
        async () => {
          names = String(await client.client('LIST'));
        },
      );
    } finally {
      client.disconnect();
    }
    await stop(worker);
    const out = log();
    // each process said both lines: they came twice
    expect(out.match(/ECONNREFUSED/g), out).toHaveLength(1);
    expect(out.match(/ is back/g), out).toHaveLength(1);
  }, 180_000);
});
