// The book at the touch: a crowd of liquidity providers quoting one tick apart around the fair
// price (the index), with queue-reactive limits and cancels at the best (Huang, Lehalle and
// Rosenbaum 2015), a filled ladder and a half-occupied band behind it.
// Keeps true: the quotes follow the index (none stays through it), the spread is one tick unless
// a best queue was just emptied, and every order is the crowd's own GTC (house-orders.ts).
// The model in full: docs/simulated-market.md, "The touch".
import { Side } from '../../../src-shared/enums.ts';
import { HouseOrders, type HouseOrder, type Party } from './house-orders.ts';
import type { PairLimits } from './order-sizing.ts';
import type { Rng } from './rng.ts';
import { TradeSizes } from './trade-size.ts';

export interface TouchSettings {
  /** Price levels quoted one tick apart on each side. */
  levels: number;
  /** Typical notional at the best price of a side, USDT. */
  queueNotional: number;
  /** Limit orders per second joining an empty best queue. */
  limitRate: number;
  /** Cancellations per second of a best queue at its typical size. */
  cancelRate: number;
  /** Rate (per second) at which an emptied best price is quoted again. */
  refillRate: number;
  /** A deeper ladder level's size in typical queues, and its growth per tick of distance (defaults 0.8, 0.25). */
  levelShare?: number;
  levelSlope?: number;
  /** Ticks of the half-occupied band behind the ladder (default 0), its occupied share, its turnover per second, and its orders' size in typical queues. */
  band?: number;
  bandFill?: number;
  bandRate?: number;
  bandShare?: number;
}

export const DEFAULT_TOUCH: TouchSettings = {
  levels: 20,
  levelShare: 0.15,
  levelSlope: 0.05,
  band: 80,
  bandFill: 0.55,
  bandRate: 0.5,
  bandShare: 0.08,
  queueNotional: 20_000,
  limitRate: 4,
  cancelRate: 2,
  refillRate: 12,
};

export class TouchBook {
  readonly house: HouseOrders;
  private readonly rng: Rng;
  private readonly limits: PairLimits;
  private readonly cfg: TouchSettings;
  /** Multipliers of median 1 for order sizes. */
  private readonly sizes: TradeSizes;
  /** Ladder targets of the last step (ticks). */
  bidTarget = 0;
  askTarget = 0;
  /** The band's farthest price of the last step, per side (every price is new to the band at first). */
  private bandEdgeBid = Number.POSITIVE_INFINITY;
  private bandEdgeAsk = Number.NEGATIVE_INFINITY;

  constructor(party: Party, cfg: TouchSettings) {
    if (!(Number.isInteger(cfg.levels) && cfg.levels >= 1))
      throw new RangeError('touch levels must be an integer >= 1');
    this.house = new HouseOrders(party.ex, party.pair, party.account);
    this.rng = party.rng;
    this.limits = party.limits;
    this.cfg = cfg;
    this.sizes = new TradeSizes(party.rng, 1, 1.5, 0.6, 0);
  }

  /** The ladder targets for a fair price in ticks (a real number). */
  static targets(fairTicks: number): [number, number] {
    const bid = Math.max(1, Math.ceil(fairTicks) - 1);
    return [bid, bid + 1];
  }

  /** Ticks from the best price that the crowd quotes (the ladder and the band behind it): the deep book goes behind them. */
  get depthTicks(): number {
    return this.cfg.levels + (this.cfg.band ?? 0);
  }

  /** Lots of a typical best queue at priceTicks. */
  queueLots(priceTicks: number): number {
    return this.limits.lotsFor(this.cfg.queueNotional, priceTicks);
  }

  /** One step of dtMs at market time `time` around fairTicks; [lo, hi] the prices traded at since the last step. */
  step(time: number, dtMs: number, fairTicks: number, lo: number, hi: number): void {
    const h = this.house;
    h.sync(lo, hi);
    const [bidT, askT] = TouchBook.targets(fairTicks);
    const moved = bidT !== this.bidTarget;
    this.bidTarget = bidT;
    this.askTarget = askT;
    const L = this.depthTicks;
    // stale quotes: through the fair price, or left behind the ladder and its band by a move
    // (every order is placed inside the range, so none is stale while the targets stay; the
    // queues left are read from the house's own lists by price: nothing is built per step)
    if (moved)
      for (const o of h.orders.values()) {
        if (o.side === Side.BUY) {
          if (o.price > bidT || o.price <= bidT - L) h.cancel(o);
        } else if (o.price < askT || o.price >= askT + L) h.cancel(o);
      }
    const at = { dt: dtMs / 1000, time, moved };
    this.side(Side.BUY, bidT, at);
    this.side(Side.SELL, askT, at);
  }

