// Key/value settings of a venue (seed, market time, whitelist, insurance fund, id blocks, ...).
// A write joins the connection's group commit (store/group-commit.ts) like every other write: a
// setting changed by a command (the insurance fund by a liquidation) is committed with that
// command's rows or not at all, and a background write (market time) goes through the same
// commit path (and its disk-space check) as the rest.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { SettingsPort } from '../trading/ports.ts';
import { transaction } from './database.ts';
import { groupCommitOf } from './group-commit.ts';

export class SettingsRepo implements SettingsPort {
  private readonly getStmt: StatementSync;
  private readonly setStmt: StatementSync;
  private readonly db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.db = db;
    this.getStmt = db.prepare('SELECT value FROM settings WHERE key = ?');
    this.setStmt = db.prepare(
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    );
  }

  get(key: string): string | undefined {
    const row = this.getStmt.get(key) as { value: string } | undefined;
    return row?.value;
  }

  getNumber(key: string): number | undefined {
    const v = this.get(key);
    if (v === undefined) return undefined;
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }

  set(key: string, value: string): void {
    transaction(this.db, () => this.setStmt.run(key, value));
  }

  /** set(), unless another connection holds the database's write lock right now: then false, without waiting. */
  trySet(key: string, value: string): boolean {
    return groupCommitOf(this.db).tryUnit(() => this.setStmt.run(key, value));
  }
}
