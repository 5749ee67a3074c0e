// The coordinator of a sweep: checks everything a sweep needs before any job starts (the grid,
// the bot command, the data and its span, a trial start of the first job's venue), plans the
// jobs, packs the datasets, records the sweep in the data folder's store, runs the jobs on a
// runner (the local pool, or the BullMQ queue) and stores each result once, with a progress bar.
// A sweep stopped for any reason is finished by `--resume`: only the jobs without a result run.
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { parseFixed } from '../../src-shared/decimal.ts';
import { MAX_PAPER_BALANCE, MAX_PAPER_USDT } from '../accounts/credentials.ts';
import { buildId } from './build-id.ts';
import { GridError, parseGrid, type Grid } from './grid.ts';
import type { JobResult, SweepJob } from './job.ts';
import { checkSpan } from '../replay/plan.ts';
import { buildPack, listDatasets, openPack, type PackRef } from './pack.ts';
import { failureLine } from './output-tail.ts';
import type { JobData } from './run-job.ts';
import {
  checkBot,
  checkData,
  parseSpan,
  parseSplit,
  planJobs,
  PlanError,
  splitSpan,
  type JobTemplate,
} from './plan.ts';
import type { RunnerEvents } from './pool.ts';
import { HEARTBEAT_MS, LEASE_MS, type SweepOwner, type SweepSpec, type SweepStore } from './ports.ts';
import { Progress } from './progress.ts';

/** What a sweep is asked for on the command line (sweep-cli.ts). */
export interface SweepRequest {
  dataDir: string;
  cwd: string;
  bot: string;
  replay: string;
  /** --replay-datasets: the dataset ids every job's replay reads (SweepJob.datasets). */
  datasets?: number[];
  split: string;
  /** The grid file's path; none: one empty parameter set. */
  grid?: string;
  /** The parameter sets themselves, in place of a grid file (--like: another sweep's, already completed with its defaults). */
  sets?: Grid;
  balance: string;
  lockstep: boolean;
  speed: number;
  queueModel: 'pessimistic' | 'probabilistic';
  orderLatency: number;
  responseLatency: number;
  dataLatency: number;
  positionMode: 'hedge' | 'one_way';
  timeoutMs: number;
  seed: number;
  runner: string;
}

/** A run's runner: the local pool or the queue, the same to the coordinator. */
export interface Runner {
  /** Gets ready to run jobs (the local pool forks its workers); called once the cheap checks pass. */
  warm?(): void;
  run(jobs: readonly SweepJob[], pack: PackRef, ev: RunnerEvents): Promise<void>;
  stop(): void | Promise<void>;
}

export interface CoordinatorIo {
  out: (line: string) => void;
  /** The progress bar's stream. */
  progress: (text: string) => void;
  tty: boolean;
  now?: () => number;
}

/** Everything checked and planned; nothing stored or run yet. */
export interface PreparedSweep {
  id: string;
  spec: SweepSpec;
  jobs: SweepJob[];
  /** What the run's first line adds about its sets (random draws that repeated: Grid.note). */
  note?: string;
}

function readGrid(file: string | undefined, cwd: string): Grid {
  if (file === undefined) return { sets: [{}], defaults: {} };
  let text: string;
  try {
    text = readFileSync(resolve(cwd, file), 'utf8');
  } catch (err) {
    throw new PlanError(`--grid ${file} cannot be read: ${err instanceof Error ? err.message : err}`);
  }
  try {
    return parseGrid(text);
  } catch (err) {
    if (err instanceof GridError) throw new PlanError(`--grid ${file}: ${err.message}`);
    throw err;
  }
}

/** What prepareSweep tells its caller on the way. */
export interface PrepareHooks {
  /** Once the cheap checks pass, before the data is packed and the venues tried. */
  onChecked?: () => void;
  /** The new sweep's id, just before its pack (removePack's) is written: a stop from here on removes it. */
  onPacking?: (id: string) => void;
}

