// The distributed runner: BullMQ over Redis (no protocol of our own). The coordinator adds a
// sweep's jobs to one queue (job id `SWEEP-INDEX`, so adding one twice is a no-op), workers on
// any machine take them (`npm run sweep:worker`), and the coordinator collects each finished
// job's result from Redis, stores it (once: the store refuses a second result) and removes it.
// A worker that dies mid-job stops renewing its lock: another worker's stalled-job check puts the
// job back, and it runs again. A job Redis lost (a restart without persistence) is added again
// by the coordinator's periodic check of its pending jobs. A bot's failure is a job's result,
// not a queue failure: only a job that could not run at all is retried (attempts).
import { hostname } from 'node:os';
import { Queue, QueueEvents, WaitingError, Worker, type ConnectionOptions, type Job } from 'bullmq';
import type { RedisOptions } from 'ioredis';
import { buildId, buildMismatch } from './build-id.ts';
import { defaultCacheDir } from './compile-cache.ts';
import { errorResult, type JobResult, type SweepJob } from './job.ts';
import type { OpenPack, PackRef } from './pack.ts';
import { PackBackoff, type SayLack } from './pack-backoff.ts';
import { PackCache } from './pack-cache.ts';
import { PackServer } from './pack-server.ts';
import { handOver, queuedJobs, type QueueData } from './queue-jobs.ts';
import { reachRedis, shownUrl } from './redis-url.ts';
import type { RunnerEvents } from './pool.ts';
import { RunGate } from './run-gate.ts';
import { openJobVenue, runJob, type JobVenue } from './run-job.ts';
import { warmUp } from './warm-up.ts';
import { lockHolder, type SayRedis, WorkerLines } from './worker-lines.ts';

class BuildError extends Error {}

/** One queue for every sweep: a sweep's jobs are told apart by their ids (queueJobId). */
export const QUEUE = 'perpdesk-sweep';
/** Tries of a job that could not run (its data unreachable...); a bot's failure is not retried. */
const ATTEMPTS = 3;
const POLL_MS = 300;
/** Every this many polls the coordinator checks that Redis still holds every pending job. */
const RECONCILE_EVERY = 10;
/** A poll unanswered this long: Redis is away (ioredis holds the commands until it is back). */
const UNANSWERED_MS = 3000;
/** stop() waits this long for the connections to close, then drops them (a Redis that is away). */
const STOP_WAIT_MS = 3000;

/** Resolves after ms, or at once with `cancel()`; keeps nothing alive after. */
function timer(ms: number): { done: Promise<void>; cancel: () => void } {
  let cancel: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    cancel = () => {
      clearTimeout(t);
      resolve();
    };
  });
  return { done, cancel };
}

/** Long-lived connections retry for ever (a Redis restart is waited out), as BullMQ requires. */
function connection(opts: RedisOptions): ConnectionOptions {
  return { ...opts, maxRetriesPerRequest: null, enableReadyCheck: true } as ConnectionOptions;
}

export const queueJobId = (j: Pick<SweepJob, 'sweepId' | 'index'>) => `${j.sweepId}-${j.index}`;

export interface QueueRunnerOptions {
  /** Serve the pack at this base URL (http://HOST:PORT) for workers that lack it. */
  packUrl?: string;
  log?: (line: string) => void;
  /** The build handed to the workers with each job; default this checkout's (build-id.ts). */
  build?: string;
}

export class QueueRunner {
  private readonly url: string;
  private readonly opts: RedisOptions;
  private readonly o: QueueRunnerOptions;
  private stopped = false;
  /** Resolves at stop(): every wait on Redis races it, so a Redis that is away holds nothing up. */
  private readonly stopping: Promise<void>;
  private signalStop: () => void = () => undefined;
  private stopDone: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  /** Serves the pack to workers without it (--pack-url), bound at connect. */
  private readonly server: PackServer | null;
  private closers: Array<() => Promise<void>> = [];
  /** Drop the connections without waiting for Redis (their queued commands fail). */
  private droppers: Array<() => void> = [];

  private constructor(url: string, opts: RedisOptions, o: QueueRunnerOptions, server: PackServer | null) {
    this.url = url;
    this.opts = opts;
    this.o = o;
    this.server = server;
    this.stopping = new Promise((resolve) => (this.signalStop = resolve));
  }

