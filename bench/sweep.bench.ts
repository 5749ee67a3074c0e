// npm run bench:sweep: the sweep runners' throughput on the same jobs, each figure against its
// same-run baseline (docs/sweeps.md, Benchmark):
//   1. the local pool with 1 worker, then 2: jobs a minute, core use (CPU seconds of the
//      coordinator, its workers and their bots, reaped, over wall seconds) and CPU seconds a job;
//      the target "at least 0.8 x 2 for two" read two ways, each with PASS / FAIL: 2 workers'
//      core use against 0.8 x 2 = 1.6 cores, and their throughput against twice one worker's,
//      beside that ratio's ceiling on this machine (cores / one worker's core use / 2: one
//      worker alone keeps more than a core busy, so the target may be above what the cores allow);
//   2. per-job overhead: wall ms from a job's start to its bot's first request (apart: the jobs
//      whose venue the worker started ahead, during its previous job, and the others, each
//      worker's first after its warm-up, with their venue's start; and the bot's own start: the
//      same bot command timed alone, from its spawn to its exit with nothing to do, in this run),
//      plus from the bot's exit to the job's result (the report, the digest, the venue's close);
//   3. the BullMQ runner with 2 worker processes (a redis-server on a free loopback port) on the
//      same jobs, against the local pool's 2 workers, and its per-job overhead (apart: the jobs whose
//      venue the worker started ahead, holding one job more than it runs, and the others).
// The workers' cache folder (dataset packs, Node's compile cache: src-main/sweep/compile-cache.ts)
// is a fresh one each run, so the first job of each worker pays the compiles a first sweep pays.
// Knobs: BENCH_JOBS (default 8, even), BENCH_BOT (default the test bot's trade mode), BENCH_QUEUE=0
// (skip 3).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { compileCacheEnv } from '../src-main/sweep/compile-cache.ts';
import type { JobResult, SweepJob } from '../src-main/sweep/job.ts';
import { buildPack, type PackRef } from '../src-main/sweep/pack.ts';
import { planJobs, splitCommand, splitSpan, type JobTemplate } from '../src-main/sweep/plan.ts';
import { LocalPool } from '../src-main/sweep/pool.ts';
import { QueueRunner } from '../src-main/sweep/queue.ts';
import { DAY, JAN6, klinesDataDir, ROOT } from '../test/sweep/fixture.ts';
import { freePort, HAS_REDIS, startRedis } from '../test/sweep/redis-helpers.ts';

const JOBS = Number(process.env.BENCH_JOBS ?? 8);
const BOT = process.env.BENCH_BOT ?? 'node test/sweep/bots/test-bot.ts';
const CORES = availableParallelism();
const TICK = 100; // clock ticks a second of /proc/self/stat (USER_HZ on Linux)
// the pool's workers and the queue's read it (compile-cache.ts); fresh: nothing compiled yet
process.env.PERPDESK_SWEEP_CACHE = mkdtempSync(path.join(tmpdir(), 'perpdesk-bench-cache-'));

/**
 * CPU seconds of this process and all its descendants, live ones included: each live process's
 * own time plus that of the children it reaped (utime stime cutime cstime; a process's time
 * moves into its parent's cutime only when reaped, so nothing is counted twice).
 */
function cpuSeconds(): number {
  const procs = new Map<number, { ppid: number; ticks: number }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // gone since the listing
    }
    // after the command's closing paren: state ppid ... (fields 14-17 of stat are 11-14 here)
    const f = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    procs.set(Number(name), {
      ppid: Number(f[1]),
      ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]),
    });
  }
  const mine = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 64; p = procs.get(p)?.ppid ?? 0, hops++)
      if (p === process.pid) return true;
    return false;
  };
  let ticks = 0;
  for (const [pid, p] of procs) if (mine(pid)) ticks += p.ticks;
  return ticks / TICK;
}

interface Rate {
  jobsPerMin: number;
  cores: number;
  cpuPerJob: number;
}

interface Measure extends Rate {
  /** From the `workers`-th result on: every worker started and past its first job (its compiles). */
  steady: Rate;
  results: JobResult[];
}

const rate = (jobs: number, wallS: number, cpuS: number): Rate => ({
  jobsPerMin: (jobs / wallS) * 60,
  cores: cpuS / wallS,
  cpuPerJob: cpuS / jobs,
});

