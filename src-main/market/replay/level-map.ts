// One side of the replay mirror's levels: price in ticks -> lots (book-mirror.ts `hist`). A print
// reads and writes a few levels, so this is an open-addressing hash table of integer keys in two
// typed arrays (linear probing, backward-shift deletion: no tombstones, no allocation per
// operation), where a Map costs a generic look-up and, with levels coming and going all the time,
// a table that keeps filling with deleted entries.
// Keys are non-negative integers (ticks); lots are numbers. keys() lists the prices in ascending
// order (a snapshot: the map may change while the caller walks it); keysInto() fills a caller's
// array, unordered, without allocating.

const EMPTY = -1;

export class LevelMap {
  private keyAt: Float64Array;
  private valAt: Float64Array;
  private mask: number;
  private count = 0;

  constructor(capacity = 64) {
    let n = 16;
    while (n < capacity * 2) n *= 2;
    this.keyAt = new Float64Array(n).fill(EMPTY);
    this.valAt = new Float64Array(n);
    this.mask = n - 1;
  }

  get size(): number {
    return this.count;
  }

  /** The slot of `price`, or the empty slot where it would go. */
  private slot(price: number): number {
    const keys = this.keyAt;
    const mask = this.mask;
    let i = hash(price) & mask;
    for (;;) {
      const k = keys[i];
      if (k === price || k === EMPTY) return i;
      i = (i + 1) & mask;
    }
  }

  get(price: number): number | undefined {
    const i = this.slot(price);
    return this.keyAt[i] === EMPTY ? undefined : this.valAt[i];
  }

  has(price: number): boolean {
    return this.keyAt[this.slot(price)] !== EMPTY;
  }

  set(price: number, lots: number): void {
    if (!Number.isSafeInteger(price) || price < 0) throw new RangeError(`a level's price is a non-negative integer of ticks, got ${price}`);
    let i = this.slot(price);
    if (this.keyAt[i] === EMPTY) {
      // at most half full: probes stay short
      if ((this.count + 1) * 2 > this.keyAt.length) {
        this.grow();
        i = this.slot(price);
      }
      this.keyAt[i] = price;
      this.count++;
    }
    this.valAt[i] = lots;
  }

  delete(price: number): boolean {
    const keys = this.keyAt;
    const vals = this.valAt;
    const mask = this.mask;
    let i = this.slot(price);
    if (keys[i] === EMPTY) return false;
    // backward shift: every entry after the hole that probed past it moves into it
    let j = i;
    for (;;) {
      j = (j + 1) & mask;
      const k = keys[j];
      if (k === EMPTY) break;
      const home = hash(k) & mask;
      // k stays when its home lies cyclically in (i, j]
      const stays = i <= j ? i < home && home <= j : i < home || home <= j;
      if (stays) continue;
      keys[i] = k;
      vals[i] = vals[j];
      i = j;
    }
    keys[i] = EMPTY;
    this.count--;
    return true;
  }

  clear(): void {
    this.keyAt.fill(EMPTY);
    this.count = 0;
  }

  /** Writes the prices into `out` from index 0, in no particular order; returns how many (no allocation once `out` is long enough). */
  keysInto(out: number[]): number {
    const keys = this.keyAt;
    let n = 0;
    for (let i = 0; i < keys.length; i++) if (keys[i] !== EMPTY) out[n++] = keys[i];
    return n;
  }

  /** The prices, ascending (a snapshot). */
  keys(): number[] {
    const out: number[] = [];
    const keys = this.keyAt;
    for (let i = 0; i < keys.length; i++) if (keys[i] !== EMPTY) out.push(keys[i]);
    return out.sort((a, b) => a - b);
  }

  private grow(): void {
    const oldKeys = this.keyAt;
    const oldVals = this.valAt;
    const n = oldKeys.length * 2;
    this.keyAt = new Float64Array(n).fill(EMPTY);
    this.valAt = new Float64Array(n);
    this.mask = n - 1;
    for (let i = 0; i < oldKeys.length; i++) {
      const k = oldKeys[i];
      if (k === EMPTY) continue;
      const s = this.slot(k);
      this.keyAt[s] = k;
      this.valAt[s] = oldVals[i];
    }
  }
}

/** A 32-bit mix of the price (ticks past 2^32 fold their high part in). */
function hash(price: number): number {
  let x = (price | 0) ^ ((price / 4294967296) | 0);
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b);
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b);
  return x ^ (x >>> 16);
}
