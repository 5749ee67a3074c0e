// Self-exciting arrivals (a Hawkes process, Hawkes 1971) for the taker flow: every arrival raises
// the intensity, which then decays back, so trades come in bursts as they do on real venues
// (Bacry, Mastromatteo and Muzy 2015 review the fits to order flow; crypto venues show branching
// ratios of 0.6-0.9).
//
// Model: lambda(t) = mu(t) + sum over past arrivals t_i of n beta e^(-beta (t - t_i)).
//   n (the branching ratio, 0 <= n < 1) is the mean number of arrivals each arrival triggers;
//   beta (per second) how fast the excitement fades. Sub-critical (n < 1), so the long-run mean
//   intensity is mu / (1 - n) for a constant mu, and counts over windows much longer than 1/beta
//   have a variance of about mean / (1 - n)^2 (Poisson: the mean).
// The baseline mu(t) is given per step by the caller (activity profile, volatility, the slow
// activity factor), and is constant inside a step.
// Simulation is exact for that baseline (Ogata's thinning: between arrivals the intensity only
// falls, so its value at the last arrival bounds it), with event times inside the step; each
// arrival costs two uniform draws and a rejected candidate two more.
import type { Rng } from './rng.ts';

export class Hawkes {
  readonly n: number;
  readonly beta: number;
  /** The self-excited part of the intensity (per second) at the end of the last step. */
  excitation = 0;
  private readonly rng: Rng;

  constructor(rng: Rng, branching: number, betaPerS: number) {
    if (!(branching >= 0 && branching < 1)) throw new RangeError(`branching ratio must be in [0, 1), got ${branching}`);
    if (!(betaPerS > 0)) throw new RangeError(`beta must be > 0, got ${betaPerS}`);
    this.rng = rng;
    this.n = branching;
    this.beta = betaPerS;
  }

  /**
   * Arrivals in the next dtMs of time at baseline mu (per second). Writes their offsets (ms from
   * the step's start, ascending) into `out` when given, and returns the count.
   */
  step(dtMs: number, mu: number, out?: number[]): number {
    const T = dtMs / 1000;
    const jump = this.n * this.beta;
    let t = 0;
    let e = this.excitation;
    let count = 0;
    if (out) out.length = 0;
    for (;;) {
      const bound = mu + e;
      if (!(bound > 0)) break;
      const w = -Math.log(1 - this.rng.next()) / bound;
      if (t + w >= T) {
        e *= Math.exp(-this.beta * (T - t));
        break;
      }
      t += w;
      e *= Math.exp(-this.beta * w);
      if (this.rng.next() * bound <= mu + e) {
        count++;
        e += jump;
        if (out) out.push(t * 1000);
      }
    }
    this.excitation = e;
    return count;
  }
}

/**
 * A slowly varying activity factor: exp(x - s^2/2) with x an Ornstein-Uhlenbeck process of
 * stationary standard deviation s and the given half-life, so its mean is 1. It carries the
 * minute-scale swings of trading activity that a Hawkes kernel of seconds cannot (real per-minute
 * trade counts vary with a coefficient of variation of 0.6-0.9).
 */
export class ActivityFactor {
  private x = 0;
  private readonly sd: number;
  private readonly kappa: number;
  private readonly rng: Rng;
  private dtMs = NaN;
  private a = 0;
  private b = 0;

  constructor(rng: Rng, sd: number, halfLifeS: number) {
    this.rng = rng;
    this.sd = sd;
    this.kappa = Math.LN2 / halfLifeS;
    this.x = sd * rng.normal();
  }

  /** The driving OU process itself (mean 0, standard deviation sd). */
  get log(): number {
    return this.x;
  }

  get value(): number {
    return Math.exp(this.x - (this.sd * this.sd) / 2);
  }

  /** Advances by dtMs (exact OU transition) and returns the new value. */
  advance(dtMs: number): number {
    this.step(dtMs);
    return this.value;
  }

  /** advance() without computing the value. */
  step(dtMs: number): void {
    // the transition's two coefficients, kept for the last step length (callers use one or two)
    if (dtMs !== this.dtMs) {
      this.dtMs = dtMs;
      this.a = Math.exp((-this.kappa * dtMs) / 1000);
      this.b = this.sd * Math.sqrt(1 - this.a * this.a);
    }
    this.x = this.x * this.a + this.b * this.rng.normal();
  }
}
