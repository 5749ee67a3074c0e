// From what a sweep asks for to its jobs: the replay span (`SYM[,SYM2]@FROM..TO`) cut into pieces
// (`--split day|week|none|Nh`), times every parameter set, in that order (all sets of the first
// piece, then the next piece). Also the checks that run before any job starts: the bot command
// exists, the data folder holds a replayable dataset of every symbol over the whole span.
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import type { DatasetRecord } from '../data/ports.ts';
import { parseReplayTime } from '../cli-args.ts';
import type { ParamSet, SweepJob } from './job.ts';

export class PlanError extends Error {}

const DAY = 86_400_000;
const SYMBOL = /^[A-Z0-9]{2,30}$/;
/** Bound of one sweep's jobs. */
const MAX_JOBS = 100_000;

export interface ReplaySpan {
  symbols: string[];
  start: number;
  until: number;
  /** Given as dates (`@2025-01-06..2025-01-12`, whole UTC days): what a refusal names its bounds in. */
  dates?: boolean;
}

/**
 * `BTCUSDT@2025-01-06..2025-01-12` (dates: whole UTC days, the last one included) or with times
 * `BTCUSDT,ETHUSDT@2025-01-06T08:00Z..2025-01-06T20:00Z` (the end time itself).
 */
export function parseSpan(text: string): ReplaySpan {
  const m = /^([^@]+)@([^.]+)\.\.(.+)$/.exec(text);
  if (m === null)
    throw new PlanError(`--replay wants SYMBOL[,SYMBOL2...]@FROM..TO (BTCUSDT@2025-01-06..2025-01-12), got '${text}'`);
  const symbols = m[1].split(',');
  for (const s of symbols)
    if (!SYMBOL.test(s)) throw new PlanError(`--replay symbols are 2 to 30 upper-case letters or digits, got '${s}'`);
  if (new Set(symbols).size !== symbols.length) throw new PlanError(`--replay names a symbol twice: '${m[1]}'`);
  const start = parseReplayTime(m[2]);
  const end = parseReplayTime(m[3]);
  const rule = 'a UTC date (2025-01-06) or time (2025-01-06T08:00Z)';
  if (start === null) throw new PlanError(`--replay FROM must be ${rule}, got '${m[2]}'`);
  if (end === null) throw new PlanError(`--replay TO must be ${rule}, got '${m[3]}'`);
  // a bare date as the end means that whole day
  const until = m[3].includes('T') ? end : end + DAY;
  // a day TO before FROM ends at FROM's midnight at the latest: the dates are the wrong way round
  if (until < start || end < start) throw new PlanError(`--replay ends (${m[3]}) before it starts (${m[2]})`);
  if (until === start)
    throw new PlanError(`--replay is empty: it ends (${m[3]}) where it starts (${m[2]}); give an end after the start`);
  return { symbols, start, until, dates: !m[2].includes('T') && !m[3].includes('T') };
}

export type Split = { kind: 'day' } | { kind: 'week' } | { kind: 'none' } | { kind: 'ms'; ms: number };

export function parseSplit(text: string): Split {
  if (text === 'day' || text === 'week' || text === 'none') return { kind: text };
  const m = /^(\d{1,4})h$/.exec(text);
  if (m !== null && Number(m[1]) > 0) return { kind: 'ms', ms: Number(m[1]) * 3_600_000 };
  throw new PlanError(`--split must be day, week, none or a number of hours (6h), got '${text}'`);
}

/** The pieces of a span: UTC days, weeks from Monday 00:00, fixed lengths from the start, or the whole. */
export function splitSpan(span: ReplaySpan, split: Split): Array<[number, number]> {
  if (split.kind === 'none') return [[span.start, span.until]];
  const out: Array<[number, number]> = [];
  let t = span.start;
  while (t < span.until) {
    let next: number;
    if (split.kind === 'ms') next = t + split.ms;
    else if (split.kind === 'day') next = Math.floor(t / DAY) * DAY + DAY;
    else {
      // 1970-01-01 was a Thursday: Mondays are 4 days after the epoch's week boundaries
      const w = 7 * DAY;
      next = Math.floor((t - 4 * DAY) / w) * w + 4 * DAY + w;
    }
    out.push([t, Math.min(next, span.until)]);
    t = next;
  }
  return out;
}

