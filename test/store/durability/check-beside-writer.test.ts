// The start's check of a database (store/database.ts checkDatabase) while another connection
// works on the same file: a venue closing in the same process, another program on the file (a
// sqlite3 shell, a script, the sweep CLI's read-only look at a folder's datasets). The check reads
// the files' own bytes before SQLite opens them, and the other connection changes them as it goes
// (its checkpoint writes page 1 before it grows the file, its last close removes the WAL, a table
// it creates has its root page only in the WAL at first).
// Read at such a moment, a sound database was refused as truncated, its WAL as missing or foreign,
// a root page as damaged: 5 to 11 times in 5 s against the writer below, in each of three runs.
// And a check that passed removed the -shm its own read-only connection had created, though
// another connection might have opened the file meanwhile and be using it: the venue's
// connection then made a new wal-index, and the two shared no lock.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { closeDatabase, databaseFile, openDatabase } from '../../../src-main/store/database.ts';

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A data folder with a venue's database, closed cleanly. */
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'perpdesk-check-beside-'));
  dirs.push(dir);
  closeDatabase(openDatabase({ dataDir: dir }));
  return dir;
}

/** Runs `script` in another node process; resolves with what it printed once it exits. */
function run(script: string): { child: ChildProcess; done: Promise<string> } {
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  let out = '';
  child.stdout?.on('data', (b: Buffer) => (out += b.toString()));
  const done = new Promise<string>((resolve, reject) =>
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`the other process exited ${code}: ${out}`)),
    ),
  );
  return { child, done };
}

describe("the start's check beside another connection on the same file", () => {
  it('never refuses a sound database that another process opens, writes and closes in a loop', async () => {
    const dir = folder();
    const file = databaseFile(dir);
    const seconds = 4;
    // another program on the file: a table created in its first round, then one row a round,
    // each round its own connection, closed (the last close checkpoints and removes the WAL)
    const writer = run(`
      const { DatabaseSync } = require('node:sqlite');
      const end = Date.now() + ${seconds * 1000};
      let rounds = 0;
      while (Date.now() < end) {
        const db = new DatabaseSync(${JSON.stringify(file)});
        db.exec('PRAGMA busy_timeout = 5000');
        db.exec('PRAGMA synchronous = OFF');
        db.exec('CREATE TABLE IF NOT EXISTS other_program (x BLOB)');
        db.prepare('INSERT INTO other_program VALUES (randomblob(4000))').run();
        db.close();
        rounds++;
      }
      console.log(rounds);
    `);
    const refusals: string[] = [];
    let starts = 0;
    const end = Date.now() + seconds * 1000;
    while (Date.now() < end) {
      try {
        closeDatabase(openDatabase({ dataDir: dir }));
        starts++;
      } catch (err) {
        refusals.push((err as Error).message);
      }
    }
    const rounds = Number(await writer.done);
    expect(refusals).toEqual([]);
    // the two did overlap, many times
    expect(starts).toBeGreaterThan(50);
    expect(rounds).toBeGreaterThan(50);
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      expect((db.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check).toBe('ok');
      const { n } = db.prepare('SELECT COUNT(*) AS n FROM other_program').get() as { n: number };
      expect(n).toBe(rounds); // every round of the other program is in the file
    } finally {
      db.close();
    }
  }, 30_000);

  it("leaves the -shm of a connection that opened the file during the check: the next one shares that connection's locks", async () => {
    const dir = folder();
    const file = databaseFile(dir);
    // enough user rows that the check's quick_check lasts a while (hundreds of ms)
    const fill = new DatabaseSync(file);
    fill.exec(`
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400000)
      INSERT INTO settings (key, value) SELECT 'filler-' || i, hex(randomblob(40)) FROM n;
    `);
    fill.close(); // the last close: no -wal or -shm left
    expect(statSync(`${file}-shm`, { throwIfNoEntry: false })).toBeUndefined();
    // the other program opens the file as soon as the check's connection has made the -shm,
    // writes, says which -shm it maps (its inode) and when, and stays open until told
    const other = run(`
      const { existsSync, statSync } = require('node:fs');
      const { DatabaseSync } = require('node:sqlite');
      const shm = ${JSON.stringify(`${file}-shm`)};
      const until = Date.now() + 20000;
      while (!existsSync(shm)) if (Date.now() > until) process.exit(3);
      const db = new DatabaseSync(${JSON.stringify(file)});
      db.exec('PRAGMA busy_timeout = 5000');
      db.exec("INSERT INTO settings (key, value) VALUES ('other', 'x')");
      console.log(JSON.stringify({ ino: statSync(shm).ino, at: Date.now() }));
      setTimeout(() => db.close(), 3000);
    `);
    let said = '';
    other.child.stdout?.on('data', (b: Buffer) => (said += b.toString()));
    await new Promise((r) => setTimeout(r, 300)); // the other process is up and watching
    const venue = openDatabase({ dataDir: dir });
    const checked = Date.now();
    try {
      await new Promise<void>((resolve) => {
        const t = setInterval(() => {
          if (said.includes('}')) {
            clearInterval(t);
            resolve();
          }
        }, 10);
      });
      const { ino, at } = JSON.parse(said) as { ino: number; at: number };
      // the other connection did open the file while the check ran
      expect(at).toBeLessThan(checked);
      // and the folder's -shm is still the one it maps, which the venue's connection opened too
      expect(statSync(`${file}-shm`).ino).toBe(ino);
      venue.exec("INSERT INTO settings (key, value) VALUES ('venue', 'y')");
      const { n } = venue.prepare("SELECT COUNT(*) AS n FROM settings WHERE key IN ('other', 'venue')").get() as {
        n: number;
      };
      expect(n).toBe(2);
    } finally {
      closeDatabase(venue);
    }
    await other.done;
  }, 60_000);
});
