// What a queue worker (queue.ts runQueueWorker) prints of what BullMQ and Redis report: a Redis
// that went away and came back (one line each, as the coordinator says them), and a job that is
// no longer this worker's in place of BullMQ's raw `Missing key for job ID. ...`.
import { ErrorCode } from 'bullmq';
import { shownUrl } from './redis-url.ts';

type QueueErr = Error & { code?: unknown };

const LOST = [ErrorCode.JobNotExist, ErrorCode.JobLockNotExist, ErrorCode.JobLockMismatch];

/** The job a BullMQ error about a job names (`Missing key for job ID. cmd`), if it is one of those. */
function lostJob(err: QueueErr): string | undefined {
  if (typeof err.code !== 'number' || !LOST.includes(err.code)) return undefined;
  return /for job (\S+?)\.? /.exec(err.message)?.[1];
}

/**
 * What a queue worker prints for an error BullMQ reports: a job this worker ran but no longer
 * holds when it finishes (its lock lapsed while the worker was paused or cut off from Redis, and
 * the job went to another worker or its sweep was removed) gets a sentence, not BullMQ's `Missing
 * key for job ID. moveToFinished`; anything else is BullMQ's message.
 */
export function workerErrorLine(err: QueueErr): string {
  const id = lostJob(err);
  if (id !== undefined)
    return (
      `perpdesk sweep worker: job ${id} was no longer this worker's when it ended (its lock lapsed while ` +
      'the worker was paused or cut off from Redis; another worker runs it, or its sweep was removed): ' +
      'its outcome here is dropped'
    );
  return `perpdesk sweep worker: ${err.message}`;
}

/** A connection's own error (ECONNREFUSED, ECONNRESET, ETIMEDOUT...): Redis is away. */
function isConnectionError(err: QueueErr): boolean {
  return typeof err.code === 'string' && /^E[A-Z]+$/.test(err.code);
}

/**
 * The worker's lines about its Redis and BullMQ's errors: `redis at URL: WHY; retrying` once when
 * it goes away, `redis at URL is back` once when a connection is ready again (as the coordinator
 * says them), and each other error once in a row.
 */
export class WorkerLines {
  private readonly url: string;
  private readonly log: (line: string) => void;
  private down = false;
  private last = '';

  constructor(url: string, log: (line: string) => void) {
    this.url = shownUrl(url);
    this.log = log;
  }

  /** An error of the worker's or of one of its connections. */
  error(err: QueueErr): void {
    if (isConnectionError(err)) {
      if (!this.down) this.log(`perpdesk sweep worker: redis at ${this.url}: ${err.message}; retrying`);
      this.down = true;
      return;
    }
    const line = workerErrorLine(err);
    if (line !== this.last) this.log(line);
    this.last = line;
  }

  /** A connection is ready (again). */
  ready(): void {
    if (this.down) this.log(`perpdesk sweep worker: redis at ${this.url} is back`);
    this.down = false;
  }
}
