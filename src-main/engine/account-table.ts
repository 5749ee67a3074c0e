// Accounts that have (or had) orders on this book: id -> slot, each slot heading the list of
// the account's resting orders in the order they (re)entered the book, with per-side counts.
//
// Invariants: an account's list holds exactly its live orders; countBuy/countSell match the
// list. Slots are kept for the book's lifetime (the set of accounts on a venue is bounded).
// Account ids below DIRECT_LIMIT (database-style ids) are found through a direct array, larger
// ones through the hash table; either way no allocation after the first order.

import { IdTable } from './id-table.ts';
import { grownF64, grownI32 } from './typed-arrays.ts';

const DIRECT_LIMIT = 1 << 20;

export class AccountTable {
  private readonly index = new IdTable(64);
  /** direct[account] = slot + 1 (0: none) for account < DIRECT_LIMIT. */
  private direct: Int32Array = new Int32Array(1024);
  id: Float64Array;
  head: Int32Array;
  tail: Int32Array;
  countBuy: Int32Array;
  countSell: Int32Array;
  private used = 0;

  constructor() {
    const cap = 64;
    this.id = new Float64Array(cap);
    this.head = new Int32Array(cap);
    this.tail = new Int32Array(cap);
    this.countBuy = new Int32Array(cap);
    this.countSell = new Int32Array(cap);
  }

  /** Slot of the account, or -1 if it never had an order here. */
  find(account: number): number {
    if (account < this.direct.length) return this.direct[account] - 1;
    return account < DIRECT_LIMIT ? -1 : this.index.get(account);
  }

  /** Slot of the account, created on first use; re-read the arrays afterwards. */
  slotOf(account: number): number {
    const s = this.find(account);
    if (s !== -1) return s;
    if (this.used === this.id.length) this.grow();
    const n = this.used++;
    this.id[n] = account;
    this.head[n] = -1;
    this.tail[n] = -1;
    this.countBuy[n] = 0;
    this.countSell[n] = 0;
    if (account < DIRECT_LIMIT) {
      if (account >= this.direct.length) {
        let cap = this.direct.length * 2;
        while (cap <= account) cap *= 2;
        this.direct = grownI32(this.direct, cap);
      }
      this.direct[account] = n + 1;
    } else {
      this.index.set(account, n);
    }
    return n;
  }

  private grow(): void {
    const cap = this.id.length * 2;
    this.id = grownF64(this.id, cap);
    this.head = grownI32(this.head, cap);
    this.tail = grownI32(this.tail, cap);
    this.countBuy = grownI32(this.countBuy, cap);
    this.countSell = grownI32(this.countSell, cap);
  }
}
