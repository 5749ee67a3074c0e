// Group commit: the units of one event-loop turn share one SQLite commit; a unit that throws
// leaves nothing; durability waiters and after-commit callbacks run only after a successful
// commit; a failed commit is reported to waiters and failure listeners and drops the batch.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src-main/store/database.ts';
import { groupCommitOf } from '../../src-main/store/group-commit.ts';

const nextTurn = (): Promise<void> => new Promise((r) => setImmediate(r));
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Waits (a timer at a time, so the event loop runs) until `done()` or `ms` have passed. */
async function until(done: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await sleep(2);
  }
}

let dirs: string[] = [];
let dbs: DatabaseSync[] = [];
afterEach(() => {
  for (const d of dbs) if (d.isOpen) d.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
  dbs = [];
});

function fileDb(): { db: DatabaseSync; reader: () => DatabaseSync } {
  const dir = mkdtempSync(join(tmpdir(), 'perpdesk-gc-'));
  dirs.push(dir);
  const db = openDatabase({ dataDir: dir });
  db.exec('CREATE TABLE t (v INTEGER NOT NULL)');
  dbs.push(db);
  return {
    db,
    reader: () => {
      const r = new DatabaseSync(join(dir, 'perpdesk.db'));
      dbs.push(r);
      return r;
    },
  };
}

const count = (db: DatabaseSync): number => (db.prepare('SELECT COUNT(*) AS n FROM t').get() as { n: number }).n;

