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
 * about 7 % of the simulation's CPU. Bounded: a cache that outgrows MAX_CACHED starts over.
 */
const MAX_CACHED = 8192;
const priceText = new WeakMap<PairState, Map<number, string>>();
const qtyText = new WeakMap<PairState, Map<number, string>>();

function text(pair: PairState, units: number, isPrice: boolean): string {
  const maps = isPrice ? priceText : qtyText;
  let m = maps.get(pair);
  if (m === undefined) maps.set(pair, (m = new Map()));
  let t = m.get(units);
  if (t === undefined) {
    if (m.size >= MAX_CACHED) m.clear();
    t = isPrice ? pair.math.formatPrice(units) : pair.math.formatQty(units);
    m.set(units, t);
  }
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

export class HouseOrders {
  /** The open orders by id, in the order placed (read-only outside this class). */
  readonly orders = new Map<number, HouseOrder>();
  /** The same orders by price (ticks): sync looks at the few prices traded at, not at every order. */
  private readonly byPrice = new Map<number, Set<HouseOrder>>();
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
        const at = this.byPrice.get(p);
        if (at !== undefined) for (const o of at) filled += this.syncOne(o);
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

  private remember(o: HouseOrder): void {
    this.orders.set(o.id, o);
    const at = this.byPrice.get(o.price);
    if (at === undefined) this.byPrice.set(o.price, new Set([o]));
    else at.add(o);
  }

  private forget(o: HouseOrder): void {
    if (!this.orders.delete(o.id)) return;
    const at = this.byPrice.get(o.price);
    if (at !== undefined && at.delete(o) && at.size === 0) this.byPrice.delete(o.price);
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
    const o: HouseOrder = { id: Number(r.order_id), side, price, lots, placed: time };
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
