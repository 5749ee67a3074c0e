// The history's candle writes on a worker thread (store/candle-bulk-writer.ts): the same rows as
// CandlesRepo.writeMany on the caller's thread, batches applied in order, a failure rolled back
// and given to the caller with SQLite's error, nothing written after it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { storedCandle } from '../helpers/stored-candle.ts';
import { fastForwardHistorySync } from '../../src-main/market/sim/history.ts';
import { HistoryCandleWriter } from '../../src-main/market/sim/history-writer.ts';
import { BackgroundCandleWriter } from '../../src-main/store/candle-bulk-writer.ts';
import { CandlesRepo } from '../../src-main/store/candles-repo.ts';
import { closeDatabase, databaseFile, openDatabase } from '../../src-main/store/database.ts';
import { groupCommitOf } from '../../src-main/store/group-commit.ts';
import { T0, testVenue } from '../market/sim/helpers.ts';

const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const f of cleanup.splice(0).reverse()) f();
});

function fileDb(): { db: DatabaseSync; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'perpdesk-bulk-'));
  const db = openDatabase({ dataDir: dir });
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanup.push(() => closeDatabase(db));
  return { db, file: databaseFile(dir) };
}

function writer(file: string): BackgroundCandleWriter {
  const w = new BackgroundCandleWriter(file);
  cleanup.push(() => w.close());
  return w;
}

const all = (db: DatabaseSync) =>
  db.prepare('SELECT * FROM candles ORDER BY symbol, interval, open_time').all() as Array<Record<string, unknown>>;

describe('BackgroundCandleWriter', () => {
  it('stores a simulated history exactly as the writes on the caller thread do', () => {
    const tv = testVenue({ start: T0 + 5 * 3_600_000 + 1234 });
    cleanup.push(() => tv.close());
    const pairs = [...tv.venue.exchange.pairs.values()].filter((p) =>
      ['ETHUSDT', 'DOGEUSDT', '1000PEPEUSDT'].includes(p.row.symbol),
    );
    const build = (w: HistoryCandleWriter) => {
      fastForwardHistorySync({ pairs, seed: 3, end: T0 + 5 * 3_600_000 + 1234, days: 3, recorder: w });
      w.finish();
      return w.written;
    };
    const inline = fileDb();
    const bulk = fileDb();
    const n = build(new HistoryCandleWriter(new CandlesRepo(inline.db)));
    expect(build(new HistoryCandleWriter(new CandlesRepo(bulk.db), writer(bulk.file)))).toBe(n);
    const expected = all(inline.db);
    expect(expected.length).toBeGreaterThan(3 * 3 * 1440); // more than the 1m candles of 3 pairs x 3 days
    expect(new Set(expected.map((r) => r.symbol))).toEqual(new Set(['ETHUSDT', 'DOGEUSDT', '1000PEPEUSDT']));
    expect(all(bulk.db)).toEqual(expected);
  });

  it('applies batches in order, each in order: a candle written again ends as its last copy', () => {
    const { db, file } = fileDb();
    const w = writer(file);
    // more batches than the writer lets run ahead of the worker, each rewriting the same candles
    for (let b = 1; b <= 30; b++) {
      const cs = [
        storedCandle(T0, b),
        storedCandle(T0 + 60_000, b),
        storedCandle(T0, b + 1000),
        storedCandle(T0, b, '1h'),
      ];
      w.write(['BTCUSDT', 'BTCUSDT', 'BTCUSDT', b % 2 === 0 ? 'ETHUSDT' : 'BTCUSDT'], cs, cs.length);
    }
    w.finish();
    const repo = new CandlesRepo(db);
    expect(repo.range('BTCUSDT', '1m', 0, T0 + 60_000)).toEqual([
      storedCandle(T0, 1030),
      storedCandle(T0 + 60_000, 30),
    ]);
    expect(repo.range('BTCUSDT', '1h', 0, T0)).toEqual([storedCandle(T0, 29, '1h')]);
    expect(repo.range('ETHUSDT', '1h', 0, T0)).toEqual([storedCandle(T0, 30, '1h')]);
    expect(all(db).length).toBe(4);
  });

  it('gives back the error SQLite gave it, rolls that batch back and writes nothing after it', () => {
    const { db, file } = fileDb();
    db.exec(`CREATE TRIGGER refuse BEFORE INSERT ON candles WHEN NEW.open_time = 7
             BEGIN SELECT RAISE(ABORT, 'open time 7 refused'); END`);
    const w = writer(file);
    w.write(['BTCUSDT'], [storedCandle(T0, 1)], 1);
    const bad = [storedCandle(T0 + 60_000, 2), storedCandle(7, 2)];
    w.write(['BTCUSDT', 'BTCUSDT'], bad, 2);
    w.write(['BTCUSDT'], [storedCandle(T0 + 120_000, 3)], 1);
    expect(() => w.finish()).toThrow(/open time 7 refused/);
    expect(all(db).map((r) => r.open_time)).toEqual([T0]);
    expect(() => w.write(['BTCUSDT'], [storedCandle(T0, 4)], 1)).toThrow(/finished/);
  });

  it('a database it cannot write fails the first call after it found out, with the reason', () => {
    const { db, file } = fileDb();
    db.exec('DROP TABLE candles');
    const w = writer(file);
    let caught: unknown = null;
    try {
      for (let i = 0; i < 100; i++) w.write(['BTCUSDT'], [storedCandle(T0 + i * 60_000, 1)], 1);
      w.finish();
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(Error);
    expect((caught as Error).message).toMatch(/no such table: candles/);
    expect((caught as { code?: string }).code).toBe('ERR_SQLITE_ERROR');
  });

  it('the history writer commits its connection first, so the worker does not wait for its write lock', () => {
    const { db, file } = fileDb();
    // a unit of the venue's connection, open until the end of the turn (the exchange's start-up writes)
    groupCommitOf(db).unit(() => db.prepare("INSERT INTO settings (key, value) VALUES ('x', '1')").run());
    expect(groupCommitOf(db).pending).toBe(true);
    const repo = new CandlesRepo(db);
    const started = Date.now();
    const h = new HistoryCandleWriter(repo, writer(file));
    h.recordTrade('BTCUSDT', { time: T0, priceTicks: 1000, qtyLots: 2, takerSide: 1, count: 1 });
    h.advanceTo(T0 + 120_000);
    h.finish();
    expect(Date.now() - started).toBeLessThan(4_000); // the worker's busy timeout is 5 s
    expect(repo.newest('BTCUSDT', '1m')?.close).toBe(1000);
    expect(db.prepare("SELECT value FROM settings WHERE key = 'x'").get()).toEqual({ value: '1' });
  });
});
