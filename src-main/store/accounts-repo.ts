// Paper accounts in SQLite: API key and secret, USDT wallet (core/account.ts). The accounts
// service (accounts/account-service.ts) reads and writes them through its port, AccountStore.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Account, AccountKind } from '../core/account.ts';
import type { AccountsPort } from '../trading/ports.ts';
import { groupCommitOf } from './group-commit.ts';
import { transaction } from './database.ts';

interface Row {
  id: bigint;
  api_key: string;
  api_secret: string;
  kind: AccountKind;
  wallet_balance: bigint;
  total_deposits: bigint;
  position_mode: 'hedge' | 'one_way';
  created_at: bigint;
  updated_at: bigint;
}

function fromRow(r: Row): Account {
  return {
    id: Number(r.id),
    apiKey: r.api_key,
    apiSecret: r.api_secret,
    kind: r.kind,
    walletBalance: r.wallet_balance,
    totalDeposits: r.total_deposits,
    positionMode: r.position_mode,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

export class AccountsRepo implements AccountsPort {
  private readonly db: DatabaseSync;
  private readonly byKeyStmt: StatementSync;
  private readonly byIdStmt: StatementSync;

  constructor(db: DatabaseSync) {
    this.db = db;
    this.byKeyStmt = db.prepare('SELECT * FROM accounts WHERE api_key = ?');
    this.byIdStmt = db.prepare('SELECT * FROM accounts WHERE id = ?');
    this.byKeyStmt.setReadBigInts(true);
    this.byIdStmt.setReadBigInts(true);
  }

  // Reads run the turn's deferred writes first (group-commit.ts): the wallet columns are written
  // by the exchange once per turn, and a reader must see the latest.
  byKey(apiKey: string): Account | undefined {
    groupCommitOf(this.db).sync();
    const r = this.byKeyStmt.get(apiKey) as Row | undefined;
    return r ? fromRow(r) : undefined;
  }

  byId(id: number): Account | undefined {
    groupCommitOf(this.db).sync();
    const r = this.byIdStmt.get(id) as Row | undefined;
    return r ? fromRow(r) : undefined;
  }

  firstOfKind(kind: AccountKind): Account | undefined {
    groupCommitOf(this.db).sync();
    const stmt = this.db.prepare('SELECT * FROM accounts WHERE kind = ? ORDER BY id LIMIT 1');
    stmt.setReadBigInts(true);
    const r = stmt.get(kind) as Row | undefined;
    return r ? fromRow(r) : undefined;
  }

  /** Replaces an account's API key and secret (the old key stops working at once). */
  rotateKey(id: number, apiKey: string, apiSecret: string, now: number): Account | undefined {
    this.db
      .prepare('UPDATE accounts SET api_key = ?, api_secret = ?, updated_at = ? WHERE id = ?')
      .run(apiKey, apiSecret, now, id);
    return this.byId(id);
  }

  /**
   * Creates the account with this key, or updates its secret and sets its wallet to `balance`
   * (a paper top-up or reset: the difference is booked as a deposit so accounting still adds up).
   */
  upsert(a: { apiKey: string; apiSecret: string; kind: AccountKind; balance: bigint }, now: number): Account {
    return transaction(this.db, () => {
      const existing = this.byKey(a.apiKey);
      if (!existing) {
        this.db
          .prepare(
            `INSERT INTO accounts (api_key, api_secret, kind, wallet_balance, total_deposits, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(a.apiKey, a.apiSecret, a.kind, a.balance, a.balance, now, now);
      } else {
        const delta = a.balance - existing.walletBalance;
        this.db
          .prepare(
            `UPDATE accounts SET api_secret = ?, wallet_balance = ?, total_deposits = total_deposits + ?, updated_at = ?
             WHERE id = ?`,
          )
          .run(a.apiSecret, a.balance, delta, now, existing.id);
      }
      return this.byKey(a.apiKey)!;
    });
  }
}
