// Wire types of the sweep result routes (docs/sweeps.md, `GET /api/v1/sweeps...`). Declared once
// here; the route (api/routes/sweeps.ts) checks its TypeBox schemas against them at compile time,
// and the SDK's RestClient answers them.

/** A parameter value of a set, as the grid file gave it. */
export type SweepParamValue = string | number | boolean;

/** A sweep and its progress (`GET /api/v1/sweeps`). */
export interface SweepSummaryWire {
  id: string;
  created_at: number;
  updated_at: number;
  /** running: its coordinator is alive; stopped: some jobs have no result; interrupted: its coordinator is gone. */
  state: 'running' | 'done' | 'stopped' | 'interrupted';
  bot: string;
  replay: string;
  split: string;
  jobs: number;
  done: number;
  ok: number;
  /** Done but not ok: failed, timeout or error. */
  failed: number;
  timeouts: number;
  errors: number;
  /** Its commands as the sweep CLI prints them (null while it runs, or when there is nothing to resume). */
  commands: { resume: string | null; remove: string | null; like: string };
  /** ms UTC of the coordinator's last heartbeat. */
  heartbeat_at: number | null;
}

/** What a job measured (numbers; USDT where money). */
export interface SweepMetrics {
  starting_equity: number;
  net_pnl: number;
  return: number;
  max_drawdown: number;
  max_drawdown_ratio: number;
  sharpe: number | null;
  sortino: number | null;
  daily_returns: number[];
  fees: number;
  funding: number;
  trades: number;
  win_rate: number | null;
  closed_positions: number;
  time_in_market: number;
  turnover: number;
  liquidations: number;
}

/** One job: a parameter set over one piece of the span. */
export interface SweepJob {
  index: number;
  start: number;
  until: number;
  params: Record<string, SweepParamValue>;
  status: 'pending' | 'ok' | 'failed' | 'timeout' | 'error';
  reason: string | null;
  exit_code: number | null;
  digest: string | null;
  wall_ms: number | null;
  metrics: SweepMetrics | null;
}

/** A parameter set over the span's pieces: figures of its ok jobs only (null without one). */
export interface SweepSet {
  params: Record<string, SweepParamValue>;
  jobs: number;
  ok: number;
  failed: number;
  timeouts: number;
  errors: number;
  net_pnl: number | null;
  return: number | null;
  max_drawdown_ratio: number | null;
  sharpe: number | null;
  sortino: number | null;
  fees: number | null;
  funding: number | null;
  trades: number | null;
  win_rate: number | null;
  time_in_market: number | null;
  turnover: number | null;
}

/** One sweep with its jobs and parameter sets (`GET /api/v1/sweeps/{id}`). */
export interface SweepWire extends SweepSummaryWire {
  symbols: string[];
  start: number;
  until: number;
  /** Every parameter name of the sets. */
  params: string[];
  defaults: Record<string, SweepParamValue>;
  /** The datasets the sweep pinned, by id ([] when each replay took its own pick). */
  datasets: number[];
  pack_sha256: string | null;
  jobs_detail: SweepJob[];
  sets: SweepSet[];
}

/** One job's result (`GET /api/v1/sweeps/{id}/jobs/{index}`). */
export interface SweepJobWire extends SweepJob {
  output_tail: string[];
  /** [market ms, net equity], at most 500 points. */
  equity: Array<readonly [number, number]>;
}

/** The first sweep to run on this data folder (`GET /api/v1/sweep-example`). */
export interface SweepExampleWire {
  data_dir: string | null;
  import: string;
  sweep: string;
}
