// listenKeys of the user data stream (reference d.2 item 4): one per account, valid 60 minutes
// from its last POST or PUT; a second POST answers the same key; a DELETE ends the key and its
// streams (the hub closes them, onClosed); a regenerated API key ends it as an expiry does.
// Every expiry reaches the hub (onExpired), whichever call finds it: a POST, PUT or DELETE, a
// stream opening, or the hub's own 1 s round. (Found by a POST it was dropped unheard, and the
// expired key's open streams went on receiving the account's events.)
// Kept with the venue's data (the venue's ListenKeyStorePort, store/listen-keys-repo.ts), each
// change written as it is made: a service started again on the data folder takes back the keys
// still valid, with their expiry, so a client that reconnects with the key it holds (ccxt does, and
// gets a new one only at its 20-minute keep-alive) is served; one that expired meanwhile is dropped.
import { randomBytes } from 'node:crypto';
import type { ListenKeyStorePort } from '../../trading/ports.ts';

const LISTEN_KEY_MS = 60 * 60 * 1000;

export class ListenKeys {
  private readonly byAccount = new Map<number, { key: string; expires: number }>();
  private readonly byKey = new Map<string, number>();
  private readonly store: ListenKeyStorePort;
  private readonly now: () => number;
  private readonly closedListeners: Array<(key: string) => void> = [];
  private readonly expiredListeners: Array<(keys: readonly string[]) => void> = [];

  /** Takes back the keys `store` holds (wall clock `now`); an expired one is removed. */
  constructor(store: ListenKeyStorePort, now: () => number) {
    this.store = store;
    this.now = now;
    const t = now();
    for (const k of store.loadAll()) {
      if (k.expiresAt <= t) {
        store.remove(k.accountId);
        continue;
      }
      this.byAccount.set(k.accountId, { key: k.key, expires: k.expiresAt });
      this.byKey.set(k.key, k.accountId);
    }
  }

  /** The account's key, created when it has none; its life starts again. */
  open(accountId: number): string {
    this.expire();
    const had = this.byAccount.get(accountId);
    const key = had?.key ?? randomBytes(48).toString('base64url').slice(0, 64);
    const expires = this.now() + LISTEN_KEY_MS;
    // stored first: a write that fails changes nothing here either
    this.store.save({ accountId, key, expiresAt: expires });
    if (had !== undefined) had.expires = expires;
    else {
      this.byAccount.set(accountId, { key, expires });
      this.byKey.set(key, accountId);
    }
    return key;
  }

  /** Extends the account's live key; undefined when it has none. */
  keepAlive(accountId: number): string | undefined {
    this.expire();
    const k = this.byAccount.get(accountId);
    if (k === undefined) return undefined;
    const expires = this.now() + LISTEN_KEY_MS;
    this.store.save({ accountId, key: k.key, expiresAt: expires });
    k.expires = expires;
    return k.key;
  }

  close(accountId: number): boolean {
    this.expire();
    const k = this.byAccount.get(accountId);
    if (k === undefined) return false;
    this.store.remove(accountId);
    this.byAccount.delete(accountId);
    this.byKey.delete(k.key);
    for (const fn of this.closedListeners) fn(k.key);
    return true;
  }

  /**
   * Ends the account's key at once, as if it had expired (its API key was regenerated: what it
   * streams is private to the key's holder); answers the key, undefined when it had none. No
   * closed listener runs: the streams say listenKeyExpired before they close.
   */
  revoke(accountId: number): string | undefined {
    const k = this.byAccount.get(accountId);
    if (k === undefined) return undefined;
    this.store.remove(accountId);
    this.byAccount.delete(accountId);
    this.byKey.delete(k.key);
    return k.key;
  }

  /** `fn` runs with each key a DELETE closed (its streams end with it). */
  onClosed(fn: (key: string) => void): void {
    this.closedListeners.push(fn);
  }

  /** `fn` runs with the keys that expired, whichever call found them (their streams say listenKeyExpired and close). */
  onExpired(fn: (keys: readonly string[]) => void): void {
    this.expiredListeners.push(fn);
  }

  accountOf(key: string): number | undefined {
    this.expire();
    return this.byKey.get(key);
  }

  /** Drops the expired keys and tells the expired listeners (every call above does this first). */
  expire(): void {
    const now = this.now();
    const gone: string[] = [];
    try {
      for (const [id, k] of this.byAccount) {
        if (k.expires > now) continue;
        this.store.remove(id);
        this.byAccount.delete(id);
        this.byKey.delete(k.key);
        gone.push(k.key);
      }
    } finally {
      // those dropped before a failed write are told too: they are gone
      if (gone.length > 0) for (const fn of this.expiredListeners) fn(gone);
    }
  }
}
