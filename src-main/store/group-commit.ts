// Group commit: every write of one event-loop turn shares one SQLite transaction, since a
// commit (a WAL append, tens of µs) costs far more than one command's rows. The batch commits on
// setImmediate (after the turn's I/O) or at commitNow(); nothing is acknowledged before it is on
// disk (whenDurable). A failed COMMIT rolls the batch back and tells the onFailure listeners
// (SQLite rolls back a COMMIT that fails for a full disk, so the API refuses writes while the
// disk is nearly full instead: store/disk-space.ts). One GroupCommit per connection
// (groupCommitOf), since SQLite has one transaction per connection.
//
// The write lock is taken as late as possible. A deferred writer (the trading turn's rows) only
// opens the batch; the transaction begins (BEGIN IMMEDIATE, the write lock) when something must
// write now: a unit, a reader's sync(), or the commit itself. Another connection can hold that
// lock for milliseconds (the checkpointer's RESTART or TRUNCATE, store/checkpointer.ts) or longer
// (a slow disk's sync, a sqlite3 shell on the file). The scheduled commit does not wait for it on
// the event loop: it tries without waiting and, while the lock is taken, tries again every
// millisecond, and the loop goes on answering (new commands join the waiting batch; their answers
// wait for its commit). After the connection's busy timeout (`lockWaitMs`) the batch fails like a
// failed COMMIT. The synchronous paths (unit, sync, commitNow) wait on the thread, up to the busy
// timeout, as before; a unit or a sync() that cannot have the lock throws and leaves the batch
// pending, the next try of the scheduled commit takes it. A background writer that can write
// later (the candles) uses tryUnit: it does not wait at all.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { LockTimeoutError, sqliteCode, storeWriteError } from './write-failure.ts';

/** SQLite's SQLITE_BUSY (the primary code of an extended one). */
const SQLITE_BUSY = 5;

const isBusy = (err: unknown): boolean => sqliteCode(err) === SQLITE_BUSY;

type Waiter = (err: Error | null) => void;

export class GroupCommit {
  private readonly db: DatabaseSync;
  /** A batch is pending: written or deferred, not yet committed (answers wait for it). */
  private open = false;
  /** The batch's transaction has begun (this connection holds the write lock). */
  private txn = false;
  private scheduled = false;
  private waiters: Waiter[] = [];
  private after: Array<() => void> = [];
  private deferred: Array<() => void> = [];
  private readonly failureListeners: Array<(err: Error) => void> = [];
  /** Units running (a nested unit joins its outer one). */
  private depth = 0;
  private stmts: { savepoint: StatementSync; release: StatementSync; rollbackTo: StatementSync } | null = null;
  private lockWait: number;
  private restoreSql: string;
  /** A file another connection can lock (an in-memory database has no other connection). */
  private readonly shared: boolean;
  /** When the scheduled commit first found the write lock taken (0: it did not). */
  private lockedSince = 0;
  private periodic: { ms: number; fn: () => void; last: number } | null = null;
  private readonly beforeCommitFns: Array<() => void> = [];
  /** Batches committed and units run (for tests and benchmarks). */
  commits = 0;
  units = 0;
  /** Times the scheduled commit found the write lock taken and let the event loop go on. */
  lockWaits = 0;

  constructor(db: DatabaseSync) {
    this.db = db;
    const row = db.prepare('PRAGMA busy_timeout').get() as Record<string, unknown> | undefined;
    const ms = Number(row === undefined ? 0 : Object.values(row)[0]);
    this.lockWait = Number.isFinite(ms) ? ms : 0;
    this.restoreSql = `PRAGMA busy_timeout = ${this.lockWait}`;
    this.shared = db.location() !== null;
  }

  /** True while a batch is open (written or deferred, not yet committed). */
  get pending(): boolean {
    return this.open;
  }

  /** True inside a unit (a write now would join that unit and share its fate). */
  get inUnit(): boolean {
    return this.depth > 0;
  }

  /** How long a commit waits for the write lock, ms: the connection's busy timeout. */
  get lockWaitMs(): number {
    return this.lockWait;
  }

  /** Sets how long a commit (and any statement of this connection) waits for a lock, ms. */
  setLockWait(ms: number): void {
    if (!Number.isInteger(ms) || ms < 0) throw new RangeError(`lock wait must be a whole number of ms >= 0, got ${ms}`);
    this.db.exec(`PRAGMA busy_timeout = ${ms}`);
    this.lockWait = ms;
    this.restoreSql = `PRAGMA busy_timeout = ${ms}`;
  }