  /** What p gives, or 'stopped' once stop() is called (p may wait on a Redis that went away). */
  private orStop<T>(p: Promise<T>): Promise<{ value: T } | 'stopped'> {
    return Promise.race([p.then((value) => ({ value })), this.stopping.then(() => 'stopped' as const)]);
  }

  /**
   * Reaches Redis and binds the --pack-url, checked first: a URL or a port that cannot serve the
   * pack is a QueueError (a usage error) before the sweep is planned or recorded.
   */
  static async connect(url: string, o: QueueRunnerOptions = {}): Promise<QueueRunner> {
    const listen = o.packUrl === undefined ? undefined : PackServer.check(o.packUrl);
    const opts = await reachRedis(url);
    return new QueueRunner(url, opts, o, listen === undefined ? null : await listen());
  }

  async run(jobs: readonly SweepJob[], packRef: PackRef, ev: RunnerEvents): Promise<void> {
    if (jobs.length === 0 || this.stopped) return;
    const sweepId = jobs[0].sweepId;
    const pack = this.server === null ? packRef : this.server.serve(packRef);
    const queue = new Queue(QUEUE, { connection: connection(this.opts) });
    const events = new QueueEvents(QUEUE, { connection: connection(this.opts) });
    this.closers.push(
      () => queue.close(),
      () => events.close(),
    );
    const drop = (c: Queue | QueueEvents) => () => {
      c.disconnect().catch(() => undefined);
    };
    this.droppers.push(drop(queue), drop(events));
    let down = false;
    const away = (why: string) => {
      if (!down && !this.stopped) this.o.log?.(`redis at ${shownUrl(this.url)}: ${why}; retrying`);
      down = true;
    };
    // the connections' own errors (ECONNREFUSED while they reconnect) tell of a Redis gone at once
    queue.on('error', (err) => away(err.message));
    events.on('error', (err) => away(err.message));
    const pending = new Map(jobs.map((j) => [queueJobId(j), j]));
    const poke = () => this.wake?.();
    // a job runs from its bot's start (the worker sets its progress then, again when it runs
    // again), not from when a worker takes it: a worker holds its next job, its venue started
    // ahead, while another runs
    // a worker that cannot get the pack gives the job back unrun, and says why in its progress
    events.on('progress', ({ jobId, data }) => {
      const j = pending.get(jobId);
      if (j === undefined || this.stopped) return;
      const d = typeof data === 'object' && data !== null ? (data as { lacks?: unknown; build?: unknown }) : {};
      if (typeof d.lacks === 'string') ev.onGivenBack?.(j, d.lacks, d.build === true ? 'build' : 'data');
      else ev.onStart?.(j);
    });
    // its worker died: its bot with it, the job back on the queue
    events.on('stalled', ({ jobId }) => {
      const j = pending.get(jobId);
      if (j !== undefined && !this.stopped) ev.onStop?.(j);
    });
    events.on('completed', poke);
    events.on('failed', poke);
    const build = this.o.build ?? buildId();
    const add = (js: readonly SweepJob[]) =>
      queue.addBulk(
        js.map((j) => ({
          name: sweepId,
          data: { job: j, pack, build },
          opts: {
            jobId: queueJobId(j),
            attempts: ATTEMPTS,
            backoff: { type: 'fixed', delay: 1000 },
            removeOnComplete: false,
            removeOnFail: false,
          },
        })),
      );
    // listening before the first job can start (a start told earlier would not be heard)
    // a resume's jobs that Redis held already are handed this run's pack place (--pack-url) and build
    const ids = [...pending.keys()];
    const ready = events.waitUntilReady().then(() => add(jobs).then(() => handOver(queue, ids, pack, build)));
    if ((await this.orStop(ready)) === 'stopped') return;
    let polls = 0;
    // said once while no worker listens (a sweep started before its workers, or on another database)
    let toldNoWorker = false;
    while (pending.size > 0 && !this.stopped) {
      const poll = (async () => {
        await this.collect(queue, sweepId, pending, ev);
        if (++polls % RECONCILE_EVERY !== 0) return;
        await this.reconcile(queue, pending, add);
        const any = await this.anyWorker(queue);
        if (any === false && !toldNoWorker && pending.size > 0 && !this.stopped) {
          const url = shownUrl(this.url);
          this.o.log?.(
            `no queue worker takes jobs from ${url}: the ${pending.size} job(s) left wait for one ` +
              `(npm run sweep:worker -- --queue ${url})`,
          );
        }
        if (any !== null) toldNoWorker = !any;
      })().then(
        () => null,
        (err: unknown) => (err instanceof Error ? err.message : String(err)),
      );
      // a Redis that is away leaves the poll waiting (its commands held until Redis is back):
      // said after a while, and Ctrl-C does not wait for it
      let got: { value: string | null } | 'stopped' | 'slow';
      for (;;) {
        const slow = timer(UNANSWERED_MS);
        got = await Promise.race([this.orStop(poll), slow.done.then(() => 'slow' as const)]);
        slow.cancel();
        if (got !== 'slow') break;
        away(`no answer for ${UNANSWERED_MS / 1000} s`);
      }
      if (got === 'stopped') break;
      if (got.value !== null) away(got.value);
      else {
        if (down) this.o.log?.(`redis at ${shownUrl(this.url)} is back`);
        down = false;
      }
      if (pending.size === 0) break;
      const pause = timer(POLL_MS);
      this.wake = pause.cancel;
      await pause.done;
      this.wake = null;
    }
  }

