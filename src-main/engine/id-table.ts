// Open-addressing hash table from a non-negative safe integer to an int32 slot.
//
// Invariants: keys are safe integers >= 0 (-1 marks an empty cell); load factor <= 1/2, so a
// probe run stays short; deletion shifts the following run back (no tombstones), so lookups
// never slow down with churn. Fibonacci hashing of both 32-bit halves keeps sequential and
// strided ids spread. Nothing is allocated except when the table doubles.

const EMPTY = -1;
const TWO_POW_32 = 4_294_967_296;

export class IdTable {
  private keys: Float64Array;
  private vals: Int32Array;
  private mask: number;
  private shift: number;
  private count = 0;

  constructor(initialCapacity = 1024) {
    let cap = 16;
    while (cap < initialCapacity * 2) cap *= 2;
    this.keys = new Float64Array(cap).fill(EMPTY);
    this.vals = new Int32Array(cap);
    this.mask = cap - 1;
    this.shift = 32 - Math.log2(cap);
  }

  get size(): number {
    return this.count;
  }

  private home(key: number): number {
    const lo = key >>> 0;
    const hi = (key - lo) / TWO_POW_32;
    return Math.imul(lo ^ Math.imul(hi, 0x2545f491), 0x9e3779b1) >>> this.shift;
  }

  /** The slot stored for key, or -1. */
  get(key: number): number {
    const keys = this.keys;
    const mask = this.mask;
    let i = this.home(key);
    for (;;) {
      const k = keys[i];
      if (k === key) return this.vals[i];
      if (k === EMPTY) return -1;
      i = (i + 1) & mask;
    }
  }

  /** Insert or overwrite. */
  set(key: number, val: number): void {
    if ((this.count + 1) * 2 > this.keys.length) this.grow();
    const keys = this.keys;
    const mask = this.mask;
    let i = this.home(key);
    for (;;) {
      const k = keys[i];
      if (k === EMPTY) {
        keys[i] = key;
        this.vals[i] = val;
        this.count++;
        return;
      }
      if (k === key) {
        this.vals[i] = val;
        return;
      }
      i = (i + 1) & mask;
    }
  }

  delete(key: number): boolean {
    const keys = this.keys;
    const vals = this.vals;
    const mask = this.mask;
    let i = this.home(key);
    for (;;) {
      const k = keys[i];
      if (k === key) break;
      if (k === EMPTY) return false;
      i = (i + 1) & mask;
    }
    // Backward-shift: move later members of the run into the hole when their home allows it.
    let j = i;
    for (;;) {
      j = (j + 1) & mask;
      const k = keys[j];
      if (k === EMPTY) break;
      const h = this.home(k);
      // Leave k where it is when its home lies cyclically in (i, j].
      const stays = i <= j ? i < h && h <= j : i < h || h <= j;
      if (!stays) {
        keys[i] = k;
        vals[i] = vals[j];
        i = j;
      }
    }
    keys[i] = EMPTY;
    this.count--;
    return true;
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldVals = this.vals;
    const cap = oldKeys.length * 2;
    this.keys = new Float64Array(cap).fill(EMPTY);
    this.vals = new Int32Array(cap);
    this.mask = cap - 1;
    this.shift--;
    this.count = 0;
    for (let i = 0; i < oldKeys.length; i++) {
      const k = oldKeys[i];
      if (k !== EMPTY) this.set(k, oldVals[i]);
    }
  }
}
