// Another connection holds the database's write lock while orders come in: the checkpointer's
// RESTART for a few ms, or for longer a sqlite3 shell on the file or a disk whose sync stalls.
// An order's answer waits for its commit, and the event loop goes on meanwhile; once the lock is
// free the order is stored and answered. A lock held past the busy timeout fails the batch as a
// failed COMMIT does: the order is answered 5000, the venue refuses further changes (5001), and
// a restart finds the state from before that order, nothing of it half-stored. The candles, which
// can be written later, do not wait for the lock at all, nor do the market time, the price klines
// and the open interest, which the venue's timers save.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Candle } from '../../../src-main/core/candle.ts';
import { CandlesRepo } from '../../../src-main/store/candles-repo.ts';
import { openDatabase } from '../../../src-main/store/database.ts';
import { groupCommitOf } from '../../../src-main/store/group-commit.ts';
import { OpenInterestRepo } from '../../../src-main/store/open-interest-repo.ts';
import { PriceKlinesRepo } from '../../../src-main/store/price-klines-repo.ts';
import { SettingsRepo } from '../../../src-main/store/settings-repo.ts';
import { makeApp, type TestApp } from '../../helpers/app.ts';
import { takeWriteLock } from '../../helpers/write-lock.ts';
import { dataOf, makeAccount, orderBody, signed, type Creds } from '../../helpers/signed.ts';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const dirs: string[] = [];
const open: Array<TestApp | DatabaseSync> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) {
    if (o instanceof DatabaseSync) {
      if (o.isOpen) o.close();
    } else await o.close();
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function venueOn(dataDir: string): Promise<TestApp> {
  const t = await makeApp({ dataDir, simulate: false });
  open.push(t);
  return t;
}

/** A second connection to the venue's file holding the write lock (BEGIN IMMEDIATE). */
async function holdLock(dataDir: string): Promise<DatabaseSync> {
  const other = new DatabaseSync(join(dataDir, 'perpdesk.db'));
  open.push(other);
  await takeWriteLock(other);
  return other;
}

const openOrders = async (t: TestApp, a: Creds): Promise<string[]> =>
  (dataOf(await signed(t.app, a, 'GET', '/fapi/v1/openOrders', { query: { symbol: 'BTCUSDT' } })) as any[]).map(
    (o) => o.client_order_id as string,
  );

describe('the write lock held by another connection', () => {
  it('an order waits for the lock without stopping the event loop, then is stored and answered', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'perpdesk-lock-'));
    dirs.push(dataDir);
    const t = await venueOn(dataDir);
    const a = makeAccount(t.venue, 'lockwait');
    dataOf(await signed(t.app, a, 'POST', '/fapi/v1/orders', { json: orderBody({ client_order_id: 'before-1' }) }));
    const g = groupCommitOf(t.venue.db);
    const waits0 = g.lockWaits;
    const other = await holdLock(dataDir);
    let answered = false;
    const answer = signed(t.app, a, 'POST', '/fapi/v1/orders', {
      json: orderBody({ client_order_id: 'held-1' }),
    }).then((r) => {
      answered = true;
      return r;
    });
    // this thread's timers fire while the order's commit keeps trying: the loop is not blocked
    let ticks = 0;
    const end = Date.now() + 5_000;
    while (g.lockWaits - waits0 < 20 && Date.now() < end) {
      await sleep(2);
      ticks++;
    }
    expect(g.lockWaits - waits0).toBeGreaterThanOrEqual(20);
    expect(ticks).toBeGreaterThan(2);
    expect(answered).toBe(false); // not acknowledged before it is on disk
    other.exec('COMMIT');
    const r = await answer;
    expect(dataOf(r).client_order_id).toBe('held-1');
    // on disk: another connection reads it
    const row = other.prepare('SELECT status FROM orders WHERE client_order_id = ?').get('held-1') as
      { status: number } | undefined;
    expect(row?.status).toBe(1);
    expect(await openOrders(t, a)).toEqual(['before-1', 'held-1']);
  });

  it('a lock held past the busy timeout: 5000 for the order, 5001 after, and a restart finds the state before it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'perpdesk-lock-'));
    dirs.push(dataDir);
    const t = await venueOn(dataDir);
    const a = makeAccount(t.venue, 'locklost');
    dataOf(await signed(t.app, a, 'POST', '/fapi/v1/orders', { json: orderBody({ client_order_id: 'kept-1' }) }));
    const balanceBefore = dataOf(await signed(t.app, a, 'GET', '/fapi/v1/account'));
    groupCommitOf(t.venue.db).setLockWait(150);
    const other = await holdLock(dataDir);
    const lost = await signed(t.app, a, 'POST', '/fapi/v1/orders', { json: orderBody({ client_order_id: 'lost-1' }) });
    expect(lost.status).toBe(500);
    expect(lost.body.code).toBe(5000);
    // the cause, the file and what to do
    expect(lost.body.message).toMatch(/^Storing the command failed, nothing of it is stored: a write to /);
    expect(lost.body.message).toContain(join(dataDir, 'perpdesk.db'));
    expect(lost.body.message).toMatch(/stayed locked by another connection for \d+ ms/);
    expect(lost.body.message).toMatch(/Close the program that has .* open .*then restart perpdesk/);
    other.exec('COMMIT');
    // memory is ahead of the disk now: every further change is refused until a restart
    const refused = await signed(t.app, a, 'POST', '/fapi/v1/orders', { json: orderBody({ client_order_id: 'x-2' }) });
    expect(refused.status).toBe(500);
    expect(refused.body.code).toBe(5001);
    expect(refused.body.message).toMatch(
      /^The venue takes no changes until it restarts: a write to .*perpdesk\.db failed/,
    );
    expect(other.prepare('SELECT COUNT(*) AS n FROM orders WHERE client_order_id = ?').get('lost-1')).toEqual({
      n: 0,
    });
    other.close();
    await t.close();
    open.splice(open.indexOf(t), 1);

    const again = await venueOn(dataDir);
    expect(await openOrders(again, a)).toEqual(['kept-1']);
    expect(dataOf(await signed(again.app, a, 'GET', '/fapi/v1/account'))).toEqual(balanceBefore);
    // and it takes orders again
    dataOf(await signed(again.app, a, 'POST', '/fapi/v1/orders', { json: orderBody({ client_order_id: 'after-1' }) }));
    expect(await openOrders(again, a)).toEqual(['kept-1', 'after-1']);
  });

  it('after a failed commit: said once (stderr, main.log); reads of the accounts it did not touch go on', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'perpdesk-lock-'));
    dirs.push(dataDir);
    const t = await venueOn(dataDir);
    const lost = makeAccount(t.venue, 'aheadof');
    const buyer = makeAccount(t.venue, 'bystander1');
    const seller = makeAccount(t.venue, 'bystander2');
    // the bystanders hold a position each, the buyer an open order and a leverage setting
    dataOf(await signed(t.app, buyer, 'POST', '/fapi/v1/leverage', { json: { symbol: 'BTCUSDT', leverage: 10 } }));
    dataOf(await signed(t.app, seller, 'POST', '/fapi/v1/orders', { json: orderBody({ side: 2, position_side: 2 }) }));
    dataOf(await signed(t.app, buyer, 'POST', '/fapi/v1/orders', { json: orderBody() }));
    dataOf(await signed(t.app, buyer, 'POST', '/fapi/v1/orders', { json: orderBody({ price: '90000.0' }) }));
    const reads = ['/fapi/v1/account', '/fapi/v1/position/list', '/fapi/v1/openOrders'];
    const read = async (a: Creds) => Promise.all(reads.map((p) => signed(t.app, a, 'GET', p)));
    const before = (await read(buyer)).map((r) => dataOf(r));
    expect(before[1].length).toBe(1);
    const said: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void said.push(args.join(' ')));
    try {
      groupCommitOf(t.venue.db).setLockWait(150);
      const other = await holdLock(dataDir);
      const r = await signed(t.app, lost, 'POST', '/fapi/v1/orders', {
        json: orderBody({ client_order_id: 'gone-1' }),
      });
      expect(r.body.code).toBe(5000);
      other.exec('COMMIT');
      // another commit fails or not: the failure is said once
      const again = await signed(t.app, lost, 'POST', '/fapi/v1/orders', { json: orderBody() });
      expect(again.body.code).toBe(5001);
    } finally {
      spy.mockRestore();
    }
    const lines = said.filter((l) => l.includes('a store write failed'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`data folder ${dataDir}`);
    expect(lines[0]).toMatch(/stayed locked by another connection/);
    expect(said.some((l) => l.includes(join(dataDir, 'logs', 'main.log')))).toBe(true);
    const log = readFileSync(join(dataDir, 'logs', 'main.log'), 'utf8');
    expect(log.match(/a store write failed/g)).toHaveLength(1);
    // the account the failed commit touched shows what a restart loses: refused, naming why
    for (const r of await read(lost)) {
      expect(r.body.code).toBe(5001);
      expect(r.body.message).toMatch(
        /^This account's last changes could not be stored.*: a write to .*perpdesk\.db failed/,
      );
    }
    // the others are in memory what is stored: they read on, as before
    expect((await read(buyer)).map((r) => dataOf(r))).toEqual(before);
    for (const r of await read(seller)) expect(r.body.code).toBe(0);
    expect((await t.app.inject({ method: 'GET', url: '/fapi/v1/time' })).statusCode).toBe(200);
  });

  it('the candles wait for a later flush while the lock is held, the event loop does not', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'perpdesk-lock-'));
    dirs.push(dataDir);
    const db = openDatabase({ dataDir });
    open.push(db);
    const repo = new CandlesRepo(db);
    const c = (openTime: number): Candle => ({
      interval: '1m',
      openTime,
      open: 10,
      high: 12,
      low: 9,
      close: 11,
      volume: 3,
      quoteVolume: 33n,
      trades: 2,
      takerBuyVolume: 1,
      takerBuyQuoteVolume: 11n,
    });
    const other = await holdLock(dataDir);
    const t0 = Date.now();
    expect(repo.tryWriteMany(['BTCUSDT'], [c(0)])).toBe(false);
    expect(Date.now() - t0).toBeLessThan(2_500); // not the 5 s busy timeout
    expect(repo.count('BTCUSDT', '1m')).toBe(0);
    other.exec('COMMIT');
    expect(repo.tryWriteMany(['BTCUSDT', 'BTCUSDT'], [c(0), c(60_000)])).toBe(true);
    groupCommitOf(db).commitNow();
    expect(other.prepare("SELECT COUNT(*) AS n FROM candles WHERE symbol = 'BTCUSDT'").get()).toEqual({ n: 2 });
  });

  it('the market time, price klines and open interest are not saved while the lock is held, and are once it is free', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'perpdesk-lock-'));
    dirs.push(dataDir);
    const db = openDatabase({ dataDir });
    open.push(db);
    const settings = new SettingsRepo(db);
    const oi = new OpenInterestRepo(db);
    const pk = new PriceKlinesRepo(db);
    const oiRow = { symbol: 'BTCUSDT', time: 300_000, lots: 5, value: 480_000, stats: null };
    const pkRow = { symbol: 'BTCUSDT', interval: '1m' as const, openTime: 60_000, count: 3, v: Array(12).fill(96_000) };
    const other = await holdLock(dataDir);
    const t0 = Date.now();
    expect(settings.trySet('market_time', '1')).toBe(false);
    expect(oi.saveMany([oiRow])).toBe(false);
    expect(pk.saveMany([pkRow])).toBe(false);
    expect(Date.now() - t0).toBeLessThan(2_500); // none waited for the 5 s busy timeout
    other.exec('COMMIT');
    expect(settings.get('market_time')).toBeUndefined();
    expect(oi.newestTime('BTCUSDT')).toBeUndefined();
    expect(settings.trySet('market_time', '2')).toBe(true);
    expect(oi.saveMany([oiRow])).toBe(true);
    expect(pk.saveMany([pkRow])).toBe(true);
    groupCommitOf(db).commitNow();
    expect(other.prepare("SELECT value FROM settings WHERE key = 'market_time'").get()).toEqual({ value: '2' });
    expect(other.prepare('SELECT COUNT(*) AS n FROM open_interest').get()).toEqual({ n: 1 });
    expect(other.prepare('SELECT COUNT(*) AS n FROM price_klines').get()).toEqual({ n: 1 });
  });
});
