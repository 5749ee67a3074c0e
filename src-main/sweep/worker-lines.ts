// What a queue worker (queue.ts runQueueWorker) prints of what BullMQ and Redis report: a Redis
// that went away and came back (one line each, as the coordinator says them), a job Redis lost
// (a restart without persistence) or that is no longer this worker's, once a job, in place of
// BullMQ's raw `Missing key for job ID. ...` and `could not renew lock for job ID`.
import { ErrorCode, type Queue } from 'bullmq';
import { shownUrl } from './redis-url.ts';

type QueueErr = Error & { code?: unknown };

const LOST = [ErrorCode.JobNotExist, ErrorCode.JobLockNotExist, ErrorCode.JobLockMismatch];

/** The job a BullMQ error about a job names (`Missing key for job ID. cmd`), if it is one of those. */
function lostJob(err: QueueErr): string | undefined {
  if (typeof err.code !== 'number' || !LOST.includes(err.code)) return undefined;
  return /for job (\S+?)\.? /.exec(err.message)?.[1];
}

/** The job of BullMQ's `could not renew lock for job ID` (an error without a code), if it is that. */
function lockNotRenewed(err: QueueErr): string | undefined {
  return /^could not renew lock for job (\S+)$/.exec(err.message)?.[1];
}

/**
 * Where a job's lock is, read from Redis when its renewal failed: the job gone from Redis, its lock
 * held by another token (another worker's), or no lock at all (it ran out).
 */
type LockHolder = 'gone' | 'other' | 'none';

/** Reads where a job of `queue` has its lock now (a job whose renewal failed: another token's, or none). */
export function lockHolder(queue: Queue): (jobId: string) => Promise<LockHolder> {
  return async (jobId) => {
    const client = await queue.backend.connection.client;
    const key = queue.toKey(jobId);
    const [job, lock] = await Promise.all([client.hexists(key, 'name'), client.get(`${key}:lock`)]);
    return job === 0 ? 'gone' : lock === null ? 'none' : 'other';
  };
}

/** What was seen of a job whose lock could not be renewed: the cause, when it can be known. */
interface LockSeen {
  restarted: boolean;
  /** The longest time this worker was cut off from Redis since it took the job (ms), 0 for none. */
  cutOffMs: number;
  /** Where its lock is (undefined: not read, Redis not answering). */
  holder?: LockHolder;
  lockMs: number;
}

const secs = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/**
 * What a worker prints when it cannot renew a running job's lock (BullMQ says so at every
 * renewal): the job is no longer its own, the bot runs on but its outcome is dropped. The cause
 * as far as it is known: a Redis restarted (its run_id changed since the job was taken), this
 * worker cut off from Redis longer than the lock, the job gone from Redis, its lock taken by another
 * worker or run out while this worker did not renew it; all of them when none can be told.
 */
function lockLine(id: string, seen?: LockSeen): string {
  const head = `perpdesk sweep worker: job ${id} is no longer this worker's (its lock could not be renewed: `;
  const dropped = 'its bot runs on here, but its outcome will be dropped';
  const again = "the sweep's coordinator adds the job again (within seconds, or at its --resume) and that run counts";
  const lock = seen === undefined ? '' : `its lock (${secs(seen.lockMs)})`;
  const next =
    seen?.holder === 'other'
      ? "another worker took the job over, and that worker's run counts"
      : seen?.holder === 'gone'
        ? `Redis no longer holds the job (its sweep was removed, or Redis lost it); ${again}`
        : 'a stalled-job check gives the job to a worker again (this one or another), and that run counts';
  if (seen?.restarted === true)
    return (
      `${head}Redis restarted while it ran (its run_id changed), and a Redis without persistence loses its jobs' ` +
      `locks): ${dropped}; ${again} (appendonly yes on the sweep's Redis loses nothing)`
    );
  if (seen !== undefined && seen.cutOffMs * 2 >= seen.lockMs && seen.holder !== undefined)
    return `${head}this worker could not reach Redis for ${secs(seen.cutOffMs)}, and ${lock} ran out meanwhile): ${dropped}; ${next}`;
  if (seen?.holder === 'gone')
    return `${head}Redis no longer holds the job: its sweep was removed, or Redis lost it): ${dropped}; ${again}`;
  if (seen?.holder === 'other' || seen?.holder === 'none')
    return (
      `${head}${lock} ran out: this worker did not renew it in time, its process paused or its event loop held up, ` +
      `and ${seen.holder === 'other' ? 'a stalled-job check gave the job to another worker' : 'no worker holds it now'}): ` +
      `${dropped}; ${next}`
    );
  return (
    `${head}Redis lost ` +
    'the job, restarted without persistence, or the lock lapsed while this worker was paused or cut off from ' +
    "Redis, or its sweep was removed): its bot runs on here, but its outcome will be dropped; the run that counts is the one the sweep's " +
    'coordinator adds again (within seconds, or at its --resume) or another worker holds'
  );
}

