// Switching a new database file to WAL while another process holds it: SQLite answers "database
// is locked" without waiting (two sweeps opening a new sweeps.db together failed so, 1 time in
// 20); enableWal tries again until the other lets go. The other connection is a worker thread
// holding an exclusive lock for 300 ms; this one waits with a busy timeout of 0, so only
// enableWal's own retries can get it through.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { enableWal } from '../../src-main/store/database.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A worker that takes an exclusive lock on `file`, says so, and lets go after `ms`. */
async function holdLock(file: string, ms: number): Promise<Worker> {
  const w = new Worker(
    `const { DatabaseSync } = require('node:sqlite');
     const { parentPort, workerData } = require('node:worker_threads');
     const db = new DatabaseSync(workerData.file);
     db.exec('CREATE TABLE IF NOT EXISTS t (x)');
     db.exec('BEGIN EXCLUSIVE');
     parentPort.postMessage('locked');
     Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.ms);
     db.exec('COMMIT');
     db.close();`,
    { eval: true, workerData: { file, ms } },
  );
  await new Promise((resolve) => w.once('message', resolve));
  return w;
}

function newFile(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'perpdesk-wal-'));
  dirs.push(d);
  return path.join(d, 'x.db');
}

describe('enableWal', () => {
  it('waits for another connection that holds the file, where the pragma alone fails at once', async () => {
    const raw = newFile();
    const w1 = await holdLock(raw, 300);
    const a = new DatabaseSync(raw);
    a.exec('PRAGMA busy_timeout = 0');
    expect(() => a.exec('PRAGMA journal_mode = WAL')).toThrow(/database is locked/);
    a.close();
    await new Promise((resolve) => w1.once('exit', resolve));

    const file = newFile();
    const w2 = await holdLock(file, 300);
    const b = new DatabaseSync(file);
    b.exec('PRAGMA busy_timeout = 0');
    const t0 = Date.now();
    enableWal(b);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(100);
    expect(b.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    b.close();
    await new Promise((resolve) => w2.once('exit', resolve));
  });

  it("gives up after its wait, with SQLite's own error", async () => {
    const file = newFile();
    const w = await holdLock(file, 1_000);
    const c = new DatabaseSync(file);
    c.exec('PRAGMA busy_timeout = 0');
    expect(() => enableWal(c, 100)).toThrow(/database is locked/);
    c.close();
    await new Promise((resolve) => w.once('exit', resolve));
  });
});
