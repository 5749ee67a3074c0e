// Mark / index / premium candles in SQLite (the market's PriceCandleStore port): one row per
// (symbol, interval, open time), upserted while the candle is open and once more when it
// closes; the writer (market/price-klines.ts) prunes each series to its window.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Interval } from '../../src-shared/intervals.ts';
import type { PriceCandleRow, PriceCandleStore } from '../market/ports.ts';
import { transaction } from './database.ts';
import { groupCommitOf } from './group-commit.ts';

const VALUES = [
  'mark_open',
  'mark_high',
  'mark_low',
  'mark_close',
  'index_open',
  'index_high',
  'index_low',
  'index_close',
  'premium_open',
  'premium_high',
  'premium_low',
  'premium_close',
] as const;

export class PriceKlinesRepo implements PriceCandleStore {
  private readonly db: DatabaseSync;
  private readonly upsert: StatementSync;
  private readonly pruneStmt: StatementSync;

  constructor(db: DatabaseSync) {
    this.db = db;
    this.upsert = db.prepare(
      `INSERT INTO price_klines (symbol, interval, open_time, count, ${VALUES.join(', ')}) VALUES (?, ?, ?, ?, ${VALUES.map(() => '?').join(', ')})
       ON CONFLICT(symbol, interval, open_time) DO UPDATE SET count = excluded.count, ${VALUES.map((c) => `${c} = excluded.${c}`).join(', ')}`,
    );
    this.pruneStmt = db.prepare('DELETE FROM price_klines WHERE symbol = ? AND interval = ? AND open_time < ?');
  }

  loadAll(): PriceCandleRow[] {
    const rows = this.db.prepare(`SELECT * FROM price_klines ORDER BY symbol, interval, open_time`).all() as Array<
      Record<string, number | string>
    >;
    return rows.map((r) => ({
      symbol: r.symbol as string,
      interval: r.interval as Interval,
      openTime: Number(r.open_time),
      count: Number(r.count),
      v: VALUES.map((c) => Number(r[c])),
    }));
  }

  saveMany(rows: readonly PriceCandleRow[]): boolean {
    if (rows.length === 0) return true;
    return groupCommitOf(this.db).tryUnit(() => {
      for (const r of rows) {
        const v = r.v;
        this.upsert.run(
          r.symbol,
          r.interval,
          r.openTime,
          r.count,
          v[0],
          v[1],
          v[2],
          v[3],
          v[4],
          v[5],
          v[6],
          v[7],
          v[8],
          v[9],
          v[10],
          v[11],
        );
      }
    });
  }

  prune(symbol: string, interval: Interval, beforeOpen: number): void {
    transaction(this.db, () => this.pruneStmt.run(symbol, interval, beforeOpen));
  }

  get inUnit(): boolean {
    return groupCommitOf(this.db).inUnit;
  }
}
