// The last lines of a bot's output (stdout and stderr merged as they arrive), bounded in lines and
// in each line's length, so a chatty or binary-spewing bot cannot grow a job's result.
const MAX_LINES = 40;
const MAX_LINE = 400;

export class OutputTail {
  private readonly kept: string[] = [];
  private partial = '';

  push(chunk: Buffer | string): void {
    const text = this.partial + chunk.toString('utf8');
    const parts = text.split('\n');
    this.partial = parts.pop()!.slice(-MAX_LINE * 4);
    for (const p of parts) this.keep(p);
  }

  /** The output ended: a last line without a newline counts. */
  end(): void {
    if (this.partial !== '') this.keep(this.partial);
    this.partial = '';
  }

  lines(): string[] {
    return this.kept.slice();
  }

  private keep(line: string): void {
    const l = line.replace(/\r$/, '');
    this.kept.push(l.length > MAX_LINE ? `${l.slice(0, MAX_LINE)}…` : l);
    if (this.kept.length > MAX_LINES) this.kept.shift();
  }
}