  /**
   * A close begins: from now on a commit waits for the write lock `ms` at most (a batch that
   * waited that long already fails at its next try, its answers 5000), so a lock another program
   * holds keeps neither the answers nor the close's last writes past the close's bound.
   */
  hurry(ms: number): void {
    if (this.db.isOpen && this.lockWait > ms) this.setLockWait(ms);
  }

  /**
   * Runs fn as one all-or-nothing unit of the current batch (a SAVEPOINT; BEGIN IMMEDIATE on the
   * first unit of a turn): a unit that throws leaves nothing behind and the batch goes on. Nested
   * units join the outer one. Throws, having run nothing, when the write lock cannot be had.
   */
  unit<T>(fn: () => T): T {
    if (this.depth > 0) return fn();
    // Deferred writes go first, outside the savepoint: a unit that rolls back must not take
    // them along (their owner has already let go of them).
    this.sync();
    this.begin();
    const s = this.statements();
    s.savepoint.run();
    this.depth++;
    try {
      const out = fn();
      this.depth--;
      s.release.run();
      this.units++;
      return out;
    } catch (err) {
      this.depth--;
      s.rollbackTo.run();
      s.release.run();
      throw err;
    }
  }

  /**
   * unit(fn) for a writer that can write later (market data): when another connection holds the
   * write lock it returns false at once, having run nothing, instead of waiting on the thread.
   */
  tryUnit(fn: () => void): boolean {
    if (this.depth === 0 && !this.txn && this.shared) {
      const got = this.tryBegin();
      if (got === false) return false;
      if (got === true) this.openBatch();
    }
    this.unit(fn);
    return true;
  }

  /**
   * Calls cb once everything written before it is committed: at once (synchronously) when no
   * batch is open, else after the commit; with the error when the commit failed.
   */
  whenDurable(cb: Waiter): void {
    if (!this.open) cb(null);
    else this.waiters.push(cb);
  }