async function measure(
  run: (jobs: SweepJob[], ev: { onResult: (j: SweepJob, r: JobResult) => void }) => Promise<void>,
  jobs: SweepJob[],
  workers: number,
): Promise<Measure> {
  const results: JobResult[] = [];
  const c0 = cpuSeconds();
  const t0 = performance.now();
  let from = { t: t0, c: c0 };
  let to = from;
  await run(jobs, {
    onResult: (_j, r) => {
      results.push(r);
      if (results.length === workers) from = { t: performance.now(), c: cpuSeconds() };
      if (results.length === jobs.length) to = { t: performance.now(), c: cpuSeconds() };
    },
  });
  const wall = (performance.now() - t0) / 1000;
  const bad = results.filter((r) => r.status !== 'ok');
  if (bad.length > 0) throw new Error(`${bad.length} jobs not ok: ${bad[0].reason} ${bad[0].outputTail.join(' | ')}`);
  const steady = rate(jobs.length - workers, (to.t - from.t) / 1000, to.c - from.c);
  return { ...rate(jobs.length, wall, cpuSeconds() - c0), steady, results };
}

async function queueRun(pack: PackRef, jobs: SweepJob[]): Promise<Measure | null> {
  if (!HAS_REDIS) return null;
  const port = await freePort();
  const redis = await startRedis(port, mkdtempSync(path.join(tmpdir(), 'perpdesk-bench-redis-')));
  const url = `redis://127.0.0.1:${port}`;
  const workers: ChildProcess[] = [];
  const ready: Array<Promise<void>> = [];
  for (let i = 0; i < 2; i++) {
    const w = spawn(
      process.execPath,
      [path.join(ROOT, 'src-main/sweep-cli.ts'), 'worker', '--queue', url, '--concurrency', '1'],
      { cwd: ROOT, env: { ...process.env, ...compileCacheEnv(process.env.PERPDESK_SWEEP_CACHE!) } },
    );
    ready.push(
      new Promise((resolve) => w.stdout!.on('data', (b: Buffer) => b.toString().includes('taking jobs') && resolve())),
    );
    workers.push(w);
  }
  await Promise.all(ready);
  try {
    const runner = await QueueRunner.connect(url);
    const m = await measure((js, ev) => runner.run(js, pack, ev), jobs, 2);
    await runner.stop();
    return m;
  } finally {
    for (const w of workers) w.kill('SIGTERM');
    await Promise.all(workers.map((w) => new Promise((r) => w.once('exit', r))));
    redis.kill('SIGTERM');
  }
}

const dir = await klinesDataDir();
const pack = await buildPack(
  dir,
  ['BTCUSDT'],
  path.join(mkdtempSync(path.join(tmpdir(), 'perpdesk-bench-')), 'data.db'),
);
const template: JobTemplate = {
  symbols: ['BTCUSDT'],
  lockstep: true,
  speed: 1,
  balance: '10000',
  queueModel: 'probabilistic',
  orderLatency: 0,
  responseLatency: 0,
  dataLatency: 0,
  positionMode: 'hedge',
  bot: splitCommand(BOT),
  cwd: ROOT,
  seed: 1,
  timeoutMs: 120_000,
};
const pieces = splitSpan({ symbols: ['BTCUSDT'], start: JAN6, until: JAN6 + (JOBS / 2) * DAY }, { kind: 'day' });
const plan = (id: string) => planJobs(id, pieces, [{ mode: 'trade' }, { mode: 'trade', qty: '0.02' }], template);

/** Wall ms of the bot command alone, from its spawn to its exit with nothing to do (the test bot's env mode). */
function botAlone(): number {
  const t0 = performance.now();
  const r = spawnSync(template.bot[0], template.bot.slice(1), {
    cwd: ROOT,
    env: { ...process.env, ...compileCacheEnv(process.env.PERPDESK_SWEEP_CACHE!), PERPDESK_PARAMS: '{"mode":"env"}' },
  });
  if (r.status !== 0) throw new Error(`the bot alone exited ${r.status}: ${r.stderr}`);
  return performance.now() - t0;
}

const pool = (n: number) => (js: SweepJob[], ev: { onResult: (j: SweepJob, r: JobResult) => void }) =>
  new LocalPool(n).run(js, pack, ev);
