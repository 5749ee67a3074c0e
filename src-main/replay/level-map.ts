// One side of the replay mirror's levels: price in ticks -> lots (book-mirror.ts `hist`). A print
// reads and writes a few levels, and levels come and go all the time: a Map costs a generic
// look-up and keeps filling with deleted entries. Here the engine's integer hash table
// (engine/id-table.ts: open addressing, no tombstones) maps a price to its index in two dense
// typed arrays of prices and lots; a removal moves the last level into the hole. Nothing is
// allocated per operation.
// Keys are non-negative integers (ticks); lots are numbers. keys() lists the prices in ascending
// order (a snapshot: the map may change while the caller walks it); keysInto() fills a caller's
// array, unordered, without allocating.
import { IdTable } from '../engine/id-table.ts';

export class LevelMap {
  private readonly index: IdTable;
  private prices: Float64Array;
  private lots: Float64Array;
  private count = 0;

  constructor(capacity = 64) {
    this.index = new IdTable(capacity);
    this.prices = new Float64Array(capacity);
    this.lots = new Float64Array(capacity);
  }

  get size(): number {
    return this.count;
  }

  get(price: number): number | undefined {
    const i = this.index.get(price);
    return i < 0 ? undefined : this.lots[i];
  }

  has(price: number): boolean {
    return this.index.get(price) >= 0;
  }

  set(price: number, lots: number): void {
    if (!Number.isSafeInteger(price) || price < 0)
      throw new RangeError(`a level's price is a non-negative integer of ticks, got ${price}`);
    const i = this.index.get(price);
    if (i >= 0) {
      this.lots[i] = lots;
      return;
    }
    const n = this.count;
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
    this.index.set(price, n);
    this.count = n + 1;
  }

  delete(price: number): boolean {
    const i = this.index.get(price);
    if (i < 0) return false;
    this.index.delete(price);
    const last = this.count - 1;
    if (i !== last) {
      // the last level fills the hole
      const p = this.prices[last];
      this.prices[i] = p;
      this.lots[i] = this.lots[last];
      this.index.set(p, i);
    }
    this.count = last;
    return true;
  }

  clear(): void {
    for (let i = 0; i < this.count; i++) this.index.delete(this.prices[i]);
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
}
