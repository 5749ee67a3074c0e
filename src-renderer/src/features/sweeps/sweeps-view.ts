// The Sweeps page's pure parts, over the wire types it reads (src-shared/types/sweeps.ts): sorting
// the per-set table, the heat map of a metric over two parameters (or one: a strip), a set's equity
// curve over its pieces, and the scaling of those curves into one SVG box. No React here, so the
// page's logic is tested alone.
import { shellWord } from '../../../../src-shared/shell-word.ts';
import type { SweepParamValue, SweepSet, SweepSummaryWire, SweepWire } from '../../../../src-shared/types/sweeps.ts';

/**
 * What data a sweep replays, in a line: its pinned datasets (or the replays' own pick) and the
 * pack's checksum, shortened as git shortens a commit (the title gives it whole).
 */
export function dataText(d: Pick<SweepWire, 'datasets' | 'pack_sha256'>): { text: string; title: string } {
  const pinned =
    d.datasets.length === 0
      ? "each replay's own pick of the imported datasets"
      : `dataset${d.datasets.length === 1 ? '' : 's'} ${d.datasets.join(', ')} (pinned)`;
  if (d.pack_sha256 === null) return { text: `Data: ${pinned}`, title: 'Recorded without a dataset pack' };
  return {
    text: `Data: ${pinned}, pack ${d.pack_sha256.slice(0, 12)}`,
    title: `Every job replays the dataset pack copied when the sweep started, SHA-256 ${d.pack_sha256}`,
  };
}

/**
 * The --like command for other data: the service's command (on the sweep's own span) with the
 * typed span in its --replay; the service's as it is while nothing is typed.
 */
export function likeCommand(w: Pick<SweepSummaryWire, 'replay' | 'commands'>, replay: string): string {
  const typed = replay.trim();
  if (typed === '') return w.commands.like;
  return w.commands.like.replace(`--replay ${shellWord(w.replay)}`, `--replay ${shellWord(typed)}`);
}

/** A sweep's state as the list shows it: what to do with one that has pending jobs and no coordinator. */
export function stateText(w: Pick<SweepSummaryWire, 'state' | 'commands'>): string {
  const { resume, rerun, remove } = w.commands;
  // another build started it: the CLI refuses its resume, and runs it again as a new sweep
  if ((w.state === 'interrupted' || w.state === 'stopped') && rerun !== null)
    return `${w.state}; started by another build than this checkout's (its resume is refused): run it again with: ${rerun}`;
  if (w.state === 'interrupted' && resume !== null && remove !== null)
    return `interrupted: its coordinator is gone; resume: ${resume}, or remove: ${remove}`;
  if (w.state === 'stopped' && resume !== null) return `stopped; resume: ${resume}`;
  return w.state;
}

/**
 * A sweep's progress as the list shows it: done of all, failed, and of the failed the timeouts
 * and the errors (jobs that could not run) when there are any.
 */
export function progressText(w: Pick<SweepSummaryWire, 'done' | 'jobs' | 'failed' | 'timeouts' | 'errors'>): string {
  const parts = [`${w.done}/${w.jobs} done, ${w.failed} failed`];
  if (w.timeouts > 0 || w.errors > 0) parts.push(`: ${w.timeouts} timeout, ${w.errors} error`);
  return parts.join('');
}

/** A set's jobs cell: ok of all, and its failed ones with their timeouts and errors when any. */
export function setJobsText(st: Pick<SweepSet, 'ok' | 'jobs' | 'failed' | 'timeouts' | 'errors'>): string {
  if (st.failed === 0) return `${st.ok}/${st.jobs}`;
  const of = st.timeouts > 0 || st.errors > 0 ? `: ${st.timeouts} timeout, ${st.errors} error` : '';
  return `${st.ok}/${st.jobs} (${st.failed} failed${of})`;
}

/**
 * A set's figure as the page writes it, two decimals ("–" for none), a ratio as a percentage: one
 * that rounds to zero is 0.00, without a sign (a return of -0.0004 % read "-0.00%", a loss at a
 * glance where there is none to see), as lib/format.ts fmt writes the screen's figures.
 */
