// Sweeps over BullMQ (docs/sweeps.md, Many machines): a real redis-server on a free loopback port
// and two `npm run sweep:worker` processes. A failing and a hanging bot fail their jobs only; a
// worker killed with kill -9 mid-job has its job run again by the other; Redis restarted (without
// its data) mid-sweep has the coordinator add the lost jobs again; every result is stored once,
// and the jobs give the same digests as before the faults. An unreachable Redis is a clear error.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteSweepStore } from '../../src-main/sweep/sqlite-store.ts';
import { runCli, startCli } from './cli-helpers.ts';
import { klinesDataDir } from './fixture.ts';
import { freePort, HAS_REDIS, startRedis, stop, until } from './redis-helpers.ts';

const BOT = 'node test/sweep/bots/test-bot.ts';
const SPAN = 'BTCUSDT@2025-01-06T00:00Z..2025-01-06T06:00Z';

interface Worker {
  proc: ChildProcess;
  log: string;
}

function startWorker(url: string): Worker {
  const run = startCli(['worker', '--queue', url, '--concurrency', '1', '--stall-ms', '15000']);
  const w: Worker = { proc: run.child, log: '' };
  run.child.stdout!.on('data', (b: Buffer) => (w.log += b.toString()));
  run.child.stderr!.on('data', (b: Buffer) => (w.log += b.toString()));
  return w;
}

describe.skipIf(!HAS_REDIS)('a sweep over BullMQ and Redis', () => {
  let dir: string;
  let port: number;
  let url: string;
  let redis: ChildProcess;
  const workers: Worker[] = [];
  let baseline: Map<number, string>;

  const jobsOf = (id: string) => {
    const s = new SqliteSweepStore(dir);
    try {
      return { summary: s.summary(id)!, jobs: s.jobs(id) };
    } finally {
      s.close();
    }
  };

  beforeAll(async () => {
    dir = await klinesDataDir();
    port = await freePort();
    url = `redis://127.0.0.1:${port}`;
    redis = await startRedis(port, mkdtempSync(path.join(tmpdir(), 'perpdesk-redis-')));
    workers.push(startWorker(url), startWorker(url));
  });

  afterAll(async () => {
    await Promise.all(workers.map((w) => stop(w.proc)));
    await stop(redis);
    // the bot of the worker killed with kill -9 had nobody left to stop it
    const s = new SqliteSweepStore(dir);
    const ids = s.list().map((x) => x.id);
    s.close();
    for (const p of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
      try {
        const env = readFileSync(`/proc/${p}/environ`, 'latin1');
        if (ids.some((id) => env.includes(`PERPDESK_JOB_ID=${id}:`))) process.kill(Number(p), 'SIGKILL');
      } catch {
        // gone meanwhile, or not ours to read
      }
    }
  });

  it('runs the jobs on two workers: ok, failing and hanging bots each get their result', async () => {
    const grid = path.join(dir, 'grid-q1.json');
    writeFileSync(grid, JSON.stringify({ sets: [{ mode: 'trade' }, { mode: 'exit3' }, { mode: 'hang' }] }));
    const r = await runCli([
      '--data-dir',
      dir,
      '--bot',
      BOT,
      '--replay',
      SPAN,
      '--split',
      '3h',
      '--grid',
      grid,
      '--queue',
      url,
      '--timeout',
      '15',
    ]);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    const id = /perpdesk sweep (sw\w+):/.exec(r.stdout)![1];
    const { summary, jobs } = jobsOf(id);
    expect(summary).toMatchObject({ jobs: 6, done: 6, ok: 2, failed: 4, state: 'done' });
    expect(jobs.map((j) => [j.params.mode, j.status])).toEqual([
      ['trade', 'ok'],
      ['exit3', 'failed'],
      ['hang', 'timeout'],
      ['trade', 'ok'],
      ['exit3', 'failed'],
      ['hang', 'timeout'],
    ]);
    expect(jobs[1].result).toMatchObject({ exitCode: 3, outputTail: ['test-bot: giving up with 3'] });
    expect(jobs[2].result!.outputTail).toContain('test-bot: hanging');
    // both workers took jobs
    for (const w of workers) expect(w.log).toMatch(/job sw\w+-\d started/);
    baseline = new Map(jobs.filter((j) => j.params.mode === 'trade').map((j) => [j.start, j.result!.digest]));
    expect(baseline.size).toBe(2);
  }, 150_000);

  it('survives a worker killed with kill -9 mid-job and a Redis restart: every job once, the same digests', async () => {
    const grid = path.join(dir, 'grid-q2.json');
    writeFileSync(grid, JSON.stringify({ sets: [{ mode: 'slow', sleep_ms: 1500 }] }));
    for (const w of workers) w.log = '';
    const run = startCli([
      '--data-dir',
      dir,
      '--bot',
      BOT,
      '--replay',
      SPAN,
      '--split',
      '3h',
      '--grid',
      grid,
      '--queue',
      url,
    ]);
    // kill -9 the first worker that starts a job, in the middle of it
    let victim: Worker | undefined;
    await until('a job to start', () => (victim = workers.find((w) => /started/.test(w.log))) !== undefined);
    const jobId = /job (sw\w+-\d) started/.exec(victim!.log)![1];
    await new Promise((r) => setTimeout(r, 1500));
    victim!.proc.kill('SIGKILL');
    // the other worker's stalled-job check gives it that job once its lock has expired
    const other = workers.find((w) => w !== victim)!;
    await until('the stalled job to run again', () => other.log.includes(`job ${jobId} started`));
    // and Redis restarts mid-sweep, losing what it held
    await stop(redis);
    redis = await startRedis(port, mkdtempSync(path.join(tmpdir(), 'perpdesk-redis-')));
    const res = await run.done;
    expect(res.code, res.stderr + res.stdout).toBe(0);
    const id = /perpdesk sweep (sw\w+):/.exec(res.stdout)![1];
    expect(res.stdout).toMatch(/jobs were no longer in Redis: added again/);
    const { summary, jobs } = jobsOf(id);
    expect(summary).toMatchObject({ jobs: 2, done: 2, ok: 2, failed: 0, state: 'done' });
    // the slow bot trades as the plain one: the same fills whatever happened to its first run
    for (const j of jobs) expect(j.result!.digest, `job ${j.index}`).toBe(baseline.get(j.start));
    // a replacement for the killed worker, for what follows
    workers.splice(workers.indexOf(victim!), 1, startWorker(url));
  }, 150_000);

  it('an unreachable Redis is a clear error before anything starts', async () => {
    const dead = await freePort();
    const [sweep, worker] = await Promise.all([
      runCli(['--data-dir', dir, '--bot', BOT, '--replay', SPAN, '--queue', `redis://127.0.0.1:${dead}`]),
      runCli(['worker', '--queue', `redis://127.0.0.1:${dead}`, '--concurrency', '1']),
    ]);
    for (const r of [sweep, worker]) {
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        new RegExp(`^perpdesk sweep: cannot reach Redis at redis://127.0.0.1:${dead}: .*ECONNREFUSED`),
      );
    }
    const bad = await runCli(['worker', '--queue', 'http://127.0.0.1:6379']);
    expect(bad.stderr).toMatch(/--queue wants redis:\/\/HOST:PORT, got 'http:\/\/127.0.0.1:6379'/);
  }, 60_000);
});
