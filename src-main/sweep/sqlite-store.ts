// The sweep store (ports.ts) on SQLite: `sweeps.db` in the coordinator's data folder, a file of its
// own beside the venue's database so that a sweep can write while the live service runs on that
// folder (WAL: the service's routes read it at the same time). A job's result is written with a
// guard on its pending state: stored exactly once, whatever reports it again. A running sweep
// names its coordinator (host and pid) and the time of its last heartbeat: one whose coordinator is
// dead (same host) or silent past the lease reads `interrupted`.
import { chmodSync, mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { enableWal } from '../store/database.ts';
import type { JobResult, ParamSet, SweepJob } from './job.ts';
import {
  LEASE_MS,
  type StoredJob,
  type StoredSweepState,
  type SweepOwner,
  type SweepSpec,
  type SweepState,
  type SweepStore,
  type SweepSummary,
} from './ports.ts';

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
/** Added after the first release: a sweeps.db written before has them added when opened. */
const OWNER_COLUMNS = ['owner TEXT', 'heartbeat_at INTEGER'];

export const SWEEPS_FILE = 'sweeps.db';

/**
 * Whether a sweep's coordinator may still run: false only when it ran on this host and its
 * process is gone. Another host's cannot be seen from here (its lease says).
 */
function mayLive(owner: SweepOwner): boolean {
  if (owner.host !== hostname()) return true;
  if (owner.pid === process.pid) return true;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

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
  private readonly now: () => number;

  /** The store of a data folder (created when missing), or ':memory:'; `now` reads the leases. */
  constructor(dataDir: string, opts: { now?: () => number } = {}) {
    this.now = opts.now ?? Date.now;
    let file = ':memory:';
    if (dataDir !== ':memory:') {
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      file = join(dataDir, SWEEPS_FILE);
    }
    this.db = new DatabaseSync(file);
    if (file !== ':memory:' && process.platform !== 'win32') chmodSync(file, 0o600);
    this.db.exec('PRAGMA busy_timeout = 5000');
    enableWal(this.db); // two sweeps opening a new sweeps.db together: the second waits
    this.db.exec('PRAGMA synchronous = NORMAL');
    this.db.exec(SCHEMA);
    // Read and add under the write lock: two processes opening an older sweeps.db at once (two
    // sweeps started together) would both find the columns missing, and the second ALTER fail
    // ("duplicate column name"); the second now waits (busy_timeout) and finds them there.
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const have = new Set(
        (this.db.prepare('PRAGMA table_info(sweeps)').all() as Array<{ name: string }>).map((c) => c.name),
      );
      for (const col of OWNER_COLUMNS)
        if (!have.has(col.split(' ')[0])) this.db.exec(`ALTER TABLE sweeps ADD COLUMN ${col}`);
      this.db.exec('COMMIT');
    } catch (err) {
      this.db.exec('ROLLBACK');
      throw err;
    }
  }

  /** The state a sweep is shown in: a running one whose coordinator is gone is interrupted. */
  private shown(state: StoredSweepState, owner: string | null, heartbeat: number | null): SweepState {
    if (state !== 'running') return state;
    if (owner === null || heartbeat === null) return 'interrupted';
    if (this.now() - heartbeat > LEASE_MS) return 'interrupted';
    return mayLive(JSON.parse(owner) as SweepOwner) ? 'running' : 'interrupted';
  }

  createSweep(id: string, spec: SweepSpec, jobs: readonly SweepJob[], owner: SweepOwner, now: number): void {
    const add = this.db.prepare(
      "INSERT INTO sweep_jobs (sweep_id, idx, start, until, params, job, status) VALUES (?, ?, ?, ?, ?, ?, 'pending')",
    );
    this.db.exec('BEGIN');
    try {
      this.db
        .prepare(
          "INSERT INTO sweeps (id, created_at, updated_at, state, spec, owner, heartbeat_at) VALUES (?, ?, ?, 'running', ?, ?, ?)",
        )
        .run(id, now, now, JSON.stringify(spec), JSON.stringify(owner), now);
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
        `SELECT s.id, s.created_at, s.updated_at, s.state, s.spec, s.owner, s.heartbeat_at,
            COUNT(j.idx) AS jobs,
            SUM(j.status != 'pending') AS done,
            SUM(j.status = 'ok') AS ok,
            SUM(j.status = 'timeout') AS timeouts,
            SUM(j.status = 'error') AS errors
         FROM sweeps s LEFT JOIN sweep_jobs j ON j.sweep_id = s.id ${where}
         GROUP BY s.id ORDER BY s.created_at DESC, s.id`,
      )
      .all(...args) as Array<{
      id: string;
      created_at: number;
      updated_at: number;
      state: StoredSweepState;
      spec: string;
      owner: string | null;
      heartbeat_at: number | null;
      jobs: number;
      done: number | null;
      ok: number | null;
      timeouts: number | null;
      errors: number | null;
    }>;
    return rows.map((r) => {
      const spec = JSON.parse(r.spec) as SweepSpec;
      return {
        id: r.id,
        created_at: r.created_at,
        updated_at: r.updated_at,
        state: this.shown(r.state, r.owner, r.heartbeat_at),
        bot: spec.bot,
        replay: spec.replay,
        split: spec.split,
        jobs: r.jobs,
        done: r.done ?? 0,
        ok: r.ok ?? 0,
        failed: (r.done ?? 0) - (r.ok ?? 0),
        timeouts: r.timeouts ?? 0,
        errors: r.errors ?? 0,
        heartbeat_at: r.heartbeat_at,
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

  setState(id: string, state: StoredSweepState, now: number): void {
    this.db.prepare('UPDATE sweeps SET state = ?, updated_at = ? WHERE id = ?').run(state, now, id);
  }

  setRunner(id: string, runner: string): void {
    this.db.prepare("UPDATE sweeps SET spec = json_set(spec, '$.runner', ?) WHERE id = ?").run(runner, id);
  }

  claim(
    id: string,
    owner: SweepOwner,
    now: number,
  ): { ok: true } | { ok: false; owner: SweepOwner; heartbeat_at: number } {
    // read and take in one write transaction: of two coordinators resuming at once, one runs it
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const r = this.db.prepare('SELECT state, owner, heartbeat_at FROM sweeps WHERE id = ?').get(id) as
        { state: StoredSweepState; owner: string | null; heartbeat_at: number | null } | undefined;
      if (r !== undefined && this.shown(r.state, r.owner, r.heartbeat_at) === 'running') {
        const held = JSON.parse(r.owner!) as SweepOwner;
        if (held.host !== owner.host || held.pid !== owner.pid) {
          this.db.exec('ROLLBACK');
          return { ok: false, owner: held, heartbeat_at: r.heartbeat_at! };
        }
      }
      this.db
        .prepare("UPDATE sweeps SET state = 'running', owner = ?, heartbeat_at = ?, updated_at = ? WHERE id = ?")
        .run(JSON.stringify(owner), now, now, id);
      this.db.exec('COMMIT');
      return { ok: true };
    } catch (err) {
      this.db.exec('ROLLBACK');
      throw err;
    }
  }

  heartbeat(id: string, owner: SweepOwner, now: number): boolean {
    const r = this.db
      .prepare("UPDATE sweeps SET heartbeat_at = ? WHERE id = ? AND state = 'running' AND owner = ?")
      .run(now, id, JSON.stringify(owner));
    return r.changes > 0;
  }

  remove(id: string): boolean {
    this.db.exec('BEGIN');
    try {
      this.db.prepare('DELETE FROM sweep_jobs WHERE sweep_id = ?').run(id);
      const r = this.db.prepare('DELETE FROM sweeps WHERE id = ?').run(id);
      this.db.exec('COMMIT');
      return r.changes > 0;
    } catch (err) {
      this.db.exec('ROLLBACK');
      throw err;
    }
  }

  retryErrors(id: string): number {
    return Number(
      this.db
        .prepare(
          "UPDATE sweep_jobs SET status = 'pending', result = NULL, stored_at = NULL WHERE sweep_id = ? AND status = 'error'",
        )
        .run(id).changes,
    );
  }

  lastUnfinished(): string | undefined {
    return this.list().find((s) => s.state !== 'running' && (s.state !== 'done' || s.errors > 0))?.id;
  }

  close(): void {
    this.db.close();
  }
}
