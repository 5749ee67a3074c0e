// The deep book: limit orders placed at power-law distances behind the best price, after
// Bouchaud, Mezard and Potters (2002, "Statistical properties of stock order books: empirical
// results and models", Quantitative Finance 2) and Zovko and Farmer (2002).
//
// Placement: a new order goes `inner + D` ticks behind the best price of its side (inner: the
// ladder's depth, at most `innerMax` of the price where set), D drawn from a
// Lomax (Pareto II) law with density proportional to (d0 + D)^-(1 + mu): most orders near the
// touch, a power-law tail (BMP measured mu about 0.6) out to several percent, resampled past
// maxDistance (kept inside the pair's price band). Orders live an exponential time of mean
// `lifetimeS` (then cancelled); arrivals keep `orders` orders per side on average. As the price
// moves, old orders end up nearer to or further from the best price, which gives the humped
// average profile BMP describe; an order that a move brings inside the touch ladder (or across
// the fair price) is cancelled, the touch crowd quotes there.
// Sizes: notional orderNotional x e^(0.6 z) (log-normal, mean about 1.2x), times 1 + D / sizeScale
// where set (larger orders further out), in lots.
import { HouseOrders, type HouseOrder, type Party } from './house-orders.ts';
import type { PairLimits } from './order-sizing.ts';
import type { Rng } from './rng.ts';
import { poisson } from './touch-book.ts';

export interface DeepSettings {
  /** Average number of resting orders per side. */
  orders: number;
  /** Mean lifetime of an order, seconds. */
  lifetimeS: number;
  /** Lomax scale d0 of the distance, as a fraction of price. */
  scale: number;
  /** Lomax tail index mu of the distance. */
  mu: number;
  /** Largest distance from the best price, as a fraction of price. */
  maxDistance: number;
  /** Median notional of one order, USDT. */
  orderNotional: number;
  /** Orders at a distance d (a fraction of price) from the inner edge are 1 + d / sizeScale times larger (default: no growth). */
  sizeScale?: number;
  /** The inner edge at most this share of the price behind the best (default: the ladder's depth in ticks, however far). */
  innerMax?: number;
}

export const DEFAULT_DEEP: DeepSettings = {
  orders: 150,
  lifetimeS: 120,
  // d0 = 1 %: the density is nearly flat inside 1 % and a power law past it, so a book holds most
  // of its 1 % depth past 0.1 % as real USD-M books do (docs/realism.md, the depth profile)
  scale: 0.01,
  mu: 0.6,
  maxDistance: 0.04,
  orderNotional: 3_000,
};

/**
 * Orders a side per unit of relative distance (a fraction of the price) at the deep book's inner
 * edge, on average: orders x the Lomax density at 0, mu / scale, over the share of the law inside
 * maxDistance (draws past it are drawn again). Per tick at a price of P ticks: this / P.
 */
export function deepDensity(c: Pick<DeepSettings, 'orders' | 'scale' | 'mu' | 'maxDistance'>): number {
  return (c.orders * c.mu) / c.scale / (1 - Math.pow(1 + c.maxDistance / c.scale, -c.mu));
}

/** A Lomax distance (same unit as d0): d0 ((1 - u)^(-1/mu) - 1), resampled past max. */
export function lomaxDistance(rng: Rng, d0: number, mu: number, max: number): number {
  for (let i = 0; i < 64; i++) {
    const d = d0 * (Math.pow(1 - rng.next(), -1 / mu) - 1);
    if (d <= max) return d;
  }
  return rng.next() * max;
}

/**
 * One step of the deep book: market time and step length (ms); bidTop / askTop, the touch
 * ladder's best prices (ticks); inner, the ladder's depth in ticks (deep orders go behind it);
 * [lo, hi], the prices traded at since the last step.
 */
export interface DeepStep {
  time: number;
  dtMs: number;
  bidTop: number;
  askTop: number;
  inner: number;
  lo: number;
  hi: number;
}

