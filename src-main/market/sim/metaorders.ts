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

/** Children of a parent are capped (a parent of a million children would freeze one side for hours). */
const MAX_CHILDREN = 20_000;

/** A parent's number of children: discrete Pareto, P(L >= l) = l^-alpha (l >= 1), capped at MAX_CHILDREN. */
export function parentLength(rng: Rng, alpha: number): number {
  // the floor of a continuous Pareto with minimum 1
  return Math.min(MAX_CHILDREN, Math.floor(Math.pow(1 - rng.next(), -1 / alpha)));
}

export class Metaorders {
  private readonly signs: Int8Array;
  private readonly left: Int32Array;
  private readonly rng: Rng;
  private readonly alpha: number;
  private readonly share: number;

  constructor(rng: Rng, active: number, alpha: number, share: number) {
    if (!(Number.isInteger(active) && active >= 1)) throw new RangeError('active must be an integer >= 1');
    if (!(alpha > 1)) throw new RangeError('alpha must be > 1 (a finite mean length)');
    if (!(share >= 0 && share <= 1)) throw new RangeError('share must be in [0, 1]');
    this.rng = rng;
    this.alpha = alpha;
    this.share = share;
    this.signs = new Int8Array(active);
    this.left = new Int32Array(active);
    for (let i = 0; i < active; i++) this.renew(i);
  }

  private renew(i: number, bias = 0): void {
    this.signs[i] = this.rng.next() < 0.5 + bias ? 1 : -1;
    this.left[i] = parentLength(this.rng, this.alpha);
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
