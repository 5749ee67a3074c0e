// The columns of a sweep's CSV export (results-view.ts sweepCsv) besides its parameters', which
// sit between the first four and the metrics. A parameter may not be named like one of them
// (grid.ts): a header naming a column twice reads wrong in every CSV reader (the first of two
// `status` columns, or pandas' `status.1`).
import type { JobMetrics } from './job.ts';

/** Before the parameters. */
export const CSV_FIRST_COLUMNS = ['index', 'start', 'until', 'status'] as const;

/** The job metrics the CSV gives, after the parameters. */
export const METRIC_COLUMNS: ReadonlyArray<keyof JobMetrics> = [
  'net_pnl',
  'return',
  'max_drawdown',
  'max_drawdown_ratio',
  'sharpe',
  'sortino',
  'fees',
  'funding',
  'trades',
  'win_rate',
  'time_in_market',
  'turnover',
  'liquidations',
];

/** After the metrics. */
export const CSV_LAST_COLUMNS = ['exit_code', 'wall_ms', 'digest', 'reason'] as const;

/** The names no parameter may have, in the CSV's order. */
export const RESERVED_NAMES: readonly string[] = [...CSV_FIRST_COLUMNS, ...METRIC_COLUMNS, ...CSV_LAST_COLUMNS];

const reserved = new Set(RESERVED_NAMES);

/** Whether a parameter's name is a column of the CSV. */
export const isReservedName = (name: string): boolean => reserved.has(name);

/**
 * A parameter's column in the CSV: its name, or `param.NAME` for one named like a column (a sweep
 * stored before such names were refused); no parameter name has a dot, so it names no other column.
 */
export const paramColumn = (name: string): string => (reserved.has(name) ? `param.${name}` : name);
