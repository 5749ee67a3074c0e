// The sweep store on SQLite: a sweep and its planned jobs, each job's result stored once (a
// second report of a job, from a rerun, is refused and the first kept), the pending jobs a
// resume runs, and the summaries the routes list.
import { describe, expect, it } from 'vitest';
import type { JobResult, SweepJob } from '../../src-main/sweep/job.ts';
import type { SweepSpec } from '../../src-main/sweep/ports.ts';
import { SqliteSweepStore } from '../../src-main/sweep/sqlite-store.ts';

const job = (index: number): SweepJob =>
  ({
    id: `swA:${index}`,
    sweepId: 'swA',
    index,
    start: index * 10,
    until: index * 10 + 10,
    params: { a: index },
  }) as unknown as SweepJob;
const result = (index: number, status: JobResult['status'], digest: string): JobResult =>
  ({ jobId: `swA:${index}`, status, digest, reason: status, outputTail: [], metrics: null }) as unknown as JobResult;
const spec = { bot: 'node b.ts', replay: 'X@1..2', split: 'day', sets: [{ a: 0 }] } as unknown as SweepSpec;

describe('SqliteSweepStore', () => {
  it('stores each job result once and answers what is left', () => {
    const s = new SqliteSweepStore(':memory:');
    s.createSweep('swA', spec, [job(0), job(1), job(2)], 1000);
    expect(s.lastUnfinished()).toBe('swA');
    expect(s.storeResult('swA', 1, result(1, 'ok', 'd1'), 2000)).toBe(true);
    // a rerun's late report: refused, the first result kept
    expect(s.storeResult('swA', 1, result(1, 'failed', 'other'), 3000)).toBe(false);
    expect(s.storeResult('swA', 2, result(2, 'timeout', 'd2'), 4000)).toBe(true);
    expect(s.pending('swA').map((j) => j.index)).toEqual([0]);
    expect(s.job('swA', 1)).toMatchObject({ status: 'ok', result: { digest: 'd1' } });
    expect(s.summary('swA')).toMatchObject({ jobs: 3, done: 2, ok: 1, failed: 1, state: 'running', updated_at: 4000 });
    s.storeResult('swA', 0, result(0, 'ok', 'd0'), 5000);
    s.setState('swA', 'done', 5000);
    expect(s.lastUnfinished()).toBeUndefined();
    expect(s.list().map((x) => [x.id, x.done, x.state])).toEqual([['swA', 3, 'done']]);
    expect(s.summary('nope')).toBeUndefined();
    s.close();
  });

  it('keeps nothing of a sweep whose jobs could not all be written', () => {
    const s = new SqliteSweepStore(':memory:');
    expect(() => s.createSweep('swB', spec, [job(0), job(0)], 1)).toThrow();
    expect(s.list()).toEqual([]);
    s.close();
  });
});
