// Order id -> order slot, tuned for ids handed out by a counter: the newest ids in a
// direct-mapped ring (no hashing, cache-close), every other id in an IdTable (hash). Odd id
// patterns cost hash speed and bounded memory, never more.
//
// Invariants: an id is in at most one of ring and hash; the ring holds only ids inside
// [lo, lo + W) (other cells are 0); the hash may also hold ids the window has since reached
// (they went there while far ahead), so an empty ring cell falls back to the hash; every id in
// the hash is <= hashMax, so that fallback is free for ids newer than anything hashed;
// ids are safe integers >= 0 (id & (W-1) is exact for them: ToInt32 keeps the low 32 bits).

import { IdTable } from './id-table.ts';

/**
 * Ids in the window [lo, lo + W) live in a direct-mapped ring (cell id & (W-1) holds slot + 1,
 * 0 = none): the newest ids, which most commands touch, sit next to each other, so look-ups hit
 * cache and cost no hashing. Every other id lives in an IdTable (hash). The window slides up
 * when a new id lands in [lo + W, lo + 2W), by what that id needs plus W/16 (so a counter's ids
 * slide it once per W/16 ids, not at every id; the newest ~15/16 W ids stay direct): the cells it
 * leaves are scanned once and their live entries move to the hash, so sliding costs O(1)
 * amortized per id the window passes. An id
 * further ahead goes to the hash, unless the ring is empty, in which case the window jumps to it
 * (O(1)). So odd id patterns (random, sparse, strided) cost hash speed and bounded memory, never
 * more. On the bench's deep book (336k resting orders) this cut the mixed stream's time by about
 * a third against hashing every id (hashing scatters the hot newest ids over many megabytes).
 *
 * The window may grow (up to maxWindow, doubling): when it has handed more than W/64 live ids to
 * the hash within one window's worth of sliding, long-lived orders are common (a deep book) and each
 * would cost a hash insert and a hash delete; doubling costs one O(W) re-placement and 4 bytes per
 * id. With maxWindow == windowSize (this class's default) the window is fixed; the book's default
 * is 2^20 (see BookConfig.maxIdWindow).
 *
 */
export class OrderIndex {
  private ring: Int32Array;
  private mask: number;
  private width: number;
  private readonly maxWidth: number;
  private lo = 0;
  private inRing = 0;
  private readonly hash: IdTable;
  /** No id above this was ever put in the hash, so a new id's duplicate check needs no probe. */
  private hashMax = -1;
  /** Ids the window passed and live entries it handed to the hash, since the last growth check. */
  private slid = 0;
  private moved = 0;

  /**
   * windowSize: a power of two >= 16 (ring memory is 4 bytes per id of window); maxWindow: the
   * power of two the window may grow to (default windowSize: fixed).
   */
  constructor(windowSize: number, hashCapacity: number, maxWindow = windowSize) {
    if (!Number.isInteger(Math.log2(windowSize)) || windowSize < 16)
      throw new RangeError(`id window must be a power of two >= 16, got ${windowSize}`);
    if (!Number.isInteger(Math.log2(maxWindow)) || maxWindow < windowSize)
      throw new RangeError(`max id window must be a power of two >= the window, got ${maxWindow}`);
    this.ring = new Int32Array(windowSize);
    this.mask = windowSize - 1;
    this.width = windowSize;
    this.maxWidth = maxWindow;
    this.hash = new IdTable(hashCapacity);
  }

  /** Current window size (for tests and diagnostics). */
  get window(): number {
    return this.width;
  }

  get size(): number {
    return this.inRing + this.hash.size;
  }

  /** The slot for id, or -1. */
  get(id: number): number {
    const off = id - this.lo;
    if (off >= 0 && off < this.width) {
      const v = this.ring[id & this.mask];
      if (v !== 0) return v - 1;
    }
    return id > this.hashMax ? -1 : this.hash.get(id);
  }

  /** Insert an id that is not present. The common case (inside the window) is one store. */
  set(id: number, slot: number): void {
    const off = id - this.lo;
    if (off >= 0 && off < this.width) {
      this.ring[id & this.mask] = slot + 1;
      this.inRing++;
    } else {
      this.setOutside(id, slot, off);
    }
  }

  /**
   * An id outside the window: just ahead of it, the window slides up by a step of W/16 beyond
   * what the id needs (so sliding runs once per W/16 new ids, not once per id); far ahead with
   * the ring empty, the window jumps to it; otherwise the id goes to the hash.
   */
  private setOutside(id: number, slot: number, off: number): void {
    const w = this.width;
    if (off >= w && off < 2 * w) {
      // The lowest bottom that fits id, plus W/16 (still <= id: W >= 16, so 1 + W/16 <= W).
      this.slide(id - w + 1 + (w >> 4));
      this.ring[id & this.mask] = slot + 1;
      this.inRing++;
    } else if (off >= w && this.inRing === 0) {
      this.lo = id;
      this.ring[id & this.mask] = slot + 1;
      this.inRing++;
    } else {
      this.toHash(id, slot);
    }
  }

  private toHash(id: number, slot: number): void {
    if (id > this.hashMax) this.hashMax = id;
    this.hash.set(id, slot);
  }

  delete(id: number): boolean {
    const off = id - this.lo;
    if (off >= 0 && off < this.width) {
      const c = id & this.mask;
      if (this.ring[c] !== 0) {
        this.ring[c] = 0;
        this.inRing--;
        return true;
      }
    }
    return id > this.hashMax ? false : this.hash.delete(id);
  }

  /**
   * Remove an id known to be present. Ids above hashMax can only sit in the ring, so the common
   * case is one blind store: no load of the (often uncached) cell to test first.
   */
  deleteLive(id: number): void {
    if (id > this.hashMax) {
      this.ring[id & this.mask] = 0;
      this.inRing--;
    } else {
      this.delete(id);
    }
  }

  /** Move the window's bottom up to newLo (at most lo + W + W/16), handing live entries below it to the hash. */
  private slide(newLo: number): void {
    const ring = this.ring;
    const mask = this.mask;
    for (let id = this.lo; id < newLo && this.inRing > 0; id++) {
      const c = id & mask;
      const v = ring[c];
      if (v !== 0) {
        ring[c] = 0;
        this.inRing--;
        this.moved++;
        this.toHash(id, v - 1);
      }
    }
    this.slid += newLo - this.lo;
    this.lo = newLo;
    if (this.moved * 64 > this.width && this.width < this.maxWidth) {
      this.grow();
      this.slid = 0;
      this.moved = 0;
    } else if (this.slid >= this.width) {
      this.slid = 0;
      this.moved = 0;
    }
  }

  /** Double the window in place: same lo, every ring entry re-placed (its id is implied by its cell). */
  private grow(): void {
    const old = this.ring;
    const oldMask = this.mask;
    const width = this.width * 2;
    const ring = new Int32Array(width);
    const mask = width - 1;
    const lo = this.lo;
    for (let c = 0; c <= oldMask; c++) {
      const v = old[c];
      if (v !== 0) ring[(lo + ((c - lo) & oldMask)) & mask] = v;
    }
    this.ring = ring;
    this.mask = mask;
    this.width = width;
  }
}