/** A command line split into words as a POSIX shell would split it (quotes, backslashes), without expansions. */
export function splitCommand(text: string): string[] {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote !== null) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < text.length && '"\\$`'.includes(text[i + 1])) cur += text[++i];
      else cur += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < text.length) {
      cur += text[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (quote !== null) throw new PlanError(`--bot has an unclosed ${quote} quote: ${text}`);
  if (inWord) words.push(cur);
  return words;
}

const INTERPRETERS = new Set(['node', 'python', 'python3', 'bash', 'sh', 'deno', 'bun', 'tsx', 'ruby', 'perl']);
const INLINE = new Set(['-e', '--eval', '-c', '-m', '-p', '--print']);

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

const BY_EXT: Record<string, string> = { ts: 'node', js: 'node', mjs: 'node', cjs: 'node', py: 'python3', sh: 'sh' };

/** Why a program given by its path cannot run: missing, a folder, or not executable (and what to do). */
function notRunnable(file: string, command: string): string {
  let folder: boolean;
  try {
    folder = statSync(file).isDirectory();
  } catch {
    return `${file} does not exist`;
  }
  if (folder) return `${file} is a folder, not a program`;
  const interpreter = BY_EXT[/\.([a-z]+)$/.exec(file)?.[1] ?? ''] ?? 'INTERPRETER';
  return (
    `${file} is not executable: make it so (chmod +x ${file}), or give its interpreter first ` +
    `(--bot "${interpreter} ${command}")`
  );
}

/**
 * Why `interpreter` cannot run the folder `dir` as its script ('' for one that runs no folder),
 * null when it can: node one with an index.js or a package.json whose "main" is there, python one
 * with a __main__.py.
 */
function folderNotRun(interpreter: string, dir: string): string | null {
  if (interpreter === 'node') {
    if (existsSync(join(dir, 'index.js'))) return null;
    try {
      const main: unknown = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).main;
      if (typeof main === 'string' && existsSync(resolve(dir, main))) return null;
    } catch {
      // no package.json, or not JSON: node finds no "main" in it either
    }
    return 'node runs a folder only with an index.js or a package.json "main" in it, and this one has neither; ';
  }
  if (interpreter === 'python' || interpreter === 'python3')
    return existsSync(join(dir, '__main__.py'))
      ? null
      : `${interpreter} runs a folder only with a __main__.py in it, and this one has none; `;
  return '';
}

/** The bot command as argv, checked: the program exists, and so does an interpreter's script. */
export function checkBot(text: string, cwd: string, path = process.env.PATH ?? ''): string[] {
  const argv = splitCommand(text.trim());
  if (argv.length === 0) throw new PlanError('--bot is empty: give the command that runs your bot ("node my-bot.ts")');
  const prog = argv[0];
  const found = prog.includes('/')
    ? executable(resolve(cwd, prog))
    : path.split(delimiter).some((d) => d !== '' && executable(join(d, prog)));
  if (!found)
    throw new PlanError(
      prog.includes('/')
        ? `--bot: ${notRunnable(resolve(cwd, prog), text.trim())}`
        : `--bot: '${prog}' is not a command found on PATH`,
    );
  const name = prog.split('/').pop()!;
  if (INTERPRETERS.has(name)) {
    const i = argv.findIndex((a, k) => k > 0 && !a.startsWith('-'));
    const inline = argv.slice(1, i < 0 ? argv.length : i).some((a) => INLINE.has(a));
    if (i > 0 && !inline) {
      const script = isAbsolute(argv[i]) ? argv[i] : resolve(cwd, argv[i]);
      let folder: boolean;
      try {
        folder = statSync(script).isDirectory();
      } catch {
        throw new PlanError(`--bot: the script ${script} does not exist`);
      }
      const why = folder ? folderNotRun(name, script) : null;
      if (why !== null)
        throw new PlanError(
          `--bot: the script ${script} is a folder, not a file: ${why}give the bot's file (--bot "${prog} ${argv[i]}/FILE")`,
        );
    }
  }
  return argv;
}

const REPLAYABLE = new Set(['depth', 'trades', 'aggTrades', 'klines']);

function intervalMs(interval: string | null): number {
  const m = /^(\d+)([smhdw])$/.exec(interval ?? '');
  if (m === null) return interval === '1M' ? 31 * DAY : 1;
  const unit = { s: 1000, m: 60_000, h: 3_600_000, d: DAY, w: 7 * DAY }[m[2] as 's' | 'm' | 'h' | 'd' | 'w'];
  return Number(m[1]) * unit;
}

