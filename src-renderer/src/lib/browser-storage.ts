// The browser's storage for what the screen keeps between visits (alerts, notification choices),
// behind the two calls the stores use, so their tests hand them a map instead. No DOM types: the
// stores that take it are imported by the unit tests.

/** What a store reads and writes: localStorage in the screen. */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** This page's localStorage, or null where it is disabled (a sandboxed frame throws on the getter). */
export function browserStorage(): KeyValueStorage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** What a store needs of a storage event (the page's `StorageEvent`: another tab wrote an entry). */
export interface StorageChange {
  key: string | null;
  newValue: string | null;
}

/** Where other tabs' writes are heard: the page's window (a stand-in in the unit tests). */
export interface StorageEvents {
  addEventListener(type: 'storage', f: (e: StorageChange) => void): void;
  removeEventListener(type: 'storage', f: (e: StorageChange) => void): void;
}