console.log(`bench:sweep: ${JOBS} jobs of one day each (BTCUSDT 15m klines), bot: ${BOT}`);
const one = await measure(pool(1), plan('bench1'), 1);
const two = await measure(pool(2), plan('bench2'), 2);
// after the pools: the compile cache holds the bot, as it does on a worker after its first job
const alone = [botAlone(), botAlone(), botAlone()].sort((a, b) => a - b)[1];
const f = (x: number) => x.toFixed(1);
const per = (m: Rate) => `${f(m.jobsPerMin)} jobs/min, ${f(m.cores)} cores busy, ${m.cpuPerJob.toFixed(2)} CPU s a job`;
const pass = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
console.log(`1. local pool, 1 worker:  ${per(one)}; steady ${per(one.steady)}`);
console.log(`   local pool, 2 workers: ${per(two)}; steady ${per(two.steady)}`);
// the "at least 0.8 x 2 for two", read two ways: as core use, and as throughput against
// twice one worker's, whose ceiling is what the cores leave: one worker alone keeps `c` cores busy
// (its bot, its venue and the next job's venue started ahead run at once), so two reach at most
// CORES / c times one, (CORES / c) / 2 of twice one
const WANT = 0.8;
console.log(
  `   2 workers, core use: ${f(two.cores)} cores busy, steady ${f(two.steady.cores)}` +
    ` (target >= ${WANT} x 2 = ${(WANT * 2).toFixed(1)} of the ${CORES} cores): ${pass(two.cores >= WANT * 2)}, steady ${pass(two.steady.cores >= WANT * 2)}`,
);
const ratio = (a: Rate, b: Rate, label: string) => {
  const r = b.jobsPerMin / (2 * a.jobsPerMin);
  const ceiling = Math.min(1, CORES / a.cores / 2);
  const verdict =
    r >= WANT
      ? 'PASS'
      : ceiling < WANT && r >= 0.95 * ceiling
        ? `FAIL against ${WANT}, at its ceiling (the target is above what ${CORES} cores allow)`
        : ceiling < WANT
          ? `FAIL against ${WANT}, and below its ceiling`
          : 'FAIL';
  return (
    `   ${label}: 2 workers / (2 x 1 worker) = ${r.toFixed(2)}; ceiling ${CORES} / ${a.cores.toFixed(2)} / 2 = ` +
    `${ceiling.toFixed(2)} (1 worker keeps ${a.cores.toFixed(2)} cores busy); target >= ${WANT}: ${verdict}`
  );
};
console.log(ratio(one, two, 'whole run'));
console.log(ratio(one.steady, two.steady, 'steady   '));
const all = [...one.results, ...two.results];
const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const ahead = all.filter((r) => r.venueAhead === true);
const cold = all.filter((r) => r.venueAhead !== true);
const part = (rs: JobResult[]) =>
  rs.length === 0 ? 'none' : `${avg(rs.map((r) => r.firstRequestMs ?? 0)).toFixed(0)} ms`;
/** Mean ms from a job's start to its bot's first request, and from the bot's exit to the result. */
const overhead = (rs: JobResult[]) => {
  const first = avg(rs.map((r) => r.firstRequestMs ?? 0));
  const after = avg(rs.map((r) => r.wallMs - r.startMs - r.botMs));
  return { first, after, total: first + after };
};
const o = overhead(all);
console.log(
  `2. per-job overhead: ${o.first.toFixed(0)} ms from the job's start to the bot's first request` +
    ` (${ahead.length} of ${all.length} jobs with their venue started ahead: ${part(ahead)}; the others, each worker's first` +
    ` after its warm-up, ${part(cold)}, of it the venue's start ${cold.length === 0 ? 0 : avg(cold.map((r) => r.startMs)).toFixed(0)} ms;` +
    ` the bot alone ${alone.toFixed(0)} ms)` +
    ` + ${o.after.toFixed(0)} ms from the bot's exit to the result = ${o.total.toFixed(0)} ms (target <= 500): ${pass(o.total <= 500)}`,
);
const q = process.env.BENCH_QUEUE === '0' ? null : await queueRun(pack, plan('bench3'));
if (q === null) console.log('3. queue: skipped (BENCH_QUEUE=0, or no redis-server on this machine)');
else {
  // like for like: the queue's workers are started and warmed before its timing begins, while the
  // pool's whole run includes forking and warming its workers, so the verdict compares the two
  // steady figures (each from every worker's second job on); the whole runs are printed beside
  console.log(
    `3. queue, 2 worker processes: ${f(q.jobsPerMin)} jobs/min (steady ${f(q.steady.jobsPerMin)})` +
      ` against the local pool's ${f(two.jobsPerMin)} (steady ${f(two.steady.jobsPerMin)})`,
  );
  const qr = q.steady.jobsPerMin / two.steady.jobsPerMin;
  console.log(
    `   queue / local, steady = ${qr.toFixed(2)} (target >= 0.95): ${pass(qr >= 0.95)}` +
      ` (whole runs ${(q.jobsPerMin / two.jobsPerMin).toFixed(2)}: the pool's includes starting its workers, the queue's does not)`,
  );
  const qo = overhead(q.results);
  const qAhead = q.results.filter((r) => r.venueAhead === true);
  const qCold = q.results.filter((r) => r.venueAhead !== true);
  console.log(
    `   the queue's per-job overhead: ${qo.first.toFixed(0)} ms to the first request` +
      ` (${qAhead.length} of ${q.results.length} jobs with their venue started ahead: ${part(qAhead)}; the others ${part(qCold)},` +
      ` of it the venue's start ${qCold.length === 0 ? 0 : avg(qCold.map((r) => r.startMs)).toFixed(0)} ms)` +
      ` + ${qo.after.toFixed(0)} ms = ${qo.total.toFixed(0)} ms`,
  );
}
process.exit(0);
