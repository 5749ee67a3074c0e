// The newest market time any stored record carries: a restarted venue's clock starts above it
// (venue.ts). The market time itself is saved once a second, and after a kill -9 the orders,
// fills and other records committed in that second can be newer than it: a clock restarted at the
// saved time stamped new fills earlier than acknowledged ones (a bot paging myTrades with
// start_time = last seen + 1 missed its own fills).
//
// Every query is a seek in an index (migration 19 added the orders' and conditional orders'),
// per account or per pair where the index leads with them: a start reads a few rows per account,
// however long the history. Not here: the accounts' own times (the CLI stamps them with the wall
// clock), the candles (kline-restore.ts storedCandlesEnd), the price candles and the open taker
// volume (a candle's or window's start, inside which a clock may well restart).
import type { DatabaseSync } from 'node:sqlite';

/** Per account: an index seek each (the index leads with account_id). */
const PER_ACCOUNT = [
  'SELECT created_at AS t FROM trades WHERE account_id = ? ORDER BY id DESC LIMIT 1',
  'SELECT MAX(closed_at) AS t FROM closed_positions WHERE account_id = ?',
  'SELECT MAX(time) AS t FROM funding_payments WHERE account_id = ?',
  'SELECT MAX(time) AS t FROM transfers WHERE account_id = ?',
  'SELECT MAX(time) AS t FROM liquidation_fees WHERE account_id = ?',
  'SELECT time AS t FROM isolated_margin_changes WHERE account_id = ? ORDER BY id DESC LIMIT 1',
];

/** Per pair: an index seek each (the key leads with symbol). */
const PER_SYMBOL = [
  'SELECT MAX(time) AS t FROM funding_rates WHERE symbol = ?',
  'SELECT MAX(time) AS t FROM open_interest WHERE symbol = ?',
];

/** Whole tables: an index's last entry, or a table bounded by the pairs (positions, the tape's rings). */
const WHOLE = [
  'SELECT MAX(updated_at) AS t FROM orders',
  // a trigger stamps updated_at too (trading/conditional.ts)
  'SELECT MAX(updated_at) AS t FROM conditional_orders',
  'SELECT MAX(updated_at) AS t FROM positions',
  'SELECT MAX(time) AS t FROM public_trades',
];

/** The newest market time (ms) of a stored user or market record; -Infinity when there is none. */
export function newestRecordTime(db: DatabaseSync): number {
  let newest = Number.NEGATIVE_INFINITY;
  const take = (row: unknown): void => {
    const t = (row as { t: number | bigint | null } | undefined)?.t;
    if (t !== null && t !== undefined && Number(t) > newest) newest = Number(t);
  };
  for (const sql of WHOLE) take(db.prepare(sql).get());
  const accounts = (db.prepare('SELECT id FROM accounts').all() as { id: number }[]).map((r) => r.id);
  for (const sql of PER_ACCOUNT) {
    const stmt = db.prepare(sql);
    for (const id of accounts) take(stmt.get(id));
  }
  const symbols = (db.prepare('SELECT symbol FROM symbols').all() as { symbol: string }[]).map((r) => r.symbol);
  for (const sql of PER_SYMBOL) {
    const stmt = db.prepare(sql);
    for (const s of symbols) take(stmt.get(s));
  }
  return newest;
}
