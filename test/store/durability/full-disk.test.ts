// The data folder on a small tmpfs fills up (another writer takes every free byte) while orders
// stream in: changes are refused with 503 / 5002 naming the disk, never a failed commit (no 5000
// or 5001); reads go on; nothing acknowledged is lost; once the space returns, orders are taken
// again without a restart; a restart then finds every acknowledged order as answered. And a
// commit that comes while the disk is full (the venue's background writers go on) takes the
// reserve file's room instead of failing, where without the reserve file it fails.
// Needs root to mount a tmpfs; skipped with the reason otherwise. The tmpfs is always unmounted.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { makeApp } from '../../helpers/app.ts';
import { dataOf, makeAccount, orderBody, signed as signedInject } from '../../helpers/signed.ts';
import { Errors } from '../../../src-shared/errors.ts';
import { openDatabase, transaction } from '../../../src-main/store/database.ts';
import { RESERVE_FILE } from '../../../src-main/store/disk-space.ts';
import { groupCommitOf } from '../../../src-main/store/group-commit.ts';
import { all, kill9, plain, signed, startService, type Creds, type Service } from './service-process.ts';

const mountPoint = mkdtempSync(join(tmpdir(), 'perpdesk-fulldisk-'));
const CREDS: Creds = { key: 'fulldiskkey01', secret: 'fulldisksecret01' };

function tryMount(): string | null {
  if (process.platform !== 'linux') return 'tmpfs mounts are a Linux test';
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root';
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=128m,mode=0700', 'tmpfs', mountPoint], { encoding: 'utf8' });
  if (r.error || r.status !== 0)
    return `mounting a tmpfs is not allowed here: ${(r.stderr || r.error?.message || '').trim()}`;
  return null;
}

const skipReason = tryMount();
if (skipReason !== null) console.warn(`full-disk test skipped: ${skipReason}`);
const services: Service[] = [];

afterAll(async () => {
  for (const s of services) await kill9(s);
  if (skipReason === null) {
    const r = spawnSync('umount', [mountPoint], { encoding: 'utf8' });
    if (r.status !== 0) spawnSync('umount', ['-l', mountPoint]);
  }
  rmSync(mountPoint, { recursive: true, force: true });
});

