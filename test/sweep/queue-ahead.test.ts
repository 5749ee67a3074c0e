// A queue worker starts its next job's venue ahead (docs/sweeps.md, Many machines), as the local
// pool's workers do: one worker process of concurrency 1 and two jobs queued; the second job's
// venue is started while the first job's bot still runs (the worker's log says so before the
// first job's result), the second job waits for the first to end before its bot starts (never two
// running at once), and both jobs give the digests of the same jobs run without a venue ahead.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobResult, SweepJob } from '../../src-main/sweep/job.ts';
import { buildPack, openPack, type PackRef } from '../../src-main/sweep/pack.ts';
import { QueueRunner } from '../../src-main/sweep/queue.ts';
import { runJob } from '../../src-main/sweep/run-job.ts';
import { startCli } from './cli-helpers.ts';
import { DAY, JAN6, klinesDataDir, testJob } from './fixture.ts';
import { freePort, HAS_REDIS, startRedis, stop, until } from './redis-helpers.ts';

describe.skipIf(!HAS_REDIS)('a queue worker of concurrency 1 with two jobs queued', () => {
  let redis: ChildProcess;
  let worker: ChildProcess;
  let log = '';
  let url: string;
  let pack: PackRef;

  beforeAll(async () => {
    const dir = await klinesDataDir();
    pack = await buildPack(dir, ['BTCUSDT'], path.join(dir, 'pack.db'));
    const port = await freePort();
    url = `redis://127.0.0.1:${port}`;
    redis = await startRedis(port, mkdtempSync(path.join(tmpdir(), 'perpdesk-redis-')));
    worker = startCli(['worker', '--queue', url, '--concurrency', '1']).child;
    worker.stdout!.on('data', (b: Buffer) => (log += b.toString()));
    worker.stderr!.on('data', (b: Buffer) => (log += b.toString()));
    await until('the worker to take jobs', () => log.includes('taking jobs'));
  }, 60_000);

  afterAll(async () => {
    await stop(worker);
    await stop(redis);
  });

  it("starts the second job's venue while the first job's bot runs, with the same digests", async () => {
    // the first bot waits a little before each of its 3 steps: a window the second venue's start fits in
    const jobs: SweepJob[] = [0, 1].map((i) =>
      testJob({
        id: `swQA:${i}`,
        sweepId: 'swQA',
        index: i,
        start: JAN6 + (i * DAY) / 8,
        until: JAN6 + ((i + 1) * DAY) / 8,
        params: i === 0 ? { mode: 'slow', sleep_ms: 300 } : { mode: 'trade' },
      }),
    );
    const runner = await QueueRunner.connect(url);
    const results = new Map<number, JobResult>();
    const startedAt = new Map<number, number>();
    try {
      await runner.run(jobs, pack, {
        onStart: (j) => startedAt.set(j.index, performance.now()),
        onResult: (j, r) => results.set(j.index, r),
      });
    } finally {
      await runner.stop();
    }
    expect([...results.keys()].sort()).toEqual([0, 1]);
    for (const r of results.values()) expect(r.status, r.reason).toBe('ok');
    // the second job's venue was ready before the first job's result: started during its bot
    const ahead = log.indexOf('job swQA-1: its venue started ahead');
    const firstDone = log.indexOf('job swQA-0 ok');
    expect(ahead, log).toBeGreaterThanOrEqual(0);
    expect(firstDone, log).toBeGreaterThan(ahead);
    expect(results.get(1)!.venueAhead).toBe(true);
    expect(results.get(0)!.venueAhead).toBe(false);
    // a job waiting with its venue ready is not running yet: the coordinator hears of the second
    // job's start when its bot starts, after the first bot's run (over 0.9 s), not when it was taken
    expect([...startedAt.keys()].sort()).toEqual([0, 1]);
    expect(startedAt.get(1)! - startedAt.get(0)!).toBeGreaterThan(results.get(0)!.botMs / 2);
    // the same records as the same jobs run each with a venue started for it
    const open = openPack(pack.path);
    try {
      for (const j of jobs) {
        const alone = await runJob(j, { data: open.data });
        expect(alone.venueAhead).toBe(false);
        expect(results.get(j.index)!.digest, `job ${j.index}`).toBe(alone.digest);
        expect(results.get(j.index)!.metrics).toEqual(alone.metrics);
      }
    } finally {
      open.close();
    }
  }, 120_000);
});
