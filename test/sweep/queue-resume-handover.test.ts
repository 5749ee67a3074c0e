// A resume on a queue hands its --pack-url (and its build) to the jobs Redis holds already
// (docs/sweeps.md, Many machines: a sweep no worker can get the data of waits, "Ctrl-C and resume
// with --pack-url"). The jobs stay in Redis while no coordinator runs, and adding them again is a
// no-op (the same ids): the resume served the pack, but its jobs still said "no pack server", so
// the workers went on giving them back and the sweep never ended.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobResult, SweepJob } from '../../src-main/sweep/job.ts';
import { buildPack, type PackRef } from '../../src-main/sweep/pack.ts';
import { QUEUE, QueueRunner, queueJobId } from '../../src-main/sweep/queue.ts';
import type { QueueData } from '../../src-main/sweep/queue-jobs.ts';
import { startCli } from './cli-helpers.ts';
import { DAY, JAN6, klinesDataDir, testJob } from './fixture.ts';
import { freePort, HAS_REDIS, startRedis, stop } from './redis-helpers.ts';

describe.skipIf(!HAS_REDIS)('a queue sweep resumed with --pack-url', () => {
  let redis: ChildProcess;
  let worker: ChildProcess | undefined;
  let url: string;
  let port: number;
  let ref: PackRef;

  beforeAll(async () => {
    const dir = await klinesDataDir();
    const file = path.join(dir, 'pack.db');
    ref = { path: file, sha256: (await buildPack(dir, ['BTCUSDT'], file)).sha256 };
    port = await freePort();
    url = `redis://127.0.0.1:${port}`;
    redis = await startRedis(port, mkdtempSync(path.join(tmpdir(), 'perpdesk-redis-')));
  }, 60_000);

  afterAll(async () => {
    await stop(worker);
    await stop(redis);
  });

  it("hands the jobs Redis held the pack server's URL, and its workers run them", async () => {
    const jobs: SweepJob[] = Array.from({ length: 3 }, (_, i) =>
      testJob({ id: `swHO:${i}`, sweepId: 'swHO', index: i, start: JAN6, until: JAN6 + DAY / 8, params: {} }),
    );
    // the first run: its pack at a path no worker has, no pack server; stopped with its jobs queued
    const first = await QueueRunner.connect(url);
    const firstRun = first.run(
      jobs,
      { ...ref, path: path.join(path.dirname(ref.path), 'elsewhere', 'data.db') },
      {
        onResult: () => undefined,
      },
    );
    const queue = new Queue<QueueData>(QUEUE, { connection: { host: '127.0.0.1', port } });
    try {
      // no worker yet: the first run's jobs wait in Redis
      let waiting = 0;
      while (waiting < 3) {
        waiting = (await queue.getJobCounts('waiting')).waiting;
        if (waiting < 3) await new Promise((r) => setTimeout(r, 100));
      }
      await first.stop();
      await firstRun;
      // the resume serves the pack at --pack-url
      const packPort = await freePort();
      const resume = await QueueRunner.connect(url, { packUrl: `http://127.0.0.1:${packPort}` });
      const results = new Map<number, JobResult>();
      const givenBack: string[] = [];
      const running = resume.run(jobs, ref, {
        onResult: (j, r) => results.set(j.index, r),
        onGivenBack: (_, why) => givenBack.push(why),
      });
      // what its workers will read: the URL it serves, the path it wrote (before: the first run's)
      const handed = async () => {
        const got = await Promise.all(jobs.map((j) => queue.getJob(queueJobId(j))));
        return got.every((j) => j?.data.pack.url === `http://127.0.0.1:${packPort}/packs/${ref.sha256}.db`);
      };
      // polled until they do, a bound of 100 polls: before, they never did
      let ok = false;
      for (let i = 0; i < 100 && !ok; i++) {
        ok = await handed();
        if (!ok) await new Promise((r) => setTimeout(r, 100));
      }
      expect(ok, 'the queued jobs carry the URL the resume serves the pack at').toBe(true);
      const cacheDir = mkdtempSync(path.join(tmpdir(), 'perpdesk-cache-'));
      worker = startCli(['worker', '--queue', url, '--concurrency', '1', '--cache-dir', cacheDir]).child;
      await running;
      await resume.stop();
      expect(givenBack).toEqual([]);
      expect([...results.keys()].sort()).toEqual([0, 1, 2]);
      for (const r of results.values()) expect(r.status, r.reason).toBe('ok');
    } finally {
      await queue.close();
    }
  }, 180_000);
});
