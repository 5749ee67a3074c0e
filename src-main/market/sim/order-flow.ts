// The taker flow of one symbol: Hawkes arrivals paced by the UTC hour, a slow activity factor,
// the volatility and the queues at the touch; metaorder signs tilted by herding; heavy-tailed
// sizes; and the arbitrage of stale quotes, from an engine account of its own.
// Keeps true: the mean rate is rate x pace x volatility factor x queue factor, and pace() is the
// business time the latent price runs in. The model in full: docs/simulated-market.md, "The takers".
import { ApiError } from '../../../src-shared/errors.ts';
import { OrderStatus, Side } from '../../../src-shared/enums.ts';
import type { Exchange } from '../../trading/exchange.ts';
import type { Party } from './house-orders.ts';
import type { PairState } from '../../trading/pair-state.ts';
import { activity } from './activity-profile.ts';
import { ActivityFactor, Hawkes } from './hawkes.ts';
import { Metaorders } from './metaorders.ts';
import type { PairLimits } from './order-sizing.ts';
import type { Rng } from './rng.ts';
import { TradeSizes } from './trade-size.ts';

export interface FlowSettings {
  /** Mean taker orders per second at activity 1 and normal volatility. */
  rate: number;
  /** Median notional of a taker order, USDT. */
  medianNotional: number;
  /** Hawkes branching ratio and decay rate (per second). */
  branching: number;
  beta: number;
  /** Slow activity factor: standard deviation of its log and half-life in seconds. */
  activitySd: number;
  activityHalfLifeS: number;
  /** Metaorders: parents running at once, Pareto index of their length, share of orders from parents. */
  parents: number;
  parentAlpha: number;
  parentShare: number;
  /** Pareto tail index of sizes, log-normal sigma of the body, share of round lots. */
  sizeAlpha: number;
  sizeSigma: number;
  roundShare: number;
  /** Herding: largest tilt of signs towards one side, and the half-life of its driver, seconds. */
  herdBias: number;
  herdHalfLifeS: number;
  /** Net move through stale quotes (fraction of price, at least arbMinTicks) before the arbitrage trades it. */
  arbMove: number;
  /**
   * Least net move, in ticks, the arbitrage trades: taking a quote the fair price passed by less
   * than the one-tick spread it crosses (plus its fee) loses, so on a pair whose tick is large next
   * to its price the crowd's own requote removes such a quote (below arbMove of price on BTCUSDT).
   */
  arbMinTicks: number;
  /** Size of an arbitrage per net tick moved, in typical best queues (queueNotional). */
  arbQueues: number;
  /** Least size of an arbitrage, as a share of the queue at the stale price it takes (the best stale level). */
  arbStaleShare: number;
  /** Pareto tail index of the arbitrage's size multiplier (thinner than the takers': its size is set by the stale quotes). */
  arbAlpha: number;
  /** Typical best queue, USDT (the touch crowd's): the scale of the queue-reactive factor; 0 turns it off. */
  queueNotional: number;
}

/** Queue size (in typical queues) at which the queue-reactive factor is half its ceiling. */
const QUEUE_HALF = 0.5;

/**
 * The queue-reactive factor of the market-order rate at x typical queues at the touch:
 * (1 + QUEUE_HALF) x / (x + QUEUE_HALF), 0 at an empty touch, 1 at a typical one, rising and
 * saturating at 1.5 (the concave market-order intensity of Huang, Lehalle and Rosenbaum 2015).
 */
export function queueFactor(x: number): number {
  return x > 0 ? ((1 + QUEUE_HALF) * x) / (x + QUEUE_HALF) : 0;
}

export const DEFAULT_FLOW: Omit<FlowSettings, 'rate' | 'medianNotional' | 'queueNotional'> = {
  branching: 0.6,
  beta: 2,
  activitySd: 0.7,
  activityHalfLifeS: 120,
  parents: 2,
  parentAlpha: 1.8,
  parentShare: 0.9,
  sizeAlpha: 1.4,
  sizeSigma: 0.6,
  roundShare: 0.3,
  herdBias: 0.06,
  herdHalfLifeS: 180,
  arbMove: 0.00005,
  arbMinTicks: 2,
  arbAlpha: 2.5,
  arbQueues: 0.001,
  arbStaleShare: 0.02,
};

