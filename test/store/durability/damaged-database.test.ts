// A damaged database refuses the start with a message naming the file and what to do, and is
// never changed: a truncated file, a file that is not SQLite, a WAL from another database, a
// schema from a newer build. Checked through openVenue and through a real service process.
import { tapeTrade, upsertAccount } from '../../helpers/exchange-commands.ts';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DatabaseRefusedError } from '../../../src-main/store/database.ts';
import { openVenue } from '../../../src-main/venue.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function folder(): string {
  const d = mkdtempSync(join(tmpdir(), 'perpdesk-damaged-'));
  dirs.push(d);
  return d;
}

/** A data folder with a cleanly closed venue holding `n` accounts. */
async function venueFolder(n: number, prefix: string): Promise<string> {
  const dir = folder();
  const v = openVenue({ dataDir: dir });
  for (let i = 0; i < n; i++)
    upsertAccount(
      v.exchange,
      { apiKey: `${prefix}${String(i).padStart(8, '0')}`, apiSecret: 'damagedsecret01', kind: 'user', balance: 1000n },
      Date.now(),
    );
  await v.close();
  return dir;
}

const hash = (f: string) =>
  !existsSync(f)
    ? 'absent'
    : statSync(f).isDirectory()
      ? 'folder'
      : createHash('sha256').update(readFileSync(f)).digest('hex');
const files = (dir: string) =>
  ['perpdesk.db', 'perpdesk.db-wal', 'perpdesk.db-shm'].map((f) => `${f}:${hash(join(dir, f))}`);

