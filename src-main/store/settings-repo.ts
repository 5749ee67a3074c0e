// Key/value settings of a venue (seed, market time, whitelist, ...).
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { SettingsPort } from '../trading/ports.ts';

export class SettingsRepo implements SettingsPort {
  private readonly getStmt: StatementSync;
  private readonly setStmt: StatementSync;

  constructor(db: DatabaseSync) {
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
    this.setStmt.run(key, value);
  }
}
