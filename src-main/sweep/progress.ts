// The sweep's progress on the terminal: a bar with done / not ok / running and the time left,
// redrawn in place on a terminal at every change, and printed as a plain line every few seconds
// (when something changed, and at the end) when the output is a file or a pipe.
//
// A job counts as running from its bot's start (the runner says when) until its result, or until
// its bot is lost with its worker (it will run again). The count is kept by job, so a job that
// ends without its bot having started (its venue did not start) leaves the others' count alone.
// A plain line is taken at its own time, not at a job's start or end: a job's end and the next
// job's start come as a pair a few ms apart (the local pool's worker starts its next bot as soon
// as it has told the result; a queue worker starts it before the queue has the result), and a
// line printed at one of the two would show the moment between them, one running short or over.
// The jobs not ok are counted by status apart, in the words of the final summary and `--list`
// (`1 failed, 2 timeout, 1 error`, cli-lines.ts), over the whole sweep as they are.
import { notOkCounts } from './cli-lines.ts';
import type { JobStatus } from './job.ts';
import type { SweepSummary } from './ports.ts';

const WIDTH = 28;

export interface ProgressOptions {
  total: number;
  /** Jobs already done before this run (a resumed sweep). */
  done: number;
  /** Of those, the ones not ok (a resumed sweep's summary); none when not given. */
  notOk?: Pick<SweepSummary, 'failed' | 'timeouts' | 'errors'>;
  write: (text: string) => void;
  tty: boolean;
  now?: () => number;
  /** ms between two plain lines when not a terminal. */
  everyMs?: number;
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

export class Progress {
  private readonly o: ProgressOptions;
  private readonly now: () => number;
  private readonly t0: number;
  private done: number;
  /** Not ok, as the summary counts them: `failed` all of them, timeouts and errors of those. */
  private readonly notOk: Pick<SweepSummary, 'failed' | 'timeouts' | 'errors'>;
  /** The jobs whose bot runs, by id. */
  private readonly running = new Set<string>();
  /** The jobs a worker gave back for want of their data, not run since. */
  /** The jobs given back unrun and not run since, each with why: its data, or the worker's build. */
  private readonly lacking = new Map<string, 'data' | 'build'>();
  private doneHere = 0;
  /** Something changed since the last plain line. */
  private changed = false;
  private readonly timer: ReturnType<typeof setInterval> | null;

  constructor(o: ProgressOptions) {
    this.o = o;
    this.now = o.now ?? Date.now;
    this.t0 = this.now();
    this.done = o.done;
    this.notOk = { failed: o.notOk?.failed ?? 0, timeouts: o.notOk?.timeouts ?? 0, errors: o.notOk?.errors ?? 0 };
    this.timer = o.tty ? null : setInterval(() => this.tick(), o.everyMs ?? 5000);
    this.timer?.unref();
  }

  /** The job's bot started. */
  started(jobId: string): void {
    this.lacking.delete(jobId);
    if (this.running.has(jobId)) return;
    this.running.add(jobId);
    this.draw();
  }

  /** A worker gave the job back unrun, lacking its data or of another build: it waits for one that can run it. */
  givenBack(jobId: string, cause: 'data' | 'build' = 'data'): void {
    if (this.lacking.get(jobId) === cause) return;
    this.lacking.set(jobId, cause);
    this.draw();
  }

  /** The job's bot is gone without a result (its worker died): it runs again, or fails. */
  stopped(jobId: string): void {
    if (this.running.delete(jobId)) this.draw();
  }

  /** The job's result is in, with its status. */
  finished(jobId: string, status: JobStatus): void {
    this.running.delete(jobId);
    this.lacking.delete(jobId);
    this.done++;
    this.doneHere++;
    if (status !== 'ok') this.notOk.failed++;
    if (status === 'timeout') this.notOk.timeouts++;
    if (status === 'error') this.notOk.errors++;
    this.draw();
  }

  line(): string {
    const { total } = this.o;
    const filled = total === 0 ? WIDTH : Math.round((this.done / total) * WIDTH);
    const elapsed = this.now() - this.t0;
    const eta = this.doneHere === 0 ? '?' : duration(((total - this.done) * elapsed) / this.doneHere);
    return (
      `[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${this.done}/${total} done, ${notOkCounts(this.notOk)}, ` +
      `${this.running.size} running, ETA ${this.done === total ? '0s' : eta}` +
      this.givenBackCounts()
    );
  }

  private givenBackCounts(): string {
    const causes = [...this.lacking.values()];
    const data = causes.filter((c) => c === 'data').length;
    const build = causes.length - data;
    return (
      (data === 0 ? '' : `, ${data} given back by workers without the data`) +
      (build === 0 ? '' : `, ${build} given back by workers of another build`)
    );
  }

  /** The last line, ended (a terminal's bar gets its newline); no plain line after it. */
  end(): void {
    if (this.timer !== null) clearInterval(this.timer);
    if (this.o.tty) this.o.write('\n');
    else this.o.write(`${this.line()}\n`);
  }

  private draw(): void {
    if (this.o.tty) this.o.write(`\r${this.line()}`);
    else this.changed = true;
  }

  private tick(): void {
    // the end's line says the last of it
    if (!this.changed || this.done === this.o.total) return;
    this.changed = false;
    this.o.write(`${this.line()}\n`);
  }
}
