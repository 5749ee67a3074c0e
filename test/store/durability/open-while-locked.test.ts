// A start while another connection holds the database file a moment: a venue closing in the same
// process (its checkpoint worker's last close checkpoints and removes the WAL under an exclusive
// lock) or another program. The start's check waited for nothing and called the file damaged
// ("it is damaged (database is locked)", a CI run on 12-05); it now waits as the venue's own
// connection does, and a lock held past that is said to be a lock, not damage.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseFile, DatabaseRefusedError, openDatabase } from '../../../src-main/store/database.ts';

const dirs: string[] = [];
const children: Array<ReturnType<typeof spawn>> = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A data folder with a venue's database, closed cleanly. */
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'perpdesk-open-locked-'));
  dirs.push(dir);
  openDatabase({ dataDir: dir }).close();
  return dir;
}

/**
 * Another process takes the file's exclusive lock (SQLite's exclusive locking mode: no reader gets
 * in) and lets it go after `ms`; resolves once it holds it, with the moment it will let go.
 */
function holdLock(file: string, ms: number): Promise<{ ended: Promise<number | null> }> {
  const script = `
    const { DatabaseSync } = require('node:sqlite');
    const db = new DatabaseSync(${JSON.stringify(file)});
    db.exec('PRAGMA locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
    console.log('locked');
    setTimeout(() => db.close(), ${ms});
  `;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const ended = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (b: Buffer) => {
      if (b.toString().includes('locked')) resolve({ ended });
    });
    child.on('exit', (code) => reject(new Error(`the lock holder exited (${code}) before it held the lock`)));
  });
}

describe('a start while another connection holds the database file', () => {
  it('waits for a lock let go within the busy timeout, then opens the file unchanged', async () => {
    const dir = folder();
    const held = await holdLock(databaseFile(dir), 800);
    const t0 = Date.now();
    const db = openDatabase({ dataDir: dir }); // refused "damaged (database is locked)" before
    const waited = Date.now() - t0;
    try {
      expect(waited).toBeGreaterThan(200); // it did wait for the holder
      expect((db.prepare('PRAGMA quick_check').get() as { quick_check: string }).quick_check).toBe('ok');
    } finally {
      db.close();
    }
    expect(await held.ended).toBe(0);
  });

  it('refuses a lock held past it as a lock, naming what to do, not as damage', async () => {
    const dir = folder();
    const file = databaseFile(dir);
    await holdLock(file, 30_000);
    let err: unknown;
    try {
      openDatabase({ dataDir: dir }).close();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DatabaseRefusedError);
    const message = (err as Error).message;
    expect(message).toContain(`The database ${file} cannot be opened: another program holds it locked`);
    expect(message).toContain('database is locked');
    expect(message).toContain('Close the program that holds it');
    expect(message).not.toContain('damaged');
  }, 20_000);
});
