// One side of the replay mirror's levels: price in ticks -> lots (book-mirror.ts `hist`). A print
// reads and writes a few levels, and levels come and go all the time: a Map costs a generic
// look-up and keeps filling with deleted entries. Here the levels are two dense typed arrays of
// prices and lots (a removal moves the last level into the hole), found through an integer hash
// table of their indexes (open addressing, load factor at most 1/2, deletion by backward shift
// so no tombstones, Fibonacci hashing of both 32-bit halves as engine/id-table.ts does). The
// table compares the dense prices themselves, so a look-up that misses leaves the free cell an
// insertion takes (one probe run for an insertion, two for a removal). Nothing is allocated per
// operation.
// Keys are non-negative integers (ticks); lots are numbers. keys() lists the prices in ascending
// order (a snapshot: the map may change while the caller walks it); keysInto() fills a caller's
// array, unordered, without allocating.

const TWO_POW_32 = 4_294_967_296;

export class LevelMap {
  /** Hash cells: a level's dense index + 1, 0 when the cell is free. */
  private cells: Int32Array;
  private mask: number;
  private shift: number;
  private prices: Float64Array;
  private lots: Float64Array;
  private count = 0;

  constructor(capacity = 64) {
    let cap = 16;
    while (cap < capacity * 2) cap *= 2;
    this.cells = new Int32Array(cap);
    this.mask = cap - 1;
    this.shift = 32 - Math.log2(cap);
    this.prices = new Float64Array(capacity);
    this.lots = new Float64Array(capacity);
  }

  get size(): number {
    return this.count;
  }

  private home(price: number): number {
    const lo = price >>> 0;
    const hi = (price - lo) / TWO_POW_32;
    return Math.imul(lo ^ Math.imul(hi, 0x2545f491), 0x9e3779b1) >>> this.shift;
  }

  /** The cell holding `price`, or -(the free cell where it would go) - 1. */
  private find(price: number): number {
    const cells = this.cells;
    const prices = this.prices;
    const mask = this.mask;
    let i = this.home(price);
    for (;;) {
      const v = cells[i];
      if (v === 0) return -i - 1;
      if (prices[v - 1] === price) return i;
      i = (i + 1) & mask;
    }
  }

  get(price: number): number | undefined {
    const i = this.find(price);
    return i < 0 ? undefined : this.lots[this.cells[i] - 1];
  }

  has(price: number): boolean {
    return this.find(price) >= 0;
  }

  set(price: number, lots: number): void {
    if (!Number.isSafeInteger(price) || price < 0)
      throw new RangeError(`a level's price is a non-negative integer of ticks, got ${price}`);
    let i = this.find(price);
    if (i >= 0) {
      this.lots[this.cells[i] - 1] = lots;
      return;
    }
    const n = this.count;
    if ((n + 1) * 2 > this.cells.length) {
      this.growCells();
      i = this.find(price);
    }
    if (n === this.prices.length) {
      const prices = new Float64Array(n * 2);
      const all = new Float64Array(n * 2);
      prices.set(this.prices);
      all.set(this.lots);
      this.prices = prices;
      this.lots = all;
    }
    this.prices[n] = price;
    this.lots[n] = lots;
    this.cells[-i - 1] = n + 1;
    this.count = n + 1;
  }

  delete(price: number): boolean {
    const i = this.find(price);
    if (i < 0) return false;
    const at = this.cells[i] - 1;
    this.freeCell(i);
    const last = this.count - 1;
    if (at !== last) {
      // the last level fills the hole; its cell points to it there
      const p = this.prices[last];
      this.prices[at] = p;
      this.lots[at] = this.lots[last];
      this.cells[this.find(p)] = at + 1;
    }
    this.count = last;
    return true;
  }

  clear(): void {
    this.cells.fill(0);
    this.count = 0;
  }

  /** Writes the prices into `out` from index 0, in no particular order; returns how many (no allocation once `out` is long enough). */
  keysInto(out: number[]): number {
    const n = this.count;
    for (let i = 0; i < n; i++) out[i] = this.prices[i];
    return n;
  }

  /** The prices, ascending (a snapshot). */
  keys(): number[] {
    return Array.from(this.prices.subarray(0, this.count)).sort((a, b) => a - b);
  }

  /** Frees cell i: the later members of its probe run move back into it when their home allows. */
  private freeCell(i: number): void {
    const cells = this.cells;
    const prices = this.prices;
    const mask = this.mask;
    let j = i;
    for (;;) {
      j = (j + 1) & mask;
      const v = cells[j];
      if (v === 0) break;
      const h = this.home(prices[v - 1]);
      // it stays where it is when its home lies cyclically in (i, j]
      const stays = i <= j ? i < h && h <= j : i < h || h <= j;
      if (!stays) {
        cells[i] = v;
        i = j;
      }
    }
    cells[i] = 0;
  }

  private growCells(): void {
    const cap = this.cells.length * 2;
    this.cells = new Int32Array(cap);
    this.mask = cap - 1;
    this.shift--;
    const cells = this.cells;
    const mask = this.mask;
    for (let k = 0; k < this.count; k++) {
      let i = this.home(this.prices[k]);
      while (cells[i] !== 0) i = (i + 1) & mask;
      cells[i] = k + 1;
    }
  }
}
