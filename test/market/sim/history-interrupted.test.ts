// A first start's history build cut short (docs/simulated-market.md, "The history"): a pair counts
// as built only once its build completed (recorded in the commit of its last candles), a pair a
// build left half written is deleted and built again at the next start, to the first start's end,
// and a stop asked for during the build (Ctrl-C) closes the folder as a normal close does. Before,
// a pair counted as built once it had any 1m candle: a pair cut short kept days of flat candles
// for good (XRPUSDT 42,792 of 43,201 1m candles, BNBUSDT's 1h candles flat for 3.5 days).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-main/store/database.ts';
import { openVenue, openVenueAsync } from '../../../src-main/venue.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'perpdesk-history-cut-'));
  dirs.push(d);
  return d;
}

const T = Date.UTC(2026, 0, 7, 12, 34, 56, 789);

/** Every candle series of a folder in brief: rows, sums and the newest open time per (symbol, interval), no 1s. */
function candleSummary(dir: string): unknown[] {
  const db = new DatabaseSync(join(dir, 'perpdesk.db'));
  try {
    return db
      .prepare(
        `SELECT symbol, interval, COUNT(*) AS n, SUM(volume) AS vol, SUM(trades) AS trades, MAX(open_time) AS last,
           SUM(close) AS closes FROM candles WHERE interval <> '1s' GROUP BY symbol, interval ORDER BY symbol, interval`,
      )
      .all();
  } finally {
    db.close();
  }
}

function builtPairs(dir: string): string[] {
  const db = new DatabaseSync(join(dir, 'perpdesk.db'));
  try {
    return (db.prepare('SELECT symbol FROM history_built ORDER BY symbol').all() as { symbol: string }[]).map(
      (r) => r.symbol,
    );
  } finally {
    db.close();
  }
}

describe('a history build cut short', () => {
  it(
    'stops cleanly between pairs and the next start builds the rest, as one uninterrupted build would',
    { timeout: 300_000 },
    async () => {
      const whole = tempDir();
      const ref = openVenue({ dataDir: whole, simulate: true, seed: 5, wall: () => T });
      const order = [...ref.exchange.pairs.values()].filter((p) => p.row.status === 1).map((p) => p.row.symbol);
      await ref.close();
      const expected = candleSummary(whole);

      // Ctrl-C once the third pair is written: the build stops there, the folder closed cleanly
      const dir = tempDir();
      const stop = new AbortController();
      await expect(
        openVenueAsync(
          {
            dataDir: dir,
            simulate: true,
            seed: 5,
            wall: () => T,
            onHistoryProgress: (p) => {
              if (p.done === 3) stop.abort();
            },
          },
          stop.signal,
        ),
      ).rejects.toMatchObject({ name: 'AbortError' });
      expect(existsSync(join(dir, 'perpdesk.lock'))).toBe(false);
      expect(existsSync(join(dir, 'perpdesk.db-wal'))).toBe(false);
      expect(builtPairs(dir)).toEqual(order.slice(0, 3).sort());

      // what a kill -9 in the middle of the fifth pair leaves: some of its candles, no record that it was built
      const raw = new DatabaseSync(join(dir, 'perpdesk.db'));
      raw.exec(`ATTACH '${join(whole, 'perpdesk.db')}' AS whole`);
      raw
        .prepare(
          "INSERT INTO candles SELECT * FROM whole.candles WHERE symbol = ? AND interval IN ('1m', '5m', '1h') AND open_time < ?",
        )
        .run(order[4], T - 20 * 86_400_000);
      raw.exec('DETACH whole');
      raw.close();

      // its clock starts where the first start's history ends: another --start is refused
      expect(() => openVenue({ dataDir: dir, simulate: true, seed: 5, start: T + 60_000 })).toThrow(
        /--start applies to a new data folder/,
      );
      // a later start (an hour later on the wall) builds the other pairs, to the first start's end
      const again = openVenue({ dataDir: dir, simulate: true, seed: 5, wall: () => T + 3_600_000 });
      expect(again.clock.now()).toBe(T);
      await again.close();
      expect(builtPairs(dir)).toEqual([...order].sort());
      expect(candleSummary(dir)).toEqual(expected);
    },
  );

  it('a folder from before counts its pairs with a 1m candle as built once its market has run, none before', async () => {
    for (const ran of [true, false]) {
      const dir = tempDir();
      await openVenue({ dataDir: dir, simulate: false, wall: () => T }).close();
      const raw = new DatabaseSync(join(dir, 'perpdesk.db'));
      // back to schema 19: migrations 20 (history_built) and 21 (conditional_orders.price_protect) undone
      raw.exec(
        'DROP TABLE history_built; ALTER TABLE conditional_orders DROP COLUMN price_protect; PRAGMA user_version = 19',
      );
      raw.exec("INSERT INTO candles VALUES ('BTCUSDT', '1m', 0, 1, 1, 1, 1, 0, '0', 0, 0, '0')");
      if (!ran) raw.exec("DELETE FROM settings WHERE key = 'market_time'");
      raw.close();
      openDatabase({ dataDir: dir }).close();
      expect(builtPairs(dir)).toEqual(ran ? ['BTCUSDT'] : []);
    }
  });
});
