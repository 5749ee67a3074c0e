// Price impact of taker flow: a square-root law split into a permanent share, which moves the
// latent price (so the index and everything that follows it), and a transient share, an offset
// of the book's fair price over the index that decays exponentially (a propagator with a
// constant plus an exponential kernel; Bouchaud, Gefen, Potters and Wyart 2004; Toth et al.
// 2011 for the square root). One rule for the live simulator (every taker order, the user's
// included) and the history (its steps' orders in bulk).
// Keeps true: an order of notional q moves the log price by sign x scale x sqrt(q) in all,
// `permanent` of it for good; the transient offset decays by exp(-dt / tauS). The rule and its
// calibration: docs/simulated-market.md, "Price impact".
import { DEFAULT_FLOW } from './order-flow.ts';
import type { SymbolSimParams } from './params.ts';
import { logMedian } from './trade-size.ts';

export interface ImpactSettings {
  /** Y of the square-root law: an order of the day's volume V moves the price by Y daily sds. */
  y: number;
  /** Share of an order's impact that stays. */
  permanent: number;
  /** Time constant of the transient share, seconds. */
  tauS: number;
}

export const DEFAULT_IMPACT: ImpactSettings = { y: 0.05, permanent: 0.5, tauS: 600 };

/**
 * The live book's mean queue-reactive factor (order-flow.ts queueFactor of the best queues,
 * averaged over BTCUSDT's steps of a live run): the live taker rate is takerRate x pace x this.
 */
export const MEAN_QUEUE_FACTOR = 0.8;

/** Mean of e^(sigma Z) x P, P Pareto(1, alpha), over its median; and E[sqrt] of the same over sqrt(median). */
export function sizeMoments(sigma: number, alpha: number): { mean: number; sqrtMean: number } {
  const c = 1 / Math.exp(logMedian(sigma, alpha));
  return {
    mean: c * Math.exp((sigma * sigma) / 2) * (alpha / (alpha - 1)),
    sqrtMean: Math.sqrt(c) * Math.exp((sigma * sigma) / 8) * (alpha / (alpha - 0.5)),
  };
}

const SIZE = sizeMoments(DEFAULT_FLOW.sizeSigma, DEFAULT_FLOW.sizeAlpha);

/**
 * The log move per sqrt(USDT) of one order: y x the daily sd of the pair's volatility setting over
 * the square root of its mean daily taker volume (takerRate x the mean queue factor x the mean
 * order x 86,400 s, at activity 1).
 */
export function impactScale(params: SymbolSimParams, cfg: ImpactSettings = DEFAULT_IMPACT): number {
  const dailySd = params.volatility / Math.sqrt(365);
  const dailyVolume = params.takerRate * MEAN_QUEUE_FACTOR * params.takerMedianNotional * SIZE.mean * 86_400;
  return (cfg.y * dailySd) / Math.sqrt(dailyVolume);
}

/** E[sqrt(notional)] of one taker order of the pair's size law, sqrt(USDT). */
export function meanSqrtNotional(params: SymbolSimParams): number {
  return SIZE.sqrtMean * Math.sqrt(params.takerMedianNotional);
}

/**
 * One pair's impact state: the transient offset of the fair price (log, over the index) and the
 * order being filled (consecutive fills of one taker side at one time are one order).
 */
export class Impact {
  readonly scale: number;
  readonly cfg: ImpactSettings;
  /** Log offset of the book's fair price over the index. */
  transient = 0;
  /** Permanent log move not yet passed to the latent price. */
  pending = 0;
  /** Log move of the fills since the last step, and of the fills before it (applied with it). */
  private added = 0;
  private fresh = 0;
  private muted = false;
  private side = 0;
  private time = Number.NaN;
  private notional = 0;

  /** `transient`: the offset to start from (a restarted market's, where it stopped). */
  constructor(scale: number, cfg: ImpactSettings = DEFAULT_IMPACT, transient = 0) {
    if (!(scale >= 0) || !(cfg.y >= 0) || !(cfg.permanent >= 0 && cfg.permanent <= 1) || !(cfg.tauS > 0))
      throw new RangeError('bad impact settings');
    if (!Number.isFinite(transient)) throw new RangeError('the transient impact offset must be finite');
    this.scale = scale;
    this.cfg = cfg;
    this.transient = transient;
  }

  /** A fill of `notional` USDT taken on `side` (1 buy, 2 sell) at market time `time` (nothing inside without()). */
  fill(side: number, time: number, notional: number): void {
    if (this.muted) return;
    if (side !== this.side || time !== this.time) {
      this.side = side;
      this.time = time;
      this.notional = 0;
    }
    const before = Math.sqrt(this.notional);
    this.notional += notional;
    this.add((side === 1 ? 1 : -1) * this.scale * (Math.sqrt(this.notional) - before));
  }

  /** Ends the order being filled (the next fill starts another, even at the same side and time). */
  endOrder(): void {
    this.side = 0;
  }

  /** A log move of `move` in all: its permanent share to `pending`, the rest to the transient offset. */
  add(move: number): void {
    this.added += move;
    this.pending += this.cfg.permanent * move;
    this.transient += (1 - this.cfg.permanent) * move;
  }

  /**
   * Before a move of dtMs: passes the permanent move not yet applied to the latent price and the
   * venues' memory of it, decays the transient offset, and keeps the log move the fills since the
   * last step gave the fair price (`fresh`).
   */
  step(latent: { shift(move: number): void }, venues: { shift(move: number): void }, dtMs: number): void {
    latent.shift(this.pending);
    venues.shift(this.pending);
    this.pending = 0;
    this.fresh = this.added;
    this.added = 0;
    this.transient *= Math.exp(-dtMs / 1000 / this.cfg.tauS);
  }

  /** The fair price before this step's fresh impact: the arbitrage trades only the quotes that moves from elsewhere left stale. */
  arbitrageFair(fair: number): number {
    return fair * Math.exp(-this.fresh);
  }

  /** The fair price the book quotes around: the index times e^transient. */
  fair(index: number): number {
    return index * Math.exp(this.transient);
  }

  /** Runs fn (the arbitrage: its orders follow moves already made) with its fills left out; the order ends with it. */
  without(fn: () => void): void {
    this.muted = true;
    try {
      fn();
    } finally {
      this.muted = false;
      this.side = 0;
    }
  }
}
