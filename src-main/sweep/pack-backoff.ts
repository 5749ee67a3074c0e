// A queue worker that cannot get a job's dataset pack (neither in its cache, nor at the
// coordinator's path, nor from a pack server) gives the job back to the queue unattempted and
// takes no job for a while, so that workers with the data run the sweep: it once burnt each job's
// attempts a second apart and turned most of a sweep into `error` jobs. It says what it lacks and
// how to give it the data once per pack, and waits 2 s, then twice as long each time, up to 60 s.
// `npm run sweep:worker -- --concurrency N` is N such processes under one: they hand the line to
// it (`say`), which prints it once per pack for all of them (sweep-cli.ts).
import type { PackRef } from './pack.ts';

const FIRST_MS = 2_000;
const MAX_MS = 60_000;

/** What the worker pauses and resumes (BullMQ's Worker). */
interface Pausable {
  pause(doNotWaitActive?: boolean): Promise<void>;
  resume(): void | Promise<void>;
}

/** Says a pack's line: `sha256` names the pack, so a supervisor of several workers says it once. */
export type SayLack = (sha256: string, line: string) => void;

export class PackBackoff {
  private readonly say: SayLack;
  private readonly told = new Set<string>();
  private waitMs = FIRST_MS;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;

  constructor(say: SayLack) {
    this.say = say;
  }

  /**
   * Says once a pack what the worker lacks and what gives it: a sweep served by a --pack-url the
   * worker could not reach is resumed or its coordinator reached (`sweep`: its id and queue as
   * shown), not started with --pack-url, which it was.
   */
  tell(ref: PackRef, why: string, sweep?: { id: string; queue: string }): void {
    if (this.told.has(ref.sha256)) return;
    this.told.add(ref.sha256);
    const elsewhere =
      `give this machine the coordinator's data folder at the same path (${ref.path}), or put the pack in ` +
      `--cache-dir as ${ref.sha256}.db`;
    const served = ref.url === undefined ? null : new URL(ref.url).origin;
    const unreachable = served !== null && /^cannot fetch the dataset pack from \S+: (?!HTTP \d)/.test(why);
    const resume =
      sweep === undefined ? 'resume the sweep' : `npm run sweep -- --resume ${sweep.id} --queue ${sweep.queue}`;
    this.say(
      ref.sha256,
      `perpdesk sweep worker ${process.pid}: cannot get the dataset pack ${ref.sha256.slice(0, 12)} (${why}); ` +
        `its jobs go back to the queue, unrun, for workers that have it, and this worker waits before taking ` +
        `another (${FIRST_MS / 1000} s, then longer, up to ${MAX_MS / 1000} s). ` +
        (unreachable
          ? `The coordinator that serves it at ${served} is not reachable from this machine: if it stopped, start ` +
            `it again (${resume} --pack-url ${served}); if it runs, check that this machine reaches ${served} ` +
            `(its address and port, a firewall). Or ${elsewhere}`
          : `To run them here: start the sweep with --pack-url http://HOST:PORT reachable from this machine, or ` +
            elsewhere),
    );
  }

  /** Says once a sweep build that this worker is of another (build-id.ts) and what runs its jobs. */
  tellBuild(build: string, why: string): void {
    const key = `build:${build}`;
    if (this.told.has(key)) return;
    this.told.add(key);
    this.say(
      key,
      `perpdesk sweep worker ${process.pid}: cannot run the jobs of a sweep of build ${build}: ${why}; ` +
        `its jobs go back to the queue, unrun, for workers of that build, and this worker waits before taking ` +
        `another (${FIRST_MS / 1000} s, then longer, up to ${MAX_MS / 1000} s). To run them here: check out the ` +
        `coordinator's commit (npm ci), without local changes, and start this worker again`,
    );
  }

  /** Takes no job for the back-off's time (the jobs it holds run on), then once more. */
  pause(worker: Pausable): void {
    if (this.timer !== null || this.closed) return;
    void worker.pause(true).catch(() => undefined);
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.closed) void Promise.resolve(worker.resume()).catch(() => undefined);
    }, this.waitMs);
    this.timer.unref();
    this.waitMs = Math.min(MAX_MS, this.waitMs * 2);
  }

  /** A pack was got: the next lack waits from the start again. */
  got(): void {
    this.waitMs = FIRST_MS;
  }

  close(): void {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
