// The sign of each taker order: parent orders (metaorders) split into same-sign children, after
// Lillo, Mike and Farmer (2005, "Theory for long memory in supply and demand") and Lillo and
// Farmer (2004, "The long memory of the efficient market").
//
// Model: `active` parent orders run at once, each with a sign (buy or sell, even odds) and a
// number of children left, drawn from a discrete Pareto law P(L >= l) = l^-alpha (alpha about
// 1.5). Each taker order comes from one of them, picked uniformly, with probability `share`;
// otherwise it is an independent order of random sign. A parent that has sent its last child is
// replaced by a new one. The signs then have a positive autocorrelation that decays as a power
// law, about lag^-(alpha - 1) (lag^-0.5 for 1.5; measured on real venues about lag^-0.6), instead
// of the zero of independent signs, while buys and sells stay balanced on average.
// Herding: next(bias) tilts the sign of independent orders and of new parents towards buying by
// `bias` (-0.5..0.5); the order flow passes a slowly varying bias (minutes), the persistence of
// the taker imbalance from one minute to the next that parents of seconds cannot give.
import type { Rng } from './rng.ts';

/** Parents of fewer children are drawn in bulk by Metaorders.buys. */
const SHORT = 16;

/** Of the parents shorter than SHORT: E[L^2] / E[L], and the mean children of a run of them before a longer one. */
function shortLaw(alpha: number): { lengthRatio: number; runMean: number } {
  let m1 = 0;
  let m2 = 0;
  let p = 0;
  for (let l = 1; l < SHORT; l++) {
    const pl = l ** -alpha - (l + 1) ** -alpha;
    p += pl;
    m1 += pl * l;
    m2 += pl * l * l;
  }
  const pLong = SHORT ** -alpha;
  return { lengthRatio: m2 / m1, runMean: ((1 - pLong) / pLong) * (m1 / p) };
}

/** Children of a parent are capped (a parent of a million children would freeze one side for hours). */
const MAX_CHILDREN = 20_000;

/** A parent's number of children: discrete Pareto, P(L >= l) = l^-alpha (l >= 1), capped at MAX_CHILDREN. */
export function parentLength(rng: Rng, alpha: number): number {
  // the floor of a continuous Pareto with minimum 1 (below 1 - 2^-alpha it is 1: no power needed)
  const u = rng.next();
  if (u < 1 - Math.pow(2, -alpha)) return 1;
  return Math.min(MAX_CHILDREN, Math.floor(Math.pow(1 - u, -1 / alpha)));
}

export class Metaorders {
  private readonly signs: Int8Array;
  private readonly left: Int32Array;
  private readonly rng: Rng;
  private readonly alpha: number;
  private readonly share: number;
  private readonly short: { lengthRatio: number; runMean: number };

  constructor(rng: Rng, active: number, alpha: number, share: number) {
    if (!(Number.isInteger(active) && active >= 1)) throw new RangeError('active must be an integer >= 1');
    if (!(alpha > 1)) throw new RangeError('alpha must be > 1 (a finite mean length)');
    if (!(share >= 0 && share <= 1)) throw new RangeError('share must be in [0, 1]');
    this.rng = rng;
    this.alpha = alpha;
    this.share = share;
    this.short = shortLaw(alpha);
    this.signs = new Int8Array(active);
    this.left = new Int32Array(active);
    for (let i = 0; i < active; i++) this.renew(i);
  }

  private renew(i: number, bias = 0): void {
    this.signs[i] = this.rng.next() < 0.5 + bias ? 1 : -1;
    this.left[i] = parentLength(this.rng, this.alpha);
  }

  /**
   * The number of buys among the next n orders, in about the law of n calls of next(bias), drawn
   * by parent rather than by order (for the history, where orders come by the thousand): the
   * independent orders are their expected share, each parent's share binomial; parents of SHORT children or more
   * are drawn one by one (L = floor(SHORT x U^(-1/alpha))) and consumed in runs; the shorter ones
   * between them come in runs of an exponential number of children (mean: the expected children
   * of a geometric run of short parents), and their signed sum is normal with the variance of a
   * renewal-reward sum, E[L^2] / E[L] per child, pooled with the independent orders'.
   */
  buys(n: number, bias = 0): number {
    const rng = this.rng;
    const sh = this.short;
    // the count of independent orders at its mean: its spread barely moves the signed sum
    const indep = Math.round(n * (1 - this.share));
    let rest = n - indep;
    let buys = 0;
    let shortChildren = 0;
    const active = this.signs.length;
    for (let i = 0; i < active; i++) {
      let k = i === active - 1 ? rest : binomial(rng, rest, 1 / (active - i));
      rest -= k;
      while (k > 0) {
        if (this.left[i] > 0) {
          const c = Math.min(k, this.left[i]);
          if (this.signs[i] === 1) buys += c;
          k -= c;
          this.left[i] -= c;
          continue;
        }
        const run = Math.round(rng.exp() * sh.runMean);
        if (run >= k) {
          shortChildren += k;
          break;
        }
        shortChildren += run;
        k -= run;
        this.signs[i] = rng.next() < 0.5 + bias ? 1 : -1;
        this.left[i] = Math.min(MAX_CHILDREN, Math.floor(SHORT * Math.pow(1 - rng.next(), -1 / this.alpha)));
      }
      // a parent left without children is replaced now, as next() does
      if (this.left[i] <= 0) this.renew(i, bias);
    }
    const pooled = indep + shortChildren;
    if (pooled === 0) return buys;
    const sd = 0.5 * Math.sqrt(indep + shortChildren * sh.lengthRatio);
    const b = Math.round(pooled * (0.5 + bias) + sd * rng.normal());
    return buys + (b < 0 ? 0 : b > pooled ? pooled : b);
  }

  /** The sign (+1 buy, -1 sell) of the next taker order; bias in [-0.5, 0.5] tilts new signs to buying. */
  next(bias = 0): 1 | -1 {
    const u = this.rng.next();
    if (u >= this.share) return this.rng.next() < 0.5 + bias ? 1 : -1;
    const i = Math.min(this.signs.length - 1, Math.floor((u / this.share) * this.signs.length));
    const s = this.signs[i] as 1 | -1;
    if (--this.left[i] <= 0) this.renew(i, bias);
    return s;
  }
}

/** A Binomial(n, p) draw: exact below 8 trials, the normal approximation (rounded, clamped) above. */
export function binomial(rng: Rng, n: number, p: number): number {
  if (n < 8) {
    let k = 0;
    for (let i = 0; i < n; i++) if (rng.next() < p) k++;
    return k;
  }
  const k = Math.round(n * p + Math.sqrt(n * p * (1 - p)) * rng.normal());
  return k < 0 ? 0 : k > n ? n : k;
}
