// The listenKeys' store (trading/ports.ts ListenKeyStorePort), the same checks on the SQLite
// adapter (store/listen-keys-repo.ts) and the memory one (trading/memory-store.ts): one key an
// account with its expiry, replaced by a save, gone after a remove, all of them back from a new
// store on the same data. The SQLite writes join the group commit: pending until its commit, then
// on disk for another connection to read.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { AccountsRepo } from '../../src-main/store/accounts-repo.ts';
import { closeDatabase, databaseFile, openDatabase } from '../../src-main/store/database.ts';
import { groupCommitOf } from '../../src-main/store/group-commit.ts';
import { ListenKeysRepo } from '../../src-main/store/listen-keys-repo.ts';
import { MemoryListenKeyStore } from '../../src-main/trading/memory-store.ts';
import type { ListenKeyStorePort } from '../../src-main/trading/ports.ts';

const dir = mkdtempSync(join(tmpdir(), 'perpdesk-lk-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A store, and `reopen`: a new store over the same data (the previous one's writes committed first). */
interface Subject {
  store: ListenKeyStorePort;
  reopen(): Promise<ListenKeyStorePort>;
  close(): void;
}

function sqlite(): Subject {
  let db = openDatabase({ dataDir: dir });
  const accounts = new AccountsRepo(db);
  for (const name of ['a', 'b'])
    accounts.upsert({ apiKey: `lkstore_${name}_key`, apiSecret: 's', kind: 'user', balance: 0n }, 0);
  return {
    store: new ListenKeysRepo(db),
    async reopen() {
      await groupCommitOf(db).durable();
      closeDatabase(db);
      db = openDatabase({ dataDir: dir });
      return new ListenKeysRepo(db);
    },
    close: () => closeDatabase(db),
  };
}

function memory(): Subject {
  const store = new MemoryListenKeyStore();
  return { store, reopen: async () => store, close: () => {} };
}

describe.each([
  ['SQLite', sqlite],
  ['memory', memory],
])('listenKey store (%s)', (_name, make) => {
  it('keeps one key an account with its expiry, replaced by a save and gone after a remove, across a reopen', async () => {
    const s = make();
    try {
      s.store.save({ accountId: 1, key: 'k1'.padEnd(64, 'x'), expiresAt: 1_000 });
      s.store.save({ accountId: 2, key: 'k2'.padEnd(64, 'x'), expiresAt: 2_000 });
      s.store.save({ accountId: 1, key: 'k1'.padEnd(64, 'x'), expiresAt: 3_000 });
      let store = await s.reopen();
      expect(store.loadAll()).toEqual([
        { accountId: 1, key: 'k1'.padEnd(64, 'x'), expiresAt: 3_000 },
        { accountId: 2, key: 'k2'.padEnd(64, 'x'), expiresAt: 2_000 },
      ]);
      store.remove(1);
      store.save({ accountId: 2, key: 'k3'.padEnd(64, 'x'), expiresAt: 4_000 });
      store = await s.reopen();
      expect(store.loadAll()).toEqual([{ accountId: 2, key: 'k3'.padEnd(64, 'x'), expiresAt: 4_000 }]);
    } finally {
      s.close();
    }
  });
});

describe('listenKey store in SQLite', () => {
  it('writes in the group commit: pending until it commits, then read by another connection', async () => {
    const db = openDatabase({ dataDir: dir });
    try {
      const id = new AccountsRepo(db).upsert(
        { apiKey: 'lkstore_c_key', apiSecret: 's', kind: 'user', balance: 0n },
        0,
      ).id;
      await groupCommitOf(db).durable();
      new ListenKeysRepo(db).save({ accountId: id, key: 'kc'.padEnd(64, 'x'), expiresAt: 5_000 });
      expect(groupCommitOf(db).pending).toBe(true);
      await groupCommitOf(db).durable();
      const other = new DatabaseSync(databaseFile(dir), { readOnly: true });
      try {
        const rows = other.prepare('SELECT account_id, listen_key, expires_at FROM listen_keys WHERE account_id = ?');
        expect(rows.all(id)).toEqual([{ account_id: id, listen_key: 'kc'.padEnd(64, 'x'), expires_at: 5_000 }]);
      } finally {
        other.close();
      }
    } finally {
      closeDatabase(db);
    }
  });
});
