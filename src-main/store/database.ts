// Opens the venue's SQLite database (node:sqlite, WAL) and brings its schema up to date.
//
// Migrations are an ordered list; each runs once, inside a transaction, and bumps
// `PRAGMA user_version`. Before anything is written, an existing database is checked
// read-only (checkDatabase): a damaged file, another database's WAL or a newer schema refuses
// the start with DatabaseRefusedError, naming the file and what to do, and leaves it as it was.
import { randomInt } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, statSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { dropDiskSpaceGuard, guardDiskSpace } from './disk-space.ts';
import { dropGroupCommit, groupCommitOf } from './group-commit.ts';
import { MIGRATIONS } from './migrations.ts';
import { damagedRoot, type BtreeRoot } from './btree-roots.ts';
import { fileSize, settledFileBytes } from './file-bytes.ts';

/** A database perpdesk will not open, with why and what to do; the file was not changed. */
export class DatabaseRefusedError extends Error {
  readonly file: string;
  constructor(file: string, message: string) {
    super(message);
    this.name = 'DatabaseRefusedError';
    this.file = file;
  }
}

/** The group commit rewrites the database id (page 1) this often while writing, ms. */
const ID_STAMP_MS = 1000;

export interface OpenOptions {
  /** Folder that holds `perpdesk.db`; `':memory:'` for an in-memory database (tests). */
  dataDir: string;
}

/** The database file of a data folder (`':memory:'` stays in memory). */
export function databaseFile(dataDir: string): string {
  return dataDir === ':memory:' ? ':memory:' : join(dataDir, 'perpdesk.db');
}

/** The folder uploaded files are copied into for their import (none for a folder in memory: the OS temp folder). */
export function uploadsFolder(dataDir: string): string | undefined {
  return dataDir === ':memory:' ? undefined : join(dataDir, 'uploads');
}

export function openDatabase(opts: OpenOptions): DatabaseSync {
  const file = databaseFile(opts.dataDir);
  // The file holds API secrets: the folder (when created here) and the file are the user's only
  // (SQLite gives the -wal and -shm files the database file's mode).
  if (file !== ':memory:') {
    mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
    checkDatabase(file);
  }
  const db = new DatabaseSync(file);
  if (file !== ':memory:' && process.platform !== 'win32') chmodSync(file, 0o600);
  // first: another connection (a closing venue's checkpoint worker) may hold the file briefly
  db.exec(`PRAGMA busy_timeout = ${OPEN_BUSY_MS}`);
  enableWal(db);
  // NORMAL keeps every commit durable against a process crash (kill -9); only an OS crash
  // or power loss can lose the last commits, which is the usual WAL trade-off.
  db.exec('PRAGMA synchronous = NORMAL');
  // The WAL is reused from its start after each full checkpoint; past 16 MB (the history build
  // grows it to ~40 MB) it is cut back to that size when that happens. A venue's Checkpointer
  // takes this over (no cut on the writer's thread; store/checkpointer.ts).
  db.exec('PRAGMA journal_size_limit = 16777216');
  db.exec('PRAGMA foreign_keys = ON');
  migrate(db);
  stampId(db);
  if (file !== ':memory:') guardDiskSpace(db, file);
  return db;
}

/**
 * Puts a connection in WAL mode (its busy_timeout already set). Switching a new file to WAL
 * takes an exclusive lock, and SQLite answers "database is locked" at once, without its busy
 * handler, when another process opens the same new file at that moment (two sweeps started
 * together on one data folder: 6 of 120 openings failed so). So a busy answer is tried again,
 * a few ms later, for up to `waitMs`.
 */
export function enableWal(db: DatabaseSync, waitMs = 5_000): void {
  const deadline = Date.now() + waitMs;
  for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
    try {
      db.exec('PRAGMA journal_mode = WAL');
      return;
    } catch (err) {
      if (!/database is locked|SQLITE_BUSY/i.test((err as Error).message) || Date.now() >= deadline) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, pause);
    }
  }
}

/**
 * Closes a connection opened by openDatabase, and forgets what this module attached to it (its
 * group committer and disk guard), so that nothing of it stays reachable once its owner lets go.
 */
export function closeDatabase(db: DatabaseSync): void {
  dropGroupCommit(db);
  dropDiskSpaceGuard(db);
  db.close();
}