/** Checks a new sweep and plans its jobs; PlanError (a usage error) for anything wrong. */
export async function prepareSweep(req: SweepRequest, hooks: PrepareHooks = {}): Promise<PreparedSweep> {
  const span = parseSpan(req.replay);
  const split = parseSplit(req.split);
  const { sets, defaults, note } = req.sets ?? readGrid(req.grid, req.cwd);
  const bot = checkBot(req.bot, req.cwd);
  const balance = parseFixed(req.balance, 8);
  if (!balance.ok)
    throw new PlanError(`--balance must be a positive USDT amount with at most 8 decimals, got '${req.balance}'`);
  // the paper account's rule (credentials.ts): past it every job's venue failed to start
  if (balance.value > MAX_PAPER_BALANCE)
    throw new PlanError(`--balance must be at most ${MAX_PAPER_USDT} USDT, got '${req.balance}'`);
  let datasets;
  try {
    datasets = listDatasets(req.dataDir);
  } catch (err) {
    throw new PlanError(err instanceof Error ? err.message : String(err));
  }
  checkData(span, datasets, req.dataDir);
  const id = `sw${new Date().toISOString().slice(0, 10).replace(/-/g, '')}${randomBytes(4).toString('hex')}`;
  const template: JobTemplate = {
    symbols: span.symbols,
    ...(req.datasets === undefined ? {} : { datasets: req.datasets }),
    lockstep: req.lockstep,
    speed: req.speed,
    balance: req.balance,
    queueModel: req.queueModel,
    orderLatency: req.orderLatency,
    responseLatency: req.responseLatency,
    dataLatency: req.dataLatency,
    positionMode: req.positionMode,
    bot,
    cwd: req.cwd,
    seed: req.seed,
    timeoutMs: req.timeoutMs,
  };
  const jobs = planJobs(id, splitSpan(span, split), sets, template);
  hooks.onChecked?.();
  hooks.onPacking?.(id);
  const pack = await packChecked(req.dataDir, id, jobs);
  const spec: SweepSpec = {
    bot: req.bot,
    replay: req.replay,
    split: req.split,
    symbols: span.symbols,
    start: span.start,
    until: span.until,
    sets,
    defaults,
    runner: req.runner,
    build: buildId(),
    pack,
    template,
  };
  return { id, spec, jobs, ...(note === undefined ? {} : { note }) };
}

/**
 * Packs the sweep's data (sweeps/ID/data.db) and runs the replay's own checks on it: every job's
 * span against the data's rows (a span lying in a gap of the data replays nothing), then a venue of
 * the first and the last job (a span its data cannot replay fails here). A refused sweep records
 * nothing: its pack folder is removed, and the sweeps folder too when it is left empty.
 */
async function packChecked(dataDir: string, id: string, jobs: readonly SweepJob[]): Promise<PackRef> {
  const sweeps = join(dataDir, 'sweeps');
  try {
    const pack = await buildPack(dataDir, jobs[0].symbols, join(sweeps, id, 'data.db'));
    const open = openPack(pack.path);
    try {
      checkJobSpans(jobs, open.data);
      // the venue's code loads only here, after the cheap checks (a usage error answers at once)
      const { checkVenue } = await import('./run-job.ts');
      for (const j of [jobs[0], jobs[jobs.length - 1]]) {
        const why = await checkVenue(j, open.data);
        if (why !== null)
          throw new PlanError(`cannot replay ${j.symbols.join(',')} from ${new Date(j.start).toISOString()}: ${why}`);
      }
    } finally {
      open.close();
    }
    return pack;
  } catch (err) {
    removePack(dataDir, id);
    throw err;
  }
}

/**
 * Removes the dataset pack (sweeps/ID) of a sweep that was not stored: refused by the checks, or
 * stopped (Ctrl-C, SIGTERM) while it was prepared. The sweeps folder too when nothing else is in
 * it: whichever of two sweeps refused at once made it (each saw it made by the other), the last
 * one out removes it.
 */
export function removePack(dataDir: string, id: string): void {
  const sweeps = join(dataDir, 'sweeps');
  rmSync(join(sweeps, id), { recursive: true, force: true });
  if (existsSync(sweeps) && readdirSync(sweeps).length === 0) {
    try {
      rmdirSync(sweeps);
    } catch {
      // another sweep's pack came in meanwhile, or its refusal removed the folder first
    }
  }
}

const isoMinute = (t: number): string => new Date(t).toISOString().replace(':00.000Z', 'Z');

/** Every job's span holds rows of every symbol's data (replay/plan.ts checkSpan); PlanError naming the first that does not. */
function checkJobSpans(jobs: readonly SweepJob[], data: JobData): void {
  const bad: Array<{ job: SweepJob; why: string }> = [];
  const seen = new Map<string, string | null>();
  for (const job of jobs) {
    // the parameter sets of one piece share its span
    const key = `${job.start}:${job.until}`;
    let why = seen.get(key);
    if (why === undefined) {
      try {
        checkSpan(data, job.symbols, job.start, job.until, job.datasets);
        why = null;
      } catch (err) {
        if (!(err instanceof RangeError)) throw err;
        why = err.message;
      }
      seen.set(key, why);
    }
    if (why !== null) bad.push({ job, why });
  }
  if (bad.length === 0) return;
  const spans = new Set(bad.map((b) => `${b.job.start}:${b.job.until}`)).size;
  const first = bad[0];
  throw new PlanError(
    `${spans} of the sweep's ${seen.size} job span(s) cannot be replayed (${bad.length} of ${jobs.length} jobs); ` +
      `the first, job ${first.job.index} (${isoMinute(first.job.start)}..${isoMinute(first.job.until)}): ${first.why}`,
  );
}