export class DeepBook {
  readonly house: HouseOrders;
  private readonly rng: Rng;
  private readonly limits: PairLimits;
  private readonly cfg: DeepSettings;
  private started = false;
  /** Own orders by side, best first (bids descending, asks ascending). */
  private bids: HouseOrder[] = [];
  private asks: HouseOrder[] = [];

  constructor(party: Party, cfg: DeepSettings) {
    this.house = new HouseOrders(party.ex, party.pair, party.account);
    this.rng = party.rng;
    this.limits = party.limits;
    this.cfg = cfg;
  }

  /** Resting orders per side [bids, asks]. */
  get counts(): [number, number] {
    return [this.bids.length, this.asks.length];
  }

  /** One step (DeepStep says what each field is). */
  step(st: DeepStep): void {
    const { time, dtMs, bidTop, askTop, inner, lo, hi } = st;
    const h = this.house;
    if (h.sync(lo, hi) > 0) {
      this.bids = this.bids.filter((o) => h.orders.has(o.id));
      this.asks = this.asks.filter((o) => h.orders.has(o.id));
    }
    // orders a move brought inside the inner edge (the touch ladder's depth): the crowd quotes there
    const c = this.cfg;
    const edge = this.edge(bidTop, inner);
    while (this.bids.length > 0 && this.bids[0].price > bidTop - edge) h.cancel(this.bids.shift()!);
    while (this.asks.length > 0 && this.asks[0].price < askTop + edge) h.cancel(this.asks.shift()!);
    if (!this.started) {
      // the opening book: the stationary number of orders at once
      this.started = true;
      for (let i = 0; i < c.orders; i++) {
        this.add(1, bidTop, inner, time);
        this.add(2, askTop, inner, time);
      }
      return;
    }
    const dt = dtMs / 1000;
    this.expire(this.bids, dt);
    this.expire(this.asks, dt);
    let nb = poisson(this.rng, (c.orders / c.lifetimeS) * dt);
    let na = poisson(this.rng, (c.orders / c.lifetimeS) * dt);
    while (nb-- > 0) this.add(1, bidTop, inner, time);
    while (na-- > 0) this.add(2, askTop, inner, time);
  }

  private expire(list: HouseOrder[], dt: number): void {
    let n = poisson(this.rng, (list.length / this.cfg.lifetimeS) * dt);
    while (n-- > 0 && list.length > 0) {
      const i = this.rng.int(list.length);
      this.house.cancel(list[i]);
      list.splice(i, 1);
    }
  }

  /** Ticks from the best price (`top`) to the inner edge: the ladder's depth `inner`, at most innerMax of the price. */
  private edge(top: number, inner: number): number {
    const m = this.cfg.innerMax;
    return m === undefined ? inner : Math.min(inner, Math.max(1, Math.round(m * top)));
  }

  private add(side: 1 | 2, top: number, inner: number, time: number): void {
    const c = this.cfg;
    const price = top * this.limits.tick;
    const d = lomaxDistance(this.rng, c.scale, c.mu, c.maxDistance);
    const ticks = this.edge(top, inner) + Math.round((d * price) / this.limits.tick);
    const p = side === 1 ? top - ticks : top + ticks;
    if (p < 1 || p > 2_000_000_000) return;
    const grow = c.sizeScale === undefined ? 1 : 1 + d / c.sizeScale;
    const lots = this.limits.lotsFor(c.orderNotional * grow * Math.exp(0.6 * this.rng.normal()), p);
    const o = this.house.place(side, p, lots, time);
    if (o === null) return;
    const list = side === 1 ? this.bids : this.asks;
    // keep best first: binary search for the insertion point
    let a = 0;
    let b = list.length;
    while (a < b) {
      const m = (a + b) >> 1;
      if (side === 1 ? list[m].price >= p : list[m].price <= p) a = m + 1;
      else b = m;
    }
    list.splice(a, 0, o);
  }
}