/** Gives a database without an id one, and has the group commit rewrite it while writing. */
function stampId(db: DatabaseSync): void {
  let id = (db.prepare('PRAGMA application_id').get() as { application_id: number }).application_id;
  if (id === 0) {
    id = randomInt(1, 2 ** 31);
    db.exec(`PRAGMA application_id = ${id}`);
  }
  const stamp = db.prepare(`PRAGMA application_id = ${id}`);
  groupCommitOf(db).everyMs(ID_STAMP_MS, () => stamp.run());
}

/** What to do with a refused database, for the messages below. */
function whatToDo(file: string): string {
  return (
    `perpdesk has not changed it. Keep a copy of it; to start over, move ${file} ` +
    `(with ${file}-wal and ${file}-shm if present) out of ${dirname(file)}, or start with another --data-dir`
  );
}

function refuse(file: string, why: string): never {
  throw new DatabaseRefusedError(file, `The database ${file} cannot be opened: ${why}. ${whatToDo(file)}.`);
}

/** How long the start's check waits for another connection's lock on the file (the venue's own busy timeout). */
const OPEN_BUSY_MS = 5000;

/**
 * Refuses (DatabaseRefusedError) a database that is damaged, comes with another database's
 * WAL, or was written by a newer build; reads only. A missing or empty file passes (a new
 * database). Damaged: not SQLite, shorter than its header says, a WAL whose header does not fit
 * it, or a failed quick_check after an unclean stop (a WAL left behind). Another database's WAL:
 * every database carries a random id in its header (PRAGMA application_id), set at creation, and
 * the group commit writes it again at least once a second while writing (ID_STAMP_MS), so every
 * WAL that saw a second of writes holds page 1 with its database's id; the id SQLite reads
 * through the WAL must then equal the one in the main file. (A WAL without page 1, written in a
 * database's first second, cannot be told apart this way; quick_check still runs on it.)
 */
function checkDatabase(file: string): void {
  const bytes = settledFileBytes(file);
  if (bytes === null) return;
  if (bytes.refusal !== null) refuse(file, bytes.refusal);
  const { head, pageSize, walSize } = bytes;
  const fileId = head.readInt32BE(68);
  const wal = `${file}-wal`;

  // A read-only connection creates the -wal and -shm files when they are missing; a refusal
  // removes them again (the folder as it was). A check that passes leaves them: the venue's
  // connection opens next and uses them, and another connection may have opened the file
  // meanwhile and be using them (a sqlite3 shell, the sweep CLI's read-only look at the folder's
  // datasets): an -shm removed under it leaves it a wal-index that the venue's connection, which
  // makes a new one, never writes, so it reads pages a checkpoint has overwritten.
  const shm = `${file}-shm`;
  const created = [wal, shm].filter((f) => !existsSync(f));
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(file, { readOnly: true });
  } catch (err) {
    removeCreated(created);
    refuse(file, `SQLite cannot open it (${(err as Error).message})`);
  }
  let passed = false;
  try {
    let version: number;
    let seenId: number;
    try {
      // another connection may hold the file a moment: a venue closing in this process (its
      // checkpoint worker's last close checkpoints and removes the WAL under an exclusive lock),
      // which answered a start right after it "damaged (database is locked)" (a CI run, 12-05)
      db.exec(`PRAGMA busy_timeout = ${OPEN_BUSY_MS}`);
      // one read transaction: every check below reads one state of the database, whatever
      // another connection commits meanwhile (the close ends it)
      db.exec('BEGIN');
      version = schemaVersion(db);
      seenId = (db.prepare('PRAGMA application_id').get() as { application_id: number }).application_id;
      // a WAL left behind: the last stop was not clean (or the WAL came from elsewhere): all of
      // it; else the tables of what users were answered (a start reads them; the market data and
      // datasets, up to gigabytes, are not checked at every start)
      const checks = walSize > 0 ? ['PRAGMA quick_check(5)'] : userTables(db).map((t) => `PRAGMA quick_check("${t}")`);
      for (const sql of checks) {
        const rows = db.prepare(sql).all() as Array<{ quick_check: string }>;
        const problems = rows.map((r) => r.quick_check).filter((m) => m !== 'ok');
        if (problems.length > 0) refuse(file, `its integrity check failed (${problems.slice(0, 5).join('; ')})`);
      }
      // After a clean stop, the other tables' root pages, read from the file (btree-roots.ts),
      // when the file holds the state read above: its WAL is still empty (a WAL cannot be emptied
      // or removed under a reader with frames to read, so this reader reads the file alone) and no
      // checkpoint can write to the file while such a reader reads (SQLite's read lock 0). A WAL
      // another connection has begun to write since the bytes were read leaves the file behind
      // what SQLite reads (a table created in it has its root page only in the WAL): not read then.
      if (walSize === 0 && fileSize(wal) === 0) {
        const roots = db
          .prepare("SELECT type, name, rootpage FROM sqlite_master WHERE rootpage > 0 AND type IN ('table', 'index')")
          .all() as unknown as BtreeRoot[];
        const usable = pageSize - head[20];
        const damaged = damagedRoot(file, roots, { pageSize, usable, pages: Math.floor(fileSize(file) / pageSize) });
        if (damaged !== null) refuse(file, damaged);
      }
    } catch (err) {
      if (err instanceof DatabaseRefusedError) throw err;
      const message = (err as Error).message;
      if (/database is locked/i.test(message)) {
        throw new DatabaseRefusedError(
          file,
          `The database ${file} cannot be opened: another program holds it locked (${message}) for over ` +
            `${OPEN_BUSY_MS / 1000} s. perpdesk has not changed it. Close the program that holds it (another ` +
            `perpdesk on this folder, a sqlite3 shell) and start again.`,
        );
      }
      refuse(file, `it is damaged (${message})`);
    }
    if (fileId !== 0 && seenId !== fileId) {
      refuse(
        file,
        `its WAL ${wal} belongs to another database (database id ${seenId} in the WAL, ${fileId} in the file)`,
      );
    }
    if (version > MIGRATIONS.length) {
      throw new DatabaseRefusedError(
        file,
        `The database ${file} has schema version ${version}, newer than this build knows (${MIGRATIONS.length}): ` +
          `a newer perpdesk wrote it. Run that newer perpdesk on it, or start this one with another --data-dir; ` +
          `perpdesk has not changed it.`,
      );
    }
    passed = true;
  } finally {
    db.close();
    if (!passed) removeCreated(created);
  }
}

