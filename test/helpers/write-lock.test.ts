// takeWriteLock (write-lock.ts): waits on the event loop while another connection of this process
// holds the write lock for a moment (what made BEGIN IMMEDIATE with busy_timeout 0 fail at once
// when it met a commit of the venue under test), and gives up past its bound.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, expect, it } from 'vitest';
import { takeWriteLock } from './write-lock.ts';

const dirs: string[] = [];
const dbs: DatabaseSync[] = [];
afterEach(() => {
  for (const d of dbs.splice(0)) if (d.isOpen) d.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function pair(): [DatabaseSync, DatabaseSync] {
  const dir = mkdtempSync(join(tmpdir(), 'perpdesk-wlock-'));
  dirs.push(dir);
  const file = join(dir, 'x.db');
  const a = new DatabaseSync(file);
  a.exec('PRAGMA journal_mode = WAL; CREATE TABLE t (v INTEGER)');
  const b = new DatabaseSync(file);
  dbs.push(a, b);
  return [a, b];
}

it('takes the lock once a commit of this process frees it, the event loop running meanwhile', async () => {
  const [venue, shell] = pair();
  venue.exec('BEGIN IMMEDIATE; INSERT INTO t VALUES (1)');
  expect(() => shell.exec('BEGIN IMMEDIATE')).toThrow(/database is locked/);
  setTimeout(() => venue.exec('COMMIT'), 50);
  await takeWriteLock(shell);
  // the shell holds it now: the venue's next write is the one refused
  venue.exec('PRAGMA busy_timeout = 0');
  expect(() => venue.exec('BEGIN IMMEDIATE')).toThrow(/database is locked/);
  shell.exec('COMMIT');
  expect(shell.prepare('SELECT COUNT(*) AS n FROM t').get()).toEqual({ n: 1 });
});

it('gives up with SQLITE_BUSY when the lock is held past its bound', async () => {
  const [venue, shell] = pair();
  venue.exec('BEGIN IMMEDIATE');
  const t0 = Date.now();
  await expect(takeWriteLock(shell, 100)).rejects.toThrow(/database is locked/);
  expect(Date.now() - t0).toBeGreaterThanOrEqual(100);
  venue.exec('COMMIT');
});
