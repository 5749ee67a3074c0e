// The resting orders of one house liquidity account on one pair (the touch crowd, the deep book),
// and the one place those processes talk to the exchange: GTC bot orders (no margin, not stored,
// need_cache false) and their cancels.
//
// Invariants: `orders` holds exactly the account's orders that this object placed and has not
// seen leave the book, and byPrice the same orders by price; sync(lo, hi) drops the ones that
// filled (and counts the lots filled).
// A house order leaves the book only by a fill (at its own price) or by our cancel, so sync looks
// only at orders priced inside the range the pair traded at since the last sync (the simulator
// tracks it): a step without trades costs nothing. Rejections are counted, never thrown.
import { ApiError } from '../../../src-shared/errors.ts';
import { OrderStatus } from '../../../src-shared/enums.ts';
import { IdMap } from '../../core/id-map.ts';
import type { Command, Exchange } from '../../trading/exchange.ts';
import type { PairState } from '../../trading/pair-state.ts';
import type { PairLimits } from './order-sizing.ts';
import type { Rng } from './rng.ts';

/** What each order-flow process of one pair works with: the exchange, the pair, its limits, its own random stream and engine account. */
export interface Party {
  ex: Exchange;
  pair: PairState;
  limits: PairLimits;
  rng: Rng;
  account: number;
}

export interface HouseOrder {
  id: number;
  side: 1 | 2;
  price: number;
  lots: number;
  /** Market time it was placed (ms). */
  placed: number;
}

export interface HouseStats {
  placed: number;
  cancelled: number;
  rejected: number;
  filledLots: number;
}

/**
 * Decimal strings of prices and quantities, per pair: the house sends tens of thousands of orders
 * a market minute at a few hundred distinct prices and sizes, and formatting each one anew was
 * about 7 % of the simulation's CPU. A direct-mapped cache of CACHE_SLOTS entries a pair and kind
 * (a key's slot is its low bits; a new key takes the slot over): fixed size, and a look-up
 * allocates nothing (a Map that grows and starts over allocates its tables again and again, and
 * at 100x they outlive the young generation).
 */
const CACHE_SLOTS = 4096;
interface TextCache {
  keys: Float64Array;
  texts: string[];
}
const priceText = new WeakMap<PairState, TextCache>();
const qtyText = new WeakMap<PairState, TextCache>();

function text(pair: PairState, units: number, isPrice: boolean): string {
  const maps = isPrice ? priceText : qtyText;
  let c = maps.get(pair);
  if (c === undefined) {
    c = { keys: new Float64Array(CACHE_SLOTS).fill(-1), texts: new Array<string>(CACHE_SLOTS).fill('') };
    maps.set(pair, c);
  }
  const slot = units & (CACHE_SLOTS - 1);
  if (c.keys[slot] === units) return c.texts[slot];
  const t = isPrice ? pair.math.formatPrice(units) : pair.math.formatQty(units);
  c.keys[slot] = units;
  c.texts[slot] = t;
  return t;
}

/**
 * The command of a house GTC limit order opening on `side` at `price` ticks for `lots`, for
 * `account` (no margin, not stored, not cached): what the house liquidity and the market maker send.
 */
export function houseLimit(
  pair: PairState,
  side: 1 | 2,
  price: number,
  lots: number,
  account: number,
): Command & { kind: 'placeBot' } {
  return {
    kind: 'placeBot',
    input: {
      symbol: pair.row.symbol,
      side,
      position_side: side,
      position_action: 1,
      type: 1,
      price: text(pair, price, true),
      qty: text(pair, lots, false),
      time_in_force: 1,
      need_cache: false,
    },
    engineAccount: account,
  };
}

/** A house order with its links in the list of its price's orders (oldest first). */
interface Linked extends HouseOrder {
  /** The next order at this price, null for the newest. */
  nextAt: Linked | null;
  /** The previous order at this price; the oldest's is the newest (so appending is O(1)). */
  prevAt: Linked | null;
}

export class HouseOrders {
  /** The open orders by id, in the order placed (read-only outside this class). */
  readonly orders = new IdMap<HouseOrder>(256);
  /**
   * The same orders by price (ticks), each price's oldest order heading a list linked through the
   * orders themselves: sync looks at the few prices traded at, not at every order, and a price
   * quoted anew allocates nothing but its map entry (the market moves through thousands a minute).
   */
  private readonly byPrice = new Map<number, Linked>();
  readonly stats: HouseStats = { placed: 0, cancelled: 0, rejected: 0, filledLots: 0 };
  private readonly ex: Exchange;
  private readonly pair: PairState;
  private readonly account: number;