  /** A promise form of whenDurable. */
  durable(): Promise<void> {
    if (!this.open) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push((err) => (err ? reject(err) : resolve())));
  }

  /** Runs fn after a successful commit (dropped when it fails), in order. */
  afterCommit(fn: () => void): void {
    if (!this.open) fn();
    else this.after.push(fn);
  }

  /**
   * Runs fn once just before this batch commits, inside it (opens a batch when none is open,
   * without taking the write lock): a writer that coalesces a whole turn (a row changed by ten
   * commands is written once). A deferred writer that throws fails the batch.
   */
  defer(fn: () => void): void {
    this.deferred.push(fn);
    this.openBatch();
  }

  /**
   * Runs the deferred writers now (inside the open batch, beginning its transaction): reads see
   * every change so far. Not inside a unit: a unit syncs as it starts, so its rollback cannot
   * take deferred writes along. Throws, having run none, when the write lock cannot be had.
   */
  sync(): void {
    // Inside a unit the deferred writes would share its fate (see unit()): they wait, and a
    // reader there sees everything written before the unit began.
    if (this.deferred.length === 0 || this.depth > 0) return;
    this.begin();
    const writers = this.deferred;
    this.deferred = [];
    for (const fn of writers) fn();
  }

  /** Runs fn just before every COMMIT (outside any unit; it must not throw). */
  beforeCommit(fn: () => void): void {
    this.beforeCommitFns.push(fn);
  }

  /** Runs fn in the next batch, and again in a batch at least `ms` after each run (database.ts's id stamp). */
  everyMs(ms: number, fn: () => void): void {
    this.periodic = { ms, fn, last: Number.NEGATIVE_INFINITY };
  }

  /** Tells fn of a failed COMMIT (the exchange then refuses commands: its memory is ahead of the disk). */
  onFailure(fn: (err: Error) => void): void {
    this.failureListeners.push(fn);
  }

  /**
   * Commits the open batch now (no-op when none is open), waiting on this thread for the write
   * lock up to the busy timeout; a batch that cannot have it fails.
   */
  commitNow(): void {
    if (!this.open || this.depth > 0) return; // inside a unit: the scheduled commit takes it
    let failure: Error | null = null;
    try {
      this.begin();
      this.sync(); // still open: the writers may run units of their own
      const p = this.periodic;
      if (p !== null) {
        const now = Date.now();
        if (now - p.last >= p.ms) {
          p.last = now;
          p.fn();
        }
      }
      for (const fn of this.beforeCommitFns) fn();
    } catch (err) {
      failure = err instanceof Error ? err : new Error(String(err));
    }
    this.finish(failure);
  }

  /**
   * Ends the open batch: COMMIT when nothing failed so far, else (or when COMMIT fails) rollback.
   * A failure reaches the listeners and waiters as a StoreWriteError (write-failure.ts): the
   * file, the cause in plain words, what to do.
   */
  private finish(failed: Error | null): void {
    let failure = failed;
    const waiters = this.waiters;
    const after = this.after;
    this.waiters = [];
    this.after = [];
    this.deferred = [];
    this.open = false;
    this.lockedSince = 0;
    if (failure === null) {
      try {
        this.db.exec('COMMIT');
        this.commits++;
      } catch (err) {
        failure = err instanceof Error ? err : new Error(String(err));
      }
    }
    this.txn = false;
    if (failure !== null) {
      failure = storeWriteError(failure, this.shared ? this.db.location() : null);
      try {
        if (this.db.isTransaction) this.db.exec('ROLLBACK');
      } catch {
        // the connection is unusable; the failure below already stops the exchange
      }
      for (const l of this.failureListeners) l(failure);
      for (const w of waiters) w(failure);
      return;
    }
    for (const fn of after) fn();
    for (const w of waiters) w(null);
  }

  /** Marks a batch open and schedules its commit. */
  private openBatch(): void {
    this.open = true;
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.scheduledCommit);
    }
  }

  /** Begins the batch's transaction (the write lock), waiting on this thread up to the busy timeout. */
  private begin(): void {
    if (this.txn) return;
    this.db.exec('BEGIN IMMEDIATE');
    this.txn = true;
    this.openBatch();
  }

  /**
   * The end-of-turn commit. It takes the write lock without waiting; while another connection
   * holds it, the event loop goes on and this tries again a millisecond later, until the busy
   * timeout has passed since the first try: then the batch fails.
   */
  private readonly scheduledCommit = (): void => {
    this.scheduled = false;
    if (!this.db.isOpen || !this.open || this.depth > 0) return;
    if (!this.txn && this.shared) {
      const got = this.tryBegin();
      if (got === false) {
        const now = Date.now();
        if (this.lockedSince === 0) this.lockedSince = now;
        const waited = now - this.lockedSince;
        if (waited < this.lockWait) {
          this.lockWaits++;
          this.scheduled = true;
          setTimeout(this.scheduledCommit, 1);
          return;
        }
        this.finish(new LockTimeoutError(waited));
        return;
      }
    }
    this.commitNow();
  };

  /** BEGIN IMMEDIATE without waiting: true, false while another connection holds the write lock, null on another error. */
  private tryBegin(): boolean | null {
    // exec, not a prepared statement: SQLite applies PRAGMA busy_timeout when it compiles it
    this.db.exec('PRAGMA busy_timeout = 0');
    try {
      this.db.exec('BEGIN IMMEDIATE');
      this.txn = true;
      return true;
    } catch (err) {
      // any other error: commitNow tries once more and fails the batch with it
      return isBusy(err) ? false : null;
    } finally {
      this.db.exec(this.restoreSql);
    }
  }

  private statements(): NonNullable<GroupCommit['stmts']> {
    if (this.stmts === null) {
      this.stmts = {
        savepoint: this.db.prepare('SAVEPOINT unit'),
        release: this.db.prepare('RELEASE unit'),
        rollbackTo: this.db.prepare('ROLLBACK TO unit'),
      };
    }
    return this.stmts;
  }
}

// Keyed weakly, but an entry must still be dropped when its connection closes (closeDatabase):
// node:sqlite's statements hold their connection strongly from native code, so a connection
// whose GroupCommit holds statements of it would keep itself, and everything its listeners
// reach (a closed replay's whole venue), alive forever.
const groups = new WeakMap<DatabaseSync, GroupCommit>();

/** Forgets a closing connection's group committer (store/database.ts closeDatabase). */
export function dropGroupCommit(db: DatabaseSync): void {
  groups.delete(db);
}

/** The connection's group committer (created on first use). */
export function groupCommitOf(db: DatabaseSync): GroupCommit {
  let g = groups.get(db);
  if (g === undefined) {
    g = new GroupCommit(db);
    groups.set(db, g);
  }
  return g;
}
