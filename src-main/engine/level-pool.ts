// Price levels: one 64-byte record per slot (a cache line), with a free list.
//
// Layout of slot L, seen through two views of one buffer (like order-pool.ts):
//   f64[8L + LF_*]: total (sum of the orders' remaining lots), before (the total when the
//                   current command first touched the level)
//   i32[16L + LI_*]: price, head/tail (the FIFO of order slots), count, side, dirty, inLadder
// One record per level, rather than an array per field, means one typed array to reach every
// field of a level, and one cache line per level touched.
//
// Invariants: a live level holds a FIFO of order slots (head..tail, linked through the order
// pool), `count` orders and `total` = the sum of their remaining lots. A level may sit in its
// side's ladder with count 0 (lazy removal, see price-ladder.ts). `dirty`/`before` record the
// total a level had when the current command first touched it; slots are only freed once the
// command's level changes are reported, so a dirty slot is never reused within a command.
// `inLadder` is 1 exactly while the level sits in its side's ladder (it validates ladder caches).
// The views are replaced when the pool doubles: callers re-read f64/i32 after alloc(), never
// across it. -1 is the null link; a free slot's head links the free list.

const LF_TOTAL = 0;
const LF_BEFORE = 1;
const LI_PRICE = 4;
const LI_HEAD = 5;
const LI_TAIL = 6;
const LI_COUNT = 7;
const LI_SIDE = 8;
const LI_DIRTY = 9;
const LI_IN_LADDER = 10;

/** The record layout, for the book (which destructures it into module-level constants, see order-pool.ts). */
export const LevelLayout = {
  LF_TOTAL,
  LF_BEFORE,
  LI_PRICE,
  LI_HEAD,
  LI_TAIL,
  LI_COUNT,
  LI_SIDE,
  LI_DIRTY,
  LI_IN_LADDER,
} as const;

const BYTES_PER_LEVEL = 64;

export class LevelPool {
  capacity: number;
  f64: Float64Array;
  i32: Int32Array;
  private freeHead = -1;
  private used = 0;

  constructor(initialCapacity = 256) {
    const cap = Math.max(16, initialCapacity | 0);
    this.capacity = cap;
    const buf = new ArrayBuffer(cap * BYTES_PER_LEVEL);
    this.f64 = new Float64Array(buf);
    this.i32 = new Int32Array(buf);
  }

  /** A fresh empty level; re-read the views afterwards (they may have grown). */
  alloc(price: number, side: number): number {
    let s = this.freeHead;
    if (s !== -1) {
      this.freeHead = this.i32[(s << 4) + LI_HEAD];
    } else {
      if (this.used === this.capacity) this.grow();
      s = this.used++;
    }
    const I = this.i32;
    const ib = s << 4;
    this.f64[(s << 3) + LF_TOTAL] = 0;
    I[ib + LI_PRICE] = price;
    I[ib + LI_SIDE] = side;
    I[ib + LI_HEAD] = -1;
    I[ib + LI_TAIL] = -1;
    I[ib + LI_COUNT] = 0;
    I[ib + LI_DIRTY] = 0;
    I[ib + LI_IN_LADDER] = 0;
    return s;
  }

  free(slot: number): void {
    this.i32[(slot << 4) + LI_HEAD] = this.freeHead;
    this.freeHead = slot;
  }

  private grow(): void {
    const cap = this.capacity * 2;
    const buf = new ArrayBuffer(cap * BYTES_PER_LEVEL);
    new Uint8Array(buf).set(new Uint8Array(this.f64.buffer));
    this.capacity = cap;
    this.f64 = new Float64Array(buf);
    this.i32 = new Int32Array(buf);
  }
}
