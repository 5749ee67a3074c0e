// The synthetic book of a replay without L2 data (trades only, or klines only): docs/replay.md
// "Market". After every print at price P the book account quotes `LEVELS` levels a side around
// it with a one-tick spread: after a buy print the best ask is P and the best bid P - 1 tick,
// after a sell print the best bid is P and the best ask P + 1 tick; levels one tick apart. Every
// level is quoted at SIZE_FACTOR x the running mean print size (an exponential mean over about the last
// 100 prints), at least one lot, the size following that mean only once it has drifted by half.
// Levels deeper than the LEVELS nearest stay as they were while they are within KEEP_LEVELS of
// the touch (the book keeps LEVELS to KEEP_LEVELS levels a side, as a real book keeps its deep
// orders while the price moves a tick back and forth), and go once they are further.
// The ladder moves only when the touch moves (only the levels that change are touched). A level
// is quoted at the level size when it joins the ladder; a print takes from it and it keeps what is
// left, as a maker's quote does until it is refreshed: it is refilled to the level size when a
// print empties it (the spread stays one tick), and a print that needs more than it shows tops it
// up with its refill (prepare() tells the mirror the size), so after that print it shows the level
// size again. The prints themselves never depend on it: the mirror makes sure the print's size is
// there at the print's price (book-mirror.ts trade()).
import type { PairState } from '../trading/pair-state.ts';
import type { BookMirror } from './book-mirror.ts';

export const LEVELS = 10;
export const SIZE_FACTOR = 2;
/** Levels a side kept at most: deeper than this from the touch a level goes. */
export const KEEP_LEVELS = 2 * LEVELS;
const ALPHA = 0.01;

/** Sorts out[0 .. n-1] ascending in place (insertion sort: a few levels at a time). */
function sortAscending(out: number[], n: number): void {
  for (let i = 1; i < n; i++) {
    const v = out[i];
    let j = i - 1;
    while (j >= 0 && out[j] > v) {
      out[j + 1] = out[j];
      j--;
    }
    out[j + 1] = v;
  }
}

export class SyntheticBook {
  /** Scratch of after(): a side's prices. */
  private readonly scratch: number[] = [];
  private readonly mirror: BookMirror;
  private readonly pair: PairState;
  private mean = 0;
  private bid = 0;
  private ask = 0;
  private size = 0;
  /**
   * The historical levels are all on the current ladder (bid, ask): set by every ladder move,
   * kept by the prints (they only remove levels or refill their own), lost when a print left the
   * ladder as it was (a bid below one tick).
   */
  private onLadder = false;

  constructor(mirror: BookMirror, pair: PairState) {
    this.mirror = mirror;
    this.pair = pair;
    // its levels are one order of the book account each while nobody else has an order there
    mirror.direct.on = true;
  }

  /** The size the next print's level holds after it: the mean updated with the print (call once per print, before after()). */
  private resize = false;
  private nextSize = 0;

  /**
   * Takes a print of `lots` into the running mean; returns the size every level will hold after
   * it (the size of the level the print takes from, which the mirror tops up to when needed).
   */
  prepare(lots: number): number {
    this.mean = this.mean === 0 ? lots : this.mean + ALPHA * (lots - this.mean);
    const want = Math.max(1, Math.round(SIZE_FACTOR * this.mean));
    // the level size follows the mean only when it has drifted by half (no churn of every level)
    this.resize = Math.abs(want - this.size) * 2 > this.size;
    this.nextSize = this.resize ? want : this.size;
    return this.nextSize;
  }

