// Another connection taking the database's write lock (BEGIN IMMEDIATE), as a sqlite3 shell does:
// for the tests of a venue kept waiting by it (test/store/durability).
import type { DatabaseSync } from 'node:sqlite';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * `BEGIN IMMEDIATE` on `db`, retried for up to `withinMs` while the venue itself holds the lock (a
 * commit of its own, its market-time save, the checkpointer's RESTART, a few ms each): each try
 * fails at once (busy_timeout 0), and the wait between tries is the event loop's, so a venue in
 * this process can finish what holds the lock. Throws the last SQLITE_BUSY past `withinMs`.
 */
export async function takeWriteLock(db: DatabaseSync, withinMs = 5_000): Promise<void> {
  db.exec('PRAGMA busy_timeout = 0');
  const end = Date.now() + withinMs;
  for (;;) {
    try {
      db.exec('BEGIN IMMEDIATE');
      return;
    } catch (err) {
      if (!/database is locked/.test(String(err)) || Date.now() >= end) throw err;
      await sleep(2);
    }
  }
}
