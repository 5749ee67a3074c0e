// The local pool's workers start a job's venue ahead, while their previous job runs
// (src-main/sweep/pool.ts, worker-process.ts): the jobs after a worker's first begin with their
// venue ready, and a venue started ahead (or after the worker's warm-up) gives the same records as
// one started for its job. A job starts (onStart, the progress line's running count) with its bot.
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobResult, SweepJob } from '../../src-main/sweep/job.ts';
import { buildPack, openPack, type OpenPack, type PackRef } from '../../src-main/sweep/pack.ts';
import { LocalPool } from '../../src-main/sweep/pool.ts';
import { runJob } from '../../src-main/sweep/run-job.ts';
import { DAY, JAN6, klinesDataDir, testJob } from './fixture.ts';

let ref: PackRef;
let pack: OpenPack;

beforeAll(async () => {
  const dir = await klinesDataDir();
  ref = await buildPack(dir, ['BTCUSDT'], `${dir}/sweeps/pool/data.db`);
  pack = openPack(ref.path);
});
afterAll(() => pack?.close());

function job(index: number, params: SweepJob['params']): SweepJob {
  return testJob({
    id: `swP:${index}`,
    sweepId: 'swP',
    index,
    start: JAN6 + index * (DAY / 4),
    until: JAN6 + (index + 1) * (DAY / 4),
    params,
  });
}

/** Whether a process of this job's bot is alive (its environment names the job). */
function botRuns(jobId: string): boolean {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .some((p) => {
      try {
        return readFileSync(`/proc/${p}/environ`, 'latin1').includes(`PERPDESK_JOB_ID=${jobId}\0`);
      } catch {
        return false; // gone meanwhile, or not ours to read
      }
    });
}

describe('the local pool', () => {
  it("starts a worker's next venue ahead, with the same records as a venue started for its job", async () => {
    const jobs = [job(0, { mode: 'trade' }), job(1, { mode: 'trade' }), job(2, { mode: 'trade', qty: '0.02' })];
    const got = new Map<string, JobResult>();
    const order: string[] = [];
    await new LocalPool(1).run(jobs, ref, {
      onStart: (j) => order.push(`start ${j.index}${botRuns(j.id) ? '' : ' before its bot'}`),
      onResult: (j, r) => {
        order.push(`result ${j.index}`);
        got.set(j.id, r);
      },
    });
    // one worker: each job starts when the previous one's result is in, whatever it was given ahead
    expect(order).toEqual(['start 0', 'result 0', 'start 1', 'result 1', 'start 2', 'result 2']);
    expect(jobs.map((j) => got.get(j.id)!.status)).toEqual(['ok', 'ok', 'ok']);
    expect(jobs.map((j) => got.get(j.id)!.venueAhead)).toEqual([false, true, true]);
    // the first job ran after its worker's warm-up, the others with their venue started ahead
    for (const j of jobs) {
      const alone = await runJob(j, { data: pack.data });
      expect(alone.venueAhead).toBe(false);
      expect(got.get(j.id)!.digest).toBe(alone.digest);
      expect(got.get(j.id)!.metrics).toEqual(alone.metrics);
    }
  }, 120_000);

  it('gives a worker no job ahead when the queue holds fewer than one a worker', async () => {
    const jobs = [job(0, { mode: 'env' }), job(1, { mode: 'env' })];
    const got: JobResult[] = [];
    await new LocalPool(2).run(jobs, ref, { onResult: (_j, r) => got.push(r) });
    expect(got.map((r) => r.status)).toEqual(['ok', 'ok']);
    expect(got.map((r) => r.venueAhead)).toEqual([false, false]);
  }, 60_000);

  it('forks its workers ahead with warm(): one killed while warming up is replaced, and unneeded ones go', async () => {
    const pool = new LocalPool(2);
    pool.warm();
    const [a, b] = pool.pids();
    process.kill(a, 'SIGKILL');
    for (let i = 0; i < 100 && pool.pids().includes(a); i++) await new Promise((r) => setTimeout(r, 50));
    expect(pool.pids()).toEqual([b]);
    const got: JobResult[] = [];
    const running = pool.run([job(0, { mode: 'env' }), job(1, { mode: 'env' })], ref, {
      onResult: (_j, r) => got.push(r),
    });
    // replaced as the run begins: two workers again
    expect(pool.pids()).toHaveLength(2);
    await running;
    expect(got.map((r) => r.status)).toEqual(['ok', 'ok']);
    // a run of one job on two warmed workers: the second is let go, the job runs
    const one = new LocalPool(2);
    one.warm();
    const pids = one.pids();
    const res: JobResult[] = [];
    await one.run([job(2, { mode: 'env' })], ref, { onResult: (_j, r) => res.push(r) });
    expect(res.map((r) => r.status)).toEqual(['ok']);
    expect(one.pids()).toEqual([]);
    for (const p of pids) expect(() => process.kill(p, 0)).toThrow();
  }, 90_000);
});
