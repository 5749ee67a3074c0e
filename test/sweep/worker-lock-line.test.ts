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
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { lockHolder, WorkerLines } from '../../src-main/sweep/worker-lines.ts';
import { freePort, HAS_REDIS, startRedis, stop } from './redis-helpers.ts';

const LOCK_LINE =
  "perpdesk sweep worker: job sw1-3 is no longer this worker's (its lock could not be renewed: Redis lost " +
  'the job, restarted without persistence, or the lock lapsed while this worker was paused or cut off from ' +
  "Redis, or its sweep was removed): its bot runs on here, but its outcome will be dropped; the run that counts is the one the sweep's " +
  'coordinator adds again (within seconds, or at its --resume) or another worker holds';

const head = "perpdesk sweep worker: job sw1-3 is no longer this worker's (its lock could not be renewed: ";
const dropped = 'its bot runs on here, but its outcome will be dropped';
const again = "the sweep's coordinator adds the job again (within seconds, or at its --resume) and that run counts";
const TAKEN_OVER =
  `${head}its lock (1 s) ran out: this worker did not renew it in time, its process paused or its event loop held up, ` +
  `and a stalled-job check gave the job to another worker): ${dropped}; another worker took the job over, and that worker's run counts`;

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
    const lines = new WorkerLines(`redis://127.0.0.1:${port}`, (l) => out.push(l), {
      inspect: lockHolder(queue),
      lockMs: 1000,
    });
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
    worker.on('active', (job) => lines.taken(job.id));
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
      // it listed every cause (LOCK_LINE) where Redis shows which: another worker's token holds the lock
      await vi.waitFor(() => expect(out).toHaveLength(1));
      expect(out).toEqual([TAKEN_OVER]);
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

  describe('names what happened, read from Redis and from what the worker saw', () => {
    afterEach(() => vi.useRealTimers());
    const T0 = Date.UTC(2026, 11, 7, 12);
    const renewFailed = new Error('could not renew lock for job sw1-3');

    /** The line of a renewal that failed after `before` (on a queue where `setup` left the job and its lock). */
    async function lineAfter(
      setup: (q: Queue, c: Redis) => Promise<void>,
      before: (l: WorkerLines) => void,
      after = () => {},
    ) {
      const queue = new Queue(`wlock-${Math.random().toString(36).slice(2)}`, {
        connection: { host: '127.0.0.1', port, maxRetriesPerRequest: null },
      });
      const client = new Redis({ host: '127.0.0.1', port });
      try {
        await setup(queue, client);
        vi.useFakeTimers({ toFake: ['Date'], now: T0 });
        const out: string[] = [];
        const lines = new WorkerLines(`redis://127.0.0.1:${port}`, (l) => out.push(l), {
          inspect: lockHolder(queue),
          lockMs: 10_000,
        });
        lines.runId(Promise.resolve('run-1'));
        await Promise.resolve();
        lines.taken('sw1-3');
        before(lines);
        await new Promise((r) => setImmediate(r));
        lines.error(renewFailed);
        lines.error(renewFailed);
        after();
        await vi.waitFor(() => expect(out.filter((l) => l.includes('no longer this'))).toHaveLength(1));
        await new Promise((r) => setImmediate(r));
        return out;
      } finally {
        await queue.close();
        client.disconnect();
      }
    }
    const added = async (q: Queue) => void (await q.add('job', {}, { jobId: 'sw1-3' }));

    it('a lock that ran out with no worker holding it now', async () => {
      expect(await lineAfter(added, () => {})).toEqual([
        `${head}its lock (10 s) ran out: this worker did not renew it in time, its process paused or its event loop ` +
          `held up, and no worker holds it now): ${dropped}; a stalled-job check gives the job to a worker again ` +
          '(this one or another), and that run counts',
      ]);
    });

    it('a job Redis no longer holds', async () => {
      expect(
        await lineAfter(
          async () => {},
          () => {},
        ),
      ).toEqual([
        `${head}Redis no longer holds the job: its sweep was removed, or Redis lost it): ${dropped}; ${again}`,
      ]);
    });

    it('this worker cut off from Redis longer than half its lock, the lock now another worker’s', async () => {
      const out = await lineAfter(
        async (q, c) => {
          await added(q);
          await c.set(`${q.toKey('sw1-3')}:lock`, 'another-workers-token');
        },
        (lines) => {
          vi.setSystemTime(T0 + 1000);
          lines.error(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }));
          vi.setSystemTime(T0 + 13_000);
          lines.ready();
        },
      );
      expect(out).toEqual([
        `perpdesk sweep worker: redis at redis://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:1; retrying`,
        `perpdesk sweep worker: redis at redis://127.0.0.1:${port} is back`,
        `${head}this worker could not reach Redis for 12 s, and its lock (10 s) ran out meanwhile): ${dropped}; ` +
          "another worker took the job over, and that worker's run counts",
      ]);
    });

    it('a Redis restarted while the job ran (its run_id changed)', async () => {
      const out = await lineAfter(added, (lines) => lines.runId(Promise.resolve('run-2')));
      expect(out).toEqual([
        `${head}Redis restarted while it ran (its run_id changed), and a Redis without persistence loses its jobs' ` +
          `locks): ${dropped}; ${again} (appendonly yes on the sweep's Redis loses nothing)`,
      ]);
    });

    it('a Redis restart whose run_id is read after the renewal failed (the read at the reconnect)', async () => {
      let answer: (runId: string) => void = () => {};
      const out = await lineAfter(
        added,
        (lines) => lines.runId(new Promise((r) => (answer = r))),
        () => answer('run-2'),
      );
      // it named the outage or the lapsed lock, its end line then the restart
      expect(out[0]).toMatch(
        /^perpdesk sweep worker: job sw1-3 is no longer this worker's \(its lock could not be renewed: Redis restarted while it ran/,
      );
    });
  });
});
