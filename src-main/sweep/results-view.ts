// What a sweep's results look like outside: the JSON of GET /api/v1/sweeps/{id} and its CSV
// export (one row per job), and the per-parameter-set view across the span's pieces (a set run
// over seven days is one line: its days' returns compounded, its Sharpe and Sortino over all
// of its daily returns).
import type { SweepJob as JobView, SweepSet, SweepWire } from '../../src-shared/types/sweeps.ts';
import Decimal from 'decimal.js';
import type { JobResult } from './job.ts';
import {
  chainedDrawdownRatio,
  compoundReturn,
  meanTimeInMarket,
  ratioOf,
  setTurnover,
  setDailyReturns,
  sharpe,
  sortino,
  usdtSum,
} from './metrics.ts';
import type { StoredJob, SweepStore } from './ports.ts';
import { CSV_FIRST_COLUMNS, CSV_LAST_COLUMNS, METRIC_COLUMNS, paramColumn } from './csv-columns.ts';

/**
 * One parameter set over the span's pieces. Its figures are of its ok jobs only: a job that failed,
 * timed out or could not run has no figure of the set's (its day is not a 0 % day), and a set
 * with no ok job has none at all (null, ranked last). `failed` says how many of its jobs it lacks.
 */
type SetView = SweepSet;

/** GET /api/v1/sweeps/{id} before the route adds the CLI commands. */
export type SweepView = Omit<SweepWire, 'commands'>;

/** A job's row: its span, parameters and status, and what its result says (null before it has one). */
export function jobView(j: StoredJob): JobView {
  const r: JobResult | null = j.result;
  return {
    index: j.index,
    start: j.start,
    until: j.until,
    params: j.params,
    status: j.status,
    reason: r?.reason ?? null,
    exit_code: r?.exitCode ?? null,
    digest: r === null || r.digest === '' ? null : r.digest,
    wall_ms: r?.wallMs ?? null,
    metrics: r?.metrics ?? null,
  };
}

/** A set without an ok job: no figure (not zeros, which would rank it above a losing set). */
const NO_FIGURES = {
  net_pnl: null,
  return: null,
  max_drawdown_ratio: null,
  sharpe: null,
  sortino: null,
  fees: null,
  funding: null,
  trades: null,
  win_rate: null,
  time_in_market: null,
  turnover: null,
} as const;

function setViews(jobs: readonly StoredJob[]): SetView[] {
  const groups = new Map<string, StoredJob[]>();
  for (const j of jobs) {
    const key = JSON.stringify(j.params);
    const g = groups.get(key);
    if (g === undefined) groups.set(key, [j]);
    else g.push(j);
  }
  return [...groups.values()].map((g) => {
    const done = g.filter((j) => j.status !== 'pending').length;
    const ok = g.filter((j) => j.status === 'ok');
    const counts = {
      params: g[0].params,
      jobs: g.length,
      ok: ok.length,
      failed: done - ok.length,
      timeouts: g.filter((j) => j.status === 'timeout').length,
      errors: g.filter((j) => j.status === 'error').length,
    };
    // in time order, the ok jobs only: a failed job's figures (zeros, or up to its crash) are not the set's
    const figured = ok.filter((j) => j.result?.metrics != null).sort((a, b) => a.start - b.start);
    const ms = figured.map((j) => j.result!.metrics!);
    if (ms.length === 0) return { ...counts, ...NO_FIGURES };
    // one return a UTC day: the pieces of a day split finer are compounded into it
    const days = setDailyReturns(
      figured.map((j) => ({ start: j.start, until: j.until, returns: j.result!.metrics!.daily_returns })),
    );
    const closed = ms.reduce((a, m) => a + m.closed_positions, 0);
    // a job's win rate is wins / closed at 10 significant digits: its count of wins is exact
    const wins = ms.reduce((a, m) => a + Math.round((m.win_rate ?? 0) * m.closed_positions), 0);
    return {
      ...counts,
      net_pnl: usdtSum(ms.map((m) => m.net_pnl)),
      // of the jobs' exact net PnL on their balances, rounded once (not their rounded returns)
      return: compoundReturn(ms),
      // of the set's compounded equity, its pieces chained in time (not the largest of one piece)
      max_drawdown_ratio: chainedDrawdownRatio(
        figured.map((j) => ({ ...j.result!.metrics!, equity: j.result!.equity })),
      ),
      sharpe: sharpe(days),
      sortino: sortino(days),
      fees: usdtSum(ms.map((m) => m.fees)),
      funding: usdtSum(ms.map((m) => m.funding)),
      trades: ms.reduce((a, m) => a + m.trades, 0),
      win_rate: closed === 0 ? null : ratioOf(wins, closed),
      // each job's share from its unrounded figures when stored: rounded once, here
      time_in_market: meanTimeInMarket(
        figured.map((j) => ({ start: j.start, until: j.until, metrics: j.result!.metrics! })),
      ),
      // each job's turnover is its volume over its balance: they add up, from the stored volumes
      turnover: setTurnover(ms),
    };
  });
}

export function sweepView(store: SweepStore, id: string): SweepView | undefined {
  const summary = store.summary(id);
  const spec = store.spec(id);
  if (summary === undefined || spec === undefined) return undefined;
  const jobs = store.jobs(id);
  const params = [...new Set(spec.sets.flatMap((s) => Object.keys(s)))];
  return {
    ...summary,
    symbols: spec.symbols,
    start: spec.start,
    until: spec.until,
    params,
    defaults: spec.defaults ?? {},
    datasets: spec.template?.datasets ?? [],
    pack_sha256: spec.pack?.sha256 ?? null,
    jobs_detail: jobs.map(jobView),
    sets: setViews(jobs),
  };
}

/** A CSV cell: numbers in plain decimals (the JSON's value, without its exponent: 1e-8 is 0.00000001). */
function cell(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'number' && Number.isFinite(v) ? new Decimal(v).toFixed() : String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One row per job: index, span, status, each parameter, each metric, the digest and the reason. */
export function sweepCsv(store: SweepStore, id: string): string {
  const v = sweepView(store, id);
  if (v === undefined) return '';
  const head = [...CSV_FIRST_COLUMNS, ...v.params.map(paramColumn), ...METRIC_COLUMNS, ...CSV_LAST_COLUMNS];
  const rows = v.jobs_detail.map((j) =>
    [
      j.index,
      new Date(j.start).toISOString(),
      new Date(j.until).toISOString(),
      j.status,
      ...v.params.map((p) => j.params[p]),
      // a job not ok has no figure of its own in the CSV (its zeros would count in an average)
      ...METRIC_COLUMNS.map((m) => (j.status === 'ok' ? j.metrics?.[m] : undefined)),
      j.exit_code,
      j.wall_ms,
      j.digest,
      j.reason,
    ]
      .map(cell)
      .join(','),
  );
  return `${[head.join(','), ...rows].join('\n')}\n`;
}