  /** Stores the results of this sweep's finished jobs and removes them from Redis. */
  private async collect(
    queue: Queue,
    sweepId: string,
    pending: Map<string, SweepJob>,
    ev: RunnerEvents,
  ): Promise<void> {
    const finished = (await queue.getJobs(['completed', 'failed'], 0, 999)) as Array<Job<QueueData, JobResult>>;
    for (const j of finished) {
      if (j === undefined || j.name !== sweepId || j.id === undefined) continue;
      const state =
        j.returnvalue != null && j.finishedOn !== undefined && j.failedReason === undefined
          ? 'completed'
          : await j.getState();
      // stopped meanwhile (a poll that waited on Redis): what is left waits in Redis for --resume
      if (this.stopped) return;
      const mine = pending.get(j.id);
      if (mine !== undefined) {
        if (state === 'completed') ev.onResult(mine, j.returnvalue);
        else if (state === 'failed') ev.onResult(mine, errorResult(mine, `the queue gave up on it: ${j.failedReason}`));
        else continue;
        pending.delete(j.id);
      }
      await j.remove();
    }
  }

  /**
   * Whether a queue worker listens on this Redis database (CLIENT LIST, as BullMQ's getWorkers
   * reads it: a worker's connections are named after the queue); null when they cannot be counted
   * (CLIENT LIST refused by some hosted Redis). A worker on another database takes none of its jobs.
   */
  private async anyWorker(queue: Queue): Promise<boolean | null> {
    const clients = await queue.getWorkers().catch(() => null);
    if (clients === null || clients.some((c) => typeof c.rawname !== 'string')) return null;
    const db = String(this.opts.db ?? 0);
    return clients.some((c) => c.db === undefined || c.db === db);
  }

  /** Adds again the pending jobs Redis no longer holds (it restarted without its data). */
  private async reconcile(
    queue: Queue,
    pending: Map<string, SweepJob>,
    add: (js: readonly SweepJob[]) => Promise<unknown>,
  ): Promise<void> {
    const ids = [...pending.keys()];
    const got = await queuedJobs(queue, ids);
    const lost = ids.filter((_, k) => got[k] === undefined).map((id) => pending.get(id)!);
    if (lost.length > 0) {
      this.o.log?.(`${lost.length} jobs were no longer in Redis: added again`);
      await add(lost);
    }
  }

  /**
   * Stops the run (it returns at once, whatever Redis does) and closes the connections: at most
   * STOP_WAIT_MS, then they are dropped (a Redis that is away answers no QUIT). Once: a second
   * call waits for the first.
   */
  stop(): Promise<void> {
    this.stopDone ??= this.close();
    return this.stopDone;
  }

  private async close(): Promise<void> {
    this.stopped = true;
    this.signalStop();
    this.wake?.();
    const closed = Promise.allSettled(this.closers.map((c) => c()));
    const bound = timer(STOP_WAIT_MS);
    const inTime = await Promise.race([closed.then(() => true), bound.done.then(() => false)]);
    bound.cancel();
    if (!inTime) {
      this.o.log?.(`redis at ${shownUrl(this.url)}: no answer in ${STOP_WAIT_MS / 1000} s; its connections dropped`);
      for (const d of this.droppers) d();
    }
    this.closers = [];
    this.droppers = [];
    await this.server?.close();
  }
}