function refused(dir: string, pattern: RegExp): DatabaseRefusedError {
  const before = files(dir);
  let caught: unknown;
  try {
    openVenue({ dataDir: dir, simulate: false });
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(DatabaseRefusedError);
  const err = caught as DatabaseRefusedError;
  const file = join(dir, 'perpdesk.db');
  expect(err.file).toBe(file);
  expect(err.message).toContain(file);
  expect(err.message).toMatch(pattern);
  expect(err.message).toMatch(/has not changed it/);
  expect(files(dir), 'the files are left as they were').toEqual(before);
  // and the folder is free again (the lock was released)
  expect(existsSync(join(dir, 'perpdesk.lock'))).toBe(false);
  return err;
}

describe('a damaged database', () => {
  it('truncated to whole pages: refused, unchanged, with what to do', async () => {
    const dir = await venueFolder(400, 'trunc');
    const db = join(dir, 'perpdesk.db');
    const size = statSync(db).size;
    truncateSync(db, Math.floor(size / 2 / 4096) * 4096);
    const err = refused(dir, /truncated/);
    expect(err.message).toMatch(/move .*perpdesk\.db.* out of|another --data-dir/);
  });

  it('truncated mid-page: refused', async () => {
    const dir = await venueFolder(50, 'midpg');
    const db = join(dir, 'perpdesk.db');
    truncateSync(db, statSync(db).size - 1000);
    refused(dir, /truncated/);
  });

  // before: the start failed with Node's raw "EISDIR: illegal operation on a directory, read"
  it('a folder where the database or its WAL goes: refused, naming it', () => {
    const dir = folder();
    mkdirSync(join(dir, 'perpdesk.db'));
    refused(dir, /cannot be opened: it is a folder, not a file\./);
    const dir2 = folder();
    writeFileSync(join(dir2, 'perpdesk.db'), Buffer.alloc(8192, 0x41));
    mkdirSync(join(dir2, 'perpdesk.db-wal'));
    refused(dir2, /its WAL .*perpdesk\.db-wal is a folder, not a file/);
  });

  it('not an SQLite file at all: refused', () => {
    const dir = folder();
    writeFileSync(join(dir, 'perpdesk.db'), Buffer.alloc(8192, 0x41));
    refused(dir, /not an SQLite database/);
  });

  it("another database's WAL beside it: refused, neither file changed", async () => {
    const a = await venueFolder(20, 'aaaa');
    // b keeps writing and is never closed: its WAL holds frames (page 1 with b's id among them)
    const b = folder();
    const vb = openVenue({ dataDir: b });
    vb.db.exec('PRAGMA wal_autocheckpoint = 0');
    for (let i = 0; i < 200; i++)
      upsertAccount(
        vb.exchange,
        { apiKey: `bbbb${String(i).padStart(8, '0')}`, apiSecret: 'damagedsecret01', kind: 'user', balance: 5n },
        Date.now(),
      );
    vb.trading.group.commitNow();
    expect(statSync(join(b, 'perpdesk.db-wal')).size).toBeGreaterThan(0);
    copyFileSync(join(b, 'perpdesk.db-wal'), join(a, 'perpdesk.db-wal'));
    await vb.close();
    refused(a, /WAL .* belongs to another database/);
    // without the foreign WAL, a opens with its own accounts
    rmSync(join(a, 'perpdesk.db-wal'));
    rmSync(join(a, 'perpdesk.db-shm'), { force: true });
    const va = openVenue({ dataDir: a, simulate: false });
    expect(va.accounts.byKey('aaaa00000019')).toBeDefined();
    expect(va.accounts.byKey('bbbb00000001')).toBeUndefined();
    await va.close();
  });

  for (const table of ['orders', 'trades']) {
    it(`a page of ${table} overwritten after a clean stop: refused naming the file, unchanged, no -wal or -shm left`, async () => {
      const dir = folder();
      const v = openVenue({ dataDir: dir, simulate: false });
      const ids = [0, 1].map(
        (i) =>
          upsertAccount(
            v.exchange,
            {
              apiKey: `pages${table}${i}`.padEnd(12, '0'),
              apiSecret: 'damagedsecret01',
              kind: 'user',
              balance: 10n ** 13n,
            },
            Date.now(),
          ).id,
      );
      for (let i = 0; i < 300; i++) tapeTrade(v.exchange, ids[0], ids[1], '0.002');
      v.trading.group.commitNow();
      await v.close();
      const db = join(dir, 'perpdesk.db');
      const raw = new DatabaseSync(db, { readOnly: true });
      const { rootpage } = raw.prepare('SELECT rootpage FROM sqlite_master WHERE name = ?').get(table) as {
        rootpage: number;
      };
      raw.close();
      rmSync(`${db}-shm`, { force: true });
      rmSync(`${db}-wal`, { force: true });
      const fd = openSync(db, 'r+');
      writeSync(fd, randomBytes(4096), 0, 4096, (rootpage - 1) * 4096);
      closeSync(fd);
      const err = refused(dir, /cannot be opened: (its integrity check failed|it is damaged)/);
      expect(err.message).toMatch(/Keep a copy of it/);
      expect(existsSync(`${db}-wal`)).toBe(false);
      expect(existsSync(`${db}-shm`)).toBe(false);
    });
  }

  // the market tables are not quick_checked at a start (gigabytes of datasets); their root pages are
  // (btree-roots.ts). Before, such a start went on and the first read of the table failed.
  for (const table of ['candles', 'public_trades', 'dataset_trade_blocks_time']) {
    it(`the root page of ${table} overwritten after a clean stop: refused at the start, naming it`, async () => {
      const dir = folder();
      const v = openVenue({ dataDir: dir, simulate: false });
      const ids = [0, 1].map(
        (i) =>
          upsertAccount(
            v.exchange,
            { apiKey: `roots${i}`.padEnd(12, '0'), apiSecret: 'damagedsecret01', kind: 'user', balance: 10n ** 13n },
            Date.now(),
          ).id,
      );
      for (let i = 0; i < 300; i++) tapeTrade(v.exchange, ids[0], ids[1], '0.002');
      v.trading.group.commitNow();
      await v.close();
      const db = join(dir, 'perpdesk.db');
      const raw = new DatabaseSync(db, { readOnly: true });
      const row = raw.prepare('SELECT type, rootpage FROM sqlite_master WHERE name = ?').get(table) as
        { type: string; rootpage: number } | undefined;
      raw.close();
      expect(row, `${table} is in the schema`).toBeDefined();
      rmSync(`${db}-shm`, { force: true });
      rmSync(`${db}-wal`, { force: true });
      const fd = openSync(db, 'r+');
      writeSync(fd, randomBytes(4096), 0, 4096, (row!.rootpage - 1) * 4096);
      closeSync(fd);
      refused(
        dir,
        new RegExp(`cannot be opened: the root page ${row!.rootpage} of the ${row!.type} ${table} is damaged \\(`),
      );
      expect(existsSync(`${db}-wal`)).toBe(false);
      expect(existsSync(`${db}-shm`)).toBe(false);
    });
  }

  it('a schema from a newer build: refused, unchanged', async () => {
    const dir = await venueFolder(5, 'newer');
    const raw = new DatabaseSync(join(dir, 'perpdesk.db'));
    raw.exec('PRAGMA user_version = 999');
    raw.close();
    const err = refused(dir, /newer than this build/);
    expect(err.message).toMatch(/schema version 999/);
  });

  it('the service process says so in one line and exits 1', async () => {
    const dir = await venueFolder(300, 'procs');
    const db = join(dir, 'perpdesk.db');
    truncateSync(db, Math.floor(statSync(db).size / 2 / 4096) * 4096);
    const before = hash(db);
    const r = spawnSync(
      process.execPath,
      [join(root, 'src-main/headless.ts'), '--port', '0', '--data-dir', dir, '--no-sim'],
      { cwd: root, encoding: 'utf8', timeout: 60_000 },
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`The database ${db} cannot be opened: it is truncated`);
    expect(hash(db)).toBe(before);
  }, 60_000);
});