export interface FlowStats {
  orders: number;
  traded: number;
  rejected: number;
  arbs: number;
}

export class OrderFlow {
  readonly stats: FlowStats = { orders: 0, traded: 0, rejected: 0, arbs: 0 };
  readonly hawkes: Hawkes;
  readonly activity: ActivityFactor;
  readonly signs: Metaorders;
  readonly sizes: TradeSizes;
  private readonly arbSize: TradeSizes;
  /** The herding driver: unit-variance OU. */
  readonly herd: ActivityFactor;
  private readonly ex: Exchange;
  private readonly pair: PairState;
  private readonly limits: PairLimits;
  private readonly rng: Rng;
  private readonly account: number;
  private readonly cfg: FlowSettings;
  private readonly zeroQty: string;
  /** Net ticks the fair price moved through stale quotes since the arbitrage last traded (up +). */
  private owed = 0;
  /** The current step's pace (pace()). */
  private paceNow = 1;

  constructor(party: Party, cfg: FlowSettings) {
    const { ex, pair, rng } = party;
    this.ex = ex;
    this.pair = pair;
    this.limits = party.limits;
    this.rng = rng;
    this.account = party.account;
    this.cfg = cfg;
    this.hawkes = new Hawkes(rng, cfg.branching, cfg.beta);
    this.activity = new ActivityFactor(rng, cfg.activitySd, cfg.activityHalfLifeS);
    this.signs = new Metaorders(rng, cfg.parents, cfg.parentAlpha, cfg.parentShare);
    this.sizes = new TradeSizes(rng, cfg.medianNotional, cfg.sizeAlpha, cfg.sizeSigma, cfg.roundShare);
    this.herd = new ActivityFactor(rng, 1, cfg.herdHalfLifeS);
    this.arbSize = new TradeSizes(rng, 1, cfg.arbAlpha, cfg.sizeSigma, 0);
    this.zeroQty = pair.math.formatQty(0);
  }

  /**
   * The pace of trading over the step of dtMs ending at market time t: activity(t) (UTC hour and
   * weekday) x the slow activity factor, mean 1. Advances the activity and herding processes; the
   * simulator runs the latent price in this business time, and arrivals() uses it.
   */
  pace(t: number, dtMs: number): number {
    this.herd.step(dtMs);
    this.paceNow = activity(t) * this.activity.advance(dtMs);
    return this.paceNow;
  }

  /**
   * Taker orders arriving in the step of dtMs whose pace() was set last, at volatility factor f;
   * their offsets from the step's start (ms, ascending, below dtMs) go into `offsets` when given.
   */
  arrivals(dtMs: number, f: number, offsets?: number[]): number {
    const mu = this.cfg.rate * (1 - this.cfg.branching) * this.paceNow * f * this.queueFactorNow();
    return this.hawkes.step(dtMs, mu, offsets);
  }

  /** queueFactor of the book's best queues now (1 when queueNotional is 0). */
  queueFactorNow(): number {
    if (!(this.cfg.queueNotional > 0)) return 1;
    const book = this.pair.book;
    const bid = book.topLevels(Side.BUY, 1)[0];
    const ask = book.topLevels(Side.SELL, 1)[0];
    if (bid === undefined || ask === undefined) return queueFactor(0);
    const typical = this.limits.lotsFor(this.cfg.queueNotional, bid[0]);
    return queueFactor((bid[1] + ask[1]) / 2 / typical);
  }

  /** Sends one taker order of at most capNotional; returns true when it traded. */
  send(capNotional: number, forceSide = 0): boolean {
    const book = this.pair.book;
    const side: 1 | 2 =
      forceSide === 1 || forceSide === 2
        ? forceSide
        : this.signs.next(this.cfg.herdBias * Math.tanh(this.herd.log)) === 1
          ? 1
          : 2;
    const opposite = side === 1 ? book.bestAsk() : book.bestBid();
    if (opposite === 0) return false;
    const px = opposite * this.limits.tick;
    const notional = Math.min(this.sizes.quantity(px) * px, Math.max(capNotional, 0));
    return this.take(side, this.limits.lotsFor(notional, opposite), 0);
  }

