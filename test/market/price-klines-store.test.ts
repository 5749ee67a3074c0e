// Mark / index / premium candles across a restart (market/price-klines.ts with the SQLite
// PriceKlinesRepo): what was built before the flush is loaded back, the open candle goes on from
// its stored state, each series is pruned to its window of PRICE_KLINES_KEPT, and no write joins
// another caller's unit.
import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseSync } from 'node:sqlite';
import { PRICE_KLINES_KEPT, PriceKlines } from '../../src-main/market/price-klines.ts';
import { openDatabase, transaction } from '../../src-main/store/database.ts';
import { PriceKlinesRepo } from '../../src-main/store/price-klines-repo.ts';
import { EventBus } from '../../src-main/trading/events.ts';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const MIN = 60_000;
const dbs: DatabaseSync[] = [];
const open: PriceKlines[] = [];
afterEach(() => {
  for (const k of open.splice(0)) k.close();
  for (const db of dbs.splice(0)) db.close();
});

function venueDb(): DatabaseSync {
  const db = openDatabase({ dataDir: ':memory:' });
  dbs.push(db);
  return db;
}

/** A PriceKlines on `db` whose timer never fires during the test (flushes are explicit). */
function start(db: DatabaseSync) {
  const bus = new EventBus();
  const k = new PriceKlines(bus, new PriceKlinesRepo(db), 3_600_000);
  open.push(k);
  const at = (time: number, mark: number, index: number, symbol = 'BTCUSDT') =>
    bus.emit('price', { symbol, mark, index, time });
  return { k, at };
}

const rowsOf = (db: DatabaseSync, interval: string) =>
  Number(
    (
      db
        .prepare('SELECT COUNT(*) AS n FROM price_klines WHERE symbol = ? AND interval = ?')
        .get('BTCUSDT', interval) as { n: number }
    ).n,
  );

describe('price candles in the store', () => {
  it('a candle changed again after a flush is written again at the next one', () => {
    const db = venueDb();
    const a = start(db);
    a.at(T0 + 1_000, 100, 100);
    a.k.flush();
    // the same minute (and hour) goes on after the flush: the next flush writes its new state
    a.at(T0 + 2_000, 130, 100);
    a.at(T0 + 3_000, 80, 100);
    a.k.flush();
    const want = a.k.candles('BTCUSDT', 'mark', '1m', { limit: 10 });
    expect(want).toEqual([
      { openTime: T0, open: 100, high: 130, low: 80, close: 80, closeTime: T0 + MIN - 1, count: 3 },
    ]);
    a.k.close();
    open.pop();
    const b = start(db);
    expect(b.k.candles('BTCUSDT', 'mark', '1m', { limit: 10 })).toEqual(want);
    expect(b.k.candles('BTCUSDT', 'mark', '1h', { limit: 10 })).toEqual(
      a.k.candles('BTCUSDT', 'mark', '1h', { limit: 10 }),
    );
  });

  it('a second instance on the same data answers what the first built, and the open candle goes on', () => {
    const db = venueDb();
    const a = start(db);
    a.at(T0 + 1_000, 100, 100);
    a.at(T0 + 20_000, 110, 100);
    a.at(T0 + MIN + 5, 95, 96, 'ETHUSDT');
    a.at(T0 + 2 * MIN + 1, 90, 100);
    a.k.flush();
    const before = a.k.candles('BTCUSDT', 'mark', '1m', { limit: 10 });
    const hourBefore = a.k.candles('BTCUSDT', 'premium', '1h', { limit: 10 });
    a.k.close();
    open.pop();

    const b = start(db);
    expect(b.k.candles('BTCUSDT', 'mark', '1m', { limit: 10 })).toEqual(before);
    expect(b.k.candles('BTCUSDT', 'premium', '1h', { limit: 10 })).toEqual(hourBefore);
    expect(b.k.candles('ETHUSDT', 'index', '1m', { limit: 10 })).toEqual([
      { openTime: T0 + MIN, open: 96, high: 96, low: 96, close: 96, closeTime: T0 + 2 * MIN - 1, count: 1 },
    ]);
    // the minute still open when it stopped goes on: its open and count are kept
    b.at(T0 + 2 * MIN + 30_000, 120, 100);
    expect(b.k.candles('BTCUSDT', 'mark', '1m', { limit: 10 }).at(-1)).toEqual({
      openTime: T0 + 2 * MIN,
      open: 90,
      high: 120,
      low: 90,
      close: 120,
      closeTime: T0 + 3 * MIN - 1,
      count: 2,
    });
    expect(b.k.candles('BTCUSDT', 'mark', '1h', { limit: 10 })).toEqual([
      { openTime: T0, open: 100, high: 120, low: 90, close: 120, closeTime: T0 + 60 * MIN - 1, count: 4 },
    ]);
    // an update stamped before the stored candles counts at the latest time, as before the restart
    b.at(T0 + 5, 80, 100);
    expect(b.k.candles('BTCUSDT', 'mark', '1m', { limit: 10 }).map((c) => c.openTime)).toEqual([T0, T0 + 2 * MIN]);
  });

  it('close writes what changed since the last flush', () => {
    const db = venueDb();
    const a = start(db);
    a.at(T0, 100, 100);
    a.k.close();
    open.pop();
    expect(rowsOf(db, '1m')).toBe(1);
    expect(start(db).k.candles('BTCUSDT', 'mark', '1m', { limit: 10 })).toHaveLength(1);
  });

  it('each series is pruned to its window; the window is what comes back', () => {
    const db = venueDb();
    const a = start(db);
    const n = PRICE_KLINES_KEPT + 25;
    for (let i = 0; i < n; i++) {
      a.at(T0 + i * MIN, 100 + i, 100);
      if (i % 500 === 0) a.k.flush();
    }
    a.k.flush();
    expect(rowsOf(db, '1m')).toBe(PRICE_KLINES_KEPT);
    expect(rowsOf(db, '1h')).toBe(Math.ceil(n / 60));
    const want = a.k.candles('BTCUSDT', 'mark', '1m', { limit: 5000 });
    expect(want[0].openTime).toBe(T0 + 25 * MIN);
    a.k.close();
    open.pop();
    expect(start(db).k.candles('BTCUSDT', 'mark', '1m', { limit: 5000 })).toEqual(want);
  });

  it('never writes inside another caller unit; the next flush does', () => {
    const db = venueDb();
    const a = start(db);
    a.at(T0, 100, 100);
    transaction(db, () => a.k.flush());
    expect(rowsOf(db, '1m')).toBe(0);
    a.k.flush();
    expect(rowsOf(db, '1m')).toBe(1);
  });
});
