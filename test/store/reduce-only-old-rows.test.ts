// One-way reduce-only orders a data folder kept from builds that recorded them as sent
// (reduce_only with position_action 1): the database brought up to date records them as the venue
// records such an order now, position_action 2 (in one-way mode: reduce-only), so the open orders'
// Margin column shows none for them and the order form leaves them out. Other orders keep theirs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src-main/store/migrations.ts';
import { closeDatabase, openDatabase } from '../../src-main/store/database.ts';

const dir = mkdtempSync(join(tmpdir(), 'perpdesk-old-ro-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A resting limit sell of 0.1 BTCUSDT of account 1 as schema 15 stores it. */
function orderRow(db: DatabaseSync, id: number, action: 1 | 2, reduceOnly: 0 | 1): void {
  db.prepare(
    `INSERT INTO orders (id, client_order_id, account_id, symbol, side, type, tif, price_ticks, qty_lots, filled_lots,
      filled_quote, status, leverage, margin_mode, position_side, position_action, reduce_only, frozen, total_fee,
      created_at, updated_at) VALUES (?, ?, 1, 'BTCUSDT', 2, 1, 1, 990000, 100, 0, 0, 1, 20, 2, 1, ?, ?, 0, 0, 1, 1)`,
  ).run(id, `c${id}`, action, reduceOnly);
}

it('a reduce-only order stored with position_action 1 reads as 2; a plain open and a close keep theirs', () => {
  const old = new DatabaseSync(join(dir, 'perpdesk.db'));
  for (let v = 0; v < 15; v++) old.exec(MIGRATIONS[v]);
  old.exec('PRAGMA user_version = 15');
  old
    .prepare(
      `INSERT INTO accounts (id, api_key, api_secret, kind, wallet_balance, total_deposits, created_at, updated_at)
       VALUES (1, 'oldro_key_0000', 'oldro_secret_0000', 'user', 1, 1, 1, 1)`,
    )
    .run();
  orderRow(old, 1, 1, 1); // sent reduce_only with position_action 1
  orderRow(old, 2, 1, 0); // a plain open
  orderRow(old, 3, 2, 1); // a close
  old.close();
  const db = openDatabase({ dataDir: dir });
  try {
    const rows = db.prepare('SELECT id, position_action, reduce_only FROM orders ORDER BY id').all();
    expect(rows.map((r) => [Number(r.id), Number(r.position_action), Number(r.reduce_only)])).toEqual([
      [1, 2, 1],
      [2, 1, 0],
      [3, 2, 1],
    ]);
  } finally {
    closeDatabase(db);
  }
});