/**
 * The tables of users' records (accounts, orders, fills, positions, their ledgers, settings):
 * checked at every start (quick_check of a table and its indexes), each one present.
 */
const USER_TABLES = [
  'settings',
  'symbols',
  'accounts',
  'account_pair_settings',
  'listen_keys',
  'orders',
  'conditional_orders',
  'trades',
  'positions',
  'closed_positions',
  'funding_payments',
  'transfers',
  'liquidation_fees',
  'isolated_margin_changes',
];

function userTables(db: DatabaseSync): string[] {
  const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>;
  const present = new Set(rows.map((r) => r.name));
  return USER_TABLES.filter((t) => present.has(t));
}

function removeCreated(paths: readonly string[]): void {
  for (const f of paths) {
    try {
      if (statSync(f).size === 0 || f.endsWith('-shm')) unlinkSync(f);
    } catch {
      // not there
    }
  }
}

export function schemaVersion(db: DatabaseSync): number {
  const row = db.prepare('PRAGMA user_version').get() as { user_version: number };
  return row.user_version;
}

function migrate(db: DatabaseSync): void {
  const current = schemaVersion(db);
  if (current > MIGRATIONS.length) {
    throw new Error(
      `database schema version ${current} is newer than this build knows (${MIGRATIONS.length}); refusing to open it`,
    );
  }
  for (let v = current; v < MIGRATIONS.length; v++) {
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec(MIGRATIONS[v]);
      db.exec(`PRAGMA user_version = ${v + 1}`);
      db.exec('COMMIT');
    } catch (err) {
      db.exec('ROLLBACK');
      throw err;
    }
  }
}

/**
 * Runs `fn` as one all-or-nothing unit of the connection's group commit (group-commit.ts):
 * nothing of it stays when it throws; it is on disk by the end of the event-loop turn (answers
 * wait for that through `groupCommitOf(db).whenDurable`).
 */
export function transaction<T>(db: DatabaseSync, fn: () => T): T {
  return groupCommitOf(db).unit(fn);
}
