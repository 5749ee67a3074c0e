// A queue worker that cannot get a sweep's dataset pack (docs/sweeps.md, The data): it gives each
// job back unrun (no attempt spent) and waits before taking another, so a worker that has the pack
// runs the whole sweep, every job ok; it says once what it lacks and how to give it the data, and
// the coordinator hears why the jobs wait. It used to burn each job's 3 attempts a second apart
// and leave most of the sweep `error` jobs.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobResult, SweepJob } from '../../src-main/sweep/job.ts';
import { buildPack, type PackRef } from '../../src-main/sweep/pack.ts';
import { PackCache } from '../../src-main/sweep/pack-cache.ts';
import { QueueRunner } from '../../src-main/sweep/queue.ts';
import { startCli } from './cli-helpers.ts';
import { DAY, JAN6, klinesDataDir, testJob } from './fixture.ts';
import { freePort, HAS_REDIS, startRedis, stop, until } from './redis-helpers.ts';

describe.skipIf(!HAS_REDIS)('a queue worker without the dataset pack', () => {
  let redis: ChildProcess;
  const workers: Array<{ proc: ChildProcess; log: string }> = [];
  let url: string;
  /** The pack as the coordinator names it: at a path no worker has. */
  let ref: PackRef;
  let haveCache: string;

  beforeAll(async () => {
    const dir = await klinesDataDir();
    const pack = await buildPack(dir, ['BTCUSDT'], path.join(dir, 'pack.db'));
    ref = { path: path.join(dir, 'elsewhere', 'data.db'), sha256: pack.sha256 };
    // the able worker has it in its cache
    haveCache = mkdtempSync(path.join(tmpdir(), 'perpdesk-cache-'));
    PackCache.seed(haveCache, pack);
    const port = await freePort();
    url = `redis://127.0.0.1:${port}`;
    redis = await startRedis(port, mkdtempSync(path.join(tmpdir(), 'perpdesk-redis-')));
  }, 60_000);

  afterAll(async () => {
    await Promise.all(workers.map((w) => stop(w.proc)));
    await stop(redis);
  });

  async function startWorker(cacheDir: string) {
    const args = ['worker', '--queue', url, '--concurrency', '1', '--cache-dir', cacheDir];
    const w = { proc: startCli(args).child, log: '' };
    w.proc.stdout!.on('data', (b: Buffer) => (w.log += b.toString()));
    w.proc.stderr!.on('data', (b: Buffer) => (w.log += b.toString()));
    workers.push(w);
    await until('the worker to take jobs', () => w.log.includes('taking jobs'));
    return w;
  }

  const jobs = (sweepId: string, n: number): SweepJob[] =>
    Array.from({ length: n }, (_, i) =>
      testJob({
        id: `${sweepId}:${i}`,
        sweepId,
        index: i,
        start: JAN6 + (i * DAY) / 8,
        until: JAN6 + ((i + 1) * DAY) / 8,
        params: { mode: 'trade' },
      }),
    );

  it('gives its jobs back unrun, says once what it lacks, and the coordinator hears it; no job is an error', async () => {
    const lacking = await startWorker(mkdtempSync(path.join(tmpdir(), 'perpdesk-cache-')));
    // alone, it can run nothing: its jobs wait, the coordinator told why
    const runner = await QueueRunner.connect(url);
    const results = new Map<number, JobResult>();
    const givenBack: string[] = [];
    const running = runner.run(jobs('swNP', 4), ref, {
      onResult: (j, r) => results.set(j.index, r),
      onGivenBack: (_, why) => givenBack.push(why),
    });
    // its tries spend no attempt: after more than 3 tries' time, no job has a result (an error)
    await new Promise((r) => setTimeout(r, 6000));
    expect([...results.values()].map((r) => r.reason)).toEqual([]);
    expect(givenBack[0]).toMatch(/^worker \S+-\d+: the dataset pack \w{12} is neither at .*elsewhere/);
    // a worker with the pack comes: it runs them all
    await startWorker(haveCache);
    await running;
    await runner.stop();
    expect([...results.keys()].sort()).toEqual([0, 1, 2, 3]);
    for (const r of results.values()) expect(r.status, r.reason).toBe('ok');
    // said once, with what to do
    expect(lacking.log.match(/cannot get the dataset pack/g), lacking.log).toHaveLength(1);
    expect(lacking.log).toMatch(/--pack-url http:\/\/HOST:PORT/);
    expect(lacking.log).not.toMatch(/could not run/);
  }, 180_000);
});

// `--concurrency N` runs N worker processes under one (sweep-cli.ts): each lacked the pack and each
// said so, N times the same advice. The supervising process now says it once per pack.
describe.skipIf(!HAS_REDIS)('a queue worker of --concurrency 3 without the dataset pack', () => {
  let redis: ChildProcess;
  let worker: ChildProcess | undefined;
  let url: string;
  let ref: PackRef;

  beforeAll(async () => {
    const dir = await klinesDataDir();
    const pack = await buildPack(dir, ['BTCUSDT'], path.join(dir, 'pack.db'));
    ref = { path: path.join(dir, 'elsewhere', 'data.db'), sha256: pack.sha256 };
    const port = await freePort();
    url = `redis://127.0.0.1:${port}`;
    redis = await startRedis(port, mkdtempSync(path.join(tmpdir(), 'perpdesk-redis-')));
  }, 60_000);

  afterAll(async () => {
    await stop(worker);
    await stop(redis);
  });

  it('says once what it lacks, though each of its 3 processes gave jobs back', async () => {
    const cacheDir = mkdtempSync(path.join(tmpdir(), 'perpdesk-cache-'));
    const cli = startCli(['worker', '--queue', url, '--concurrency', '3', '--cache-dir', cacheDir]);
    worker = cli.child;
    let log = '';
    worker.stderr!.on('data', (b: Buffer) => (log += b.toString()));
    const out = () => cli.stdout() + log;
    await until('its 3 processes to take jobs', () => out().match(/taking jobs/g)?.length === 3);
    const runner = await QueueRunner.connect(url);
    const lackers = new Set<string>();
    const jobs = Array.from({ length: 6 }, (_, i) =>
      testJob({ id: `swNP3:${i}`, sweepId: 'swNP3', index: i, start: JAN6, until: JAN6 + DAY / 8, params: {} }),
    );
    const running = runner.run(jobs, ref, { onResult: () => undefined, onGivenBack: (_, why) => lackers.add(why) });
    // every one of its processes met the lack (the coordinator hears each by its pid)
    await until('jobs given back by 3 processes', () => lackers.size === 3);
    await new Promise((r) => setTimeout(r, 500));
    await runner.stop();
    await running.catch(() => undefined);
    expect(out().match(/cannot get the dataset pack/g), out()).toHaveLength(1);
    expect(out()).toMatch(/--pack-url http:\/\/HOST:PORT/);
  }, 180_000);
});
