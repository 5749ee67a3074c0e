// The book at the touch: a crowd of liquidity providers quoting one tick apart around the fair
// price (the index), with queue-reactive limits and cancels at the best (Huang, Lehalle and
// Rosenbaum 2015), a filled ladder and, behind it, a band whose occupied share falls with the
// distance until the deep book's density takes over.
// Keeps true: the quotes follow the index (none stays through it or behind the band), the spread
// is one tick unless a best queue was just emptied or a sweep (or a jump) left a hole that is
// still closing (resilience.ts), and every order is the crowd's own GTC
// (house-orders.ts). Cost per step: O(the index's move + the band's turnover), not O(its ticks).
// The model in full: docs/simulated-market.md, "The touch".
import { Side } from '../../../src-shared/enums.ts';
import { HouseOrders, type HouseOrder, type Party } from './house-orders.ts';
import type { PairLimits } from './order-sizing.ts';
import { DEFAULT_RESILIENCE, SideGap, type ResilienceSettings } from './resilience.ts';
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
  /**
   * The band behind the ladder: its i-th tick is occupied with probability
   * bandFill / (1 + i / bandScale), and it reaches out until that share falls to the deep book's
   * density per tick (deepDensity / price in ticks), at least `band` ticks and at most `bandReach`
   * of the price, the share tapered to nothing over its last half. Turnover bandRate per second
   * at its first tick, falling with the share (far orders live longer); orders of bandShare
   * typical queues at its first tick, smaller by 1 + i / bandSizeScale further out.
   */
  band?: number;
  bandFill?: number;
  bandScale?: number;
  bandReach?: number;
  bandRate?: number;
  bandShare?: number;
  bandSizeScale?: number;
  /** The deep book's orders a side per unit of relative distance at its inner edge (deepDensity() of its settings); 0: none. */
  deepDensity?: number;
  /** The recovery after a sweep through the ladder (resilience.ts); default DEFAULT_RESILIENCE. */
  resilience?: ResilienceSettings;
}

export const DEFAULT_TOUCH: TouchSettings = {
  levels: 20,
  levelShare: 0.1,
  levelSlope: 0.05,
  band: 80,
  bandFill: 0.8,
  bandScale: 200,
  bandReach: 0.01,
  bandRate: 0.5,
  bandShare: 0.03,
  bandSizeScale: 100,
  queueNotional: 20_000,
  limitRate: 4,
  cancelRate: 2,
  refillRate: 12,
};