/** This process as a sweep's coordinator (the store's lease names it). */
export function coordinatorHere(): SweepOwner {
  return { host: hostname(), pid: process.pid };
}

/**
 * Runs the jobs of a sweep still without a result; answers the counts of this run. The sweep is
 * taken for this process first (PlanError while another live coordinator runs it), and its lease
 * renewed every HEARTBEAT_MS until the run ends. A coordinator that finds at a heartbeat that another
 * one has taken the sweep (this one was not heard from for LEASE_MS: stopped with Ctrl-Z, its machine
 * asleep, and a --resume ran meanwhile) stops its run and leaves the sweep's state to the new owner:
 * `takenOver` in the answer.
 */
export async function runSweep(
  store: SweepStore,
  id: string,
  runner: Runner,
  io: CoordinatorIo,
): Promise<{ ran: number; ok: number; failed: number; duplicates: number; reruns: number; takenOver: boolean }> {
  const spec = store.spec(id);
  if (spec === undefined) throw new PlanError(`no sweep ${id} in this data folder`);
  const now = io.now ?? Date.now;
  const me = coordinatorHere();
  const claim = store.claim(id, me, now());
  if (!claim.ok)
    throw new PlanError(
      `sweep ${id} is running: its coordinator (pid ${claim.owner.pid} on ${claim.owner.host}) was heard from ` +
        `${Math.max(0, Math.round((now() - claim.heartbeat_at) / 1000))} s ago; stop it (Ctrl-C) before resuming it`,
    );
  let takenOver = false;
  const beat = setInterval(() => {
    if (store.heartbeat(id, me, now())) return;
    // another coordinator runs the sweep now: two running its jobs would run each twice
    clearInterval(beat);
    takenOver = true;
    io.progress(io.tty ? '\n' : '');
    io.out(
      `sweep ${id} was resumed by another coordinator while this one was not heard from ` +
        `(over ${LEASE_MS / 1000} s): this one stops and leaves its jobs to it`,
    );
    void runner.stop();
  }, HEARTBEAT_MS);
  beat.unref();
  const summary = store.summary(id)!;
  const jobs = store.pending(id);
  const progress = new Progress({
    total: summary.jobs,
    done: summary.done,
    notOk: summary,
    write: io.progress,
    tty: io.tty,
    now,
  });
  let ok = 0;
  let failed = 0;
  let duplicates = 0;
  let reruns = 0;
  const toldLack = new Set<string>();
  const run = runner.run(jobs, spec.pack, {
    onStart: (job) => progress.started(job.id),
    onStop: (job) => progress.stopped(job.id),
    onRerun: (job, how) => {
      reruns++;
      io.progress(io.tty ? '\n' : '');
      io.out(`job ${job.index}: its worker process died (${how}); the job runs again on a new worker`);
    },
    onGivenBack: (job, why, cause = 'data') => {
      progress.givenBack(job.id, cause);
      // once a worker and cause: its every job would say the same
      if (toldLack.has(why)) return;
      toldLack.add(why);
      io.progress(io.tty ? '\n' : '');
      io.out(
        cause === 'build'
          ? `job ${job.index} given back unrun by a ${why}; its jobs wait for a worker of this sweep's build ` +
              `(the same commit, npm ci, no local changes: docs/sweeps.md, Many machines)`
          : `job ${job.index} given back unrun by a ${why}; its jobs wait for a worker that has the data ` +
              `(--pack-url on this sweep, or the data folder at the same path: docs/sweeps.md, The data)`,
      );
    },
    onResult: (job: SweepJob, result: JobResult) => {
      if (!store.storeResult(id, job.index, result, now())) {
        duplicates++;
        return;
      }
      if (result.status === 'ok') ok++;
      else {
        failed++;
        io.progress(io.tty ? '\n' : '');
        const line = failureLine(result.outputTail);
        io.out(`job ${job.index} ${result.status}: ${result.reason}${line === undefined ? '' : ` | ${line}`}`);
      }
      progress.finished(job.id, result.status);
    },
  });
  try {
    await run;
  } finally {
    clearInterval(beat);
    progress.end();
  }
  if (!takenOver) {
    const after = store.summary(id)!;
    store.setState(id, after.done === after.jobs ? 'done' : 'stopped', now());
  }
  return { ran: ok + failed, ok, failed, duplicates, reruns, takenOver };
}
