// What a failed commit says to the person running the venue. SQLite's own text ("database or
// disk is full", "database is locked") names neither the file nor what to do; the group commit
// hands its failure listeners and waiters a StoreWriteError instead, whose message names the
// database file, the cause in plain words (SQLite's text and code kept in brackets) and what to
// do. The exchange repeats it in every 5001 it answers afterwards (trading/core.ts), and the
// venue logs it once (store-failure-log.ts).
import { dirname } from 'node:path';

/** SQLite's primary result codes met on a commit (the low byte of an extended code). */
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_READONLY = 8;
const SQLITE_IOERR = 10;
const SQLITE_CORRUPT = 11;
const SQLITE_FULL = 13;

/** A commit that failed: nothing of its batch is stored (SQLite rolled it back). */
export class StoreWriteError extends Error {
  /** The database file ('(in memory)' for an in-memory one). */
  readonly file: string;
  /** What went wrong, in plain words. */
  readonly reason: string;
  /** What to do about it. */
  readonly advice: string;
  constructor(file: string, reason: string, advice: string, cause: unknown) {
    super(`a write to ${file} failed: ${reason}. ${advice}`, { cause });
    this.name = 'StoreWriteError';
    this.file = file;
    this.reason = reason;
    this.advice = advice;
  }
}

/** The SQLite result code of an error thrown by node:sqlite (errcode), or -1. */
export function sqliteCode(err: unknown): number {
  const code = (err as { errcode?: unknown } | null)?.errcode;
  return typeof code === 'number' ? code & 0xff : -1;
}

/** An error of a held write lock: what the scheduled commit throws after waiting lockedMs for it. */
export class LockTimeoutError extends Error {
  readonly lockedMs: number;
  constructor(lockedMs: number) {
    super(`the database stayed locked by another connection for ${lockedMs} ms: nothing of this batch was written`);
    this.name = 'LockTimeoutError';
    this.lockedMs = lockedMs;
  }
}

/** The failure of a commit to `file` (null: in memory) as a StoreWriteError; one already is one is kept. */
export function storeWriteError(err: unknown, file: string | null): StoreWriteError {
  if (err instanceof StoreWriteError) return err;
  const where = file ?? '(in memory)';
  const dir = file === null ? 'the data folder' : dirname(file);
  const raw = err instanceof Error ? err.message : String(err);
  const restart = 'then restart perpdesk; everything acknowledged before it is stored';
  if (err instanceof LockTimeoutError) {
    return new StoreWriteError(
      where,
      `the database stayed locked by another connection for ${err.lockedMs} ms (another program holds its write lock)`,
      `Close the program that has ${where} open (a sqlite3 shell, a backup tool), ${restart}`,
      err,
    );
  }
  const code = sqliteCode(err);
  const sqlite = `SQLite: ${raw}`;
  switch (code) {
    case SQLITE_FULL:
      return new StoreWriteError(
        where,
        `the disk is full (${sqlite})`,
        `Free space on the disk of ${dir}, ${restart}`,
        err,
      );
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return new StoreWriteError(
        where,
        `another program holds the database's write lock (${sqlite})`,
        `Close the program that has ${where} open (a sqlite3 shell, a backup tool), ${restart}`,
        err,
      );
    case SQLITE_READONLY:
      return new StoreWriteError(
        where,
        `the file cannot be written (${sqlite})`,
        `Make ${where} and ${dir} writable again, ${restart}`,
        err,
      );
    case SQLITE_IOERR:
      return new StoreWriteError(
        where,
        `the disk answered with an I/O error (${sqlite})`,
        `Check the disk of ${dir} (full, removed, failing), ${restart}`,
        err,
      );
    case SQLITE_CORRUPT:
      return new StoreWriteError(
        where,
        `the database is damaged (${sqlite})`,
        `Stop perpdesk and keep a copy of ${where} with its -wal and -shm files before anything else`,
        err,
      );
    default:
      return new StoreWriteError(where, raw, `The error is in logs/main.log of ${dir}; ${restart}`, err);
  }
}
