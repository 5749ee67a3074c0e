// Price levels as struct-of-arrays slots with a free list.
//
// Invariants: a live level holds a FIFO of order slots (head..tail, linked through the order
// pool), `count` orders and `total` = the sum of their remaining lots. A level may sit in its
// side's ladder with count 0 (lazy removal, see price-ladder.ts). `dirty`/`before` record the
// total a level had when the current command first touched it; slots are only freed once the
// command's level changes are reported, so a dirty slot is never reused within a command.
// `inLadder` is 1 exactly while the level sits in its side's ladder (it validates ladder caches).

import { grownF64, grownI32, grownU8 } from './typed-arrays.ts';

export class LevelPool {
  capacity: number;
  price: Int32Array;
  side: Uint8Array;
  total: Float64Array;
  head: Int32Array;
  tail: Int32Array;
  count: Int32Array;
  dirty: Uint8Array;
  before: Float64Array;
  inLadder: Uint8Array;
  private freeHead = -1;
  private used = 0;

  constructor(initialCapacity = 256) {
    const cap = Math.max(16, initialCapacity | 0);
    this.capacity = cap;
    this.price = new Int32Array(cap);
    this.side = new Uint8Array(cap);
    this.total = new Float64Array(cap);
    this.head = new Int32Array(cap);
    this.tail = new Int32Array(cap);
    this.count = new Int32Array(cap);
    this.dirty = new Uint8Array(cap);
    this.before = new Float64Array(cap);
    this.inLadder = new Uint8Array(cap);
  }

  /** A fresh empty level; re-read the arrays afterwards (they may have grown). */
  alloc(price: number, side: number): number {
    let s = this.freeHead;
    if (s !== -1) {
      this.freeHead = this.head[s];
    } else {
      if (this.used === this.capacity) this.grow();
      s = this.used++;
    }
    this.price[s] = price;
    this.side[s] = side;
    this.total[s] = 0;
    this.head[s] = -1;
    this.tail[s] = -1;
    this.count[s] = 0;
    this.dirty[s] = 0;
    this.inLadder[s] = 0;
    return s;
  }

  free(slot: number): void {
    this.head[slot] = this.freeHead;
    this.freeHead = slot;
  }

  private grow(): void {
    const cap = this.capacity * 2;
    this.capacity = cap;
    this.price = grownI32(this.price, cap);
    this.side = grownU8(this.side, cap);
    this.total = grownF64(this.total, cap);
    this.head = grownI32(this.head, cap);
    this.tail = grownI32(this.tail, cap);
    this.count = grownI32(this.count, cap);
    this.dirty = grownU8(this.dirty, cap);
    this.before = grownF64(this.before, cap);
    this.inLadder = grownU8(this.inLadder, cap);
  }
}
