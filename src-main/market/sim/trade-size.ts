// Taker order sizes: a log-normal body with a Pareto tail of index about 1.5, the "inverse
// half-cubic" law of trade sizes (Gopikrishnan, Plerou, Gabaix and Stanley 2000; Gabaix,
// Gopikrishnan, Plerou and Stanley 2003, "A theory of power-law distributions in financial
// market fluctuations"), with round-lot clustering.
//
// Draw: notional = c x e^(sigma z) x P, P a Pareto(1, alpha), z standard normal, c set once so
// that the median is `median` exactly (the median of log notional, a normal plus an exponential,
// found by bisection). The product of a log-normal and a Pareto keeps the Pareto's tail index
// (Breiman's lemma).
// Round lots: with probability `roundShare` the quantity is rounded to one significant digit of
// the base asset (0.01, 0.05, 0.3 BTC, ...), the clustering at round numbers that human and
// algorithmic traders both show (Alexander and Peterson 2007).
// There is no cap here: the simulator limits an order to what the book can absorb.
import type { Rng } from './rng.ts';

export class TradeSizes {
  private readonly rng: Rng;
  private readonly alpha: number;
  private readonly sigma: number;
  private readonly roundShare: number;
  private readonly c: number;

  constructor(rng: Rng, medianNotional: number, alpha = 1.5, sigma = 1, roundShare = 0.3) {
    if (!(medianNotional > 0 && alpha > 0 && sigma >= 0 && roundShare >= 0 && roundShare <= 1))
      throw new RangeError('bad trade-size settings');
    this.rng = rng;
    this.alpha = alpha;
    this.sigma = sigma;
    this.roundShare = roundShare;
    this.c = medianNotional / Math.exp(logMedian(sigma, alpha));
  }

  /** A notional in USDT. */
  notional(): number {
    const p = Math.pow(1 - this.rng.next(), -1 / this.alpha);
    return this.c * Math.exp(this.sigma * this.rng.normal()) * p;
  }

  /** A quantity in base units for a notional at `price`, rounded to a round lot now and then. */
  quantity(price: number): number {
    const q = this.notional() / price;
    return this.rng.next() < this.roundShare ? roundLot(q) : q;
  }
}

/** The median of sigma Z + E / alpha (Z standard normal, E Exp(1)): bisection on its CDF. */
export function logMedian(sigma: number, alpha: number): number {
  const cdf = (c: number): number => {
    // P(sigma Z + E/alpha <= c) = integral over e of Phi((c - e/alpha) / sigma) e^-e, midpoint rule
    const n = 400;
    const top = 40;
    let s = 0;
    for (let i = 0; i < n; i++) {
      const e = ((i + 0.5) * top) / n;
      const x = c - e / alpha;
      s += (sigma > 0 ? phi(x / sigma) : x >= 0 ? 1 : 0) * Math.exp(-e);
    }
    return (s * top) / n;
  };
  let lo = -10 * (sigma + 1);
  let hi = 10 * (sigma + 1 / alpha + 1);
  for (let k = 0; k < 60; k++) {
    const m = (lo + hi) / 2;
    if (cdf(m) < 0.5) lo = m;
    else hi = m;
  }
  return (lo + hi) / 2;
}

/** Standard normal CDF (Abramowitz and Stegun 7.1.26 through erf; error below 1.5e-7). */
function phi(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const y =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-z * z);
  return x >= 0 ? 0.5 * (1 + y) : 0.5 * (1 - y);
}

/** q rounded to one significant digit (0.0347 -> 0.03, 7.6 -> 8). */
export function roundLot(q: number): number {
  if (!(q > 0)) return q;
  const e = Math.pow(10, Math.floor(Math.log10(q)));
  return Math.max(1, Math.round(q / e)) * e;
}