export function figureText(v: number | null, pct = false): string {
  if (v === null) return '–';
  const s = (pct ? v * 100 : v).toFixed(2);
  const unsigned = /^-0\.0+$/.test(s) ? s.slice(1) : s;
  return pct ? `${unsigned}%` : unsigned;
}

export const SET_METRICS = [
  'return',
  'net_pnl',
  'sharpe',
  'sortino',
  'max_drawdown_ratio',
  'trades',
  'win_rate',
  'fees',
] as const;
export type SetMetric = (typeof SET_METRICS)[number];

/** A sort key: a metric, or `param:NAME`. */
export type SortKey = SetMetric | `param:${string}`;

function keyOf(s: SweepSet, key: SortKey): number | string | null {
  if (key.startsWith('param:')) {
    const v = s.params[key.slice(6)];
    return v === undefined ? null : typeof v === 'boolean' ? String(v) : v;
  }
  return s[key as SetMetric];
}

/** A decimal written as a string, as a grid file gives quantities ("qty": ["0.5", "2", "10"]). */
const DECIMAL = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const numberOf = (v: number | string): number | null =>
  typeof v === 'number' ? v : DECIMAL.test(v.trim()) ? Number(v) : null;

/**
 * Two parameter values in order: numbers, and strings that are decimals, by value (a string "10"
 * after "2", where as text it came before), before other text, which is in text order; a total
 * order, so the table and the heat map sort alike.
 */
export function compareParams(a: number | string, b: number | string): number {
  const x = numberOf(a);
  const y = numberOf(b);
  if (x !== null && y !== null)
    return x < y ? -1 : x > y ? 1 : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
  if (x !== null || y !== null) return x !== null ? -1 : 1;
  const p = String(a);
  const q = String(b);
  return p < q ? -1 : p > q ? 1 : 0;
}

/** A set's parameter as the table shows it: its value ('' when unknown) and its mark, if a default. */
export interface ParamCell {
  text: string;
  mark: 'default' | 'bot default' | null;
  title: string;
}

/**
 * A set's value of one parameter: its own, marked as the default when it is the grid file's
 * default; a parameter the set does not name runs with the grid's default (a sweep recorded
 * before sets were completed with them), or, with none there, with the bot's own, whose value
 * the sweep does not know.
 */
export function paramCell(
  params: Record<string, SweepParamValue>,
  name: string,
  defaults: Record<string, SweepParamValue>,
): ParamCell {
  const v = params[name];
  const d = defaults[name];
  if (v === undefined && d === undefined)
    return { text: '', mark: 'bot default', title: `${name}: not set by the sweep, so the bot's own default` };
  const text = String(v ?? d);
  return v === undefined || v === d
    ? { text, mark: 'default', title: `${name} = ${text}: the grid file's default` }
    : { text, mark: null, title: `${name} = ${text}` };
}

/** Sets sorted by a key (nulls always last), stable. */
export function sortSets(sets: readonly SweepSet[], key: SortKey, desc: boolean): SweepSet[] {
  return sets
    .map((s, i) => ({ s, i }))
    .sort((a, b) => {
      const x = keyOf(a.s, key);
      const y = keyOf(b.s, key);
      if (x === null || y === null) return x === y ? a.i - b.i : x === null ? 1 : -1;
      const c = key.startsWith('param:') ? compareParams(x, y) : x < y ? -1 : x > y ? 1 : 0;
      return (desc ? -c : c) || a.i - b.i;
    })
    .map((e) => e.s);
}

/**
 * A parameter's value in the heat map: the set's own (or the grid file's default), or null where
 * the set runs with the bot's own default, which the sweep does not know: its row or column
 * `bot default` (those sets were left out of the map, the best set among them).
 */
export type HeatValue = SweepParamValue | null;

/** A heat-map value as its row or column is headed. */
export const heatLabel = (v: HeatValue): string => (v === null ? 'bot default' : String(v));

export interface HeatMap {
  /** null: the sets that leave x to the bot's default. */
  xs: HeatValue[];
  /** One row, [''], when the map is a strip over one parameter; null as in xs. */
  ys: HeatValue[];
  /** cells[y][x]: the metric's mean over the sets with those two values; null where none. */
  cells: Array<Array<number | null>>;
  /** failed[y][x]: the cell's sets have failed jobs and no ok one (shown as failed, not as a value). */
  failed: boolean[][];
  min: number;
  max: number;
}

