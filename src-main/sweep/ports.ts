// The sweep's storage port: the sweeps, their planned jobs and each job's result. The coordinator
// writes it, the service's routes read it (api/routes/sweeps.ts), and its SQLite adapter
// (sqlite-store.ts) keeps it in the data folder. A job's result is stored once: the first result of
// a job wins, any later one (a job rerun after its worker was thought lost) is refused.
import type { JobResult, JobStatus, ParamSet, SweepJob } from './job.ts';
import type { SweepSummaryWire } from '../../src-shared/types/sweeps.ts';

/** What a sweep was asked for, as the CLI read it (kept to resume it). */
export interface SweepSpec {
  bot: string;
  replay: string;
  split: string;
  symbols: string[];
  start: number;
  until: number;
  sets: ParamSet[];
  /** The grid file's "defaults" (every set already carries them); absent in a sweep recorded before them. */
  defaults?: ParamSet;
  /**
   * `local` (a pool of processes) or the Redis URL of the queue it last ran on (set again by a
   * resume on a queue: setRunner), where its workers' results may wait.
   */
  runner: string;
  /**
   * The build that ran it (build-id.ts), set when it starts: a resume from a checkout of another
   * build is refused (its results would mix two builds' figures). Absent in a sweep recorded
   * before builds were (taken as it is).
   */
  build?: string;
  pack: { path: string; sha256: string };
  /** Every job shares these (plan.ts JobTemplate). */
  template: Omit<SweepJob, 'id' | 'sweepId' | 'index' | 'start' | 'until' | 'params'>;
}

/** As stored: a coordinator runs it, every job has a result, or it was stopped with some pending. */
export type StoredSweepState = 'running' | 'done' | 'stopped';
/**
 * As shown: `interrupted` is a sweep stored `running` whose coordinator is gone without marking it
 * (killed with SIGKILL, its machine stopped): its process is dead, or its lease ran out.
 */
export type SweepState = StoredSweepState | 'interrupted';

/** The coordinator running a sweep: it renews its lease every HEARTBEAT_MS while it runs. */
export interface SweepOwner {
  host: string;
  pid: number;
}

/** How often a running coordinator writes its heartbeat. */
export const HEARTBEAT_MS = 5_000;
/** A running sweep whose heartbeat is older than this is taken as interrupted, whatever its pid. */
export const LEASE_MS = 30_000;

/** A stored sweep and its progress: the route's SweepSummaryWire before its CLI commands are added. */
export type SweepSummary = Omit<SweepSummaryWire, 'commands'>;

export interface StoredJob {
  index: number;
  start: number;
  until: number;
  params: ParamSet;
  status: JobStatus | 'pending';
  result: JobResult | null;
}

export interface SweepStore {
  /** Stores a sweep, running under its coordinator `owner`. */
  createSweep(id: string, spec: SweepSpec, jobs: readonly SweepJob[], owner: SweepOwner, now: number): void;
  spec(id: string): SweepSpec | undefined;
  list(): SweepSummary[];
  summary(id: string): SweepSummary | undefined;
  /** The planned jobs still without a result. */
  pending(id: string): SweepJob[];
  /** false when the job already has a result (that one is kept). */
  storeResult(id: string, index: number, result: JobResult, now: number): boolean;
  jobs(id: string): StoredJob[];
  job(id: string, index: number): StoredJob | undefined;
  setState(id: string, state: StoredSweepState, now: number): void;
  /** Records the runner a resume runs the sweep on (SweepSpec.runner). */
  setRunner(id: string, runner: string): void;
  /**
   * Takes the sweep for this coordinator (state running, its lease from now): refused, with the
   * live coordinator's summary, while another coordinator runs it.
   */
  claim(
    id: string,
    owner: SweepOwner,
    now: number,
  ): { ok: true } | { ok: false; owner: SweepOwner; heartbeat_at: number };
  /**
   * Renews this coordinator's lease; false (nothing written) when the sweep is no longer running
   * under it: another coordinator took it after this one was not heard from for LEASE_MS.
   */
  heartbeat(id: string, owner: SweepOwner, now: number): boolean;
  /** Deletes a sweep, its jobs and their results; false when there is no such sweep. */
  remove(id: string): boolean;
  /**
   * Makes the sweep's `error` jobs (they could not run: infrastructure, not the bot) pending again,
   * their results dropped, to be run again; answers how many.
   */
  retryErrors(id: string): number;
  /** The newest sweep not run by a live coordinator with jobs to run: not done, or done with `error` jobs. */
  lastUnfinished(): string | undefined;
  close(): void;
}
