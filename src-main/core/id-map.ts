// Maps for the exchange's long-lived, fast-churning order tables (the orders it tracks, an
// account's open orders and their client ids, a house account's resting orders): what a Map does
// there, without its garbage.
//
// Why not Map: V8's Map keeps its entries in a hash table that it replaces on every rehash, and a
// table that churns (an order in, an order out, a handful live) rehashes every few inserts, to
// compact the deleted entries away or to shrink. The table of a long-lived Map is allocated in old
// space, and the table it replaces is left as it was, entries included, pointing to its successor
// (for iterators that are still on it). So each rehash was old-space garbage, and every order
// and client id in the old table stayed reachable from it for the scavenger, was promoted, and
// waited for a full mark-compact (docs/benchmarks-log.md, "ninth pass"). These tables keep their
// storage, clear a slot when its entry leaves, and allocate only to grow.
import { IdTable } from '../engine/id-table.ts';

const HOLE = -1;

/**
 * Safe integers >= 0 to values, iterated in insertion order like a Map (entries deleted during
 * an iteration are not visited, entries added are).
 *
 * Entries sit in insertion order in two parallel arrays, with holes where entries left; an
 * IdTable (engine/id-table.ts: open addressing, no tombstones) finds an id's position. When the
 * arrays are full the holes are squeezed out in place if at least half are holes (and no
 * iteration is under way), else the arrays double.
 */
export class IdMap<V> {
  private readonly index: IdTable;
  private ids: Float64Array;
  private readonly vals: Array<V | undefined>;
  /** Positions in use (entries and holes). */
  private end = 0;
  private count = 0;
  /** Iterations under way: positions must not move under them. */
  private iterations = 0;

  constructor(initialCapacity = 8) {
    const cap = Math.max(4, initialCapacity);
    this.index = new IdTable(cap);
    this.ids = new Float64Array(cap).fill(HOLE);
    this.vals = new Array<V | undefined>(cap).fill(undefined);
  }

  get size(): number {
    return this.count;
  }

  get(id: number): V | undefined {
    const at = this.index.get(id);
    return at < 0 ? undefined : this.vals[at];
  }

  has(id: number): boolean {
    return this.index.get(id) >= 0;
  }

  set(id: number, value: V): this {
    const at = this.index.get(id);
    if (at >= 0) {
      this.vals[at] = value;
      return this;
    }
    if (this.end === this.ids.length) this.makeRoom();
    const p = this.end++;
    this.ids[p] = id;
    this.vals[p] = value;
    this.index.set(id, p);
    this.count++;
    return this;
  }

  delete(id: number): boolean {
    const at = this.index.get(id);
    if (at < 0) return false;
    this.index.delete(id);
    this.ids[at] = HOLE;
    this.vals[at] = undefined;
    this.count--;
    // trailing holes are given back at once (the common case: the newest order leaves first)
    if (this.iterations === 0) while (this.end > 0 && this.ids[this.end - 1] === HOLE) this.end--;
    return true;
  }

  *values(): Generator<V, void, undefined> {
    this.iterations++;
    try {
      for (let i = 0; i < this.end; i++) if (this.ids[i] !== HOLE) yield this.vals[i] as V;
    } finally {
      this.iterations--;
    }
  }

  *keys(): Generator<number, void, undefined> {
    this.iterations++;
    try {
      for (let i = 0; i < this.end; i++) if (this.ids[i] !== HOLE) yield this.ids[i];
    } finally {
      this.iterations--;
    }
  }

  private makeRoom(): void {
    const cap = this.ids.length;
    if (this.iterations === 0 && this.count <= cap >> 1) {
      let w = 0;
      for (let r = 0; r < this.end; r++) {
        const id = this.ids[r];
        if (id === HOLE) continue;
        if (w !== r) {
          this.ids[w] = id;
          this.vals[w] = this.vals[r];
          this.index.set(id, w);
        }
        w++;
      }
      for (let i = w; i < this.end; i++) {
        this.ids[i] = HOLE;
        this.vals[i] = undefined;
      }
      this.end = w;
      return;
    }
    const ids = new Float64Array(cap * 2).fill(HOLE);
    ids.set(this.ids);
    this.ids = ids;
    for (let i = cap; i < cap * 2; i++) this.vals.push(undefined);
  }
}

/** FNV-1a over the string's UTF-16 code units (client ids are short ASCII). */
function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * Strings to safe integers (an account's client order ids to order ids): open addressing with
 * linear probing, load at most a half, deletion by shifting the rest of the run back (no
 * tombstones), so churn neither slows look-ups nor allocates. Not iterable.
 */
export class StringIdMap {
  private keys: Array<string | undefined>;
  private vals: Float64Array;
  private hashes: Uint32Array;
  private mask: number;
  private count = 0;

  constructor(initialCapacity = 8) {
    let cap = 8;
    while (cap < initialCapacity * 2) cap *= 2;
    this.keys = new Array<string | undefined>(cap).fill(undefined);
    this.vals = new Float64Array(cap);
    this.hashes = new Uint32Array(cap);
    this.mask = cap - 1;
  }

  get size(): number {
    return this.count;
  }

  private find(key: string, h: number): number {
    const mask = this.mask;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const k = this.keys[i];
      if (k === undefined) return ~i;
      if (this.hashes[i] === h && k === key) return i;
    }
  }

  get(key: string): number | undefined {
    const i = this.find(key, hashString(key));
    return i < 0 ? undefined : this.vals[i];
  }

  has(key: string): boolean {
    return this.find(key, hashString(key)) >= 0;
  }

  set(key: string, value: number): this {
    const h = hashString(key);
    let i = this.find(key, h);
    if (i >= 0) {
      this.vals[i] = value;
      return this;
    }
    if ((this.count + 1) * 2 > this.keys.length) {
      this.grow();
      i = this.find(key, h);
    }
    i = ~i;
    this.keys[i] = key;
    this.vals[i] = value;
    this.hashes[i] = h;
    this.count++;
    return this;
  }

  delete(key: string): boolean {
    let i = this.find(key, hashString(key));
    if (i < 0) return false;
    const mask = this.mask;
    // backward shift: later members of the run move into the hole when their home allows it
    for (let j = (i + 1) & mask; this.keys[j] !== undefined; j = (j + 1) & mask) {
      const home = this.hashes[j] & mask;
      const stays = i <= j ? i < home && home <= j : i < home || home <= j;
      if (stays) continue;
      this.keys[i] = this.keys[j];
      this.vals[i] = this.vals[j];
      this.hashes[i] = this.hashes[j];
      i = j;
    }
    this.keys[i] = undefined;
    this.count--;
    return true;
  }

  private grow(): void {
    const { keys, vals, hashes } = this;
    const cap = keys.length * 2;
    this.keys = new Array<string | undefined>(cap).fill(undefined);
    this.vals = new Float64Array(cap);
    this.hashes = new Uint32Array(cap);
    this.mask = cap - 1;
    for (let j = 0; j < keys.length; j++) {
      const k = keys[j];
      if (k === undefined) continue;
      let i = hashes[j] & this.mask;
      while (this.keys[i] !== undefined) i = (i + 1) & this.mask;
      this.keys[i] = k;
      this.vals[i] = vals[j];
      this.hashes[i] = hashes[j];
    }
  }
}