  /**
   * Arbitrage of stale quotes: asks at or below bidTarget (bids at or above askTarget) sit through
   * the fair price by bidTarget - ask + 1 ticks (bid - askTarget + 1). The arbitrageur keeps the
   * net ticks the fair price has moved through the quotes since it last traded (up positive) and
   * trades when they reach arbMove of the price (at least arbMinTicks) and this step's stale quotes
   * lie that way: an IOC at the fair price's touch for maxLots per net tick, and at least
   * arbStaleShare of the queue at the best stale price, times a size multiplier of median 1 (tail
   * index arbAlpha). On a coarse-tick pair (a tick of 1 bp or more) a net tick is below the cost of
   * taking it, and maxLots a tick the exchange's minimum: the arbitrage traded each tick the fair
   * price crossed, in minimum-size prints of alternating sign. Trading the net move, the arbitrage of a minute follows its return (a jittering
   * index's crossings cancel before they are traded), so the minute's taker imbalance follows the
   * return; trading it only past a threshold, it is a few orders a second rather than one every
   * step, and leaves the takers' persistent imbalance, sign memory and median size visible.
   */
  arbitrage(bidTarget: number, askTarget: number, maxLots: number): void {
    const book = this.pair.book;
    const ask = book.bestAsk();
    const bid = book.bestBid();
    const up = ask > 0 && ask <= bidTarget;
    const down = bid > 0 && bid >= askTarget;
    if (up) this.owed += bidTarget - ask + 1;
    if (down) this.owed -= bid - askTarget + 1;
    const threshold = Math.max(this.cfg.arbMinTicks, this.cfg.arbMove * bidTarget);
    if (up && this.owed >= threshold) {
      this.stats.arbs++;
      this.take(1, this.arbLots(Side.SELL, bidTarget, maxLots * this.owed), bidTarget);
      this.owed = 0;
    } else if (down && -this.owed >= threshold) {
      this.stats.arbs++;
      this.take(2, this.arbLots(Side.BUY, askTarget, maxLots * -this.owed), askTarget);
      this.owed = 0;
    }
  }

  /** An arbitrage's lots at limit `limitTicks` against the stale quotes of `staleSide`: at least arbStaleShare of the best one's queue. */
  private arbLots(staleSide: Side, limitTicks: number, byMove: number): number {
    const best = this.pair.book.topLevels(staleSide, 1)[0];
    const stale = best === undefined ? 0 : this.cfg.arbStaleShare * best[1];
    return Math.max(this.limits.floorLots(limitTicks), Math.round(Math.max(byMove, stale) * this.arbSize.notional()));
  }

  /** A market order (limitTicks 0) or an IOC limit; true when it traded. */
  private take(side: 1 | 2, lots: number, limitTicks: number): boolean {
    const math = this.pair.math;
    const base = {
      symbol: this.pair.row.symbol,
      side,
      position_side: side,
      position_action: 1,
      qty: math.formatQty(lots),
    };
    this.stats.orders++;
    try {
      let r;
      if (limitTicks === 0 && this.pair.row.allowMarket) {
        r = this.ex.execute({ kind: 'placeBot', input: { ...base, type: 2 }, engineAccount: this.account });
      } else {
        let px = limitTicks;
        if (px === 0) {
          // no market orders on this pair: an IOC limit at the edge of the price band
          const mark = this.pair.markPrice;
          const tick = this.limits.tick;
          px =
            side === 1
              ? Math.floor((mark * (1 + 0.9 * this.limits.band)) / tick)
              : Math.max(1, Math.ceil((mark * (1 - 0.9 * this.limits.band)) / tick));
        }
        r = this.ex.execute({
          kind: 'placeBot',
          input: { ...base, type: 1, price: math.formatPrice(px), time_in_force: 2 },
          engineAccount: this.account,
        });
      }
      const traded =
        r.status === OrderStatus.PARTIALLY_FILLED ||
        r.status === OrderStatus.FILLED ||
        (r.status === OrderStatus.EXPIRED && r.filled_qty !== this.zeroQty);
      if (traded) this.stats.traded++;
      return traded;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err; // the exchange's refusal is counted; anything else is a bug
      this.stats.rejected++;
      return false;
    }
  }
}
