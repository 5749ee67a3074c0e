// The background checkpointer: the venue's connection no longer checkpoints on commit, a worker
// thread copies the WAL into the database file, and everything committed survives its stop.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Checkpointer,
  LIMIT_BYTES,
  RESTART_BYTES,
  type CheckpointerOptions,
} from '../../src-main/store/checkpointer.ts';
import { databaseFile, openDatabase } from '../../src-main/store/database.ts';

let dir = '';
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

async function until(cond: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A data folder's database (table t) in a new folder under `parent`, with a Checkpointer on it. */
function openWatched(parent: string, opts: Omit<CheckpointerOptions, 'file'>) {
  const sub = mkdtempSync(join(parent, 'db-'));
  const file = databaseFile(sub);
  const db = openDatabase({ dataDir: sub });
  db.exec('CREATE TABLE t (v TEXT NOT NULL)');
  const ck = new Checkpointer(db, { file, ...opts });
  return { file, db, ck, insert: db.prepare('INSERT INTO t (v) VALUES (?)') };
}

/** Rows of t in the closed database file, read by a fresh connection. */
function rowsOnDisk(file: string): number {
  const again = new DatabaseSync(file, { readOnly: true });
  const n = (again.prepare('SELECT COUNT(*) AS n FROM t').get() as { n: number }).n;
  again.close();
  return n;
}

describe('checkpointer', () => {
  // With a round period longer than the test, only the writer could checkpoint: it must not.
  // (With the worker running meanwhile, a round that catches up lets the writer restart the WAL
  // from its start, so the WAL's size says nothing about the writer; on a loaded machine that
  // happened.)
  it('turns off auto-checkpoints: the writer alone lets the WAL grow past the usual 1,000-page point', async () => {
    dir = mkdtempSync(join(tmpdir(), 'perpdesk-ckpt-'));
    const { file, db, ck, insert } = openWatched(dir, { everyMs: 600_000 });
    expect((db.prepare('PRAGMA wal_autocheckpoint').get() as { wal_autocheckpoint: number }).wal_autocheckpoint).toBe(
      0,
    );

    const blob = 'x'.repeat(2000);
    for (let i = 0; i < 3000; i++) insert.run(blob); // ~1,500 pages, past the usual 1,000-page auto point
    expect(ck.rounds).toBe(0);
    // an auto-checkpoint at ~1,000 pages would have let the writer reuse the WAL from there (4.1 MB)
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(5_500_000);

    await ck.stop();
    db.close();
    expect(rowsOnDisk(file)).toBe(3000);
  });

  it('a worker round copies every frame of the WAL into the database file, and every commit is kept', async () => {
    dir = mkdtempSync(join(tmpdir(), 'perpdesk-ckpt-'));
    const { file, db, ck, insert } = openWatched(dir, { everyMs: 20 });
    const blob = 'x'.repeat(2000);
    for (let i = 0; i < 3000; i++) insert.run(blob);

    // Rounds that ran during the loop report only now (their messages wait for the event loop),
    // and one that had caught up then says nothing of the last rows. Count what has arrived, then
    // wait for a round after the next one: it started after the loop had ended. (A WAL of ~24 MB
    // is over the default limit: once a round has copied all of it and the next saw it idle, the
    // worker cuts it to nothing, which it does only then.)
    await new Promise((r) => setTimeout(r, 50));
    const seen = ck.rounds;
    await until(
      () => ck.rounds > seen + 1 && ((ck.lastLog > 0 && ck.lastCheckpointed === ck.lastLog) || ck.truncations > 0),
      30_000,
    );
    expect(ck.lastError).toBeNull();
    expect(statSync(file).size).toBeGreaterThan(5_000_000); // the rows are in the database file itself

    db.close();
    await ck.stop();
    expect(rowsOnDisk(file)).toBe(3000);
  });

  it('an awaited venue close finishes even when nothing else keeps the process alive', () => {
    dir = mkdtempSync(join(tmpdir(), 'perpdesk-ckpt-'));
    // A fresh process whose only remaining work is the close: the checkpointer's worker must hold
    // the process until its last round is done, or the code after the await never runs.
    const script = `
      const { openVenue } = await import(${JSON.stringify(new URL('../../src-main/venue.ts', import.meta.url).href)});
      const venue = openVenue({ dataDir: ${JSON.stringify(dir)}, simulate: false });
      await venue.close();
      console.log('closed');
    `;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    expect(r.stdout.trim().split('\n').pop()).toBe('closed');
    expect(r.status).toBe(0);
  });
});

describe('checkpointer: the WAL file size', () => {
  it("the venue's connection never cuts the WAL; the worker cuts it to nothing once it is idle and over the limit", async () => {
    dir = mkdtempSync(join(tmpdir(), 'perpdesk-ckpt-'));
    const { file, db, ck, insert } = openWatched(dir, { everyMs: 20, limitBytes: 1_000_000 });
    expect((db.prepare('PRAGMA journal_size_limit').get() as { journal_size_limit: number }).journal_size_limit).toBe(
      -1,
    );
    const blob = 'x'.repeat(2000);
    db.exec('BEGIN');
    for (let i = 0; i < 3000; i++) insert.run(blob); // one commit of ~1,500 pages: a WAL of ~6 MB
    db.exec('COMMIT');
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(5_500_000);

    // idle from here: a round copies it all, the next sees no new frame and cuts the file
    await until(() => ck.truncations > 0, 30_000);
    expect(ck.lastError).toBeNull();
    expect(statSync(`${file}-wal`).size).toBe(0);

    // the next commits start a fresh WAL; the venue's connection does not cut it at its restart
    for (let i = 0; i < 1000; i++) insert.run(blob);
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(1_000_000);
    expect((db.prepare('SELECT COUNT(*) AS n FROM t').get() as { n: number }).n).toBe(4000);

    await ck.stop();
    db.close();
    expect(rowsOnDisk(file)).toBe(4000);
  });

  it('a WAL under the limit, or one still being written, is left as it is', async () => {
    dir = mkdtempSync(join(tmpdir(), 'perpdesk-ckpt-'));
    const { file, db, ck, insert } = openWatched(dir, { everyMs: 20, limitBytes: 50_000_000 });
    db.exec('BEGIN');
    for (let i = 0; i < 3000; i++) insert.run('x'.repeat(2000));
    db.exec('COMMIT');
    const seen = ck.rounds;
    await until(() => ck.rounds > seen + 5);
    expect(ck.truncations).toBe(0);
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(5_500_000);
    await ck.stop();
    db.close();
  });
});

describe('checkpointer: a WAL written to without pause', () => {
  /** The WAL header's checkpoint sequence number (bytes 12-15): SQLite adds one each time a writer starts the WAL over. */
  function walSequence(file: string): number {
    const fd = openSync(`${file}-wal`, 'r');
    try {
      const head = Buffer.alloc(16);
      return readSync(fd, head, 0, 16, 0) === 16 ? head.readUInt32BE(12) : -1;
    } finally {
      closeSync(fd);
    }
  }

  /**
   * At least 10,000 commits back to back (each a WAL frame or two) while the worker runs; then the
   * WAL file's size (its largest extent: a start-over reuses it from its start). `untilStartedOver`:
   * go on writing (up to 20 s) until the writer has started the WAL over at least once meanwhile.
   * The loop leaves the write lock free only between two commits, so a RESTART that waits for it
   * can miss every such gap for a whole burst of 10,000 (1 run in 120 did, and then went
   * through only once the writes had stopped: nothing started the WAL over). The service's writer
   * commits once an event-loop turn and leaves it free far longer.
   */
  async function writeWithoutPause(
    restartBytes: number,
    untilStartedOver: boolean,
  ): Promise<{ walBytes: number; restarts: number; rows: number; written: number; startedOver: number }> {
    // limitBytes out of reach: once the writes stop, a round that finds the WAL idle and over the
    // limit would cut it to nothing before the frames are read below (a CI run read 0 frames so)
    const { file, db, ck, insert } = openWatched(dir, { everyMs: 10, restartBytes, limitBytes: 1024 ** 4 });
    await until(() => ck.rounds > 0); // the worker is up
    // the worker's rounds run on their thread meanwhile; none ends with nothing left to copy
    insert.run('first');
    const seq0 = walSequence(file);
    let written = 1;
    const end = Date.now() + 20_000;
    let startedOver: number;
    do {
      for (let i = 0; i < 100; i++, written++) insert.run(`row ${written} ${'x'.repeat(100)}`);
      startedOver = walSequence(file) - seq0;
    } while (written < 10_000 || (untilStartedOver && startedOver === 0 && Date.now() < end));
    const walBytes = statSync(`${file}-wal`).size;
    await new Promise((r) => setTimeout(r, 50)); // the rounds' messages
    expect(ck.lastError).toBeNull();
    expect(ck.truncations).toBe(0);
    const restarts = ck.restarts;
    await ck.stop();
    db.close();
    return { walBytes, restarts, rows: rowsOnDisk(file), written, startedOver };
  }

  it('is started over once its frames pass restartBytes (it grew without bound before), and every commit is kept', async () => {
    dir = mkdtempSync(join(tmpdir(), 'perpdesk-ckpt-'));
    const unbounded = await writeWithoutPause(1024 ** 4, false);
    const bounded = await writeWithoutPause(256 * 1024, true);
    // without restarts the WAL file grew by a frame or more a commit, far past the bounded run's
    // 256 KiB: the writer did not start it over, except where it stalled long enough for a passive
    // round to copy every frame (SQLite's writer then starts the log over by itself; the file
    // keeps its largest size). On a host busy with other tests that happens more often: a CI run
    // with two vitest workers stopped at 6,600 frames of the 10,000 written, so the bound is
    // 1,000 frames, sixteen times the restart point
    expect(unbounded.restarts).toBe(0);
    expect(unbounded.walBytes).toBeGreaterThanOrEqual(1_000 * 4096);
    // with them the writer started it over while it wrote
    expect(bounded.restarts).toBeGreaterThan(0);
    expect(bounded.startedOver).toBeGreaterThan(0);
    expect(unbounded.rows).toBe(unbounded.written);
    expect(bounded.rows).toBe(bounded.written);
  });

  // The defaults keep the WAL a ring of file pages written over in place (a frame past the file's
  // end costs a fresh, kernel-zeroed page on the committing thread): a steady writer's WAL starts
  // over near RESTART_BYTES, never grows to LIMIT_BYTES, and an idle round leaves the file as it
  // is for the next burst. With the old defaults (256 MiB / 16 MiB) the same writes never start
  // the WAL over, and the idle round cuts it to nothing.
  it('with its default sizes a steadily written WAL is a ring: started over, within the idle limit, and kept when idle', async () => {
    dir = mkdtempSync(join(tmpdir(), 'perpdesk-ckpt-'));
    const { file, db, ck, insert } = openWatched(dir, { everyMs: 10 });
    await until(() => ck.rounds > 0);
    insert.run('first');
    const seq0 = walSequence(file);
    const blob = 'x'.repeat(4000); // a page a row
    let written = 1;
    let largest = 0;
    const end = Date.now() + 60_000;
    // 80 KB a commit with a ms between commits (the service commits once an event-loop turn): the
    // worker's RESTART finds the write lock free between two of them
    while ((written * blob.length < 2.5 * RESTART_BYTES || walSequence(file) - seq0 < 2) && Date.now() < end) {
      db.exec('BEGIN');
      for (let i = 0; i < 20; i++, written++) insert.run(blob);
      db.exec('COMMIT');
      largest = Math.max(largest, statSync(`${file}-wal`).size);
      await new Promise((r) => setTimeout(r, 1));
    }
    expect(walSequence(file) - seq0).toBeGreaterThanOrEqual(2); // started over, twice at least
    expect(ck.restarts).toBeGreaterThan(0);
    expect(largest).toBeGreaterThanOrEqual(RESTART_BYTES * 0.9);
    expect(largest).toBeLessThan(LIMIT_BYTES);

    // idle: rounds copy the rest and find nothing new; the file stays for the next burst
    const size = statSync(`${file}-wal`).size;
    const rounds = ck.rounds;
    await until(() => ck.rounds >= rounds + 10);
    expect(ck.lastError).toBeNull();
    expect(ck.truncations).toBe(0);
    expect(statSync(`${file}-wal`).size).toBe(size);

    await ck.stop();
    db.close();
    expect(rowsOnDisk(file)).toBe(written);
  }, 90_000);
});
