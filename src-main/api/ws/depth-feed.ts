// Per-symbol windowing of the book's level changes for `depth_update@{symbol}`, and the
// wire form of depth levels shared with `GET /fapi/v1/depth` and `depth@{symbol},{level}`.
//
// Invariants (the spec's accurate-mode rules depend on them):
// - The book's update id rises by exactly 1 per level change, and every change is announced
//   synchronously by the exchange ('level' events). A window started at id S sees S+1, S+2, ...
//   with no hole, so consecutive windows are contiguous: the next U is the previous u + 1. A
//   replay raises the book's id to the recording's between changes: U stays the previous u + 1,
//   u is the book's id at the take, `first` the first change's id (the Binance dialect's U).
// - A window keeps, per changed level, only its last total: applying the window's pairs to
//   the book at U-1 gives exactly the book at u (a level changed and restored shows its
//   total again, a level added and removed shows 0).
// - A window is only recorded while someone listens (start()/stop()); while stopped, ids go by
//   unrecorded and the next start() continues from the book's id at that moment.
//
// Limits: a window holds one entry per distinct level changed in it, in a table it keeps from one
// window to the next (LevelTable: it grows to the busiest window's size and allocates nothing
// after that); the hub takes it every 100 ms, so memory follows the book's change rate, not its size.
import type { Level } from '../../trading/pair-state.ts';
import type { SymbolMath } from '../../risk/money.ts';
import type { PriceLevel } from '../../../src-shared/types.ts';

/** `[price, qty]` decimal-string pairs, in the order given. */
export function toPriceLevels(math: SymbolMath, levels: readonly Level[]): PriceLevel[] {
  const out: PriceLevel[] = new Array(levels.length);
  for (let i = 0; i < levels.length; i++) out[i] = [math.formatPrice(levels[i][0]), math.formatQty(levels[i][1])];
  return out;
}

/** One closed window: update ids U..u (contiguous), the final totals of the levels it changed. */
export interface DepthWindowTake {
  /** First update id in the window: the previous window's u + 1. */
  readonly U: number;
  /** Id of the window's first change (above U when the book's id was raised before it: a replay's recording ids). */
  readonly first: number;
  /** Last update id in the window. */
  readonly u: number;
  /** The id this window continues from (U - 1): the previous window's u. */
  readonly pu: number;
  /** Changed bid levels, best (highest) first, [ticks, final lots]; 0 lots = removed. */
  readonly bids: Level[];
  /** Changed ask levels, best (lowest) first. */
  readonly asks: Level[];
}

export class DepthWindow {
  private active = false;
  /** Last id already handed out (or the book's id when recording started). */
  private prevU = 0;
  private firstU = 0;
  private lastU = 0;
  private readonly bids = new LevelTable();
  private readonly asks = new LevelTable();

  get recording(): boolean {
    return this.active;
  }

  /** Starts recording after `bookUpdateId` (the book's current id). No-op when recording. */
  start(bookUpdateId: number): void {
    if (this.active) return;
    this.active = true;
    this.prevU = bookUpdateId;
    this.firstU = 0;
    this.lastU = 0;
    this.bids.clear();
    this.asks.clear();
  }

  stop(): void {
    this.active = false;
    this.bids.clear();
    this.asks.clear();
  }

  /** One level change of the book (side 1 bid, 2 ask). */
  add(updateId: number, side: number, priceTicks: number, totalLots: number): void {
    if (!this.active || updateId <= this.prevU) return;
    if (this.firstU === 0) this.firstU = updateId;
    this.lastU = updateId;
    (side === 1 ? this.bids : this.asks).set(priceTicks, totalLots);
  }

  /** True when changes are waiting. */
  get pending(): boolean {
    return this.firstU !== 0;
  }

  /**
   * Closes the current window and returns it, or null when nothing changed since the last take.
   * `bookUpdateId`: the book's id now, the window's u when the id was raised past its last change.
   */
  take(bookUpdateId = 0): DepthWindowTake | null {
    if (!this.active || this.firstU === 0) return null;
    this.lastU = Math.max(this.lastU, bookUpdateId);
    const out: DepthWindowTake = {
      U: this.prevU + 1,
      first: this.firstU,
      u: this.lastU,
      pu: this.prevU,
      bids: this.bids.sorted(true),
      asks: this.asks.sorted(false),
    };
    this.prevU = this.lastU;
    this.firstU = 0;
    this.lastU = 0;
    this.bids.clear();
    this.asks.clear();
    return out;
  }
}

/**
 * The levels one window changed: price ticks -> last total lots, cleared by take(). Open
 * addressing over typed arrays that stay from one window to the next (a slot belongs to the
 * current window when its stamp is the window's), so a busy book's hundreds of changed levels
 * every 100 ms allocate nothing once the table has grown to them; a Map cleared per window
 * allocated its tables anew each time, and at a simulated market's pace they outlived the young
 * generation. Holds at most half its slots; grows by doubling.
 */
export class LevelTable {
  private keys = new Float64Array(64);
  private lots = new Float64Array(64);
  private stamps = new Uint32Array(64);
  /** The slots in use, in the order first set. */
  private used = new Int32Array(32);
  private stamp = 1;
  private n = 0;

  get size(): number {
    return this.n;
  }

  /** Room for the entries, in slots (for tests: it stays once grown). */
  get capacity(): number {
    return this.keys.length;
  }

  set(ticks: number, total: number): void {
    const mask = this.keys.length - 1;
    let i = hash(ticks) & mask;
    while (this.stamps[i] === this.stamp) {
      if (this.keys[i] === ticks) {
        this.lots[i] = total;
        return;
      }
      i = (i + 1) & mask;
    }
    if (this.n >= this.used.length) {
      this.grow();
      this.set(ticks, total);
      return;
    }
    this.stamps[i] = this.stamp;
    this.keys[i] = ticks;
    this.lots[i] = total;
    this.used[this.n++] = i;
  }

  clear(): void {
    this.n = 0;
    if (++this.stamp === 0xffffffff) {
      this.stamps.fill(0);
      this.stamp = 1;
    }
  }

  /** The entries as [ticks, lots], by price: descending (bids) or ascending. */
  sorted(desc: boolean): Level[] {
    const out: Level[] = new Array(this.n);
    for (let k = 0; k < this.n; k++) out[k] = [this.keys[this.used[k]], this.lots[this.used[k]]];
    if (desc) out.sort((x, y) => y[0] - x[0]);
    else out.sort((x, y) => x[0] - y[0]);
    return out;
  }

  private grow(): void {
    const { keys, lots, used, n } = this;
    const size = keys.length * 2;
    this.keys = new Float64Array(size);
    this.lots = new Float64Array(size);
    this.stamps = new Uint32Array(size);
    this.used = new Int32Array(size / 2);
    this.stamp = 1;
    this.n = 0;
    for (let k = 0; k < n; k++) this.set(keys[used[k]], lots[used[k]]);
  }
}

/** Integer ticks to a slot number (an odd multiplier maps consecutive ticks, a book's levels, to distinct low bits). */
function hash(ticks: number): number {
  return Math.imul((ticks >>> 0) ^ Math.floor(ticks / 4294967296), 0x9e3779b1) >>> 0;
}
