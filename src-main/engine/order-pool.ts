// Resting orders: one 64-byte record (a cache line) per slot, with a free list.
//
// Layout of slot n, seen through two views of one buffer:
//   f64[8n + F_*]: id, account, qty (total = filled + remaining), rem
//   i32[16n + I_*]: price, next/prev (FIFO inside the level; the head's prev is left stale
//                   because nothing reads it and a fill then need not touch the next order),
//                   level slot, accountNext/accountPrev (the account's list), account slot, meta
//   meta = side | tif << 2 | stp << 5 | flags << 8
// Touching an order costs one cache line, which is what keeps sweeps and cancels cheap once the
// book outgrows the CPU caches.
//
// Invariants: a slot is either live (linked into exactly one price level and one account list)
// or on the free list (chained through I_NEXT). Slots are reused LIFO so hot lines stay cached.
// The views are replaced when the pool doubles: callers re-read f64/i32 after alloc(), never
// across it. -1 is the null link everywhere.

const F_ID = 0;
const F_ACCOUNT = 1;
const F_QTY = 2;
const F_REM = 3;
const I_PRICE = 8;
const I_NEXT = 9;
const I_PREV = 10;
const I_LEVEL = 11;
const I_ACCOUNT_NEXT = 12;
const I_ACCOUNT_PREV = 13;
const I_ACCOUNT_SLOT = 14;
const I_META = 15;

/**
 * The record layout, for the book. Users destructure it into module-level constants: V8 folds
 * those into the code, while an imported (or exported) binding is read through a cell, with a
 * hole check, at every use (measured on the unbundled modules: about a tenth of the hot functions'
 * code; a bundle hoists them anyway).
 */
export const OrderLayout = {
  F_ID,
  F_ACCOUNT,
  F_QTY,
  F_REM,
  I_PRICE,
  I_NEXT,
  I_PREV,
  I_LEVEL,
  I_ACCOUNT_NEXT,
  I_ACCOUNT_PREV,
  I_ACCOUNT_SLOT,
  I_META,
} as const;

export const packMeta = (side: number, tif: number, stp: number, flags: number): number =>
  side | (tif << 2) | (stp << 5) | (flags << 8);
export const metaSide = (m: number): number => m & 3;
export const metaTif = (m: number): number => (m >> 2) & 7;
export const metaStp = (m: number): number => (m >> 5) & 7;
export const metaFlags = (m: number): number => m >> 8;

const BYTES_PER_ORDER = 64;

export class OrderPool {
  capacity: number;
  f64: Float64Array;
  i32: Int32Array;
  private freeHead = -1;
  private used = 0;

  constructor(initialCapacity = 1024) {
    const cap = Math.max(16, initialCapacity | 0);
    this.capacity = cap;
    const buf = new ArrayBuffer(cap * BYTES_PER_ORDER);
    this.f64 = new Float64Array(buf);
    this.i32 = new Int32Array(buf);
  }

  alloc(): number {
    const f = this.freeHead;
    if (f !== -1) {
      this.freeHead = this.i32[(f << 4) + I_NEXT];
      return f;
    }
    if (this.used === this.capacity) this.grow();
    return this.used++;
  }

  free(slot: number): void {
    this.i32[(slot << 4) + I_NEXT] = this.freeHead;
    this.freeHead = slot;
  }

  private grow(): void {
    const cap = this.capacity * 2;
    const buf = new ArrayBuffer(cap * BYTES_PER_ORDER);
    new Uint8Array(buf).set(new Uint8Array(this.f64.buffer));
    this.capacity = cap;
    this.f64 = new Float64Array(buf);
    this.i32 = new Int32Array(buf);
  }
}