/** Redis's run_id (INFO server): a new one is a new redis-server process. */
function runIdOf(client: { info: (section: string) => Promise<string> }): Promise<string | null> {
  return client.info('server').then((s) => /^run_id:(\w+)/m.exec(s)?.[1] ?? null);
}

export interface QueueWorkerOptions {
  url: string;
  /** Jobs run at once (bots); the worker holds one more, its venue started ahead. */
  concurrency: number;
  cacheDir?: string;
  /** A worker silent this long is taken for dead and its job given to another, ms. */
  stallMs?: number;
  log: (line: string) => void;
  /** Says what the worker lacks, once a pack (pack-backoff.ts); default: `log`. */
  sayLack?: SayLack;
  /** Says that Redis went away or is back (worker-lines.ts); default: `log`. */
  sayRedis?: SayRedis;
}

/**
 * Takes jobs from the queue until SIGINT / SIGTERM (or its parent process goes). The BullMQ Worker
 * takes one job more than it runs (concurrency + 1): that job's venue starts as soon as the running
 * job's bot is spawned, and its bot once a run slot is free (run-gate.ts). It stays an active job
 * of BullMQ's whose lock is renewed while it waits, so a worker killed with kill -9 loses both to
 * stalled-job detection. Its time bound starts with its bot (run-job.ts), and the coordinator counts
 * it running from then on (the job's progress, set when its bot is spawned). Near a sweep's end
 * a worker gives its next job back to the queue rather than keep it from a free worker (fairToKeep).
 */
