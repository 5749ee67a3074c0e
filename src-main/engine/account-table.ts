// Accounts that have (or had) orders on this book: id -> slot, each slot heading the list of
// the account's resting orders in the order they (re)entered the book, with per-side counts.
//
// Layout: i32[4a + A_*] holds the slot's head and tail (order slots, -1 = none) and its buy and
// sell counts, so one typed array reaches every field (as in order-pool.ts and level-pool.ts).
//
// Beside the records, per slot, what the current match took from the account's resting orders
// (reduce-only ones and others), for the book's reduce-only guard: valid only while `match[slot]`
// equals the book's current match number, so nothing is cleared between matches.
//
// Invariants: an account's list holds exactly its live orders; the counts match the list. Slots
// are kept for the book's lifetime (the set of accounts on a venue is bounded). Account ids below
// DIRECT_LIMIT (database-style ids) are found through a direct array, larger ones through the
// hash table; either way no allocation after the first order.

import { IdTable } from './id-table.ts';
import { grownF64, grownI32 } from './typed-arrays.ts';

const DIRECT_LIMIT = 1 << 20;
const A_HEAD = 0;
const A_TAIL = 1;
const A_COUNT_BUY = 2;
const A_COUNT_SELL = 3;

/** The record layout, for the book (which destructures it into module-level constants, see order-pool.ts). */
export const AccountLayout = { A_HEAD, A_TAIL, A_COUNT_BUY, A_COUNT_SELL } as const;

export class AccountTable {
  private readonly index = new IdTable(64);
  /** direct[account] = slot + 1 (0: none) for account < DIRECT_LIMIT. */
  private direct: Int32Array = new Int32Array(1024);
  /** Account id of each slot. */
  id: Float64Array;
  /** Records, 4 int32 per slot (see the layout above); re-read after slotOf(), which may grow it. */
  i32: Int32Array;
  /** The match whose takings `taken` holds for the slot (0: none yet). */
  match: Int32Array;
  /** Lots the match `match[slot]` took from the slot's reduce-only orders (2 slot) and its other orders (2 slot + 1). */
  taken: Float64Array;
  private used = 0;

  constructor() {
    const cap = 64;
    this.id = new Float64Array(cap);
    this.i32 = new Int32Array(cap * 4);
    this.match = new Int32Array(cap);
    this.taken = new Float64Array(cap * 2);
  }

  /** Number of account slots in use (slots 0 .. size-1). */
  get size(): number {
    return this.used;
  }

  /** Slot of the account, or -1 if it never had an order here. */
  find(account: number): number {
    if (account < this.direct.length) return this.direct[account] - 1;
    return account < DIRECT_LIMIT ? -1 : this.index.get(account);
  }

  /** Slot of the account, created on first use; re-read i32 afterwards. */
  slotOf(account: number): number {
    const s = this.find(account);
    if (s !== -1) return s;
    if (this.used === this.id.length) this.grow();
    const n = this.used++;
    this.id[n] = account;
    const I = this.i32;
    I[(n << 2) + A_HEAD] = -1;
    I[(n << 2) + A_TAIL] = -1;
    I[(n << 2) + A_COUNT_BUY] = 0;
    I[(n << 2) + A_COUNT_SELL] = 0;
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
    this.i32 = grownI32(this.i32, cap * 4);
    this.match = grownI32(this.match, cap);
    this.taken = grownF64(this.taken, cap * 2);
  }
}
