// SQLite persistence of the Binance dialect's listenKeys (api/binance/listen-keys.ts keeps them
// live): one row an account, its key and when it expires (wall-clock ms), so a service started
// again on the data folder takes back the keys its clients hold. Each write is a unit of the
// connection's group commit (group-commit.ts), as a setting's is: the POST or PUT that made or
// extended a key is answered once the key is on disk (api/app.ts's onSend waits for the commit).
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { ListenKeyState, ListenKeyStorePort } from '../trading/ports.ts';
import { transaction } from './database.ts';

interface Row {
  account_id: number;
  listen_key: string;
  expires_at: number;
}

export class ListenKeysRepo implements ListenKeyStorePort {
  private readonly db: DatabaseSync;
  private readonly all: StatementSync;
  private readonly upsert: StatementSync;
  private readonly del: StatementSync;

  constructor(db: DatabaseSync) {
    this.db = db;
    this.all = db.prepare('SELECT account_id, listen_key, expires_at FROM listen_keys ORDER BY account_id');
    this.upsert = db.prepare(
      `INSERT INTO listen_keys (account_id, listen_key, expires_at) VALUES (?, ?, ?)
       ON CONFLICT(account_id) DO UPDATE SET listen_key = excluded.listen_key, expires_at = excluded.expires_at`,
    );
    this.del = db.prepare('DELETE FROM listen_keys WHERE account_id = ?');
  }

  loadAll(): ListenKeyState[] {
    return (this.all.all() as unknown as Row[]).map((r) => ({
      accountId: Number(r.account_id),
      key: r.listen_key,
      expiresAt: Number(r.expires_at),
    }));
  }

  save(k: ListenKeyState): void {
    transaction(this.db, () => this.upsert.run(k.accountId, k.key, k.expiresAt));
  }

  remove(accountId: number): void {
    transaction(this.db, () => this.del.run(accountId));
  }
}
