// listenKeys of the user data stream (reference d.2 item 4): one per account, valid 60 minutes
// from its last POST or PUT; a second POST answers the same key; a DELETE ends the key and its
// streams (the hub closes them, onClosed); a regenerated API key ends it as an expiry does. In memory: a restart ends
// every key, as Binance's keys end with a session (clients create one at start).
import { randomBytes } from 'node:crypto';

const LISTEN_KEY_MS = 60 * 60 * 1000;

export class ListenKeys {
  private readonly byAccount = new Map<number, { key: string; expires: number }>();
  private readonly byKey = new Map<string, number>();
  private readonly now: () => number;
  private readonly closedListeners: Array<(key: string) => void> = [];

  constructor(now: () => number) {
    this.now = now;
  }

  /** The account's key, created when it has none; its life starts again. */
  open(accountId: number): string {
    this.expire();
    let k = this.byAccount.get(accountId);
    if (k === undefined) {
      k = { key: randomBytes(48).toString('base64url').slice(0, 64), expires: 0 };
      this.byAccount.set(accountId, k);
      this.byKey.set(k.key, accountId);
    }
    k.expires = this.now() + LISTEN_KEY_MS;
    return k.key;
  }

  /** Extends the account's live key; undefined when it has none. */
  keepAlive(accountId: number): string | undefined {
    this.expire();
    const k = this.byAccount.get(accountId);
    if (k === undefined) return undefined;
    k.expires = this.now() + LISTEN_KEY_MS;
    return k.key;
  }

  close(accountId: number): boolean {
    this.expire();
    const k = this.byAccount.get(accountId);
    if (k === undefined) return false;
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
    this.byAccount.delete(accountId);
    this.byKey.delete(k.key);
    return k.key;
  }

  /** `fn` runs with each key a DELETE closed (its streams end with it). */
  onClosed(fn: (key: string) => void): void {
    this.closedListeners.push(fn);
  }

  accountOf(key: string): number | undefined {
    this.expire();
    return this.byKey.get(key);
  }

  /** Drops expired keys; answers them (the streams send listenKeyExpired). */
  expire(): string[] {
    const now = this.now();
    const gone: string[] = [];
    for (const [id, k] of this.byAccount) {
      if (k.expires > now) continue;
      this.byAccount.delete(id);
      this.byKey.delete(k.key);
      gone.push(k.key);
    }
    return gone;
  }
}
