// Wire types of the sweep result routes (docs/sweeps.md, `GET /api/v1/sweeps...`). Declared once
// here; the route (api/routes/sweeps.ts) checks its TypeBox schemas against them at compile time,
// and the SDK's RestClient answers them.

/** A parameter value of a set, as the grid file gave it. */
export type SweepParamValue = string | number | boolean;

/** A sweep and its progress (`GET /api/v1/sweeps`). */
export interface SweepSummaryWire {
  id: string;
  created_at: number;
  /** ms UTC of the last stored result. */
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
  /** Of `failed`: the jobs whose bot ran past the time bound (status timeout). */
  timeouts: number;
  /** Of `failed`: the jobs that could not run (status error: infrastructure, not the bot); `--resume` reruns them. */
  errors: number;
  /** Its commands as the sweep CLI prints them (null while it runs, or when there is nothing to resume). */
  /**
   * rerun: for a sweep with jobs left that another build started (its resume refused by the CLI),
   * the command that runs it again as a new sweep; null otherwise (resume is null then).
   */
  commands: { resume: string | null; rerun: string | null; remove: string | null; like: string };
  /** ms UTC of the running coordinator's last heartbeat (null: no coordinator has run it since it was stored). */
  heartbeat_at: number | null;
}

/** What a job measured (src-main/sweep/metrics.ts); USDT amounts as numbers (results, not ledger entries). */
export interface SweepMetrics {
  starting_equity: number;
  net_pnl: number;
  /** net_pnl / starting_equity. */
  return: number;
  max_drawdown: number;
  max_drawdown_ratio: number;
  /** Annualised (x sqrt(365)) mean over standard deviation of the daily returns; null under 2 days. */
  sharpe: number | null;
  /** As sharpe with the downside deviation; null under 2 days or with no losing day. */
  sortino: number | null;
  /** Equity change of each UTC day of the span, in order. */
  daily_returns: number[];
  /** Fees paid (negative: rebates). */
  fees: number;
  /** Funding received (negative: paid). */
  funding: number;
  /** Fills. */
  trades: number;
  /** Share of closed positions with a positive realized PnL; null with none closed. */
  win_rate: number | null;
  closed_positions: number;
  /** Share of the span's elapsed market time with a position open. */
  time_in_market: number;
  /**
   * The market ms of the span with a position open, time_in_market's numerator, which a set's
   * mean is computed from (rounded once); absent from the results stored before 2026-12-06.
   */
  time_in_market_ms?: number;
  /** Traded volume over starting equity. */
  turnover: number;
  /**
   * The traded volume, USDT (turnover's numerator), which a set's turnover is computed from
   * (rounded once); absent from the results stored before 2026-12-07.
   */
  volume?: number;
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
  /** Done but not ok: failed, timeout or error. */
  failed: number;
  /** Of failed: status timeout, and status error (could not run). */
  timeouts: number;
  errors: number;
  net_pnl: number | null;
  /** The ok pieces' returns compounded. */
  return: number | null;
  /** The largest drawdown of the ok pieces' equity chained in time and compounded (src-main/sweep/metrics.ts chainedDrawdownRatio). */
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
  /** The grid file's "defaults": the value a set runs with for what it did not name. */
  defaults: Record<string, SweepParamValue>;
  /** The datasets the sweep pinned (--replay-datasets), by id; [] when each replay took its own pick. */
  datasets: number[];
  /** SHA-256 of the sweep's dataset pack: the data every job replays, a resume included (null in a sweep recorded without one). */
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
