// A sweep job as plain data (JSON both ways: a worker process, a BullMQ job and the results store
// all carry it as is) and its result. A job is one replay of one span with one parameter set and
// one bot command; nothing in it refers to the machine it was planned on except the dataset pack
// it names (pack.ts), which any worker fetches or reads by its checksum.

import type { SweepMetrics, SweepParamValue } from '../../src-shared/types/sweeps.ts';

/** A parameter's value in a set (the grid file's scalars). */
export type ParamValue = SweepParamValue;
export type ParamSet = Record<string, ParamValue>;

export interface SweepJob {
  /** `SWEEP_ID:INDEX`, unique across sweeps. */
  id: string;
  sweepId: string;
  /** Position in the sweep's plan, from 0. */
  index: number;
  symbols: string[];
  /**
   * The datasets the replay reads, by id (--replay-datasets; replay/pins.ts: each fixes its
   * symbol's dataset for its role); absent: the replay's own pick. The pack keeps the ids.
   */
  datasets?: number[];
  /** ms UTC: the replay's start and end (exclusive of nothing: the replay's own until). */
  start: number;
  until: number;
  /** true: the bot steps the clock (docs/replay.md, Bots and determinism); false: plays at `speed`. */
  lockstep: boolean;
  speed: number;
  /** Starting USDT balance of the bot's account, a decimal string. */
  balance: string;
  queueModel: 'pessimistic' | 'probabilistic';
  orderLatency: number;
  responseLatency: number;
  dataLatency: number;
  /** Position mode of the bot's account (Binance bots expect one_way). */
  positionMode: 'hedge' | 'one_way';
  /** The bot's argv (the command split as a shell would, without a shell). */
  bot: string[];
  /** Folder the bot runs in (relative paths of its command are read from there). */
  cwd: string;
  params: ParamSet;
  /** Handed to the bot (PERPDESK_SEED); the replay itself draws nothing. */
  seed: number;
  /** Wall-time bound of the bot, ms from its start: past it the bot is killed and the job marked 'timeout'. */
  timeoutMs: number;
}

/**
 * ok: the bot exited 0, or the replay reached its end (then the bot was stopped);
 * failed: the bot crashed, exited non-zero or could not start; timeout: killed at the time bound;
 * error: the job could not be run (its venue would not start), or its replay faulted (history that
 * could not be read stopped it short of its end): not the bot's fault, no metrics.
 */
export type JobStatus = 'ok' | 'failed' | 'timeout' | 'error';

/** Per-job figures (metrics.ts): the wire's, declared once in src-shared/types/sweeps.ts. */
export type JobMetrics = SweepMetrics;

export interface JobResult {
  jobId: string;
  status: JobStatus;
  /** One line: why the job ended the way it did. */
  reason: string;
  endedBy: 'bot' | 'replay' | 'timeout' | 'venue';
  exitCode: number | null;
  signal: string | null;
  /** SHA-256 (hex) of the venue's records after the job: fills, orders, positions, balances. */
  digest: string;
  metrics: JobMetrics | null;
  /** The bot account's equity curve, [market ms, equity], thinned to at most 500 points. */
  equity: Array<[number, number]>;
  /** Last lines of the bot's stdout and stderr, merged. */
  outputTail: string[];
  /** Wall ms from the job's start to the bot's first request to its venue; null if it sent none. */
  firstRequestMs: number | null;
  wallMs: number;
  /** Wall ms from the job's start to the bot's start (the venue's start), and the bot's run. */
  startMs: number;
  botMs: number;
  /** The venue was started ahead, while the worker's previous job ran (the local pool's workers). */
  venueAhead?: boolean;
  /** Historical time the replay reached. */
  replayTime: number;
  finished: boolean;
}

/**
 * The result of a job that could not be run at all: its venue did not start (after `wallMs`),
 * its worker died, its pack was missing. No bot ran, so its time is all the venue's start.
 */
export function errorResult(job: SweepJob, reason: string, wallMs = 0): JobResult {
  return {
    jobId: job.id,
    status: 'error',
    reason,
    endedBy: 'venue',
    exitCode: null,
    signal: null,
    digest: '',
    metrics: null,
    equity: [],
    outputTail: [],
    firstRequestMs: null,
    wallMs,
    startMs: wallMs,
    botMs: 0,
    replayTime: job.start,
    finished: false,
  };
}