const iso = (t: number) => new Date(t).toISOString().replace(':00.000Z', 'Z');

/**
 * Every symbol has a depth, trades or klines dataset, and together they cover the whole span, give
 * or take the rest of the UTC days the data begins and ends on (a date span of a day's recording
 * that starts at 00:00:00.061: the replay starts at its first event, replay/plan.ts replayStart, and
 * runs on after its last). Each job's own span is checked against the rows (checkJobSpans).
 */
export function checkData(span: ReplaySpan, datasets: readonly DatasetRecord[], dataDir: string): void {
  for (const sym of span.symbols) {
    const mine = datasets.filter((d) => d.symbol === sym && REPLAYABLE.has(d.kind) && d.firstTime !== null);
    if (mine.length === 0) {
      throw new PlanError(
        `no depth, trades or klines dataset of ${sym} in ${dataDir}` +
          ` (import it: npm run data -- import ..., or download: npm run data -- download --symbol ${sym} ...)`,
      );
    }
    const first = Math.min(...mine.map((d) => d.firstTime!));
    const endOf = (d: DatasetRecord) => d.lastTime! + (d.kind === 'klines' ? intervalMs(d.interval) : 1);
    const lastSet = mine.reduce((a, d) => (endOf(d) > endOf(a) ? d : a));
    const end = endOf(lastSet);
    const from = Math.floor(first / DAY) * DAY;
    const to = Math.floor((end - 1) / DAY) * DAY + DAY;
    if (span.start < from || span.until > to) {
      // which end lies outside, for a span that overlaps the data (it said 'is outside' of each)
      const before = span.start < from;
      const past = span.until > to;
      const overlaps = span.start < end && span.until > first;
      const how = !overlaps
        ? 'is outside'
        : before && past
          ? 'starts before and goes past the end of'
          : before
            ? 'starts before'
            : 'goes past the end of';
      throw new PlanError(
        `the span ${spanText(span)} ${how} the data of ${sym}: ${coverText(span, from, to, first, lastSet)}`,
      );
    }
  }
}

const day = (t: number) => new Date(t).toISOString().slice(0, 10);

/** A span in the terms it was asked in: dates (the last one included) or times. */
function spanText(span: ReplaySpan): string {
  return span.dates === true
    ? `${day(span.start)}..${day(span.until - DAY)}`
    : `${iso(span.start)}..${iso(span.until)}`;
}

/**
 * What of a symbol's data a span can take, from `from` to `to` (the whole UTC days of its first and
 * last row): days for a span of dates, times for one of times, with its first and last row's times
 * beside them (a day runs to its end past its last event: the time alone read as a day cut short).
 */
function coverText(span: ReplaySpan, from: number, to: number, first: number, last: DatasetRecord): string {
  const lastRow =
    last.kind === 'klines'
      ? `its last ${last.interval} candle opens at ${iso(last.lastTime!)}`
      : `its last event is at ${iso(last.lastTime!)}`;
  const rows = `its first row is at ${iso(first)}, ${lastRow}`;
  if (span.dates !== true)
    return `a span of times runs from ${iso(from)} to ${iso(to)} at most (the whole UTC days of its rows: ${rows})`;
  return `a span of dates runs from ${day(from)} to ${day(to - DAY)} at most, each day to its end (${rows})`;
}

/** What every job of a sweep shares; the plan varies the span and the parameter set. */
export type JobTemplate = Omit<SweepJob, 'id' | 'sweepId' | 'index' | 'start' | 'until' | 'params'>;

export function planJobs(
  sweepId: string,
  pieces: ReadonlyArray<[number, number]>,
  sets: readonly ParamSet[],
  t: JobTemplate,
): SweepJob[] {
  if (pieces.length * sets.length > MAX_JOBS)
    throw new PlanError(`${pieces.length} pieces x ${sets.length} parameter sets is more than ${MAX_JOBS} jobs`);
  const jobs: SweepJob[] = [];
  for (const [start, until] of pieces) {
    for (const params of sets) {
      const index = jobs.length;
      jobs.push({ ...t, id: `${sweepId}:${index}`, sweepId, index, start, until, params });
    }
  }
  return jobs;
}
