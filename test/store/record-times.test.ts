// The market clock after a kill -9 (docs/reliability.md, "The market clock and prices"): the market
// time is saved once a second, the records a command writes at every commit, so a restart must
// start the clock above the newest stored record, whatever table holds it. Before, it started at
// the saved market time (or the newest 1s candle's end): 2 runs of 4 stamped the next fill up to
// 392 ms before the last acknowledged one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src-main/store/database.ts';
import { newestRecordTime } from '../../src-main/store/record-times.ts';
import { openVenue } from '../../src-main/venue.ts';
import { houseLimit, openingMarket, placeOrder, upsertAccount } from '../helpers/exchange-commands.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'perpdesk-record-times-'));
  dirs.push(d);
  return d;
}

const T0 = Date.UTC(2026, 10, 2, 10, 0, 0);

/** The timed tables and their market-time column. */
const TIMED: ReadonlyArray<readonly [string, string]> = [
  ['orders', 'updated_at'],
  ['trades', 'created_at'],
  ['positions', 'updated_at'],
  ['closed_positions', 'closed_at'],
  ['funding_rates', 'time'],
  ['funding_payments', 'time'],
  ['transfers', 'time'],
  ['liquidation_fees', 'time'],
  ['isolated_margin_changes', 'time'],
  ['conditional_orders', 'updated_at'],
  ['public_trades', 'time'],
  ['open_interest', 'time'],
];

/** Inserts one row into `table` (every NOT NULL column 0 or its key), its time column at `time`. */
function insertRow(db: DatabaseSync, table: string, column: string, time: number): void {
  const cols = db.prepare(`PRAGMA table_info(${table})`).all() as { name: string; type: string; notnull: number }[];
  const names = cols.map((c) => c.name);
  const values = cols.map((c) => {
    if (c.name === column) return time;
    if (c.name === 'account_id') return 1;
    if (c.name === 'symbol') return 'BTCUSDT';
    return c.type === 'TEXT' ? 'x' : 0;
  });
  db.prepare(`INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`).run(...values);
}

describe('the newest stored record time', () => {
  it.each(TIMED)('is found in %s.%s', (table, column) => {
    const db = openDatabase({ dataDir: ':memory:' });
    db.prepare(
      "INSERT INTO accounts (id, api_key, api_secret, kind, wallet_balance, total_deposits, created_at, updated_at) VALUES (1, 'k', 's', 'user', 0, 0, 0, 0)",
    ).run();
    insertRow(db, 'symbols', '', 0);
    expect(newestRecordTime(db)).toBe(Number.NEGATIVE_INFINITY);
    insertRow(db, table, column, T0 + 5);
    expect(newestRecordTime(db)).toBe(T0 + 5);
    db.close();
  });
});

describe('a restart after a kill -9', () => {
  it('starts the clock above every stored fill, order and transfer, not at the older saved market time', async () => {
    const dataDir = tempDir();
    let wall = T0;
    const a = openVenue({ dataDir, simulate: false, wall: () => wall });
    const acct = upsertAccount(
      a.exchange,
      { apiKey: 'clockkey01', apiSecret: 'clocksecret01', kind: 'user', balance: 10_000_00000000n },
      T0,
    );
    houseLimit(a.exchange, 2, '96000.0', '1.000');
    wall += 700;
    const fill = placeOrder(a.exchange, acct.id, openingMarket(1, '0.010'));
    const fillTime = a.clock.now();
    expect(fill.status).toBe(3);
    await a.close();
    // the state a kill -9 leaves: the market time of the checkpoint before the fill, the current
    // 1s candle not written
    const raw = new DatabaseSync(join(dataDir, 'perpdesk.db'));
    raw.prepare("UPDATE settings SET value = ? WHERE key = 'market_time'").run(String(T0 + 300));
    raw.prepare('DELETE FROM candles WHERE open_time >= ?').run(T0);
    raw.close();

    const b = openVenue({ dataDir, simulate: false, wall: () => wall });
    try {
      expect(b.clock.now()).toBeGreaterThan(fillTime);
    } finally {
      await b.close();
    }
  });
});
