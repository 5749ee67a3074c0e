// The sweep's storage port: the sweeps, their planned jobs and each job's result. The coordinator
// writes it, the service's routes read it (api/routes/sweeps.ts), and its SQLite adapter
// (sqlite-store.ts) keeps it in the data folder. A job's result is stored once: the first result of
// a job wins, any later one (a job rerun after its worker was thought lost) is refused.
import type { JobResult, JobStatus, ParamSet, SweepJob } from './job.ts';

/** What a sweep was asked for, as the CLI read it (kept to resume it). */
export interface SweepSpec {
  bot: string;
  replay: string;
  split: string;
  symbols: string[];
  start: number;
  until: number;
  sets: ParamSet[];
  /** `local` (a pool of processes) or the Redis URL of the queue. */
  runner: string;
  pack: { path: string; sha256: string };
  /** Every job shares these (plan.ts JobTemplate). */
  template: Omit<SweepJob, 'id' | 'sweepId' | 'index' | 'start' | 'until' | 'params'>;
}

export type SweepState = 'running' | 'done' | 'stopped';

export interface SweepSummary {
  id: string;
  created_at: number;
  state: SweepState;
  bot: string;
  replay: string;
  split: string;
  jobs: number;
  done: number;
  ok: number;
  failed: number;
  /** ms UTC of the last stored result. */
  updated_at: number;
}

export interface StoredJob {
  index: number;
  start: number;
  until: number;
  params: ParamSet;
  status: JobStatus | 'pending';
  result: JobResult | null;
}

export interface SweepStore {
  createSweep(id: string, spec: SweepSpec, jobs: readonly SweepJob[], now: number): void;
  spec(id: string): SweepSpec | undefined;
  list(): SweepSummary[];
  summary(id: string): SweepSummary | undefined;
  /** The planned jobs still without a result. */
  pending(id: string): SweepJob[];
  /** false when the job already has a result (that one is kept). */
  storeResult(id: string, index: number, result: JobResult, now: number): boolean;
  jobs(id: string): StoredJob[];
  job(id: string, index: number): StoredJob | undefined;
  setState(id: string, state: SweepState, now: number): void;
  /** The newest sweep not done, to resume. */
  lastUnfinished(): string | undefined;
  close(): void;
}
