// What the accounts service needs from storage (DESIGN 2: services own their ports, store/
// implements them in SQLite). AccountsRepo and SettingsRepo fit these shapes as they are.
import type { Account, AccountKind } from '../core/account.ts';

export interface AccountStore {
  byId(id: number): Account | undefined;
  byKey(apiKey: string): Account | undefined;
  /** The oldest account of this kind. */
  firstOfKind(kind: AccountKind): Account | undefined;
  /** Replaces key and secret; the old key stops working at once. */
  /** Creates the account with this key, or updates its secret and sets its wallet to `balance`. */
  upsert(a: { apiKey: string; apiSecret: string; kind: AccountKind; balance: bigint }, now: number): Account;
}

/** Key/value settings of the venue (the whitelist keeps its list there). */
export interface SettingsStore {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
}
