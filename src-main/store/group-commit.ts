// Group commit: every write of one event-loop turn shares one SQLite transaction, since a
// commit (a WAL append, tens of µs) costs far more than one command's rows. The batch commits on
// setImmediate (after the turn's I/O) or at commitNow(); nothing is acknowledged before it is on
// disk (whenDurable). A failed COMMIT rolls the batch back and tells the onFailure listeners
// (SQLite rolls back a COMMIT that fails for a full disk, so the API refuses writes while the
// disk is nearly full instead: store/disk-space.ts). One GroupCommit per connection
// (groupCommitOf), since SQLite has one transaction per connection.
import type { DatabaseSync, StatementSync } from 'node:sqlite';

type Waiter = (err: Error | null) => void;

export class GroupCommit {
  private readonly db: DatabaseSync;
  private open = false;
  private scheduled = false;
  private waiters: Waiter[] = [];
  private after: Array<() => void> = [];
  private deferred: Array<() => void> = [];
  private readonly failureListeners: Array<(err: Error) => void> = [];
  /** Units running (a nested unit joins its outer one). */
  private depth = 0;
  private stmts: { savepoint: StatementSync; release: StatementSync; rollbackTo: StatementSync } | null = null;
  private periodic: { ms: number; fn: () => void; last: number } | null = null;
  private readonly beforeCommitFns: Array<() => void> = [];
  /** Batches committed and units run (for tests and benchmarks). */
  commits = 0;
  units = 0;

  constructor(db: DatabaseSync) {
    this.db = db;
  }

  /** True while a batch is open (written, not yet committed). */
  get pending(): boolean {
    return this.open;
  }

  /** True inside a unit (a write now would join that unit and share its fate). */
  get inUnit(): boolean {
    return this.depth > 0;
  }

  /**
   * Runs fn as one all-or-nothing unit of the current batch (a SAVEPOINT; BEGIN IMMEDIATE on the
   * first unit of a turn): a unit that throws leaves nothing behind and the batch goes on. Nested
   * units join the outer one.
   */
  unit<T>(fn: () => T): T {
    if (this.depth > 0) return fn();
    // Deferred writes go first, outside the savepoint: a unit that rolls back must not take
    // them along (their owner has already let go of them).
    this.sync();
    if (!this.open) this.begin();
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
   * Runs fn once just before this batch commits, inside it (opens a batch when none is open): a
   * writer that coalesces a whole turn (a row changed by ten commands is written once). A
   * deferred writer that throws fails the batch.
   */
  defer(fn: () => void): void {
    if (!this.open) this.begin();
    this.deferred.push(fn);
  }

  /**
   * Runs the deferred writers now (inside the open batch): reads see every change so far. Not
   * inside a unit: a unit syncs as it starts, so its rollback cannot take deferred writes along.
   */
  sync(): void {
    // Inside a unit the deferred writes would share its fate (see unit()): they wait, and a
    // reader there sees everything written before the unit began.
    if (this.deferred.length === 0 || this.depth > 0) return;
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

  /** Commits the open batch now (no-op when none is open). */
  commitNow(): void {
    if (!this.open || this.depth > 0) return; // inside a unit: the scheduled commit takes it
    let failure: Error | null = null;
    try {
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
    const waiters = this.waiters;
    const after = this.after;
    this.waiters = [];
    this.after = [];
    this.deferred = [];
    this.open = false;
    if (failure === null) {
      try {
        this.db.exec('COMMIT');
        this.commits++;
      } catch (err) {
        failure = err instanceof Error ? err : new Error(String(err));
      }
    }
    if (failure !== null) {
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

  private begin(): void {
    this.db.exec('BEGIN IMMEDIATE');
    this.open = true;
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        if (this.db.isOpen) this.commitNow();
      });
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