describe('group commit', () => {
  it('units of one turn share one commit, invisible to another connection until then', async () => {
    const { db, reader } = fileDb();
    const g = groupCommitOf(db);
    const other = reader();
    const commits0 = g.commits;
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    for (let i = 0; i < 50; i++) g.unit(() => insert.run(i));
    expect(g.pending).toBe(true);
    expect(count(db)).toBe(50); // the writer sees its own batch
    expect(count(other)).toBe(0);
    await nextTurn();
    expect(g.pending).toBe(false);
    expect(g.commits - commits0).toBe(1);
    expect(count(other)).toBe(50);
  });

  it('a unit that throws leaves nothing; the units around it stay', async () => {
    const { db, reader } = fileDb();
    const g = groupCommitOf(db);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    g.unit(() => insert.run(1));
    expect(() =>
      g.unit(() => {
        insert.run(2);
        insert.run(null); // NOT NULL: throws after one row of this unit is written
      }),
    ).toThrow();
    g.unit(() => insert.run(3));
    await nextTurn();
    expect(
      reader()
        .prepare('SELECT v FROM t ORDER BY v')
        .all()
        .map((r) => (r as { v: number }).v),
    ).toEqual([1, 3]);
  });

  it('nested units join the outer one and share its fate', () => {
    const { db } = fileDb();
    const g = groupCommitOf(db);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    expect(() =>
      g.unit(() => {
        g.unit(() => insert.run(1));
        expect(g.inUnit).toBe(true);
        throw new Error('outer fails');
      }),
    ).toThrow('outer fails');
    g.commitNow();
    expect(count(db)).toBe(0);
  });

  it('whenDurable and afterCommit run at once with no batch open, else after the commit, in order', async () => {
    const { db } = fileDb();
    const g = groupCommitOf(db);
    const seen: string[] = [];
    g.whenDurable(() => seen.push('idle-durable'));
    g.afterCommit(() => seen.push('idle-after'));
    expect(seen).toEqual(['idle-durable', 'idle-after']);
    g.unit(() => db.prepare('INSERT INTO t (v) VALUES (1)').run());
    g.afterCommit(() => seen.push('after-1'));
    g.whenDurable((err) => seen.push(`durable ${err === null ? 'ok' : 'failed'}`));
    g.afterCommit(() => seen.push('after-2'));
    expect(seen).toHaveLength(2);
    await g.durable();
    expect(seen.slice(2)).toEqual(['after-1', 'after-2', 'durable ok']);
  });

  it('a failed commit reaches waiters and failure listeners, drops after-commit callbacks and the rows', async () => {
    const { db, reader } = fileDb();
    // A deferred foreign key is checked at COMMIT: the way to make a commit itself fail.
    db.exec(
      'CREATE TABLE parent (id INTEGER PRIMARY KEY); CREATE TABLE child (pid INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)',
    );
    const g = groupCommitOf(db);
    const failures: string[] = [];
    g.onFailure((e) => failures.push(e.message));
    let announced = false;
    g.unit(() => db.prepare('INSERT INTO t (v) VALUES (7)').run());
    g.unit(() => db.prepare('INSERT INTO child (pid) VALUES (42)').run());
    g.afterCommit(() => {
      announced = true;
    });
    await expect(g.durable()).rejects.toThrow(/FOREIGN KEY/i);
    expect(failures).toHaveLength(1);
    expect(announced).toBe(false);
    expect(db.isTransaction).toBe(false);
    expect(count(reader())).toBe(0);
    // the connection still works for the next batch
    g.unit(() => db.prepare('INSERT INTO t (v) VALUES (8)').run());
    await g.durable();
    expect(count(reader())).toBe(1);
  });

  it('a deferred writer runs once, just before the commit; sync() runs it early for readers', async () => {
    const { db, reader } = fileDb();
    const g = groupCommitOf(db);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    let pending: number[] = [];
    let runs = 0;
    const writer = (): void => {
      runs++;
      for (const v of pending) insert.run(v);
      pending = [];
    };
    pending.push(1, 2);
    g.defer(writer);
    expect(g.pending).toBe(true); // a deferred write opens the batch: answers wait for it
    expect(count(db)).toBe(0);
    g.sync();
    expect(count(db)).toBe(2);
    expect(runs).toBe(1);
    pending.push(3);
    g.defer(writer);
    await g.durable();
    expect(runs).toBe(2);
    expect(count(reader())).toBe(3);
  });

  it('a deferred writer that throws fails the whole batch', async () => {
    const { db, reader } = fileDb();
    const g = groupCommitOf(db);
    g.unit(() => db.prepare('INSERT INTO t (v) VALUES (1)').run());
    g.defer(() => {
      throw new Error('disk says no');
    });
    await expect(g.durable()).rejects.toThrow('disk says no');
    expect(db.isTransaction).toBe(false);
    expect(count(reader())).toBe(0);
  });

  it('a unit that rolls back never takes deferred writes along, even when it reads inside', async () => {
    const { db, reader } = fileDb();
    const g = groupCommitOf(db);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    let pending = [1, 2];
    const writer = (): void => {
      for (const v of pending) insert.run(v);
      pending = [];
    };
    g.defer(writer);
    expect(() =>
      g.unit(() => {
        g.sync(); // a reader inside the unit (e.g. an account lookup)
        insert.run(99);
        throw new Error('validation failed');
      }),
    ).toThrow('validation failed');
    pending.push(3);
    g.defer(writer);
    await g.durable();
    expect(
      reader()
        .prepare('SELECT v FROM t ORDER BY v')
        .all()
        .map((r) => (r as { v: number }).v),
    ).toEqual([1, 2, 3]);
  });

  describe('the write lock held by another connection', () => {
    // Another connection on the file (the checkpointer's RESTART, a sqlite3 shell, a stalled
    // sync) holds the write lock: BEGIN IMMEDIATE of this one answers SQLITE_BUSY.
    function held(reader: () => DatabaseSync): DatabaseSync {
      const other = reader();
      other.exec('PRAGMA busy_timeout = 0');
      other.exec('BEGIN IMMEDIATE');
      return other;
    }

    it('a deferred write takes no lock; its commit waits for the lock without stopping the event loop', async () => {
      const { db, reader } = fileDb();
      const g = groupCommitOf(db);
      const other = held(reader);
      const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
      g.defer(() => insert.run(1));
      expect(g.pending).toBe(true);
      expect(db.isTransaction).toBe(false); // no BEGIN yet: nothing waited
      let durable = false;
      const done = g.durable().then(() => {
        durable = true;
      });
      // timers of this thread fire while the commit keeps trying
      let ticks = 0;
      await until(() => {
        ticks++;
        return g.lockWaits >= 10;
      });
      expect(ticks).toBeGreaterThan(2);
      expect(durable).toBe(false);
      // a command of a later turn joins the waiting batch
      g.defer(() => insert.run(2));
      other.exec('COMMIT');
      await done;
      expect(g.pending).toBe(false);
      expect(
        reader()
          .prepare('SELECT v FROM t ORDER BY v')
          .all()
          .map((r) => (r as { v: number }).v),
      ).toEqual([1, 2]);
    });

    it('past the busy timeout the batch fails like a failed commit and writes nothing; the next one works', async () => {
      const { db, reader } = fileDb();
      const g = groupCommitOf(db);
      g.setLockWait(100);
      expect(g.lockWaitMs).toBe(100);
      expect(Number(Object.values(db.prepare('PRAGMA busy_timeout').get() as object)[0])).toBe(100);
      const failures: string[] = [];
      g.onFailure((e) => failures.push(e.message));
      const other = held(reader);
      const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
      let announced = false;
      g.defer(() => insert.run(1));
      g.afterCommit(() => {
        announced = true;
      });
      const t0 = Date.now();
      await expect(g.durable()).rejects.toThrow(/locked by another connection for \d+ ms/);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(100);
      expect(failures).toHaveLength(1);
      expect(announced).toBe(false);
      expect(g.pending).toBe(false);
      other.exec('COMMIT');
      expect(count(reader())).toBe(0);
      // the busy timeout is the connection's again after every try (not left at 0)
      expect(Number(Object.values(db.prepare('PRAGMA busy_timeout').get() as object)[0])).toBe(100);
      g.defer(() => insert.run(2));
      await g.durable();
      expect(count(reader())).toBe(1);
    });

    it('a unit that cannot have the lock throws having run nothing; the batch commits once the lock is free', async () => {
      const { db, reader } = fileDb();
      const g = groupCommitOf(db);
      g.setLockWait(30);
      const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
      let pending = [1];
      const writer = (): void => {
        for (const v of pending) insert.run(v);
        pending = [];
      };
      const other = held(reader);
      g.defer(writer);
      let ran = false;
      expect(() =>
        g.unit(() => {
          ran = true;
          insert.run(99);
        }),
      ).toThrow(/locked/);
      expect(ran).toBe(false);
      expect(() => g.sync()).toThrow(/locked/); // a reader that needs the deferred rows
      expect(pending).toEqual([1]); // the writer did not run
      other.exec('COMMIT');
      await g.durable();
      expect(
        reader()
          .prepare('SELECT v FROM t ORDER BY v')
          .all()
          .map((r) => (r as { v: number }).v),
      ).toEqual([1]);
    });

    it('tryUnit returns false at once while the lock is held, having run nothing; true once it is free', async () => {
      const { db, reader } = fileDb();
      const g = groupCommitOf(db);
      expect(g.lockWaitMs).toBe(5000);
      const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
      const other = held(reader);
      let ran = false;
      const t0 = Date.now();
      expect(
        g.tryUnit(() => {
          ran = true;
          insert.run(1);
        }),
      ).toBe(false);
      expect(Date.now() - t0).toBeLessThan(2_500); // not the 5 s busy timeout
      expect(ran).toBe(false);
      expect(g.pending).toBe(false);
      expect(Number(Object.values(db.prepare('PRAGMA busy_timeout').get() as object)[0])).toBe(5000);
      other.exec('COMMIT');
      expect(g.tryUnit(() => insert.run(2))).toBe(true);
      await g.durable();
      expect(count(reader())).toBe(1);
    });
  });
});
