// One side of LocalOrderBook: a sorted array of levels, best first, kept by binary search and
// splice. Invariants: no zero-quantity level, no two levels at the same numeric price, and a
// level tuple is replaced on change, never mutated (views handed out stay consistent).

import type { PriceLevel } from './depth-types.ts';

/** One side of the book, best first. Keys are `-price` for bids so both sides sort ascending. */
export class BookSide {
  readonly desc: boolean;
  keys: number[] = [];
  levels: PriceLevel[] = [];

  constructor(desc: boolean) {
    this.desc = desc;
  }

  /** Index of the first key >= k. */
  lowerBound(k: number): number {
    const keys = this.keys;
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid] < k) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  set(price: string, qty: string): void {
    const p = Number(price);
    const q = Number(qty);
    // A malformed pair cannot be placed anywhere; skipping it keeps the book ordered.
    if (!Number.isFinite(p) || !(q >= 0)) return;
    const k = this.desc ? -p : p;
    const i = this.lowerBound(k);
    const found = i < this.keys.length && this.keys[i] === k;
    if (q === 0) {
      if (found) {
        this.keys.splice(i, 1);
        this.levels.splice(i, 1);
      }
    } else if (found) {
      this.levels[i] = [this.levels[i][0], qty];
    } else {
      this.keys.splice(i, 0, k);
      this.levels.splice(i, 0, [price, qty]);
    }
  }

  load(levels: readonly PriceLevel[]): void {
    const rows: { k: number; level: PriceLevel }[] = [];
    for (const [price, qty] of levels) {
      const p = Number(price);
      const q = Number(qty);
      if (!Number.isFinite(p) || !(q > 0)) continue;
      rows.push({ k: this.desc ? -p : p, level: [price, qty] });
    }
    rows.sort((x, y) => x.k - y.k);
    const keys: number[] = [];
    const out: PriceLevel[] = [];
    for (const r of rows) {
      // Duplicate price in one snapshot: the later row wins, as it would as a delta.
      if (keys.length > 0 && keys[keys.length - 1] === r.k) out[out.length - 1] = r.level;
      else {
        keys.push(r.k);
        out.push(r.level);
      }
    }
    this.keys = keys;
    this.levels = out;
  }

  /** True when this side's best `other.keys.length` levels equal `other`'s levels numerically. */
  startsWith(other: BookSide): boolean {
    const n = other.keys.length;
    if (this.keys.length < n) return false;
    for (let i = 0; i < n; i++) {
      if (this.keys[i] !== other.keys[i]) return false;
      if (Number(this.levels[i][1]) !== Number(other.levels[i][1])) return false;
    }
    return true;
  }
}