/**
 * What a queue worker prints for an error BullMQ reports: a job this worker ran but no longer
 * holds when it finishes gets a sentence, not BullMQ's `Missing key for job ID. moveToFinished`;
 * anything else is BullMQ's message. `restarted`: Redis restarted while the job ran (its run_id
 * changed), which lost its data, and so the job's lock, unless it persists it: that is the cause,
 * not a lock that lapsed.
 */
export function workerErrorLine(err: QueueErr, restarted = false): string {
  const id = lostJob(err);
  const end = `perpdesk sweep worker: job ${id} was no longer this worker's when it ended`;
  if (id !== undefined && restarted)
    return (
      `${end} (Redis restarted while it ran: its run_id changed, and a Redis without persistence loses its data, ` +
      `${err.code === ErrorCode.JobNotExist ? 'this job' : "this job's lock"} with it; the sweep's coordinator adds ` +
      "the job again and that run counts; appendonly yes on the sweep's Redis loses nothing): its outcome here is dropped"
    );
  if (id !== undefined && err.code === ErrorCode.JobNotExist)
    return (
      `${end} (Redis no longer holds it: restarted without persistence, or its sweep was removed; the sweep's ` +
      'coordinator adds it again): its outcome here is dropped'
    );
  if (id !== undefined)
    return (
      `${end} (its lock lapsed while the worker was paused or cut off from Redis; another worker runs it, or ` +
      'its sweep was removed): its outcome here is dropped'
    );
  return `perpdesk sweep worker: ${err.message}`;
}

/**
 * What a worker prints when it cannot tell the coordinator a job's start (its progress): a job
 * Redis no longer holds (BullMQ's `Missing key for job ID. updateProgress`) lost its record, as a
 * Redis restarted without persistence loses every job; anything else is said as it is.
 */
function startNotToldLine(jobId: string | undefined, err: unknown): string {
  if (err instanceof Error && (err as QueueErr).code === ErrorCode.JobNotExist)
    return (
      `perpdesk sweep worker: job ${jobId} is no longer in Redis (its record was lost: Redis restarted without ` +
      'persistence, or its sweep was removed): its bot runs on here, but its outcome will be dropped; the ' +
      "sweep's coordinator adds the job again (within seconds, or at its --resume) and that run counts " +
      "(appendonly yes on the sweep's Redis loses nothing)"
    );
  return `perpdesk sweep worker: job ${jobId}: its start not told (${err instanceof Error ? err.message : err})`;
}

/** A connection's own error (ECONNREFUSED, ECONNRESET, ETIMEDOUT...): Redis is away. */
function isConnectionError(err: QueueErr): boolean {
  return typeof err.code === 'string' && /^E[A-Z]+$/.test(err.code);
}

/**
 * The worker's lines about its Redis and BullMQ's errors: `redis at URL: WHY; retrying` once when
 * it goes away, `redis at URL is back` once when a connection is ready again (as the coordinator
 * says them), and each other error once in a row; a job lost or no longer this worker's is told
 * once a job (BullMQ reports both its failed completion and its failed failure).
 */
/**
 * Says that Redis went away or is back (default: the worker's log); the processes of one
 * `sweep:worker --concurrency N` hand it to the command's own process, which says it once for all.
 */
export type SayRedis = (state: 'away' | 'back', line: string) => void;

export class WorkerLines {
  private readonly url: string;
  private readonly log: (line: string) => void;
  private down = false;
  private last = '';
  private readonly toldJobs = new Set<string>();
  /** Redis's run_id as last read (at connect, at each reconnect) and how many times it changed. */
  private redisRunId: string | null = null;
  private restarts = 0;
  /** The last read of run_id (at a reconnect, before the renewal that failed is answered). */
  private reading: Promise<void> = Promise.resolve();
  /**
   * The restarts counted when each job held here was taken, oldest first: a job Redis lost and the
   * coordinator added again can be taken again while its first run goes on (a few thousand jobs at
   * most: the oldest dropped).
   */
  private readonly takenAt = new Map<string, Array<{ restarts: number; at: number }>>();
  /** When Redis went away (ms), null while it is there; the times it was away, newest last (a few). */
  private downSince: number | null = null;
  private readonly outages: Array<{ from: number; to: number }> = [];
  private readonly inspect?: (jobId: string) => Promise<LockHolder>;
  private readonly lockMs: number;
  private readonly sayRedis: SayRedis;

  /**
   * `inspect` reads where a job's lock is when its renewal failed, for the line to name the cause;
   * `lockMs` is the workers' lock duration (--stall-ms).
   */
  constructor(
    url: string,
    log: (line: string) => void,
    o: { inspect?: (jobId: string) => Promise<LockHolder>; lockMs?: number; sayRedis?: SayRedis } = {},
  ) {
    this.url = shownUrl(url);
    this.log = log;
    this.inspect = o.inspect;
    this.lockMs = o.lockMs ?? 30_000;
    this.sayRedis = o.sayRedis ?? ((_, line) => log(line));
  }

