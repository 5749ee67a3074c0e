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

describe('an older sweeps.db, opened by two processes at once', () => {
  it('gets its owner columns once: the second opener waits for the first and finds them', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { spawn } = await import('node:child_process');
    const { DatabaseSync } = await import('node:sqlite');
    const dir = mkdtempSync(join(tmpdir(), 'perpdesk-sweeps-old-'));
    try {
      // a sweeps.db of the first release (no owner columns), WAL as the store keeps it
      const raw = new DatabaseSync(join(dir, 'sweeps.db'));
      raw.exec('PRAGMA journal_mode = WAL');
      raw.exec(
        'CREATE TABLE sweeps (id TEXT PRIMARY KEY, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, state TEXT NOT NULL, spec TEXT NOT NULL)',
      );
      raw.exec(
        'CREATE TABLE sweep_jobs (sweep_id TEXT NOT NULL, idx INTEGER NOT NULL, start INTEGER NOT NULL, until INTEGER NOT NULL, params TEXT NOT NULL, job TEXT NOT NULL, status TEXT NOT NULL, result TEXT, stored_at INTEGER, PRIMARY KEY (sweep_id, idx)) WITHOUT ROWID',
      );
      // the first opener, caught mid-way: it has added the columns and not committed yet
      raw.exec('BEGIN IMMEDIATE');
      raw.exec('ALTER TABLE sweeps ADD COLUMN owner TEXT');
      raw.exec('ALTER TABLE sweeps ADD COLUMN heartbeat_at INTEGER');
      // the second opener, another process (it blocks on the lock, up to the store's busy timeout)
      const store = new URL('../../src-main/sweep/sqlite-store.ts', import.meta.url).pathname;
      const code =
        `import { SqliteSweepStore } from ${JSON.stringify(store)};` +
        `process.stdin.once('data', () => { new SqliteSweepStore(${JSON.stringify(dir)}); console.log('opened'); process.exit(0); });` +
        `console.log('ready');`;
      const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (b: Buffer) => (out += String(b)));
      child.stderr.on('data', (b: Buffer) => (out += String(b)));
      const exited = new Promise<number | null>((r) => child.on('exit', r));
      for (let i = 0; i < 300 && !out.includes('ready'); i++) await new Promise((r) => setTimeout(r, 50));
      child.stdin.write('go\n');
      // the child is now in the store's constructor, held by the lock (its busy timeout is 5 s)
      await new Promise((r) => setTimeout(r, 800));
      raw.exec('COMMIT');
      raw.close();
      expect([await exited, out.trim()]).toEqual([0, 'ready\nopened']);
      const cols = new DatabaseSync(join(dir, 'sweeps.db'))
        .prepare('PRAGMA table_info(sweeps)')
        .all()
        .map((c) => (c as { name: string }).name);
      expect(cols).toEqual(['id', 'created_at', 'updated_at', 'state', 'spec', 'owner', 'heartbeat_at']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 20_000);
});
