// Paper accounts as the transport sees them: look-ups by id and key, the desktop's local account,
// key rotation. Storage is a port (AccountStore); the wallet is not this service's: deposits,
// resets and balance changes of a live account go through the exchange, the venue's sequencer,
// which holds wallets in memory. Keys are never held by the exchange (it addresses accounts by
// id), so rotating one here cannot leave it behind.
import type { Account, AccountKind } from '../core/account.ts';
import { newApiKey, newApiSecret } from './credentials.ts';
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

  /**
   * Replaces an account's key and secret with fresh ones (the old key stops working at once;
   * callers drop what they cached under it). Undefined when there is no such account.
   */
  rotateKey(id: number, now: number): { apiKey: string; apiSecret: string } | undefined {
    const old = this.store.byId(id);
    if (old === undefined) return undefined;
    const apiKey = newApiKey(old.kind === 'local' ? 'local' : 'key');
    const apiSecret = newApiSecret();
    return this.store.rotateKey(id, apiKey, apiSecret, now) === undefined ? undefined : { apiKey, apiSecret };
  }
}
