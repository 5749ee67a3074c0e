// What a queue worker prints when it cannot renew the lock of a job it runs: after a Redis restart
// without persistence the coordinator adds the lost jobs again and another worker takes one this
// worker still runs (or its lock lapsed while the worker was paused): BullMQ reports `could not
// renew lock for job ID`, again at every renewal, and the worker printed that raw line. It now says
// what happened and what becomes of the job, once a job (docs/sweeps.md, Redis restarted). The
// error is BullMQ's own, made by a real Redis: a job running, its lock taken by another token.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { ErrorCode, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkerLines } from '../../src-main/sweep/worker-lines.ts';
import { freePort, HAS_REDIS, startRedis, stop } from './redis-helpers.ts';

const LOCK_LINE =
  "perpdesk sweep worker: job sw1-3 is no longer this worker's (its lock could not be renewed: Redis lost " +
  'the job, restarted without persistence, or the lock lapsed while this worker was paused or cut off from ' +
  "Redis, or its sweep was removed): its bot runs on here, but its outcome will be dropped; the run that counts is the one the sweep's " +
  'coordinator adds again (within seconds, or at its --resume) or another worker holds';

describe.skipIf(!HAS_REDIS)('a queue worker that cannot renew a running job’s lock', () => {
  let redis: ChildProcess | undefined;
  let dir = '';
  let port = 0;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'perpdesk-wlock-'));
    port = await freePort();
    redis = await startRedis(port, dir);
  });
  afterAll(async () => {
    await stop(redis);
    rmSync(dir, { recursive: true, force: true });
  });

  it("says once that the job is no longer the worker's, not BullMQ's `could not renew lock`", async () => {
    const connection = { host: '127.0.0.1', port, maxRetriesPerRequest: null };
    const queue = new Queue('wlock', { connection });
    const client = new Redis({ host: '127.0.0.1', port });
    const out: string[] = [];
    const lines = new WorkerLines(`redis://127.0.0.1:${port}`, (l) => out.push(l));
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    let started = () => {};
    const running = new Promise<void>((r) => (started = r));
    const worker = new Worker(
      'wlock',
      async () => {
        started();
        await held;
        return {};
      },
      { connection, lockDuration: 1000 },
    );
    const renewals: string[] = [];
    const twoFailures = new Promise<void>((resolve) =>
      worker.on('error', (err) => {
        lines.error(err);
        if (/could not renew lock/.test(err.message)) renewals.push(err.message);
        if (renewals.length === 2) resolve();
      }),
    );
    try {
      await queue.add('job', {}, { jobId: 'sw1-3' });
      await running;
      // the job added again after a Redis restart and taken by another worker: its lock is not ours
      await client.set('bull:wlock:sw1-3:lock', 'another-workers-token');
      await twoFailures;
      expect(renewals).toEqual(['could not renew lock for job sw1-3', 'could not renew lock for job sw1-3']);
      expect(out).toEqual([LOCK_LINE]);
    } finally {
      release();
      await worker.close();
      await queue.close();
      client.disconnect();
    }
  });

  it('says nothing more of a job already told lost at its start', () => {
    const out: string[] = [];
    const lines = new WorkerLines('redis://127.0.0.1:6379', (l) => out.push(l));
    lines.startNotTold(
      'sw1-4',
      Object.assign(new Error('Missing key for job sw1-4. updateProgress'), { code: ErrorCode.JobNotExist }),
    );
    lines.error(new Error('could not renew lock for job sw1-4'));
    lines.error(new Error('could not renew lock for job sw1-5'));
    expect(out).toHaveLength(2);
    expect(out[0]).toMatch(/^perpdesk sweep worker: job sw1-4 is no longer in Redis/);
    expect(out[1]).toBe(LOCK_LINE.replace('sw1-3', 'sw1-5'));
  });
});
