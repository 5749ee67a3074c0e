// Opens the venue's SQLite database (node:sqlite, WAL) and brings its schema up to date.
//
// Migrations are an ordered list; each runs once, inside a transaction, and bumps
// `PRAGMA user_version`. A database written by a newer build (user_version above the
// newest migration here) is refused rather than silently misread.
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { groupCommitOf } from './group-commit.ts';
import { MIGRATIONS } from './migrations.ts';

export type Database = DatabaseSync;

export interface OpenOptions {
  /** Folder that holds `perpdesk.db`; `':memory:'` for an in-memory database (tests). */
  dataDir: string;
}

/** The database file of a data folder (`':memory:'` stays in memory). */
export function databaseFile(dataDir: string): string {
  return dataDir === ':memory:' ? ':memory:' : join(dataDir, 'perpdesk.db');
}

export function openDatabase(opts: OpenOptions): DatabaseSync {
  const file = databaseFile(opts.dataDir);
  // The file holds API secrets: the folder (when created here) and the file are the user's only
  // (SQLite gives the -wal and -shm files the database file's mode).
  if (file !== ':memory:') mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  const db = new DatabaseSync(file);
  if (file !== ':memory:' && process.platform !== 'win32') chmodSync(file, 0o600);
  // first: another connection (a closing venue's checkpoint worker) may hold the file briefly
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec('PRAGMA journal_mode = WAL');
  // NORMAL keeps every commit durable against a process crash (kill -9); only an OS crash
  // or power loss can lose the last commits, which is the usual WAL trade-off.
  db.exec('PRAGMA synchronous = NORMAL');
  // The WAL is reused from its start after each full checkpoint; past 16 MB (the history build
  // grows it to ~40 MB) it is cut back to that size when that happens.
  db.exec('PRAGMA journal_size_limit = 16777216');
  db.exec('PRAGMA foreign_keys = ON');
  migrate(db);
  return db;
}

export function schemaVersion(db: DatabaseSync): number {
  const row = db.prepare('PRAGMA user_version').get() as { user_version: number };
  return row.user_version;
}

export function migrate(db: DatabaseSync): void {
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