/** The values in order (numbers and decimal strings by value, else as text: compareParams), the bot's default last. */
function distinct(values: HeatValue[]): HeatValue[] {
  const out = [...new Set(values)];
  return out.sort((a, b) =>
    a === null || b === null
      ? Number(a === null) - Number(b === null)
      : compareParams(typeof a === 'boolean' ? String(a) : a, typeof b === 'boolean' ? String(b) : b),
  );
}

/**
 * A metric over parameters x and y; with y '' (or y = x) a one-row strip over x. A set without
 * its own value of a parameter has the grid file's default (`defaults`), else the bot's (null).
 */
export function heatMap(
  sets: readonly SweepSet[],
  x: string,
  y: string,
  metric: SetMetric,
  defaults: Record<string, SweepParamValue> = {},
): HeatMap {
  const strip = y === '' || y === x;
  const valueOf = (s: SweepSet, name: string): HeatValue => s.params[name] ?? defaults[name] ?? null;
  const yOf = (s: SweepSet): HeatValue => (strip ? '' : valueOf(s, y));
  const xs = distinct(sets.map((s) => valueOf(s, x)));
  const ys = distinct(sets.map(yOf));
  const sum = ys.map(() => xs.map(() => ({ n: 0, t: 0, ok: 0, failed: 0 })));
  for (const s of sets) {
    const c = sum[ys.indexOf(yOf(s))][xs.indexOf(valueOf(s, x))];
    c.ok += s.ok;
    c.failed += s.failed;
    const v = s[metric];
    if (v === null) continue;
    c.n++;
    c.t += v;
  }
  const cells = sum.map((row) => row.map((c) => (c.n === 0 ? null : c.t / c.n)));
  const failed = sum.map((row) => row.map((c) => c.n === 0 && c.ok === 0 && c.failed > 0));
  const all = cells.flat().filter((v): v is number => v !== null);
  return { xs, ys, cells, failed, min: all.length ? Math.min(...all) : 0, max: all.length ? Math.max(...all) : 0 };
}

/** A cell's colour: red for the lowest, green for the highest (grey without a value). */
export function heatColor(v: number | null, min: number, max: number): string {
  if (v === null) return '#333a46';
  const t = max === min ? 0.5 : (v - min) / (max - min);
  return `hsl(${Math.round(t * 120)}, 55%, 38%)`;
}

/** One job's equity curve as the page draws it (GET /api/v1/sweeps/{id}/jobs/{index}). */
export interface JobCurve {
  start: number;
  /** The job's end (its span's). */
  until: number;
  ok: boolean;
  /** The job's starting equity (its balance): the curve's 0 %. */
  base: number;
  /** Its net equity from the bot's first fill to its end (the report's samples; none without a trade). */
  equity: Array<[number, number]>;
}

/**
 * A set's equity over its pieces as a return, [ms, return]: its ok jobs' curves in time order,
 * each from its job's start on its starting equity, compounded, so the line ends at the set's
 * return in the table (the failed jobs, left out of the set's figures, are left out here too).
 * A job's stored curve begins at its bot's first fill: before it the line is flat on the job's
 * starting equity, with a step at the fill (the fee), not a slope from the job's start; a job
 * with no trade is flat over its span; after its last sample (the bot's exit or the replay's
 * end) a job holds its last value to its end.
 */
