// ListenKeys (api/binance/listen-keys.ts) alone, over the memory store and a clock of the test's:
// whichever call finds a key expired (POST open, PUT keepAlive, DELETE close, a stream's accountOf,
// the hub's round) tells the expired listeners once, so the hub can end that key's streams; and a
// new ListenKeys over the same store (a restart) takes back the keys still valid, with their expiry.
import { describe, expect, it } from 'vitest';
import { ListenKeys } from '../../../src-main/api/binance/listen-keys.ts';
import { MemoryListenKeyStore } from '../../../src-main/trading/memory-store.ts';

const HOUR = 60 * 60 * 1000;

/** ListenKeys on a memory store at wall time `t.now`, and every batch of keys it said expired. */
function subject() {
  const t = { now: 1_000_000 };
  const store = new MemoryListenKeyStore();
  const keys = new ListenKeys(store, () => t.now);
  const expired: string[][] = [];
  keys.onExpired((k) => expired.push([...k]));
  return { t, store, keys, expired };
}

describe('ListenKeys', () => {
  const finders: Array<[string, (keys: ListenKeys, key: string) => void]> = [
    ['open (POST)', (keys) => keys.open(1)],
    ['keepAlive (PUT)', (keys) => keys.keepAlive(1)],
    ['close (DELETE)', (keys) => keys.close(1)],
    ['accountOf (a stream opening)', (keys, key) => keys.accountOf(key)],
    ['expire (the hub round)', (keys) => keys.expire()],
  ];
  it.each(finders)('an expiry found by %s reaches the expired listeners, once', (_name, find) => {
    const { t, keys, expired } = subject();
    const key = keys.open(1);
    const other = keys.open(2);
    t.now += HOUR - 1;
    keys.keepAlive(2);
    expect(keys.accountOf(key), 'not before its hour').toBe(1);
    expect(expired).toEqual([]);
    t.now += 1;
    find(keys, key);
    expect(expired).toEqual([[key]]);
    // the key is gone: nothing finds it again, the other key (kept alive) lives on
    keys.expire();
    expect(keys.accountOf(key)).toBeUndefined();
    expect(expired).toEqual([[key]]);
    expect(keys.accountOf(other)).toBe(2);
  });

  it('keeps one key an account: a POST answers it and extends it, a PUT extends it', () => {
    const { t, keys, expired } = subject();
    const key = keys.open(7);
    expect(key).toMatch(/^[A-Za-z0-9_-]{64}$/);
    t.now += HOUR - 10;
    expect(keys.open(7)).toBe(key);
    t.now += HOUR - 10;
    expect(keys.keepAlive(7)).toBe(key);
    t.now += HOUR - 10;
    expect(keys.accountOf(key)).toBe(7);
    expect(expired).toEqual([]);
  });

  it('a new ListenKeys over the same store (a restart) takes back the live keys with their expiry, drops the expired', () => {
    const { t, store, keys } = subject();
    const early = keys.open(1);
    t.now += HOUR / 2;
    const late = keys.open(2);
    t.now += HOUR / 2; // `early` expires now, unheard: nothing called
    const again = new ListenKeys(store, () => t.now);
    expect(again.accountOf(early)).toBeUndefined();
    expect(again.accountOf(late)).toBe(2);
    expect([...store.rows.keys()]).toEqual([2]);
    t.now += HOUR / 2;
    expect(again.accountOf(late)).toBeUndefined();
    expect(store.rows.size).toBe(0);
  });
});
