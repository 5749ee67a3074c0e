// The sweep's progress on the terminal: a bar with done / failed / running and the time left,
// redrawn in place on a terminal and printed as a plain line at most every few seconds (and at
// the end) when the output is a file or a pipe.
const WIDTH = 28;

export interface ProgressOptions {
  total: number;
  /** Jobs already done before this run (a resumed sweep). */
  done: number;
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
  private failed = 0;
  private running = 0;
  private doneHere = 0;
  private lastLine = -Infinity;

  constructor(o: ProgressOptions) {
    this.o = o;
    this.now = o.now ?? Date.now;
    this.t0 = this.now();
    this.done = o.done;
  }

  started(): void {
    this.running++;
    this.draw(false);
  }

  finished(ok: boolean): void {
    this.running = Math.max(0, this.running - 1);
    this.done++;
    this.doneHere++;
    if (!ok) this.failed++;
    this.draw(this.done === this.o.total);
  }

  line(): string {
    const { total } = this.o;
    const filled = total === 0 ? WIDTH : Math.round((this.done / total) * WIDTH);
    const elapsed = this.now() - this.t0;
    const eta = this.doneHere === 0 ? '?' : duration(((total - this.done) * elapsed) / this.doneHere);
    return (
      `[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${this.done}/${total} done, ${this.failed} failed, ` +
      `${this.running} running, ETA ${this.done === total ? '0s' : eta}`
    );
  }

  /** The last line, ended (a terminal's bar gets its newline). */
  end(): void {
    if (this.o.tty) this.o.write('\n');
    else this.o.write(`${this.line()}\n`);
  }

  private draw(last: boolean): void {
    if (this.o.tty) {
      this.o.write(`\r${this.line()}`);
      return;
    }
    const t = this.now();
    if (last || t - this.lastLine < (this.o.everyMs ?? 5000)) return;
    this.lastLine = t;
    this.o.write(`${this.line()}\n`);
  }
}
