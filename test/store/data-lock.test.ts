// One venue per data folder: a second one (in this process or another) is refused, a stale lock
// (its process is gone) is taken over, and a venue that fails to open leaves no lock behind.
// Starters at the same instant on a stale lock: exactly one holds the folder (an OS lock decides).
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir, uptime } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { DataFolderInUseError, LOCK_FILE, lockDataFolder, OS_LOCK_FILE } from '../../src-main/store/data-lock.ts';
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

  it.skipIf(process.platform !== 'linux')(
    'takes over a lock whose pid a process that is no perpdesk took since (a reboot or a container restart reused it)',
    () => {
      const dir = tempDir();
      const other = spawn('sleep', ['30'], { stdio: 'ignore' });
      try {
        writeFileSync(join(dir, LOCK_FILE), String(other.pid));
        const lock = lockDataFolder(dir);
        expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe(String(process.pid));
        lock.release();
      } finally {
        other.kill();
      }
    },
  );

  it('takes over a lock written before the machine last booted, whatever process has its pid now', () => {
    const dir = tempDir();
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30_000)'], { stdio: 'ignore' });
    try {
      const file = join(dir, LOCK_FILE);
      writeFileSync(file, String(other.pid));
      const beforeBoot = (Date.now() - uptime() * 1000 - 3_600_000) / 1000;
      utimesSync(file, beforeBoot, beforeBoot);
      const lock = lockDataFolder(dir);
      expect(readFileSync(file, 'utf8')).toBe(String(process.pid));
      lock.release();
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

  it.skipIf(process.platform !== 'linux')(
    'takes over the lock of a process killed but not yet reaped (a zombie: a restart right after a kill -9)',
    async () => {
      const dir = tempDir();
      // sh backgrounds a short sleep and then becomes a long one, which never reaps it: a zombie
      const parent = spawn('sh', ['-c', 'sleep 0.05 & echo $!; exec sleep 10'], {
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      try {
        const pid = Number(await new Promise<string>((res) => parent.stdout!.once('data', (b) => res(String(b)))));
        const state = () => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1][0];
        for (let i = 0; i < 200 && state() !== 'Z'; i++) await new Promise((r) => setTimeout(r, 10));
        expect(state()).toBe('Z');
        expect(() => process.kill(pid, 0)).not.toThrow(); // signals still reach it: it looked alive
        writeFileSync(join(dir, LOCK_FILE), String(pid));
        const lock = lockDataFolder(dir);
        expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe(String(process.pid));
        lock.release();
      } finally {
        parent.kill('SIGKILL');
      }
    },
  );

  it('a venue that fails to open releases the folder', () => {
    const dir = tempDir();
    const db = new DatabaseSync(join(dir, 'perpdesk.db'));
    db.exec('PRAGMA user_version = 999'); // written by a newer build
    db.close();
    expect(() => openVenue({ dataDir: dir, simulate: false })).toThrow(/newer than this build/);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    expect(() => lockDataFolder(dir).release()).not.toThrow();
  });

  it('three starters at the same instant on a stale lock: exactly one holds the folder, every round', async () => {
    const dir = tempDir();
    const fixture = fileURLToPath(new URL('fixtures/lock-taker.ts', import.meta.url));
    const takers: ChildProcess[] = Array.from({ length: 3 }, () => fork(fixture, [], { stdio: 'ignore' }));
    const next = (c: ChildProcess) => new Promise<any>((res) => c.once('message', res));
    try {
      await Promise.all(takers.map(next)); // ready
      for (let round = 0; round < 100; round++) {
        writeFileSync(join(dir, LOCK_FILE), '999999'); // a crash's lock: no such process
        const at = Date.now() + 30;
        const answers = takers.map(next);
        for (const c of takers) c.send({ dir, at });
        const won = (await Promise.all(answers)).filter((a) => a.won === true).length;
        expect(won, `holders in round ${round}`).toBe(1);
        const released = takers.map(next);
        for (const c of takers) c.send({ release: true });
        await Promise.all(released);
      }
    } finally {
      for (const c of takers) c.kill();
    }
  }, 60_000);

  it('a holder killed with SIGKILL leaves the folder free: the kernel dropped its lock', async () => {
    const dir = tempDir();
    const fixture = fileURLToPath(new URL('fixtures/lock-taker.ts', import.meta.url));
    const c = fork(fixture, [], { stdio: 'ignore' });
    const next = () => new Promise<any>((res) => c.once('message', res));
    await next();
    const took = next();
    c.send({ dir, at: 0 });
    expect((await took).won).toBe(true);
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe(String(c.pid));
    expect(() => lockDataFolder(dir)).toThrow(DataFolderInUseError); // held: the pid file's process is alive
    const gone = new Promise((res) => c.once('exit', res));
    c.kill('SIGKILL');
    await gone;
    const lock = lockDataFolder(dir); // its pid file is stale now, and overwritten
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe(String(process.pid));
    expect(existsSync(join(dir, OS_LOCK_FILE))).toBe(true);
    lock.release();
  });
});