  after(takerSide: 1 | 2, price: number): void {
    const bid = takerSide === 1 ? price - 1 : price;
    const ask = takerSide === 1 ? price : price + 1;
    if (bid < 1) {
      this.onLadder = false;
      return;
    }
    const resize = this.resize;
    if (bid === this.bid && ask === this.ask && !resize) {
      // the level the print took from keeps what is left; refilled only once emptied
      const side = takerSide === 1 ? 2 : 1;
      if (!this.mirror.hist[side - 1].has(price)) this.mirror.setLevel(side, price, this.size);
      return;
    }
    const oldBid = this.bid;
    const oldAsk = this.ask;
    this.bid = bid;
    this.ask = ask;
    this.size = this.nextSize;
    // only the levels that change: removals first (nothing crosses), then the new ones, best
    // first; the ladder is bid - i and ask + i for i < LEVELS (no bid below 1 tick), levels down
    // to bid - KEEP_LEVELS + 1 and up to ask + KEEP_LEVELS - 1 stay
    const size = this.size;
    const mirror = this.mirror;
    const hb = mirror.hist[0];
    const ha = mirror.hist[1];
    const lowBid = Math.max(1, bid - LEVELS + 1);
    const keepBid = bid - KEEP_LEVELS + 1;
    const keepAsk = ask + KEEP_LEVELS - 1;
    if (
      this.onLadder &&
      Math.abs(bid - oldBid) <= 1 &&
      Math.abs(ask - oldAsk) <= 1 &&
      bid >= KEEP_LEVELS &&
      oldBid >= KEEP_LEVELS
    ) {
      // the common move of one tick: the historical levels are within the previous window (the
      // print in between only removed some, or refilled its own level, which is in both), so at
      // most one level a side is outside the new one: above the new bid or below its window
      const offBid = bid < oldBid ? oldBid : bid > oldBid ? oldBid - KEEP_LEVELS + 1 : 0;
      if (offBid !== 0 && hb.has(offBid)) mirror.setLevel(1, offBid, 0);
      const offAsk = ask > oldAsk ? oldAsk : ask < oldAsk ? oldAsk + KEEP_LEVELS - 1 : 0;
      if (offAsk !== 0 && ha.has(offAsk)) mirror.setLevel(2, offAsk, 0);
      if (!resize) {
        // and the LEVELS nearest were on the old ladder: what can differ on the new one is its
        // touch (new, or emptied: one the print's stale levels went from; a touch a print took
        // from keeps what it left) and its deepest level (new to the nearest: absent, or kept at
        // an old size)
        if (!hb.has(bid)) mirror.setLevel(1, bid, size);
        if (hb.get(lowBid) !== size) mirror.setLevel(1, lowBid, size);
        if (!ha.has(ask)) mirror.setLevel(2, ask, size);
        if (ha.get(ask + LEVELS - 1) !== size) mirror.setLevel(2, ask + LEVELS - 1, size);
        this.onLadder = true;
        return;
      }
    } else if (this.onLadder) {
      // every level is within the old window (bid - KEEP_LEVELS + 1 .. bid, ask .. ask + KEEP_LEVELS
      // - 1): those outside the new one go, lowest price first
      const lowEnd = Math.min(keepBid, oldBid + 1);
      for (let p = oldBid - KEEP_LEVELS + 1; p < lowEnd; p++) if (hb.has(p)) mirror.setLevel(1, p, 0);
      for (let p = Math.max(bid + 1, oldBid - KEEP_LEVELS + 1); p <= oldBid; p++)
        if (hb.has(p)) mirror.setLevel(1, p, 0);
      const highStart = Math.max(keepAsk + 1, oldAsk);
      for (let p = oldAsk; p <= Math.min(ask - 1, oldAsk + KEEP_LEVELS - 1); p++)
        if (ha.has(p)) mirror.setLevel(2, p, 0);
      for (let p = Math.max(highStart, ask); p <= oldAsk + KEEP_LEVELS - 1; p++)
        if (ha.has(p)) mirror.setLevel(2, p, 0);
    } else {
      // the levels out of the window go, lowest price first (read before any goes)
      const out = this.scratch;
      let n = hb.keysInto(out);
      let m = 0;
      for (let i = 0; i < n; i++) if (out[i] > bid || out[i] < keepBid) out[m++] = out[i];
      sortAscending(out, m);
      for (let i = 0; i < m; i++) mirror.setLevel(1, out[i], 0);
      n = ha.keysInto(out);
      m = 0;
      for (let i = 0; i < n; i++) if (out[i] < ask || out[i] > keepAsk) out[m++] = out[i];
      sortAscending(out, m);
      for (let i = 0; i < m; i++) mirror.setLevel(2, out[i], 0);
    }
    this.onLadder = true;
    for (let p = bid; p >= lowBid; p--) if (hb.get(p) !== size) mirror.setLevel(1, p, size);
    for (let i = 0; i < LEVELS; i++) if (ha.get(ask + i) !== size) mirror.setLevel(2, ask + i, size);
    void this.pair;
  }
}
