// Paper accounts as the transport sees them: look-ups by id and key, and store-only upserts
// for accounts the exchange has not loaded. Storage is a port (AccountStore). Wallets and keys of
// a live account change through the exchange, the venue's sequencer (deposit, reset,
// upsertAccount and rotateKey commands), so a command log orders them with the account's orders.
import type { Account, AccountKind } from '../core/account.ts';
import type { AccountStore } from './ports.ts';

export class AccountService {
  private readonly store: AccountStore;

  constructor(store: AccountStore) {
    this.store = store;
  }

  byId(id: number): Account | undefined {
    return this.store.byId(id);
  }

  byKey(apiKey: string): Account | undefined {
    return this.store.byKey(apiKey);
  }

  firstOfKind(kind: AccountKind): Account | undefined {
    return this.store.firstOfKind(kind);
  }

  /**
   * Creates the account with this key, or updates its secret and sets its stored wallet. In
   * storage only: an account the exchange has loaded takes wallet changes through
   * exchange.upsertAccount, so that its live wallet follows.
   */
  upsert(a: { apiKey: string; apiSecret: string; kind: AccountKind; balance: bigint }, now: number): Account {
    return this.store.upsert(a, now);
  }
}