export async function runQueueWorker(o: QueueWorkerOptions): Promise<void> {
  const opts = await reachRedis(o.url);
  const packs = new PackCache(o.cacheDir ?? defaultCacheDir());
  // a worker's two jobs ask for the same pack at once: one fetch, one open
  const loading = new Map<string, Promise<OpenPack>>();
  const getPack = (ref: PackRef): Promise<OpenPack> => {
    let p = loading.get(ref.sha256);
    if (p === undefined) {
      p = packs.get(ref);
      loading.set(ref.sha256, p);
      p.catch(() => loading.delete(ref.sha256));
    }
    return p;
  };
  const stallMs = o.stallMs ?? 30_000;
  // before taking a job: its first job's venue then starts as fast as a later one's (warm-up.ts)
  const cold = await warmUp();
  if (cold !== null)
    o.log(`perpdesk sweep worker: the warm-up job did not end well (${cold}); the first job starts cold`);
  const gate = new RunGate(o.concurrency);
  const counts = new Queue(QUEUE, { connection: connection(opts) });
  // a Redis away and back, once each; BullMQ's other errors in words (worker-lines.ts)
  const lines = new WorkerLines(o.url, o.log, { inspect: lockHolder(counts), lockMs: stallMs, sayRedis: o.sayRedis });
  counts.on('error', (err) => lines.error(err));
  // Redis's run_id before the first job: one that changes while a job runs is a Redis restarted
  lines.runId(runIdOf(await counts.backend.connection.client));
  // the worker's connections carry a name of its own, so that each worker can count the others
  // (CLIENT LIST, as BullMQ's getWorkers reads it)
  const named = `bull:${Buffer.from(QUEUE).toString('base64')}:w:`;
  const me = `${named}${hostname()}-${process.pid}`;
  /**
   * Whether a job taken ahead is fair to keep: the unfinished jobs (waiting, and held by the
   * workers, this one included) are at least 2W - 1 for W workers. Then a worker that holds nothing
   * has a job to take (the W - 1 others hold at most 2W - 2), so none sits idle while another
   * holds two. When the workers cannot be counted (CLIENT LIST refused by some hosted Redis): kept
   * while at least one job waits.
   */
  const fairToKeep = async (): Promise<boolean> => {
    try {
      const [waiting, active, clients] = await Promise.all([
        counts.getWaitingCount(),
        counts.getActiveCount(),
        counts.getWorkers().catch(() => []),
      ]);
      const names = new Set(clients.map((c) => c.rawname).filter((n) => n.startsWith(named)));
      return names.has(me) ? waiting + active >= 2 * names.size - 1 : waiting >= 1;
    } catch (err) {
      o.log(
        `perpdesk sweep worker: cannot read the queue's length (${err instanceof Error ? err.message : err}); job kept`,
      );
      return true;
    }
  };
  const giveBack = async (job: Job<QueueData, JobResult>, token: string | undefined, why: string): Promise<never> => {
    // not taken again at once by this worker: one job less until its running job ends
    worker.concurrency = o.concurrency;
    await job.moveToWait(token);
    o.log(`job ${job.id} given back: ${why}`);
    throw new WaitingError();
  };
  const lacking = new PackBackoff(o.sayLack ?? ((_, line) => o.log(line)));
  /**
   * A job whose pack this worker cannot get goes back to the queue unattempted (moveToWait: no
   * attempt counted) for a worker that has it, the coordinator told why (the job's progress), and
   * this worker takes no job for a while (paused; 2 s, doubling to 60 s, until a pack is got).
   */
  const noPack = async (job: Job<QueueData, JobResult>, token: string | undefined, err: unknown): Promise<never> => {
    const why = err instanceof Error ? err.message : String(err);
    const build = err instanceof BuildError;
    if (build) lacking.tellBuild(job.data.build!, why);
    else lacking.tell(job.data.pack, why, { id: job.data.job.sweepId, queue: shownUrl(o.url) });
    await job.updateProgress({ lacks: `worker ${hostname()}-${process.pid}: ${why}`, build }).catch(() => undefined);
    await job.moveToWait(token);
    lacking.pause(worker);
    throw new WaitingError();
  };
  const processJob = async (job: Job<QueueData, JobResult>, token?: string): Promise<JobResult> => {
    let slot = gate.tryRun();
    try {
      let pack: OpenPack;
      try {
        const other = buildMismatch(job.data.build);
        if (other !== null) throw new BuildError(other);
        pack = await getPack(job.data.pack);
        lacking.got();
      } catch (err) {
        return await noPack(job, token, err);
      }
      let venue: Promise<JobVenue> | undefined;
      if (!slot) {
        if (!(await fairToKeep())) return await giveBack(job, token, 'the queue is short, for a free worker');
        const unlock = await gate.lock();
        venue = openJobVenue(job.data.job, pack.data);
        const v = await venue.finally(unlock);
        o.log(`job ${job.id}: its venue started ahead`);
        slot = await gate.run();
        if (!slot) {
          if (!('error' in v)) await v.svc.close();
          return await giveBack(job, token, 'the worker stops');
        }
      }
      const unlock = await gate.lock();
      try {
        return await runJob(job.data.job, {
          data: pack.data,
          venue,
          onBotSpawned: () => {
            unlock();
            o.log(`job ${job.id} started`);
            job.updateProgress(1).catch((err: unknown) => lines.startNotTold(job.id, err));
          },
        });
      } finally {
        unlock();
      }
    } finally {
      if (slot) {
        gate.done();
        worker.concurrency = o.concurrency + 1;
      }
    }
  };
  // one Node process runs one venue at a time well: N jobs at once are N processes (the CLI)
  const worker = new Worker(QUEUE, processJob, {
    connection: { ...connection(opts), connectionName: me } as ConnectionOptions,
    concurrency: o.concurrency + 1,
    lockDuration: stallMs,
    // the check is cheap: a dead worker's job goes back soon after its lock expires
    stalledInterval: Math.min(5000, Math.max(500, Math.round(stallMs / 2))),
    maxStalledCount: 2,
  });
  worker.on('error', (err) => lines.error(err));
  // a connection ready again: Redis is back, maybe restarted (its run_id read again)
  for (const q of [worker, counts]) {
    const client = await q.backend.connection.client;
    client.on('ready', () => {
      lines.ready();
      lines.runId(runIdOf(client));
    });
  }
  worker.on('active', (job) => {
    lines.taken(job.id);
    o.log(`job ${job.id} taken`);
  });
  worker.on('completed', (job, r: JobResult) => {
    lines.ended(job.id);
    o.log(`job ${job.id} ${r.status} (${r.wallMs} ms)`);
  });
  worker.on('failed', (job, err) => {
    lines.ended(job?.id);
    o.log(`job ${job?.id} could not run: ${err.message}`);
  });
  o.log(`perpdesk sweep worker ${process.pid}: taking jobs from ${shownUrl(o.url)} (${o.concurrency} at once)`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    process.once('disconnect', stop);
  });
  // the jobs waiting for a slot go back to the queue; the running ones end
  lacking.close();
  gate.close();
  await worker.close();
  await counts.close();
  packs.close();
}
