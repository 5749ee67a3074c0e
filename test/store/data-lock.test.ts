// One venue per data folder: a second one (in this process or another) is refused, a stale lock
// (its process is gone) is taken over, and a venue that fails to open leaves no lock behind.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { DataFolderInUseError, LOCK_FILE, lockDataFolder } from '../../src-main/store/data-lock.ts';
import { openVenue } from '../../src-main/venue.ts';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'perpdesk-lock-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('data folder lock', () => {
  it('refuses a second venue on the same folder until the first one is closed', async () => {
    const dir = tempDir();
    const first = openVenue({ dataDir: dir, simulate: false });
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe(String(process.pid));
    expect(() => openVenue({ dataDir: dir, simulate: false })).toThrow(DataFolderInUseError);
    await first.close();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    const second = openVenue({ dataDir: dir, simulate: false });
    await second.close();
  });

  it('refuses a folder whose lock names a live process, and says which', () => {
    const dir = tempDir();
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30_000)'], { stdio: 'ignore' });
    try {
      writeFileSync(join(dir, LOCK_FILE), String(other.pid));
      let caught: unknown;
      try {
        lockDataFolder(dir);
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(DataFolderInUseError);
      expect((caught as DataFolderInUseError).pid).toBe(other.pid);
      expect((caught as Error).message).toContain(`process ${other.pid}`);
      expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe(String(other.pid)); // left alone
    } finally {
      other.kill();
    }
  });

  it('takes over the lock of a process that is gone (a crash left it)', () => {
    const dir = tempDir();
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(join(dir, LOCK_FILE), gone.stdout);
    const lock = lockDataFolder(dir);
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe(String(process.pid));
    lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it('a venue that fails to open releases the folder', () => {
    const dir = tempDir();
    const db = new DatabaseSync(join(dir, 'perpdesk.db'));
    db.exec('PRAGMA user_version = 999'); // written by a newer build
    db.close();
    expect(() => openVenue({ dataDir: dir, simulate: false })).toThrow(/newer than this build/);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    expect(() => lockDataFolder(dir).release()).not.toThrow();
  });
});
