// The public tape in SQLite (the market's TapeStore port, migration 13): each pair's ring of last
// trades, one row per (pair, ring slot), so the table holds no more than the rings do and a write
// never deletes. Written in batches (the market checkpoint, once a second): up to BATCH_ROWS rows a
// statement, since node:sqlite's cost is per call.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { TapeRow, TapeStore } from '../market/ports.ts';
import { groupCommitOf } from './group-commit.ts';

const ROW_PARAMS = 7;
const BATCH_ROWS = 64;

function upsertSql(rows: number): string {
  return (
    'INSERT INTO public_trades (symbol, slot, id, price_ticks, qty_lots, taker_side, time) VALUES ' +
    Array(rows).fill('(?, ?, ?, ?, ?, ?, ?)').join(', ') +
    ' ON CONFLICT (symbol, slot) DO UPDATE SET id = excluded.id, price_ticks = excluded.price_ticks,' +
    ' qty_lots = excluded.qty_lots, taker_side = excluded.taker_side, time = excluded.time'
  );
}

interface Row {
  symbol: string;
  slot: number;
  id: number;
  price_ticks: number;
  qty_lots: number;
  taker_side: number;
  time: number;
}

export class TapeRepo implements TapeStore {
  private readonly db: DatabaseSync;
  private readonly loadStmt: StatementSync;
  private readonly batches: Array<{ stmt: StatementSync; params: Array<string | number> } | undefined> = [];

  constructor(db: DatabaseSync) {
    this.db = db;
    this.loadStmt = db.prepare(
      'SELECT symbol, slot, id, price_ticks, qty_lots, taker_side, time FROM public_trades ORDER BY id',
    );
  }

  loadAll(): TapeRow[] {
    return (this.loadStmt.all() as unknown as Row[]).map((r) => ({
      symbol: r.symbol,
      slot: r.slot,
      tradeId: r.id,
      priceTicks: r.price_ticks,
      qtyLots: r.qty_lots,
      takerSide: r.taker_side,
      time: r.time,
    }));
  }

  saveMany(rows: readonly TapeRow[], wait = false): boolean {
    if (rows.length === 0) return true;
    const group = groupCommitOf(this.db);
    if (wait) {
      group.unit(() => this.write(rows));
      return true;
    }
    return group.tryUnit(() => this.write(rows));
  }

  private write(rows: readonly TapeRow[]): void {
    for (let i = 0; i < rows.length; i += BATCH_ROWS) {
      const n = Math.min(BATCH_ROWS, rows.length - i);
      const { stmt, params } = this.batch(n);
      for (let k = 0; k < n; k++) {
        const r = rows[i + k];
        const p = k * ROW_PARAMS;
        params[p] = r.symbol;
        params[p + 1] = r.slot;
        params[p + 2] = r.tradeId;
        params[p + 3] = r.priceTicks;
        params[p + 4] = r.qtyLots;
        params[p + 5] = r.takerSide;
        params[p + 6] = r.time;
      }
      stmt.run(...params);
    }
  }

  get inUnit(): boolean {
    return groupCommitOf(this.db).inUnit;
  }

  private batch(rows: number): { stmt: StatementSync; params: Array<string | number> } {
    let b = this.batches[rows];
    if (b === undefined)
      b = this.batches[rows] = { stmt: this.db.prepare(upsertSql(rows)), params: new Array(ROW_PARAMS * rows) };
    return b;
  }
}
