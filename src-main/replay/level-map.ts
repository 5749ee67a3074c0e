// One side of the replay mirror's levels: price in ticks -> lots (book-mirror.ts `hist`). A print
// reads and writes a few levels near the touch (7 operations a print on a walk that changes side
// every second print), and levels come and go all the time. A book around the touch is dense in
// ticks, so the levels within a window of WINDOW ticks are a typed array indexed by the tick's
// offset from the window's base (one subtraction and one read an operation); the levels outside it
// are in an integer hash table (HashLevels: two dense typed arrays of prices and lots, a removal
// moving the last level into the hole, found through open addressing, load factor at most 1/2,
// deletion by backward shift so no tombstones, Fibonacci hashing of both 32-bit halves as
// engine/id-table.ts does). Keeps true: every level whose price is in [base, base + WINDOW) is in
// the window, every other one in the table, never both. The window is placed by its owner, who
// knows where the touch is: follow(price) centres it there when the price has left its middle
// half (the mirror calls it with every print's price), and the first level set in an empty map
// centres it too; a move takes the window's levels that fall outside into the table and the
// table's that fall inside into the window. Operations never move it (levels spread wider than
// the window, an L2 book's, would move it back and forth). Nothing is allocated per operation.
// Keys are non-negative integers (ticks); lots are non-negative numbers. keys() lists the prices
// in ascending order (a snapshot: the map may change while the caller walks it); keysInto() fills
// a caller's array, unordered, without allocating.

/** Ticks the window spans. */
export const WINDOW = 128;

export class LevelMap {
  /** Lots of the level at base + i, -1 where there is none. */
  private readonly win = new Float64Array(WINDOW).fill(-1);
  private base = 0;
  private winCount = 0;
  private readonly far: HashLevels;

  constructor(capacity = 64) {
    this.far = new HashLevels(capacity);
  }

  get size(): number {
    return this.winCount + this.far.size;
  }

  get(price: number): number | undefined {
    const i = price - this.base;
    if (i >= 0 && i < WINDOW) {
      const v = this.win[i];
      return v < 0 ? undefined : v;
    }
    return this.far.get(price);
  }

  has(price: number): boolean {
    const i = price - this.base;
    if (i >= 0 && i < WINDOW) return this.win[i] >= 0;
    return this.far.has(price);
  }

  set(price: number, lots: number): void {
    if (!Number.isSafeInteger(price) || price < 0)
      throw new RangeError(`a level's price is a non-negative integer of ticks, got ${price}`);
    if (!(lots >= 0)) throw new RangeError(`a level's lots are a non-negative number, got ${lots}`);
    if (this.winCount === 0 && this.far.size === 0) this.moveTo(price);
    const i = price - this.base;
    if (i >= 0 && i < WINDOW) {
      if (this.win[i] < 0) this.winCount++;
      this.win[i] = lots;
      return;
    }
    this.far.set(price, lots);
  }

  delete(price: number): boolean {
    const i = price - this.base;
    if (i >= 0 && i < WINDOW) {
      if (this.win[i] < 0) return false;
      this.win[i] = -1;
      this.winCount--;
      return true;
    }
    return this.far.delete(price);
  }

  clear(): void {
    this.win.fill(-1);
    this.winCount = 0;
    this.far.clear();
  }

  /** Writes the prices into `out` from index 0, in no particular order; returns how many (no allocation once `out` is long enough). */
  keysInto(out: number[]): number {
    let n = 0;
    if (this.winCount > 0) for (let i = 0; i < WINDOW; i++) if (this.win[i] >= 0) out[n++] = this.base + i;
    const far = this.far.size;
    if (far === 0) return n;
    // the table's prices after the window's (its keysInto fills from 0: through the scratch)
    const rest = this.scratch;
    this.far.keysInto(rest);
    for (let k = 0; k < far; k++) out[n++] = rest[k];
    return n;
  }

  private readonly scratch: number[] = [];

  /** The prices, ascending (a snapshot). */
  keys(): number[] {
    const out: number[] = [];
    const n = this.keysInto(out);
    out.length = n;
    return out.sort((a, b) => a - b);
  }

  /**
   * The prices in use are around `price` now (the touch): the window is centred there when the
   * price is outside its middle half (so a touch that walks moves it every WINDOW / 4 ticks at most).
   */
  follow(price: number): void {
    const i = price - this.base;
    if (i >= WINDOW / 4 && i < (3 * WINDOW) / 4) return;
    if (Number.isSafeInteger(price) && price >= 0) this.moveTo(price);
  }

  /** Centres the window at `price`: the levels that leave it go to the table, the table's inside it come in. */
  private moveTo(price: number): void {
    const base = Math.max(0, price - WINDOW / 2);
    if (base === this.base) return;
    const win = this.win;
    const old = this.base;
    // the window's levels, out to the table (those that stay come back below)
    if (this.winCount > 0)
      for (let i = 0; i < WINDOW; i++) {
        if (win[i] >= 0) {
          this.far.set(old + i, win[i]);
          win[i] = -1;
        }
      }
    this.winCount = 0;
    this.base = base;
    // the table's levels inside the new window, in
    const keys = this.scratch;
    const n = this.far.keysInto(keys);
    for (let k = 0; k < n; k++) {
      const p = keys[k];
      const i = p - base;
      if (i >= 0 && i < WINDOW) {
        win[i] = this.far.get(p)!;
        this.far.delete(p);
        this.winCount++;
      }
    }
  }
}

const TWO_POW_32 = 4_294_967_296;

/** The levels outside the window: an integer hash table (the map before the window, unchanged). */
class HashLevels {
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