  constructor(ex: Exchange, pair: PairState, account: number) {
    this.ex = ex;
    this.pair = pair;
    this.account = account;
  }

  /** Drops filled orders priced from lo to hi (ticks; the range traded at); returns the lots filled. */
  sync(lo: number, hi: number): number {
    if (!(lo <= hi)) return 0;
    let filled = 0;
    if (hi - lo < this.byPrice.size) {
      for (let p = lo; p <= hi; p++) {
        for (let o = this.byPrice.get(p) ?? null, next: Linked | null; o !== null; o = next) {
          next = o.nextAt; // syncOne may unlink o
          filled += this.syncOne(o);
        }
      }
    } else {
      for (const o of this.orders.values()) if (o.price >= lo && o.price <= hi) filled += this.syncOne(o);
    }
    this.stats.filledLots += filled;
    return filled;
  }

  /** Lots of o filled since it was last looked at; drops it when it has left the book. */
  private syncOne(o: HouseOrder): number {
    const v = this.pair.book.getOrder(o.id);
    const rem = v === null ? 0 : v.remainingLots;
    let filled = 0;
    if (rem < o.lots) {
      filled = o.lots - rem;
      o.lots = rem;
    }
    if (rem === 0) this.forget(o);
    return filled;
  }

  private remember(o: Linked): void {
    this.orders.set(o.id, o);
    const head = this.byPrice.get(o.price);
    if (head === undefined) {
      o.prevAt = o;
      this.byPrice.set(o.price, o);
    } else {
      const tail = head.prevAt!;
      tail.nextAt = o;
      o.prevAt = tail;
      head.prevAt = o;
    }
  }

  private forget(o: HouseOrder): void {
    if (!this.orders.delete(o.id)) return;
    const l = o as Linked;
    const head = this.byPrice.get(l.price)!;
    const next = l.nextAt;
    if (l === head) {
      if (next === null) this.byPrice.delete(l.price);
      else {
        next.prevAt = l.prevAt;
        this.byPrice.set(l.price, next);
      }
    } else {
      const prev = l.prevAt!;
      prev.nextAt = next;
      if (next !== null) next.prevAt = prev;
      else head.prevAt = prev;
    }
    l.nextAt = null;
    l.prevAt = null;
  }

  /** The oldest open order at `price` (ticks), or null; newerThan() walks to the newest. */
  oldestAt(price: number): HouseOrder | null {
    return this.byPrice.get(price) ?? null;
  }

  /** The newest open order at `price` (ticks), or null; olderThan() walks back to the oldest. */
  newestAt(price: number): HouseOrder | null {
    return this.byPrice.get(price)?.prevAt ?? null;
  }

  /** The open order placed at o's price just after o, or null. */
  newerThan(o: HouseOrder): HouseOrder | null {
    return (o as Linked).nextAt;
  }

  /** The open order placed at o's price just before o, or null (o must be open). */
  olderThan(o: HouseOrder): HouseOrder | null {
    const l = o as Linked;
    return this.byPrice.get(l.price) === l ? null : l.prevAt;
  }

  /** Places a GTC limit order; returns it, or null when the exchange refused it or it traded away at once. */
  place(side: 1 | 2, price: number, lots: number, time: number): HouseOrder | null {
    const math = this.pair.math;
    let r;
    try {
      r = this.ex.execute(houseLimit(this.pair, side, price, lots, this.account));
    } catch (err) {
      if (!(err instanceof ApiError)) throw err; // the exchange's refusal is counted; anything else is a bug
      this.stats.rejected++;
      return null;
    }
    this.stats.placed++;
    if (r.status !== OrderStatus.NEW && r.status !== OrderStatus.PARTIALLY_FILLED) return null;
    const o: Linked = { id: Number(r.order_id), side, price, lots, placed: time, nextAt: null, prevAt: null };
    if (r.status === OrderStatus.PARTIALLY_FILLED) {
      const f = math.qty.toUnits(r.filled_qty);
      o.lots = lots - (f.ok ? f.value : 0);
    }
    this.remember(o);
    return o;
  }

  cancel(o: HouseOrder): void {
    this.forget(o);
    if (this.pair.book.getOrder(o.id) === null) return;
    try {
      this.ex.execute({ kind: 'cancelBot', symbol: this.pair.row.symbol, orderId: o.id });
      this.stats.cancelled++;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err; // the exchange's refusal is counted; anything else is a bug
      this.stats.rejected++;
    }
  }

  cancelAll(): void {
    for (const o of [...this.orders.values()]) this.cancel(o);
  }
}
