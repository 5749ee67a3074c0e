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

/** Node's version trailer after an uncaught exception ("Node.js v24.21.0"): says nothing of the failure. */
const NODE_TRAILER = /^Node\.js v\d+(\.\d+)*$/;
/** An error's own line as runtimes print it: "Error: ...", "TypeError: ...", "ValueError: ...". */
const ERROR_LINE = /^[\w$.]*(Error|Exception)\b/;

/**
 * The one line of a failed bot's output worth showing beside its failure: its error's line (the
 * last one that begins with an error's name), else its last line that is neither blank nor Node's
 * version trailer; undefined when it printed nothing of the kind.
 */
export function failureLine(tail: readonly string[]): string | undefined {
  const lines = tail.map((l) => l.trim()).filter((l) => l !== '' && !NODE_TRAILER.test(l));
  return lines.findLast((l) => ERROR_LINE.test(l)) ?? lines.at(-1);
}
