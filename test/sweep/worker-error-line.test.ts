// What a queue worker prints when a job it ran is no longer its own as it ends (its lock lapsed
// while the worker was paused, the job taken by another worker): a sentence naming the job, not
// BullMQ's raw `Missing lock for job ID. moveToFinished` (docs/sweeps.md, queue workers). The
// error is BullMQ's own, made by a real Redis: a job taken, its lock gone, then completed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { ErrorCode, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkerLines, workerErrorLine } from '../../src-main/sweep/worker-lines.ts';
import { freePort, HAS_REDIS, startRedis, stop } from './redis-helpers.ts';

describe.skipIf(!HAS_REDIS)('a queue worker whose job was taken from it', () => {
  let redis: ChildProcess | undefined;
  let dir = '';
  let port = 0;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'perpdesk-werr-'));
    port = await freePort();
    redis = await startRedis(port, dir);
  });
  afterAll(async () => {
    await stop(redis);
    rmSync(dir, { recursive: true, force: true });
  });

  it("says the job was no longer the worker's, naming it, in place of BullMQ's message", async () => {
    const connection = { host: '127.0.0.1', port, maxRetriesPerRequest: null };
    const queue = new Queue('werr', { connection });
    const worker = new Worker('werr', null, { connection, autorun: false });
    const client = new Redis({ host: '127.0.0.1', port });
    try {
      await queue.add('job', {}, { jobId: 'sw1-3' });
      const job = await worker.getNextJob('token-a');
      expect(job?.id).toBe('sw1-3');
      // its lock lapses (a paused worker stops renewing it)
      await client.del('bull:werr:sw1-3:lock');
      const err = (await job!.moveToCompleted({}, 'token-a', false).then(
        () => null,
        (e: unknown) => e,
      )) as (Error & { code?: unknown }) | null;
      expect(err?.message).toMatch(/^Missing lock for job sw1-3\. moveToFinished/);
      expect(workerErrorLine(err!)).toBe(
        "perpdesk sweep worker: job sw1-3 was no longer this worker's when it ended (its lock lapsed while the " +
          'worker was paused or cut off from Redis; another worker runs it, or its sweep was removed): its outcome ' +
          'here is dropped',
      );
      // any other error: BullMQ's message as it is
      expect(workerErrorLine(new Error('Connection is closed.'))).toBe('perpdesk sweep worker: Connection is closed.');
    } finally {
      await worker.close();
      await queue.close();
      client.disconnect();
    }
  });
});

// A job Redis lost ends with two errors of BullMQ's (its completion, then its failure, each
// `Missing key for job ID. moveToFinished`), and other lines (a lock not renewed, another job's)
// come between them: the worker printed `was no longer this worker's` twice for one job.
describe('a queue worker told of the same lost job twice', () => {
  const missing = (id: string) =>
    Object.assign(new Error(`Missing key for job ${id}. moveToFinished`), { code: ErrorCode.JobNotExist });

  it('says it once a job, whatever came between', () => {
    const out: string[] = [];
    const lines = new WorkerLines('redis://127.0.0.1:6379', (l) => out.push(l));
    lines.error(missing('sw1-0'));
    lines.error(new Error('could not renew lock for job sw1-1'));
    lines.error(missing('sw1-1'));
    lines.error(missing('sw1-0'));
    lines.error(missing('sw1-1'));
    expect(out.filter((l) => l.includes("job sw1-0 was no longer this worker's"))).toHaveLength(1);
    expect(out.filter((l) => l.includes("job sw1-1 was no longer this worker's"))).toHaveLength(1);
    // what happened to it and what comes next, not BullMQ's words
    expect(out[0]).toBe(
      "perpdesk sweep worker: job sw1-0 was no longer this worker's when it ended (Redis no longer holds it: " +
        "restarted without persistence, or its sweep was removed; the sweep's coordinator adds it again): its " +
        'outcome here is dropped',
    );
  });
});
