// Open-interest samples in SQLite (the market's OpenInterestStore port): one row per (pair,
// 5-minute boundary of market time).
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { OpenInterestSample, OpenInterestStore } from '../market/ports.ts';
import { transaction } from './database.ts';
import { groupCommitOf } from './group-commit.ts';

export class OpenInterestRepo implements OpenInterestStore {
  private readonly db: DatabaseSync;
  private readonly upsert: StatementSync;
  private readonly newestStmt: StatementSync;
  private readonly pruneStmt: StatementSync;

  constructor(db: DatabaseSync) {
    this.db = db;
    this.upsert = db.prepare(
      'INSERT INTO open_interest (symbol, time, lots, value) VALUES (?, ?, ?, ?) ' +
        'ON CONFLICT(symbol, time) DO UPDATE SET lots = excluded.lots, value = excluded.value',
    );
    this.newestStmt = db.prepare('SELECT MAX(time) AS t FROM open_interest WHERE symbol = ?');
    this.pruneStmt = db.prepare('DELETE FROM open_interest WHERE time < ?');
  }

  saveMany(rows: readonly OpenInterestSample[]): boolean {
    if (rows.length === 0) return true;
    return groupCommitOf(this.db).tryUnit(() => {
      for (const r of rows) this.upsert.run(r.symbol, r.time, r.lots, r.value);
    });
  }

  newestTime(symbol: string): number | undefined {
    const r = this.newestStmt.get(symbol) as { t: number | null };
    return r.t === null ? undefined : Number(r.t);
  }

  range(
    symbol: string,
    q: { from: number; to: number; step: number; limit: number; order: 'asc' | 'desc' },
  ): OpenInterestSample[] {
    const dir = q.order === 'asc' ? 'ASC' : 'DESC';
    const rows = this.db
      .prepare(
        `SELECT time, lots, value FROM open_interest WHERE symbol = ? AND time >= ? AND time <= ? AND time % ? = 0 ORDER BY time ${dir} LIMIT ?`,
      )
      .all(symbol, q.from, q.to, q.step, q.limit) as Array<{ time: number; lots: number; value: number }>;
    const out = rows.map((r) => ({ symbol, time: Number(r.time), lots: Number(r.lots), value: Number(r.value) }));
    return q.order === 'asc' ? out : out.reverse();
  }

  prune(before: number): void {
    transaction(this.db, () => this.pruneStmt.run(before));
  }

  get inUnit(): boolean {
    return groupCommitOf(this.db).inUnit;
  }
}
