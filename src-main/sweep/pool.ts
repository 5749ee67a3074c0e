// The local runner: a pool of worker processes (worker-process.ts), one per core by default (the CLI), each
// running one job at a time, fed from one queue so every core stays busy until the last job. The
// CLI forks the workers once the sweep's cheap checks pass (warm()): they warm up while the
// coordinator packs the data and checks the first and last job's venues. A
// worker is given its next job while one runs (it starts that job's venue ahead), as long as
// the queue holds a job for every worker: near the end a job waits for whichever worker is free.
// A worker that dies with a job in hand (killed, out of memory) is replaced and its job given to
// another once more (its next job, not started, goes back to the queue); a second loss marks the
// job 'error'. A bot that fails fails its job only.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { compileCacheEnv, defaultCacheDir } from './compile-cache.ts';
import { errorResult, type JobResult, type SweepJob } from './job.ts';
import type { PackRef } from './pack.ts';
import type { FromWorker, ToWorker } from './worker-process.ts';

const WORKER_FILE = fileURLToPath(new URL('./worker-process.ts', import.meta.url));
/** A job is tried this many times when its worker process dies under it. */
const ATTEMPTS = 2;
/** Jobs a worker holds: the one it runs and the next. */
const DEPTH = 2;

export interface RunnerEvents {
  /** The job's bot started (not when a worker was given the job: its venue may start first). */
  onStart?: (job: SweepJob) => void;
  /** The job's bot is gone without a result (its worker died): it runs again, or gets an error result. */
  onStop?: (job: SweepJob) => void;
  /** The job's worker process died under it (`how`: its signal or exit code); the job runs again. */
  onRerun?: (job: SweepJob, how: string) => void;
  /**
   * A queue worker gave the job back unrun (`why`, naming the worker): it cannot get the job's data,
   * or it is of another build than the sweep's (`cause` 'build').
   */
  onGivenBack?: (job: SweepJob, why: string, cause?: 'data' | 'build') => void;
  onResult: (job: SweepJob, result: JobResult) => void;
}

interface Slot {
  proc: ChildProcess;
  /** Given to the worker, in order: the first one runs. */
  jobs: SweepJob[];
  ready: boolean;
}

/** What the running sweep does with its workers' messages and exits (run()). */
interface RunHandlers {
  ready(slot: Slot): void;
  started(job: SweepJob): void;
  result(slot: Slot, result: JobResult): void;
  exit(slot: Slot, how: string): void;
}

const exited = (s: Slot) => new Promise((r) => (s.proc.exitCode !== null ? r(null) : s.proc.once('exit', r)));

export class LocalPool {
  private readonly size: number;
  private readonly slots = new Set<Slot>();
  private stopping = false;
  private resolveRun: (() => void) | null = null;
  private handlers: RunHandlers | null = null;

  private forked = false;

  constructor(workers: number) {
    this.size = workers;
  }

  /**
   * Forks the workers ahead of run(): each warms up (worker-process.ts) while the coordinator
   * packs and checks its sweep. run() forks them itself when this was not called.
   */
  warm(): void {
    if (this.forked || this.stopping) return;
    this.forked = true;
    for (let i = 0; i < this.size; i++) this.spawnOne();
  }

  private spawnOne(): void {
    // the worker and its bots share Node's compile cache (compile-cache.ts)
    const proc = fork(WORKER_FILE, [], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      execArgv: [],
      env: { ...process.env, ...compileCacheEnv(defaultCacheDir()) },
    });
    const slot: Slot = { proc, jobs: [], ready: false };
    this.slots.add(slot);
    proc.on('message', (m: FromWorker) => {
      if (m.type === 'ready') {
        slot.ready = true;
        this.handlers?.ready(slot);
      } else if (m.type === 'started' && slot.jobs[0]?.id === m.jobId) this.handlers?.started(slot.jobs[0]);
      else if (m.type === 'result' && slot.jobs.length > 0) this.handlers?.result(slot, m.result);
      else if (m.type === 'error' && slot.jobs.length > 0)
        this.handlers?.result(slot, errorResult(slot.jobs[0], m.message));
    });
    proc.on('exit', (code, signal) => {
      if (!this.slots.delete(slot) || this.stopping) return;
      this.handlers?.exit(slot, signal ?? `exit ${code}`);
    });
  }

  /** Runs the jobs; resolves when each has a result (or the pool was stopped). */
  run(jobs: readonly SweepJob[], pack: PackRef, ev: RunnerEvents): Promise<void> {
    const queue = jobs.slice();
    const tries = new Map<string, number>();
    let left = jobs.length;
    return new Promise<void>((resolve) => {
      this.resolveRun = resolve;
      // forked by warm() for fewer jobs than workers: the others go (they would have none)
      const leaving = [...this.slots].slice(jobs.length).map((s) => {
        this.slots.delete(s);
        s.proc.disconnect();
        return exited(s);
      });
      const finish = () => {
        this.handlers = null;
        // the workers exit on the disconnect; run() resolves once they are gone (reaped)
        const gone = [...this.slots].map(exited);
        for (const s of this.slots) s.proc.disconnect();
        this.slots.clear();
        void Promise.all([...gone, ...leaving]).then(() => resolve());
      };
      if (left === 0) return finish();
      // a job is tried when it is the first its worker holds; it starts with its bot (the worker says)
      const tried = (job: SweepJob) => tries.set(job.id, (tries.get(job.id) ?? 0) + 1);
      const feed = (slot: Slot) => {
        while (!this.stopping && slot.ready && slot.jobs.length < DEPTH && queue.length > 0) {
          // a next job only while there is one for every worker
          if (slot.jobs.length > 0 && queue.length < this.slots.size) return;
          const job = queue.shift()!;
          slot.jobs.push(job);
          if (slot.jobs.length === 1) tried(job);
          slot.proc.send({ type: 'job', job, pack } satisfies ToWorker);
        }
      };
      this.handlers = {
        ready: feed,
        started: (job) => ev.onStart?.(job),
        result: (slot, result) => {
          const job = slot.jobs.shift()!;
          ev.onResult(job, result);
          if (slot.jobs.length > 0) tried(slot.jobs[0]);
          if (--left === 0) finish();
          else feed(slot);
        },
        exit: (slot, how) => {
          const [job, ...next] = slot.jobs;
          queue.unshift(...next);
          if (job !== undefined) {
            ev.onStop?.(job);
            if ((tries.get(job.id) ?? 0) < ATTEMPTS) {
              queue.unshift(job);
              ev.onRerun?.(job, how);
            } else {
              ev.onResult(job, errorResult(job, `its worker process died twice (last: ${how})`));
              if (--left === 0) return finish();
            }
          }
          if (queue.length > 0) this.spawnOne();
        },
      };
      // forked now, or replacing one lost while it warmed up
      this.forked = true;
      for (let i = this.slots.size; i < Math.min(this.size, jobs.length); i++) this.spawnOne();
      for (const s of this.slots) feed(s);
    });
  }

  /** Stops every worker now (their jobs are left without a result, to be resumed). */
  stop(): void {
    this.stopping = true;
    this.handlers = null;
    // a worker told to go takes its running bot with it (worker-process.ts)
    for (const s of this.slots) s.proc.kill('SIGTERM');
    this.slots.clear();
    this.resolveRun?.();
  }

  /** Process ids of the live workers (tests kill one). */
  pids(): number[] {
    return [...this.slots].map((s) => s.proc.pid!).filter((p) => p !== undefined);
  }
}