  /**
   * One side's best queue and ladder; at: the step's length (s), market time, and whether the fair
   * price moved. After step()'s cancels every house order at a price on this side is this side's.
   */
  private side(side: Side, best: number, at: { dt: number; time: number; moved: boolean }): void {
    const { dt, time, moved } = at;
    const h = this.house;
    const dir = side === 1 ? -1 : 1;
    const typical = this.queueLots(best);
    const head = h.oldestAt(best);
    if (head === null) {
      // a new best price is quoted at once; an emptied one re-forms at the refill rate
      if (moved || this.rng.next() < 1 - Math.exp(-this.cfg.refillRate * dt))
        this.add(side, best, typical * 0.6 * this.sizes.notional(), time);
    } else {
      let q = 0;
      for (let o: HouseOrder | null = head; o !== null; o = h.newerThan(o)) q += o.lots;
      const x = q / typical;
      let nl = poisson(this.rng, (this.cfg.limitRate * dt) / (1 + x));
      let nc = poisson(this.rng, this.cfg.cancelRate * dt * x);
      // the back of the queue cancels first (the newest orders, not those joining in this step)
      let back = h.newestAt(best);
      while (nl-- > 0) this.add(side, best, typical * 0.4 * this.sizes.notional(), time);
      while (nc-- > 0 && back !== null) {
        const older = h.olderThan(back);
        h.cancel(back);
        back = older;
      }
    }
    const c = this.cfg;
    const share = c.levelShare ?? 0.8;
    const slope = c.levelSlope ?? 0.25;
    for (let i = 1; i < c.levels; i++) {
      const p = best + dir * i;
      if (p < 1) break;
      if (h.oldestAt(p) === null) this.add(side, p, typical * share * (1 + slope * i) * this.sizes.notional(), time);
    }
    const band = c.band ?? 0;
    if (band > 0) this.band(side, best, at);
  }

  /** The half-occupied band behind the ladder (TouchSettings.band). */
  private band(side: Side, best: number, at: { dt: number; time: number }): void {
    const c = this.cfg;
    const h = this.house;
    const L = c.levels;
    const S = c.band ?? 0;
    const fill = c.bandFill ?? 0.5;
    const k = 1 - Math.exp(-(c.bandRate ?? 0.5) * at.dt);
    const dir = side === Side.BUY ? -1 : 1;
    const edge = side === Side.BUY ? this.bandEdgeBid : this.bandEdgeAsk;
    const size = this.queueLots(best) * (c.bandShare ?? 0.1);
    for (let i = L; i < L + S; i++) {
      const p = best + dir * i;
      if (p < 1) break;
      const newest = h.newestAt(p);
      if (newest !== null) {
        if (this.rng.next() < (1 - fill) * k) h.cancel(newest);
      } else {
        const fresh = side === Side.BUY ? p < edge : p > edge;
        if (this.rng.next() < (fresh ? fill : fill * k)) this.add(side, p, size * this.sizes.notional(), at.time);
      }
    }
    if (side === Side.BUY) this.bandEdgeBid = best - (L + S - 1);
    else this.bandEdgeAsk = best + (L + S - 1);
  }

  private add(side: 1 | 2, price: number, lots: number, time: number): void {
    const n = Math.max(this.limits.floorLots(price), Math.min(this.limits.maxLots, Math.round(lots)));
    this.house.place(side, price, n, time);
  }
}

/** Poisson draw by inversion (small means only: the rates here are a few per step). */
export function poisson(rng: Rng, mean: number): number {
  if (!(mean > 0)) return 0;
  let k = 0;
  let p = Math.exp(-mean);
  let s = p;
  const u = rng.next();
  while (u > s && k < 1000) {
    k++;
    p *= mean / k;
    s += p;
  }
  return k;
}
