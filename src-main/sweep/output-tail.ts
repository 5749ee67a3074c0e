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

/** A terminal's escape sequences (colours, cursor moves: CSI, OSC and two-character ones). */
// eslint-disable-next-line no-control-regex
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]/g;
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f]/g;

/**
 * A line of a bot's output as a terminal leaves it, to print on the coordinator's own line: what
 * it wrote after its last carriage return (a progress bar's last state, tqdm's `\r` redraws), its
 * escape sequences and other control characters taken out (printed as they were, a `\r` sent the
 * cursor back over `job 17 failed: ...` and the bot's text overwrote it; colours hid an `Error:`
 * line from the error's pick).
 */
function visibleLine(line: string): string {
  const text = line.replace(/\r+$/, '');
  return text
    .slice(text.lastIndexOf('\r') + 1)
    .replace(ESCAPES, '')
    .replace(CONTROLS, '');
}

/**
 * The one line of a failed bot's output worth showing beside its failure: its error's line (the
 * last one that begins with an error's name), else its last line that is neither blank nor Node's
 * version trailer; undefined when it printed nothing of the kind. Each line as a terminal shows it
 * (visibleLine).
 */
export function failureLine(tail: readonly string[]): string | undefined {
  const lines = tail.map((l) => visibleLine(l).trim()).filter((l) => l !== '' && !NODE_TRAILER.test(l));
  return lines.findLast((l) => ERROR_LINE.test(l)) ?? lines.at(-1);
}