export function setCurve(jobs: readonly JobCurve[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let growth = 1;
  for (const j of [...jobs].sort((a, b) => a.start - b.start)) {
    if (!j.ok || !(j.base > 0)) continue;
    const before = growth - 1;
    out.push([j.start, before]);
    const first = j.equity[0];
    if (first !== undefined && first[0] > j.start) out.push([first[0], before]);
    for (const [t, e] of j.equity) out.push([t, growth * (e / j.base) - 1]);
    const last = j.equity[j.equity.length - 1];
    if (last !== undefined) growth *= last[1] / j.base;
    if ((last?.[0] ?? j.start) < j.until) out.push([j.until, growth - 1]);
  }
  return out;
}

export interface CurveChart {
  /** SVG polyline points, one a curve. */
  paths: string[];
  /** The height of the 0 % line in the box. */
  zero: number;
  /** The returns at the box's bottom and top, and the times at its left and right. */
  lo: number;
  hi: number;
  t0: number;
  t1: number;
}

/**
 * Return curves ([ms, return]) scaled into one w x h box, 0 % always inside it; across it the
 * sweep's span when given (a set whose first ok job starts later, or a sweep stopped early, is
 * drawn where it lies in the span), else the curves' own first and last times.
 */
export function curvePaths(
  curves: ReadonlyArray<Array<[number, number]>>,
  w: number,
  h: number,
  span?: { start: number; until: number },
): CurveChart {
  const pts = curves.flat();
  const none = { paths: curves.map(() => ''), zero: h / 2, lo: 0, hi: 0 };
  if (pts.length === 0) return { ...none, t0: span?.start ?? 0, t1: span?.until ?? 0 };
  const t0 = span?.start ?? Math.min(...pts.map((p) => p[0]));
  const t1 = span?.until ?? Math.max(...pts.map((p) => p[0]));
  const lo = Math.min(0, ...pts.map((p) => p[1]));
  const hi = Math.max(0, ...pts.map((p) => p[1]));
  const sx = (t: number) => (t1 === t0 ? 0 : ((t - t0) / (t1 - t0)) * w);
  const sy = (r: number) => (hi === lo ? h / 2 : h - ((r - lo) / (hi - lo)) * h);
  const paths = curves.map((c) => c.map(([t, r]) => `${sx(t).toFixed(1)},${sy(r).toFixed(1)}`).join(' '));
  return { paths, zero: sy(0), lo, hi, t0, t1 };
}

/** A parameter set of one sweep, as the page keys its picks and curves (another sweep's same parameters differ). */
export function curveKey(sweepId: string, params: Record<string, SweepParamValue>): string {
  return `${sweepId} ${JSON.stringify(params)}`;
}

/**
 * The sweep the page shows after a refresh of the list: the one chosen while it is still listed,
 * else the newest (a sweep removed meanwhile, `--remove`, is gone: its id answers 1109).
 */
export function shownSweep(list: ReadonlyArray<Pick<SweepSummaryWire, 'id'>>, chosen: string | null): string | null {
  if (chosen !== null && list.some((w) => w.id === chosen)) return chosen;
  return list[0]?.id ?? null;
}

/**
 * What a sweep's detail (GET /api/v1/sweeps/{id}: every job with its metrics, about 1 kB a job) was
 * read at: the page reads it again only when this changes (a result stored, a resume, a stop), not
 * at every refresh of the list (every 2 s, for as long as the page is open: a done sweep of 10,000
 * jobs was 10 MB read again and again).
 */
export const detailStamp = (w: Pick<SweepSummaryWire, 'id' | 'updated_at' | 'state' | 'done' | 'jobs'>): string =>
  `${w.id} ${w.updated_at} ${w.state} ${w.done}/${w.jobs}`;

/** A set's results as far as they go: its curve drawn at another stamp lacks jobs finished since. */
export const curveStamp = (st: Pick<SweepSet, 'jobs' | 'ok' | 'failed'>): string => `${st.ok}/${st.failed}/${st.jobs}`;

/**
 * The picked sets whose curve is missing or was drawn from fewer results than the set has now
 * (picked while its sweep ran, or a resume): each to read again, so its line ends at its return.
 */
export function staleCurves(
  d: Pick<SweepWire, 'id' | 'sets'>,
  picked: readonly string[],
  drawn: Readonly<Record<string, string>>,
): SweepSet[] {
  return d.sets.filter((st) => {
    const key = curveKey(d.id, st.params);
    return picked.includes(key) && drawn[key] !== curveStamp(st);
  });
}

/** The jobs of one parameter set. */
export function jobsOfSet(d: SweepWire, params: Record<string, SweepParamValue>): number[] {
  const key = JSON.stringify(params);
  return d.jobs_detail.filter((j) => JSON.stringify(j.params) === key).map((j) => j.index);
}
