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
