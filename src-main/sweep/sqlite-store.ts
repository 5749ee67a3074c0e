// The sweep store (ports.ts) on SQLite: `sweeps.db` in the coordinator's data folder, a file of its
// own beside the venue's database so that a sweep can write while the live service runs on that
// folder (WAL: the service's routes read it at the same time). A job's result is written with a
// guard on its pending state: stored exactly once, whatever reports it again.
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { JobResult, ParamSet, SweepJob } from './job.ts';
import type { StoredJob, SweepSpec, SweepState, SweepStore, SweepSummary } from './ports.ts';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS sweeps (
    id TEXT PRIMARY KEY,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    state TEXT NOT NULL,
    spec TEXT NOT NULL
  );
  CREATE TABLE IF NOT EXISTS sweep_jobs (
    sweep_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    start INTEGER NOT NULL,
    until INTEGER NOT NULL,
    params TEXT NOT NULL,
    job TEXT NOT NULL,
    status TEXT NOT NULL,
    result TEXT,
    stored_at INTEGER,
    PRIMARY KEY (sweep_id, idx)
  ) WITHOUT ROWID;
`;

export const SWEEPS_FILE = 'sweeps.db';

interface JobRow {
  idx: number;
  start: number;
  until: number;
  params: string;
  status: string;
  result: string | null;
}

export class SqliteSweepStore implements SweepStore {
  private readonly db: DatabaseSync;

  /** The store of a data folder (created when missing), or ':memory:'. */
  constructor(dataDir: string) {
    let file = ':memory:';
    if (dataDir !== ':memory:') {
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      file = join(dataDir, SWEEPS_FILE);
    }
    this.db = new DatabaseSync(file);
    if (file !== ':memory:' && process.platform !== 'win32') chmodSync(file, 0o600);
    this.db.exec('PRAGMA busy_timeout = 5000');
    this.db.exec('PRAGMA journal_mode = WAL');
    this.db.exec('PRAGMA synchronous = NORMAL');
    this.db.exec(SCHEMA);
  }

  createSweep(id: string, spec: SweepSpec, jobs: readonly SweepJob[], now: number): void {
    const add = this.db.prepare(
      "INSERT INTO sweep_jobs (sweep_id, idx, start, until, params, job, status) VALUES (?, ?, ?, ?, ?, ?, 'pending')",
    );
    this.db.exec('BEGIN');
    try {
      this.db
        .prepare("INSERT INTO sweeps (id, created_at, updated_at, state, spec) VALUES (?, ?, ?, 'running', ?)")
        .run(id, now, now, JSON.stringify(spec));
      for (const j of jobs) add.run(id, j.index, j.start, j.until, JSON.stringify(j.params), JSON.stringify(j));
      this.db.exec('COMMIT');
    } catch (err) {
      this.db.exec('ROLLBACK');
      throw err;
    }
  }

  spec(id: string): SweepSpec | undefined {
    const r = this.db.prepare('SELECT spec FROM sweeps WHERE id = ?').get(id) as { spec: string } | undefined;
    return r === undefined ? undefined : (JSON.parse(r.spec) as SweepSpec);
  }

  private summaries(where: string, ...args: string[]): SweepSummary[] {
    const rows = this.db
      .prepare(
        `SELECT s.id, s.created_at, s.updated_at, s.state, s.spec,
            COUNT(j.idx) AS jobs,
            SUM(j.status != 'pending') AS done,
            SUM(j.status = 'ok') AS ok
         FROM sweeps s LEFT JOIN sweep_jobs j ON j.sweep_id = s.id ${where}
         GROUP BY s.id ORDER BY s.created_at DESC, s.id`,
      )
      .all(...args) as Array<{
      id: string;
      created_at: number;
      updated_at: number;
      state: SweepState;
      spec: string;
      jobs: number;
      done: number | null;
      ok: number | null;
    }>;
    return rows.map((r) => {
      const spec = JSON.parse(r.spec) as SweepSpec;
      return {
        id: r.id,
        created_at: r.created_at,
        updated_at: r.updated_at,
        state: r.state,
        bot: spec.bot,
        replay: spec.replay,
        split: spec.split,
        jobs: r.jobs,
        done: r.done ?? 0,
        ok: r.ok ?? 0,
        failed: (r.done ?? 0) - (r.ok ?? 0),
      };
    });
  }

  list(): SweepSummary[] {
    return this.summaries('');
  }

  summary(id: string): SweepSummary | undefined {
    return this.summaries('WHERE s.id = ?', id)[0];
  }

  pending(id: string): SweepJob[] {
    return (
      this.db
        .prepare("SELECT job FROM sweep_jobs WHERE sweep_id = ? AND status = 'pending' ORDER BY idx")
        .all(id) as Array<{ job: string }>
    ).map((r) => JSON.parse(r.job) as SweepJob);
  }

  storeResult(id: string, index: number, result: JobResult, now: number): boolean {
    const r = this.db
      .prepare(
        "UPDATE sweep_jobs SET status = ?, result = ?, stored_at = ? WHERE sweep_id = ? AND idx = ? AND status = 'pending'",
      )
      .run(result.status, JSON.stringify(result), now, id, index);
    if (r.changes === 0) return false;
    this.db.prepare('UPDATE sweeps SET updated_at = ? WHERE id = ?').run(now, id);
    return true;
  }

  private row(r: JobRow): StoredJob {
    return {
      index: r.idx,
      start: r.start,
      until: r.until,
      params: JSON.parse(r.params) as ParamSet,
      status: r.status as StoredJob['status'],
      result: r.result === null ? null : (JSON.parse(r.result) as JobResult),
    };
  }

  jobs(id: string): StoredJob[] {
    return (
      this.db
        .prepare('SELECT idx, start, until, params, status, result FROM sweep_jobs WHERE sweep_id = ? ORDER BY idx')
        .all(id) as unknown as JobRow[]
    ).map((r) => this.row(r));
  }

  job(id: string, index: number): StoredJob | undefined {
    const r = this.db
      .prepare('SELECT idx, start, until, params, status, result FROM sweep_jobs WHERE sweep_id = ? AND idx = ?')
      .get(id, index) as unknown as JobRow | undefined;
    return r === undefined ? undefined : this.row(r);
  }

  setState(id: string, state: SweepState, now: number): void {
    this.db.prepare('UPDATE sweeps SET state = ?, updated_at = ? WHERE id = ?').run(state, now, id);
  }

  lastUnfinished(): string | undefined {
    const r = this.db
      .prepare("SELECT id FROM sweeps WHERE state != 'done' ORDER BY created_at DESC, id DESC LIMIT 1")
      .get() as { id: string } | undefined;
    return r?.id;
  }

  close(): void {
    this.db.close();
  }
}
