// The resting orders of one house liquidity account on one pair (the touch crowd, the deep book),
// and the one place those processes talk to the exchange: GTC house orders (no margin, not
// stored, checked as bot orders are; numbers both ways: placeHouseLimit) and their cancels.
//
// Invariants: `orders` holds exactly the account's orders that this object placed and has not
// seen leave the book, and byPrice the same orders by price; sync(lo, hi) drops the ones that
// filled (and counts the lots filled).
// A house order leaves the book only by a fill (at its own price) or by our cancel, so sync looks
// only at orders priced inside the range the pair traded at since the last sync (the simulator
// tracks it): a step without trades costs nothing. Rejections are counted, never thrown.
import { ApiError } from '../../../src-shared/errors.ts';
import { TimeInForce } from '../../../src-shared/enums.ts';
import { IdMap } from '../../core/id-map.ts';
import type { Exchange } from '../../trading/exchange.ts';
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

/** The exchange, the pair and the engine account a house process places its orders with. */
export type HouseAccount = Pick<Party, 'ex' | 'pair' | 'account'>;

/**
 * Places a GTC house order opening on `side` at `price` ticks for `lots` for engine `account` (no
 * margin, not stored, not cached: what the house liquidity and the market maker send). Checked
 * as a bot order is, with its codes (checkHouseOrder); numbers both ways, so no price or size is
 * formatted only for the exchange to parse it back (that was a fifth of the simulation's CPU).
 * Throws the exchange's ApiError when it refuses.
 */
export function placeHouseLimit(
  who: HouseAccount,
  side: 1 | 2,
  price: number,
  lots: number,
): { orderId: number; filledLots: number } {
  return who.ex.execute({
    kind: 'houseOrder',
    symbol: who.pair.row.symbol,
    account: who.account,
    side,
    priceTicks: price,
    lots,
    tif: TimeInForce.GTC,
  });
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
  private readonly who: HouseAccount;

  constructor(ex: Exchange, pair: PairState, account: number) {
    this.ex = ex;
    this.pair = pair;
    this.who = { ex, pair, account };
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
    let r;
    try {
      r = placeHouseLimit(this.who, side, price, lots);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err; // the exchange's refusal is counted; anything else is a bug
      this.stats.rejected++;
      return null;
    }
    this.stats.placed++;
    if (r.filledLots >= lots) return null;
    const o: Linked = {
      id: r.orderId,
      side,
      price,
      lots: lots - r.filledLots,
      placed: time,
      nextAt: null,
      prevAt: null,
    };
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
