// One side's price levels, sorted, best at the end.
//
// keys[0..n) ascend strictly and slots[i] is the level slot for keys[i]; the key is the price
// for bids and minus the price for asks, so on both sides the best level is keys[n-1] and
// "crosses a limit" is one comparison. Activity clusters at the top, so search gallops down
// from the end (O(log distance from the best)) and inserts near the top move few entries.
//
// Lazy removal: a level emptied away from the top stays in the array with count 0 (counted in
// `empties`) so cancels never shift the array; it is reused if an order comes back to that
// price, dropped when it reaches the top, and compacted away when empties outnumber live
// levels. The owner keeps the invariant "the top level, if any, is non-empty".

export const CACHE_SIZE = 1024;

export class PriceLadder {
  keys: Int32Array;
  slots: Int32Array;
  n = 0;
  empties = 0;
  /**
   * Price -> level slot hints, indexed by price & (CACHE_SIZE - 1), so that joining an existing
   * level usually skips the search. A hint is trusted only after the owner checks that the slot
   * is still in this ladder at that price.
   */
  readonly cache = new Int32Array(CACHE_SIZE).fill(-1);

  constructor(initialCapacity = 256) {
    const cap = Math.max(16, initialCapacity | 0);
    this.keys = new Int32Array(cap);
    this.slots = new Int32Array(cap);
  }

  /** Index of key, or -(insertion index) - 1. */
  search(key: number): number {
    const keys = this.keys;
    const n = this.n;
    // Gallop down from the top until keys[lo] <= key; keys[hi] > key (hi == n: none).
    let hi = n;
    let lo = n - 1;
    let step = 1;
    while (lo >= 0 && keys[lo] > key) {
      hi = lo;
      lo -= step;
      step <<= 1;
    }
    if (lo < -1) lo = -1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (keys[mid] > key) hi = mid;
      else lo = mid;
    }
    if (lo >= 0 && keys[lo] === key) return lo;
    return -hi - 1;
  }

  insertAt(pos: number, key: number, slot: number): void {
    if (this.n === this.keys.length) this.grow();
    const keys = this.keys;
    const slots = this.slots;
    const n = this.n;
    if (n - pos > 32) {
      keys.copyWithin(pos + 1, pos, n);
      slots.copyWithin(pos + 1, pos, n);
    } else {
      for (let i = n; i > pos; i--) {
        keys[i] = keys[i - 1];
        slots[i] = slots[i - 1];
      }
    }
    keys[pos] = key;
    slots[pos] = slot;
    this.n = n + 1;
  }

  /** Drop the empty levels (handing each slot to onDrop); returns how many were dropped. */
  compact(isEmpty: (slot: number) => boolean, onDrop: (slot: number) => void): number {
    const keys = this.keys;
    const slots = this.slots;
    let w = 0;
    for (let r = 0; r < this.n; r++) {
      const s = slots[r];
      if (isEmpty(s)) {
        onDrop(s);
        continue;
      }
      keys[w] = keys[r];
      slots[w] = s;
      w++;
    }
    const dropped = this.n - w;
    this.n = w;
    this.empties = 0;
    return dropped;
  }

  private grow(): void {
    const cap = this.keys.length * 2;
    const k = new Int32Array(cap);
    k.set(this.keys);
    const s = new Int32Array(cap);
    s.set(this.slots);
    this.keys = k;
    this.slots = s;
  }
}
