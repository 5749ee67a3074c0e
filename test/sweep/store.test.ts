// The sweep store on SQLite: a sweep and its planned jobs, each job's result stored once (a
// second report of a job, from a rerun, is refused and the first kept), the pending jobs a
// resume runs, and the summaries the routes list. A running sweep whose coordinator is gone (its
// process dead on this host, or its heartbeat older than the lease) reads `interrupted`; it can be
// taken by another coordinator or removed, a live one cannot.
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { coordinatorHere } from '../../src-main/sweep/coordinator.ts';
import type { JobResult, SweepJob } from '../../src-main/sweep/job.ts';
import { HEARTBEAT_MS, LEASE_MS, type SweepSpec } from '../../src-main/sweep/ports.ts';
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
    let clock = 1000;
    const s = new SqliteSweepStore(':memory:', { now: () => clock });
    s.createSweep('swA', spec, [job(0), job(1), job(2)], coordinatorHere(), 1000);
    // run by this live process: not one to resume
    expect(s.lastUnfinished()).toBeUndefined();
    s.setState('swA', 'stopped', 1000);
    expect(s.lastUnfinished()).toBe('swA');
    expect(s.claim('swA', coordinatorHere(), 1000)).toEqual({ ok: true });
    clock = 4000;
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
    expect(() => s.createSweep('swB', spec, [job(0), job(0)], coordinatorHere(), 1)).toThrow();
    expect(s.list()).toEqual([]);
    s.close();
  });

  it('reads a running sweep whose coordinator process is dead as interrupted, to resume or remove', () => {
    // a real process that has exited: its pid is free
    const gone = { host: hostname(), pid: spawnSync(process.execPath, ['-e', '0']).pid! };
    const s = new SqliteSweepStore(':memory:');
    const now = Date.now();
    s.createSweep('swD', spec, [job(0), job(1)], gone, now);
    s.createSweep('swL', spec, [job(0)], coordinatorHere(), now + 1);
    expect(s.list().map((x) => [x.id, x.state, x.heartbeat_at])).toEqual([
      ['swL', 'running', now + 1],
      ['swD', 'interrupted', now],
    ]);
    // the newest one not done and not run by a live coordinator
    expect(s.lastUnfinished()).toBe('swD');
    // a live coordinator's sweep is not taken
    expect(s.claim('swL', gone, now + 2)).toEqual({ ok: false, owner: coordinatorHere(), heartbeat_at: now + 1 });
    // the dead one's is
    expect(s.claim('swD', coordinatorHere(), now + 2)).toEqual({ ok: true });
    expect(s.summary('swD')).toMatchObject({ state: 'running', heartbeat_at: now + 2 });
    // its old coordinator's heartbeat, were it alive, no longer counts
    s.heartbeat('swD', gone, now + 3);
    expect(s.summary('swD')!.heartbeat_at).toBe(now + 2);
    expect(s.remove('swD')).toBe(true);
    expect(s.jobs('swD')).toEqual([]);
    expect(s.list().map((x) => x.id)).toEqual(['swL']);
    expect(s.remove('swD')).toBe(false);
    s.close();
  });

  it('reads a running sweep as interrupted once its heartbeat is older than the lease (another host)', () => {
    let clock = 100_000;
    const s = new SqliteSweepStore(':memory:', { now: () => clock });
    // a coordinator on another machine: its process cannot be looked at from here
    const far = { host: `${hostname()}-elsewhere`, pid: 4242 };
    s.createSweep('swH', spec, [job(0)], far, clock);
    clock += LEASE_MS;
    expect(s.summary('swH')!.state).toBe('running');
    s.heartbeat('swH', far, clock);
    clock += LEASE_MS - HEARTBEAT_MS;
    expect(s.summary('swH')!.state).toBe('running');
    clock += HEARTBEAT_MS + 1;
    expect(s.summary('swH')!.state).toBe('interrupted');
    expect(s.claim('swH', coordinatorHere(), clock)).toEqual({ ok: true });
    expect(s.summary('swH')!.state).toBe('running');
    s.close();
  });
});