  /** An error of the worker's or of one of its connections. */
  error(err: QueueErr): void {
    if (isConnectionError(err)) {
      if (!this.down) this.sayRedis('away', `perpdesk sweep worker: redis at ${this.url}: ${err.message}; retrying`);
      this.down = true;
      this.downSince ??= Date.now();
      return;
    }
    const locked = lockNotRenewed(err);
    if (locked !== undefined) {
      // once a job, and not after its start was told lost: BullMQ repeats it at every renewal
      if (this.told(`lock:${locked}`) || this.toldJobs.has(`start:${locked}`)) return;
      this.last = '';
      this.tellLock(locked);
      return;
    }
    const id = lostJob(err);
    if (id !== undefined) {
      if (this.told(id)) return;
      // a Redis restarted since the job was taken lost its lock (and maybe the job): that is the cause;
      // the run that lost it is the oldest held here (the one taken again after the restart runs on)
      const taken = this.takenAt.get(id)?.shift();
      this.log(workerErrorLine(err, taken !== undefined && this.restarts > taken.restarts));
      this.last = '';
      return;
    }
    const line = workerErrorLine(err);
    if (line !== this.last) this.log(line);
    this.last = line;
  }

  /**
   * The line of a job whose lock could not be renewed, naming the cause when it can be known: a
   * Redis restart or an outage of this worker's since the job was taken (its oldest run held
   * here), else where its lock is now (read from Redis); all the causes when none can be told.
   */
  private tellLock(id: string): void {
    const taken = this.takenAt.get(id)?.[0];
    if (this.inspect === undefined || taken === undefined) return this.log(lockLine(id));
    const now = Date.now();
    const spans = [...this.outages, ...(this.downSince === null ? [] : [{ from: this.downSince, to: now }])];
    const cutOffMs = Math.max(
      0,
      ...spans.filter((o) => o.to >= taken.at).map((o) => o.to - Math.max(o.from, taken.at)),
    );
    // the run_id read at the reconnect first: a restart, not the outage, is then the cause
    const seen = (holder?: LockHolder): LockSeen => ({
      restarted: this.restarts > taken.restarts,
      cutOffMs,
      holder,
      lockMs: this.lockMs,
    });
    Promise.all([this.reading, this.inspect(id)]).then(
      ([, holder]) => this.log(lockLine(id, seen(holder))),
      () => this.log(lockLine(id, seen().restarted ? seen() : undefined)),
    );
  }

  /** Whether KEY was told before; it is from now on. */
  private told(key: string): boolean {
    if (this.toldJobs.has(key)) return true;
    this.toldJobs.add(key);
    // the set stays small: a worker loses few jobs
    if (this.toldJobs.size > 1000) this.toldJobs.delete(this.toldJobs.values().next().value!);
    return false;
  }

  /**
   * Redis's run_id (INFO server), read at connect and at each reconnect (before the connection's
   * next command is answered: Redis answers in order); one that changed is a Redis restarted (a new
   * process: its data lost unless it persists it). Not read (an error): nothing changes.
   */
  runId(read: Promise<string | null>): void {
    this.reading = read.then(
      (runId) => {
        if (runId === null) return;
        if (this.redisRunId !== null && runId !== this.redisRunId) this.restarts++;
        this.redisRunId = runId;
      },
      () => undefined,
    );
  }

  /** A job taken by this worker: a Redis restart while it runs is the cause of its loss. */
  taken(jobId: string | undefined): void {
    if (jobId === undefined) return;
    const runs = this.takenAt.get(jobId) ?? [];
    runs.push({ restarts: this.restarts, at: Date.now() });
    this.takenAt.set(jobId, runs);
    if (this.takenAt.size > 5000) this.takenAt.delete(this.takenAt.keys().next().value!);
  }

  /** A job that ended here as this worker's own (completed, or failed by BullMQ): its newest run. */
  ended(jobId: string | undefined): void {
    const runs = jobId === undefined ? undefined : this.takenAt.get(jobId);
    runs?.pop();
    if (runs?.length === 0) this.takenAt.delete(jobId!);
  }

  /** A connection is ready (again). */
  ready(): void {
    if (this.down) this.sayRedis('back', `perpdesk sweep worker: redis at ${this.url} is back`);
    if (this.downSince !== null) this.outages.push({ from: this.downSince, to: Date.now() });
    if (this.outages.length > 20) this.outages.shift();
    this.downSince = null;
    this.down = false;
  }

  /** A job's start not told: said once a job. */
  startNotTold(jobId: string | undefined, err: unknown): void {
    if (jobId !== undefined && err instanceof Error && (err as QueueErr).code === ErrorCode.JobNotExist) {
      if (this.told(`start:${jobId}`)) return;
    }
    this.log(startNotToldLine(jobId, err));
  }
}