/** The band's reach is set again when the fair price has moved by this ratio (either way) since it was set. */
const REACH_DRIFT = 1.2;

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
  /** Ticks of the band behind the ladder, and the fair price (ticks) they were set for. */
  private bandTicks = 0;
  private bandRef = 0;
  /** The band's farthest price of the last step, per side (every price is new to the band at first). */
  private bandEdgeBid = Number.POSITIVE_INFINITY;
  private bandEdgeAsk = Number.NEGATIVE_INFINITY;
  /** Per side, the hole a sweep left and its reach (resilience.ts). */
  readonly bidGap = new SideGap();
  readonly askGap = new SideGap();
  private readonly res: ResilienceSettings;
  /** The band's ticks (u) of the side being stepped that lie inside its hole: not quoted (band()). */
  private bandHole = 0;

  constructor(party: Party, cfg: TouchSettings) {
    if (!(Number.isInteger(cfg.levels) && cfg.levels >= 1))
      throw new RangeError('touch levels must be an integer >= 1');
    this.house = new HouseOrders(party.ex, party.pair, party.account);
    this.rng = party.rng;
    this.limits = party.limits;
    this.cfg = cfg;
    this.sizes = new TradeSizes(party.rng, 1, 1.5, 0.6, 0);
    this.res = cfg.resilience ?? DEFAULT_RESILIENCE;
  }

  /** The ladder targets for a fair price in ticks (a real number). */
  static targets(fairTicks: number): [number, number] {
    const bid = Math.max(1, Math.ceil(fairTicks) - 1);
    return [bid, bid + 1];
  }

  /** Ticks from the best price that the crowd fills on its own (the ladder and the band's first `band`): the deep book goes behind them. */
  get depthTicks(): number {
    return this.cfg.levels + (this.cfg.band ?? 0);
  }

  /** Ticks from the best price that the crowd quotes at all (the ladder and the whole band). */
  get reachTicks(): number {
    return this.cfg.levels + this.bandTicks;
  }

  /** The band's share at its u-th tick (TouchSettings.band), tapered to nothing over the band's last half. */
  bandShareAt(u: number): number {
    const taper = this.bandTicks > 0 ? Math.min(1, 2 * (1 - u / this.bandTicks)) : 1;
    return ((this.cfg.bandFill ?? 0.5) * taper) / (1 + u / (this.cfg.bandScale ?? Number.POSITIVE_INFINITY));
  }

  /** The band's ticks at a fair price: where its share meets the deep book's density per tick, within [band, bandReach]. */
  private bandFor(fairTicks: number): number {
    const c = this.cfg;
    const least = c.band ?? 0;
    const scale = c.bandScale ?? Number.POSITIVE_INFINITY;
    if (least <= 0 || scale === Number.POSITIVE_INFINITY) return least;
    const floor = (c.deepDensity ?? 0) / fairTicks;
    const meet = floor > 0 ? scale * ((c.bandFill ?? 0.5) / floor - 1) : Number.POSITIVE_INFINITY;
    const most = (c.bandReach ?? 0) * fairTicks - c.levels;
    return Math.max(least, Math.round(Math.min(meet, most)));
  }

  /** Lots of a typical best queue at priceTicks. */
  queueLots(priceTicks: number): number {
    return this.limits.lotsFor(this.cfg.queueNotional, priceTicks);
  }

  /**
   * Time passed without steps (a skip, Simulator.skipTo): the holes of sweeps and jumps before it
   * have closed, and the next step quotes around its fair price as a first step does (every order
   * outside the new range cancelled), not as a jump from the last step's targets.
   */
  resync(): void {
    this.bidTarget = 0;
    this.askTarget = 0;
    for (const g of [this.bidGap, this.askGap]) {
      g.hole = 0;
      g.swept = 0;
    }
  }

  /** One step of dtMs at market time `time` around fairTicks; [lo, hi] the prices traded at since the last step. */
  step(time: number, dtMs: number, fairTicks: number, lo: number, hi: number): void {
    this.house.sync(lo, hi);
    const [bidT, askT] = TouchBook.targets(fairTicks);
    const prevBid = this.bidTarget;
    const prevAsk = this.askTarget;
    const prevReach = this.reachTicks;
    if (this.bandRef === 0 || fairTicks > this.bandRef * REACH_DRIFT || fairTicks * REACH_DRIFT < this.bandRef) {
      this.bandTicks = this.bandFor(fairTicks);
      this.bandRef = fairTicks;
    }
    const moved = bidT !== prevBid;
    this.bidTarget = bidT;
    this.askTarget = askT;
    if (moved || this.reachTicks !== prevReach) this.dropStale(prevBid, prevAsk, prevReach);
    const dt = dtMs / 1000;
    this.bidGap.decay(dt, this.res);
    this.askGap.decay(dt, this.res);
    // a taker that walked past the ladder (beyond the last step's best and this one's) leaves a hole
    const least = Math.max(this.cfg.levels, this.res.minReach * fairTicks);
    if (prevBid > 0 && lo <= hi) {
      if (hi > Math.max(prevAsk, askT)) this.askGap.open(hi - askT, least, this.res);
      if (lo < Math.min(prevBid, bidT)) this.bidGap.open(bidT - lo, least, this.res);
    }
    // so does a jump of the fair price, on the side it moved towards (its stale quotes were taken)
    const jump = prevBid > 0 ? bidT - prevBid : 0;
    if (Math.abs(jump) > this.res.jumpReach * fairTicks) {
      if (jump > 0) this.askGap.open(jump, least, this.res);
      else this.bidGap.open(-jump, least, this.res);
    }
    const at = { dt, time, moved };
    this.side(Side.BUY, bidT, prevBid, at);
    this.side(Side.SELL, askT, prevAsk, at);
  }

  /**
   * Cancels the quotes the fair price moved through or left behind the band. Every order lies
   * within the last step's reach of its targets, so only the prices between the old and the new
   * range are looked at (the house's own lists by price: nothing is built per step); a first step,
   * a move past the whole range or a new reach looks at every order.
   */
  private dropStale(prevBid: number, prevAsk: number, prevReach: number): void {
    const h = this.house;
    const bidT = this.bidTarget;
    const askT = this.askTarget;
    const E = this.reachTicks;
    if (prevBid === 0 || E !== prevReach || Math.abs(bidT - prevBid) >= E) {
      for (const o of h.orders.values()) {
        if (o.side === Side.BUY) {
          if (o.price > bidT || o.price <= bidT - E) h.cancel(o);
        } else if (o.price < askT || o.price >= askT + E) h.cancel(o);
      }
      return;
    }
    if (bidT < prevBid) this.cancelRange(bidT + 1, prevBid);
    else this.cancelRange(prevBid - E + 1, bidT - E);
    if (askT > prevAsk) this.cancelRange(prevAsk, askT - 1);
    else this.cancelRange(askT + E, prevAsk + E - 1);
  }

  private cancelRange(lo: number, hi: number): void {
    for (let p = Math.max(1, lo); p <= hi; p++) this.cancelAt(p);
  }

  /** Cancels every order of the crowd at price p. */
  private cancelAt(p: number): void {
    const h = this.house;
    for (let o = h.oldestAt(p), next: HouseOrder | null; o !== null; o = next) {
      next = h.newerThan(o);
      h.cancel(o);
    }
  }

  /**
   * One side's best queue, ladder and band; prev: the side's target of the last step (0 on the
   * first); at: the step's length (s), market time, and whether the fair price moved. After
   * step()'s cancels every house order at a price on this side is this side's.
   */
  private side(side: Side, best: number, prev: number, at: { dt: number; time: number; moved: boolean }): void {
    const { dt, time } = at;
    const h = this.house;
    const dir = side === 1 ? -1 : 1;
    const typical = this.queueLots(best);
    // after a sweep the side quotes from `hole` ticks behind its target (resilience.ts)
    const gap = side === 1 ? this.bidGap : this.askGap;
    const hole = Math.min(gap.holeTicks, this.bandTicks);
    const moved = at.moved || hole !== gap.shown;
    // a hole that opened or grew is withdrawn from (a jump leaves quotes there the sweep did not take)
    if (hole > gap.shown) {
      if (side === Side.BUY) this.cancelRange(best - hole + 1, best);
      else this.cancelRange(best, best + hole - 1);
    }
    gap.shown = hole;
    const target = best;
    best += dir * hole;
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
    // a level within a sweep's reach is quoted again at the depth's recovery rate, others at once
    const again = 1 - Math.exp((-dt * Math.LN2) / this.res.depthHalfLifeS);
    for (let i = 1; i < c.levels; i++) {
      const p = best + dir * i;
      if (p < 1) break;
      if (h.oldestAt(p) === null && (hole + i >= gap.swept || this.rng.next() < again))
        this.add(side, p, typical * share * (1 + slope * i) * this.sizes.notional(), time);
    }
    if (this.bandTicks > 0) this.band(side, target, prev === 0 ? 0 : (prev - target) * dir, at, hole);
  }

  /**
   * The band behind the ladder (TouchSettings.band); `away`: ticks the best moved away from this
   * side's band since the last step (its ladder's last levels are band ticks now).
   */
  private band(side: Side, best: number, away: number, at: { dt: number; time: number }, hole: number): void {
    const c = this.cfg;
    const L = c.levels;
    const S = this.bandTicks;
    const scale = c.bandScale ?? Number.POSITIVE_INFINITY;
    const dir = side === Side.BUY ? -1 : 1;
    const size = this.queueLots(best) * (c.bandShare ?? 0.1);
    // the band's ticks inside a sweep's hole (u < hole - L) are not quoted until it closes
    this.bandHole = hole - L;
    // ticks new to the band take its share at once: those the ladder (or the other side) left
    // behind a move (a ladder level keeps its order with that share), and those a move brought
    // inside its far edge (all of them at first)
    for (let u = 0; u < Math.min(away, S); u++) this.refresh(side, best + dir * (L + u), u, size, at.time);
    const edge = side === Side.BUY ? this.bandEdgeBid : this.bandEdgeAsk;
    const far = best + dir * (L + S - 1);
    const fresh = Math.min(S, Math.max(0, Math.floor((far - edge) * dir)));
    for (let u = S - fresh; u < S; u++) this.refresh(side, best + dir * (L + u), u, size, at.time);
    if (side === Side.BUY) this.bandEdgeBid = far;
    else this.bandEdgeAsk = far;
    // turnover: each tick is drawn again at bandRate x its share / bandFill a second (far orders
    // live longer), the draws placed by that weight: the inverse of its integral, log(1 + u / scale)
    const finite = scale !== Number.POSITIVE_INFINITY;
    const span = finite ? Math.log1p(S / scale) : S;
    let n = poisson(this.rng, (c.bandRate ?? 0.5) * (finite ? scale * span : S) * at.dt);
    while (n-- > 0) {
      const v = this.rng.next();
      const u = Math.min(S - 1, Math.floor(finite ? scale * Math.expm1(v * span) : v * S));
      this.refresh(side, best + dir * (L + u), u, size, at.time);
    }
  }

  /** The band's u-th tick p drawn again: quoted with the band's share there, empty otherwise. */
  private refresh(side: 1 | 2, p: number, u: number, size: number, time: number): void {
    if (p < 1) return;
    if (this.rng.next() < this.bandShareAt(u)) {
      if (u < this.bandHole) return;
      const smaller = 1 + u / (this.cfg.bandSizeScale ?? Number.POSITIVE_INFINITY);
      if (this.house.oldestAt(p) === null) this.add(side, p, (size / smaller) * this.sizes.notional(), time);
    } else this.cancelAt(p);
  }

  private add(side: 1 | 2, price: number, lots: number, time: number): void {
    const n = Math.max(this.limits.floorLots(price), Math.min(this.limits.maxLots, Math.round(lots)));
    this.house.place(side, price, n, time);
  }
}

/** Poisson draw by inversion (means up to a few hundred: e^-mean underflows past 700; the band's turnover is up to about 40 a step). */
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
