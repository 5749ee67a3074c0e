// A queue worker starts its next job's venue ahead (docs/sweeps.md, Many machines), as the local
// pool's workers do: one worker process of concurrency 1 and two jobs queued; the second job's
// venue is started while the first job's bot still runs (the worker's log says so before the
// first job's result), the second job waits for the first to end before its bot starts (never two
// running at once), and both jobs give the digests of the same jobs run without a venue ahead.
// Near a sweep's end a worker does not keep a next job another worker is free for: two jobs on two
// workers run at the same time, one on each, even when one worker took both.
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
  const workers: Array<{ proc: ChildProcess; log: string }> = [];
  let url: string;
  let pack: PackRef;

  beforeAll(async () => {
    const dir = await klinesDataDir();
    pack = await buildPack(dir, ['BTCUSDT'], path.join(dir, 'pack.db'));
    const port = await freePort();
    url = `redis://127.0.0.1:${port}`;
    redis = await startRedis(port, mkdtempSync(path.join(tmpdir(), 'perpdesk-redis-')));
    await startWorker();
  }, 60_000);

  afterAll(async () => {
    await Promise.all(workers.map((w) => stop(w.proc)));
    await stop(redis);
  });

  async function startWorker(): Promise<void> {
    const w = { proc: startCli(['worker', '--queue', url, '--concurrency', '1']).child, log: '' };
    w.proc.stdout!.on('data', (b: Buffer) => (w.log += b.toString()));
    w.proc.stderr!.on('data', (b: Buffer) => (w.log += b.toString()));
    workers.push(w);
    await until('the worker to take jobs', () => w.log.includes('taking jobs'));
  }

  const jobsOf = (sweepId: string, params: (i: number) => SweepJob['params']): SweepJob[] =>
    [0, 1].map((i) =>
      testJob({
        id: `${sweepId}:${i}`,
        sweepId,
        index: i,
        start: JAN6 + (i * DAY) / 8,
        until: JAN6 + ((i + 1) * DAY) / 8,
        params: params(i),
      }),
    );

  async function run(jobs: SweepJob[]): Promise<{ results: Map<number, JobResult>; startedAt: Map<number, number> }> {
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
    return { results, startedAt };
  }

  it("starts the second job's venue while the first job's bot runs, with the same digests", async () => {
    // the first bot waits a little before each of its 3 steps: a window the second venue's start fits in
    const slowFirst = (i: number): SweepJob['params'] =>
      i === 0 ? { mode: 'slow', sleep_ms: 300 } : { mode: 'trade' };
    const jobs = jobsOf('swQA', slowFirst);
    const { results, startedAt } = await run(jobs);
    const log = workers[0].log;
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

  it('near the end, a worker gives its next job back for a free worker: two jobs on two workers run at once', async () => {
    await startWorker();
    for (const w of workers) w.log = '';
    const { results, startedAt } = await run(jobsOf('swQB', () => ({ mode: 'slow', sleep_ms: 300 })));
    // each worker ran one job's bot, the two at the same time
    for (const w of workers) expect(w.log.match(/job swQB-\d started/g), w.log).toHaveLength(1);
    expect(Math.abs(startedAt.get(1)! - startedAt.get(0)!)).toBeLessThan(results.get(0)!.botMs / 2);
  }, 120_000);

  it('a worker stopped with SIGTERM gives its next job back and finishes its running one', async () => {
    while (workers.length < 2) await startWorker();
    for (const w of workers) w.log = '';
    // four jobs for two workers: each holds a next one; the first to start a venue ahead is stopped
    const jobs = [0, 1, 2, 3].map((i) =>
      testJob({
        id: `swQC:${i}`,
        sweepId: 'swQC',
        index: i,
        start: JAN6 + (i * DAY) / 8,
        until: JAN6 + ((i + 1) * DAY) / 8,
        params: { mode: 'slow', sleep_ms: 400 },
      }),
    );
    const runner = await QueueRunner.connect(url);
    const results = new Map<number, JobResult>();
    const done = runner.run(jobs, pack, { onResult: (j, r) => results.set(j.index, r) });
    let victim: (typeof workers)[number] | undefined;
    await until(
      'a venue started ahead',
      () => (victim = workers.find((w) => /venue started ahead/.test(w.log))) !== undefined,
    );
    const next = /job (swQC-\d): its venue started ahead/.exec(victim!.log)![1];
    const running = /job (swQC-\d) started/.exec(victim!.log)![1];
    const exited = new Promise((r) => victim!.proc.once('exit', r));
    victim!.proc.kill('SIGTERM');
    try {
      await done;
    } finally {
      await runner.stop();
    }
    await exited;
    expect(victim!.log).toContain(`job ${next} given back: the worker stops`);
    expect(victim!.log).toContain(`job ${running} ok`);
    expect(victim!.log).not.toContain(`job ${next} started`);
    // every job has its one result, the one given back run by the other worker
    expect([...results.keys()].sort()).toEqual([0, 1, 2, 3]);
    for (const r of results.values()) expect(r.status, r.reason).toBe('ok');
    const other = workers.find((w) => w !== victim)!;
    expect(other.log).toContain(`job ${next} started`);
  }, 120_000);
});
