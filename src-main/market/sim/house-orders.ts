// The resting orders of one house liquidity account on one pair (the touch crowd, the deep book),
// and the one place those processes talk to the exchange: GTC bot orders (no margin, not stored,
// need_cache false) and their cancels.
//
// Invariants: `orders` holds exactly the account's orders that this object placed and has not
// seen leave the book; sync(lo, hi) drops the ones that filled (and counts the lots filled).
// A house order leaves the book only by a fill (at its own price) or by our cancel, so sync looks
// only at orders priced inside the range the pair traded at since the last sync (the simulator
// tracks it): a step without trades costs nothing. Rejections are counted, never thrown.
import type { Command, Exchange } from '../../trading/exchange.ts';
import type { PairState } from '../../trading/pair-state.ts';

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
 * The command of a house GTC limit order opening on `side` at `price` ticks for `lots`, for
 * `account` (no margin, not stored, not cached): what the house liquidity and the market maker send.
 */
export function houseLimit(pair: PairState, side: 1 | 2, price: number, lots: number, account: number): Command & { kind: 'placeBot' } {
  const math = pair.math;
  return {
    kind: 'placeBot',
    input: {
      symbol: pair.row.symbol, side, position_side: side, position_action: 1, type: 1,
      price: math.formatPrice(price), qty: math.formatQty(lots), time_in_force: 1, need_cache: false,
    },
    engineAccount: account,
  };
}

export class HouseOrders {
  readonly orders = new Map<number, HouseOrder>();
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
    const book = this.pair.book;
    let filled = 0;
    for (const o of this.orders.values()) {
      if (o.price < lo || o.price > hi) continue;
      const v = book.getOrder(o.id);
      const rem = v === null ? 0 : v.remainingLots;
      if (rem < o.lots) {
        filled += o.lots - rem;
        o.lots = rem;
      }
      if (rem === 0) this.orders.delete(o.id);
    }
    this.stats.filledLots += filled;
    return filled;
  }

  /** Places a GTC limit order; returns it, or null when the exchange refused it or it traded away at once. */
  place(side: 1 | 2, price: number, lots: number, time: number): HouseOrder | null {
    const math = this.pair.math;
    let r;
    try {
      r = this.ex.execute(houseLimit(this.pair, side, price, lots, this.account));
    } catch {
      this.stats.rejected++;
      return null;
    }
    this.stats.placed++;
    if (r.status !== 1 && r.status !== 2) return null;
    const o: HouseOrder = { id: Number(r.order_id), side, price, lots, placed: time };
    if (r.status === 2) {
      const f = math.qty.toUnits(r.filled_qty);
      o.lots = lots - (f.ok ? f.value : 0);
    }
    this.orders.set(o.id, o);
    return o;
  }

  cancel(o: HouseOrder): void {
    this.orders.delete(o.id);
    if (this.pair.book.getOrder(o.id) === null) return;
    try {
      this.ex.execute({ kind: 'cancelBot', symbol: this.pair.row.symbol, orderId: o.id });
      this.stats.cancelled++;
    } catch {
      this.stats.rejected++;
    }
  }

  cancelAll(): void {
    for (const o of [...this.orders.values()]) this.cancel(o);
  }
}