/** Writes 1 MiB blocks to `file` until the disk is full; returns the bytes written. */
function fillDisk(file: string): number {
  const fd = openSync(file, 'w');
  const block = Buffer.alloc(1024 * 1024, 0x5a);
  let n = 0;
  try {
    for (;;) {
      try {
        n += writeSync(fd, block);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
        // the last partial block
        try {
          n += writeSync(fd, block.subarray(0, 4096));
          continue;
        } catch {
          return n;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
}

describe.skipIf(skipReason !== null)('a full disk', () => {
  it('refuses changes while full, loses nothing acknowledged, recovers by itself', async () => {
    const dataDir = join(mountPoint, 'data');
    mkdirSync(dataDir);
    const a = await startService([
      '--data-dir',
      dataDir,
      '--no-sim',
      '--account',
      `${CREDS.key}:${CREDS.secret}:100000`,
    ]);
    services.push(a);

    const acked = new Map<string, number>(); // order id -> status last acknowledged
    const answers = new Map<number, number>(); // code -> count
    let refusedMessage = '';
    let stop = false;
    let n = 0;
    const worker = async () => {
      while (!stop) {
        try {
          await place(n++);
        } catch {
          return; // the service is gone (a failed test killed it)
        }
        await new Promise((res) => setTimeout(res, 12)); // within the per-key rate limit
      }
    };
    const place = async (i: number) => {
      {
        const price = (90_000 + (i % 50)).toFixed(1);
        const r = await signed(
          a.url,
          CREDS,
          'POST',
          '/fapi/v1/orders',
          {},
          { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 1, price, qty: '0.002' },
        );
        answers.set(r.code, (answers.get(r.code) ?? 0) + 1);
        if (r.code === 0) {
          acked.set(r.data.order_id, r.data.status);
          if (i % 4 === 0) {
            const c = await signed(a.url, CREDS, 'DELETE', '/fapi/v1/order', {
              symbol: 'BTCUSDT',
              order_id: r.data.order_id,
            });
            answers.set(c.code, (answers.get(c.code) ?? 0) + 1);
            if (c.code === 0) acked.set(r.data.order_id, c.data.status);
          }
        } else if (r.code === Errors.STORAGE_FULL.code) refusedMessage = r.message;
      }
    };
    const workers = Array.from({ length: 3 }, worker);
    const until = async (cond: () => boolean, ms: number, what: string) => {
      const end = Date.now() + ms;
      while (!cond()) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}; answers ${JSON.stringify([...answers])}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };

    await until(() => acked.size >= 40, 30_000, '40 acknowledged orders');
    await until(() => existsSync(join(dataDir, RESERVE_FILE)), 5_000, 'the reserve file kept while there is room');
    const filler = join(mountPoint, 'filler');
    const filled = fillDisk(filler);
    expect(filled).toBeGreaterThan(0);
    await until(() => (answers.get(Errors.STORAGE_FULL.code) ?? 0) >= 20, 15_000, 'refusals');
    // the next commit (the market clock's checkpoint goes on while changes are refused) finds the
    // disk below the emergency line and deletes the reserve file first
    await until(() => !existsSync(join(dataDir, RESERVE_FILE)), 10_000, 'the reserve file deleted for a commit');
    expect(refusedMessage).toContain(dataDir);
    expect(refusedMessage).toMatch(/MiB free/);
    // reads go on while changes are refused
    const open = await signed(a.url, CREDS, 'GET', '/fapi/v1/openOrders', { symbol: 'BTCUSDT' });
    expect(open.code).toBe(0);
    expect(await plain(a.url, 'GET', '/fapi/v1/time')).toMatchObject({ code: 0 });

    // space returns: orders are taken again, no restart
    rmSync(filler);
    const okBefore = answers.get(0) ?? 0;
    await until(() => (answers.get(0) ?? 0) >= okBefore + 20, 15_000, 'orders accepted again');
    // (the file appears when it is opened, before its 16 MiB are written and the line is said)
    await until(
      () => existsSync(join(dataDir, RESERVE_FILE)) && a.stderr().includes(`${RESERVE_FILE} is back`),
      10_000,
      'the reserve file kept again, and said',
    );
    stop = true;
    await Promise.all(workers);
    // each step said in a line
    const err = a.stderr();
    expect(err).toMatch(
      new RegExp(`the disk of ${dataDir} has [\\d.]+ MiB free, below the 64.0 MiB reserve: changes are refused`),
    );
    expect(err).toContain(`deleted the reserve file ${join(dataDir, RESERVE_FILE)}`);
    expect(err).toContain(`the disk of ${dataDir} has room again`);
    expect(err).toContain(`the reserve file ${join(dataDir, RESERVE_FILE)} is back`);
    expect(err).not.toContain('a store write failed');

    // never a failed commit
    expect(answers.get(Errors.INTERNAL.code) ?? 0, 'no 5000').toBe(0);
    expect(answers.get(Errors.SERVICE_UNAVAILABLE.code) ?? 0, 'no 5001').toBe(0);
    for (const code of answers.keys()) expect([0, Errors.STORAGE_FULL.code, Errors.RATE_LIMITED.code]).toContain(code);

    // a restart finds every acknowledged order as it was answered
    await kill9(a);
    const b = await startService(['--data-dir', dataDir, '--no-sim']);
    services.push(b);
    const orders = await all(b.url, CREDS, '/fapi/v1/allOrders', { symbol: 'BTCUSDT' });
    const byId = new Map(orders.map((o) => [o.id, o]));
    for (const [id, status] of acked) {
      expect(byId.get(id), `acknowledged order ${id}`).toBeDefined();
      expect(byId.get(id).status, `status of order ${id}`).toBe(status);
    }
    await kill9(b);
    rmSync(dataDir, { recursive: true, force: true });
  }, 120_000);
});

describe.skipIf(skipReason !== null)('a disk filled past the reserve file', () => {
  it('the failed commit is said with its cause; untouched accounts read on; 5001 says what to do', async () => {
    const dataDir = join(mountPoint, 'past');
    const t = await makeApp({ dataDir, simulate: false });
    const said: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void said.push(args.join(' ')));
    try {
      const a = makeAccount(t.venue, 'pastreserve');
      const order = { json: orderBody({ price: '90000.0' }) };
      dataOf(await signedInject(t.app, a, 'POST', '/fapi/v1/orders', order));
      const end = Date.now() + 5_000;
      while (!existsSync(join(dataDir, RESERVE_FILE)) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      // the reserve file gone too (taken by an earlier fill), then a disk full under a commit
      // that needs new blocks (the simulated market's candles and tape, here 300 KB of rows)
      rmSync(join(dataDir, RESERVE_FILE));
      t.venue.db.exec('CREATE TABLE blobs (b BLOB)');
      // more than the WAL file's room (its frames are written over in place), all kept in the
      // page cache until the COMMIT writes them
      const rows = Math.ceil((statSync(join(dataDir, 'perpdesk.db-wal')).size + 2 * 1048576) / 4000);
      t.venue.db.exec('PRAGMA cache_size = -262144');
      const filler = join(mountPoint, 'past-filler');
      fillDisk(filler);
      try {
        const ins = t.venue.db.prepare('INSERT INTO blobs VALUES (?)');
        try {
          transaction(t.venue.db, () => {
            for (let i = 0; i < rows; i++) ins.run(Buffer.alloc(4000, i));
          });
        } catch {
          // a write inside the unit already found the disk full: the commit fails all the same
        }
        groupCommitOf(t.venue.db).commitNow();
        const lines = said.filter((l) => l.includes('a store write failed'));
        expect(lines).toHaveLength(1);
        expect(lines[0]).toContain(`data folder ${dataDir}`);
        expect(lines[0]).toMatch(/the disk is full \(SQLite: database or disk is full\)/);
        expect(lines[0]).toContain(`Free space on the disk of ${dataDir}, then restart perpdesk`);
        // main.log could not take it on a full disk: said
        expect(said.some((l) => l.includes('could not be written either'))).toBe(true);
        // nobody's order was in the failed commit: the account reads on
        for (const path of ['/fapi/v1/account', '/fapi/v1/position/list', '/fapi/v1/openOrders'])
          expect((await signedInject(t.app, a, 'GET', path)).body.code, path).toBe(0);
      } finally {
        rmSync(filler);
      }
      // room again: the refusal is 5001, saying why and what to do
      await new Promise((r) => setTimeout(r, 500));
      const r = await signedInject(t.app, a, 'POST', '/fapi/v1/orders', order);
      expect(r.body.code).toBe(Errors.SERVICE_UNAVAILABLE.code);
      expect(r.body.message).toMatch(
        /^The venue takes no changes until it restarts: a write to .* failed: the disk is full/,
      );
      expect(r.body.message).toContain('then restart perpdesk');
    } finally {
      spy.mockRestore();
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe.skipIf(skipReason !== null)('a commit while the disk is full', () => {
  /** Opens a database in a fresh folder on the tmpfs, fills the disk, commits 300 KB of rows. */
  async function commitWhileFull(
    name: string,
    withReserve: boolean,
  ): Promise<{ failure: Error | null; reserveLeft: boolean }> {
    const dir = join(mountPoint, name);
    const db = openDatabase({ dataDir: dir });
    try {
      db.exec('CREATE TABLE IF NOT EXISTS blobs (b BLOB)');
      const end = Date.now() + 5_000;
      while (!existsSync(join(dir, RESERVE_FILE)) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      expect(existsSync(join(dir, RESERVE_FILE))).toBe(true);
      if (!withReserve) rmSync(join(dir, RESERVE_FILE));
      const group = groupCommitOf(db);
      let failure: Error | null = null;
      group.onFailure((err) => (failure = err));
      const filler = join(mountPoint, `${name}-filler`);
      fillDisk(filler);
      try {
        const ins = db.prepare('INSERT INTO blobs VALUES (?)');
        try {
          transaction(db, () => {
            for (let i = 0; i < 75; i++) ins.run(Buffer.alloc(4000, i));
          });
        } catch (err) {
          failure = err as Error; // a write inside the unit already found the disk full
        }
        group.commitNow();
      } finally {
        rmSync(filler);
      }
      return { failure, reserveLeft: existsSync(join(dir, RESERVE_FILE)) };
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it("succeeds on the reserve file's room; without it, it fails", async () => {
    const guarded = await commitWhileFull('guarded', true);
    expect(guarded.failure).toBeNull();
    expect(guarded.reserveLeft, 'the reserve file was given up for the commit').toBe(false);
    const bare = await commitWhileFull('bare', false);
    expect(bare.failure?.message).toMatch(/full/);
  });
});
