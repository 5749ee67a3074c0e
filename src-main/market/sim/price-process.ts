// The latent ("true") price of a symbol: a martingale in price with stochastic volatility and
// jumps, stepped in explicit time increments.
//
// Model, per step of dt seconds:
//   r = sqrt(v dt) z - v dt / 2 + jumps           (log return; E[price] is unchanged)
//   h = log v follows an Ornstein-Uhlenbeck process around hBar (half-life 4 h), stepped with
//       its exact transition, whose shock is correlated (rho 0.6) with |z|: a large return
//       raises the variance that follows it, as in GARCH(1,1), so quiet and wild stretches
//       cluster; a jump also lifts h. Unlike a discrete GARCH the model means the same thing at
//       any dt, so 250 ms live steps and 15 s history steps share one parameter set.
//   jumps arrive as a Poisson process (the "budget" trick: an Exp(1) budget drained by rate x dt,
//   so steps without a jump draw nothing), log size Laplace(scale) minus its compensator.
// hBar is set so that the long-run variance of the returns, jumps included, is volatility^2 per
// year: the jumps' own variance (rate x 2 scale^2) is taken out of it, and so is the lift the
// jumps give h (a shot noise of JUMP_H kicks decaying at KAPPA: E[e^X] = e^(rate/KAPPA x
// Ein(JUMP_H))), so E[v] = e^(hBar + sd^2/2 + lift) is the diffusion's share. Before, the
// configured figure was the diffusion's alone, before the jumps and their lift: realised
// volatility ran 15 % (BTC) to 75 % (memes) above it. h is kept within its mean +- 4 sd and the
// price within [minPrice, maxPrice] (reflected), so no path leaves the engine's tick range.
// Draws per step: two normals (one Box-Muller pair); jumps draw only when one happens.
import { MS_PER_YEAR, type SymbolSimParams } from './params.ts';
import type { Rng } from './rng.ts';

const HALF_LIFE_S = 4 * 3600;
const KAPPA = Math.LN2 / HALF_LIFE_S;
/** Stationary standard deviation of h: variance regimes span about x0.25 .. x4 (2 sd). */
const H_SD = 0.7;
const XI = H_SD * Math.sqrt(2 * KAPPA);
const RHO = 0.6;
const ABS_Z_MEAN = Math.sqrt(2 / Math.PI);
const ABS_Z_SD = Math.sqrt(1 - 2 / Math.PI);
/** A jump multiplies the variance by e^JUMP_H (x1.8). */
const JUMP_H = 0.6;
/** Ein(JUMP_H) = sum over k >= 1 of JUMP_H^k / (k k!): log E[e^X] of the jumps' shot noise X on h, per jump and 1/KAPPA. */
const JUMP_LIFT = ein(JUMP_H);
/** The diffusion keeps at least this share of the configured variance, whatever the jumps. */
const MIN_DIFFUSION_SHARE = 0.25;

function ein(x: number): number {
  let sum = 0;
  let term = 1;
  for (let k = 1; k < 30; k++) {
    term *= x / k;
    sum += term / k;
  }
  return sum;
}

export interface ProcessState {
  price: number;
  /** log of the variance per second; NaN or absent = start at the long-run level. */
  h?: number;
}

export class PriceProcess {
  logPrice: number;
  h: number;
  readonly hBar: number;
  /** The long-run mean of h (hBar plus the jumps' mean lift), the centre of its clamp. */
  private readonly hMean: number;
  /** log E[e^h] - hBar - H_SD^2 / 2: what the jumps add to the mean variance. */
  private readonly lift: number;
  private readonly jumpRatePerS: number;
  private readonly jumpScale: number;
  private readonly jumpComp: number;
  private jumpBudget: number;
  private readonly rng: Rng;
  private readonly logMin: number;
  private readonly logMax: number;
  /** Last step's diffusion shock z (for tests and the taker intensity). */
  lastZ = 0;
  /** Jumps so far. */
  jumps = 0;
  /** The variance's OU transition for the last step length (dtMs): decay and shock sd. */
  private dtMs = NaN;
  private decay = 0;
  private shockSd = 0;

  constructor(
    params: Pick<SymbolSimParams, 'volatility' | 'jumpsPerDay' | 'jumpScale'>,
    start: ProcessState,
    rng: Rng,
    bounds: { min: number; max: number },
  ) {
    if (!(start.price > 0)) throw new RangeError(`start price must be > 0, got ${start.price}`);
    this.rng = rng;
    const vBar = (params.volatility * params.volatility) / (MS_PER_YEAR / 1000);
    this.jumpRatePerS = params.jumpsPerDay / 86_400;
    this.jumpScale = params.jumpScale;
    const b = params.jumpScale;
    const jumpVar = this.jumpRatePerS * 2 * b * b;
    this.lift = (this.jumpRatePerS / KAPPA) * JUMP_LIFT;
    const diffusion = Math.max(MIN_DIFFUSION_SHARE * vBar, vBar - jumpVar);
    this.hBar = Math.log(diffusion) - (H_SD * H_SD) / 2 - this.lift;
    this.hMean = this.hBar + (this.jumpRatePerS / KAPPA) * JUMP_H;
    this.h = start.h !== undefined && Number.isFinite(start.h) ? this.clampH(start.h) : this.hMean;
    // E[e^J] of Laplace(b) is 1 / (1 - b^2) for b < 1
    this.jumpComp = b > 0 ? -Math.log(1 - b * b) : 0;
    this.jumpBudget = rng.exp();
    this.logMin = Math.log(bounds.min);
    this.logMax = Math.log(bounds.max);
    this.logPrice = Math.min(this.logMax, Math.max(this.logMin, Math.log(start.price)));
  }

  get price(): number {
    return Math.exp(this.logPrice);
  }

  /** Instantaneous variance per second. */
  get variance(): number {
    return Math.exp(this.h);
  }

  /** Long-run mean variance of the diffusion per second (the jumps' lift included). */
  get meanVariance(): number {
    return Math.exp(this.hBar + (H_SD * H_SD) / 2 + this.lift);
  }

  /** Current annualized volatility. */
  get annualVol(): number {
    return Math.sqrt(this.variance * (MS_PER_YEAR / 1000));
  }

  /**
   * Advances by dtMs (> 0) of calendar time and returns the log return of the step. `pace` (mean
   * 1, default 1) is the business time of the step per unit of calendar time: the diffusion's
   * variance over the step is v x dt x pace, the variance process h runs in calendar time.
   */
  advance(dtMs: number, pace = 1): number {
    const dt = dtMs / 1000;
    const v = Math.exp(this.h);
    const z = this.rng.normal();
    const w = this.rng.normal();
    this.lastZ = z;
    const vdt = v * dt * pace;
    let r = Math.sqrt(vdt) * z - 0.5 * vdt;

    if (this.jumpRatePerS > 0) {
      this.jumpBudget -= this.jumpRatePerS * dt;
      while (this.jumpBudget <= 0) {
        r += this.rng.laplace(this.jumpScale) - this.jumpComp;
        this.h += JUMP_H;
        this.jumps++;
        this.jumpBudget += this.rng.exp();
      }
    }

    if (dtMs !== this.dtMs) {
      this.dtMs = dtMs;
      this.decay = Math.exp(-KAPPA * dt);
      this.shockSd = XI * Math.sqrt((1 - this.decay * this.decay) / (2 * KAPPA));
    }
    const decay = this.decay;
    const shockSd = this.shockSd;
    const shock = RHO * ((Math.abs(z) - ABS_Z_MEAN) / ABS_Z_SD) + Math.sqrt(1 - RHO * RHO) * w;
    this.h = this.clampH(this.hBar + (this.h - this.hBar) * decay + shockSd * shock);

    let lp = this.logPrice + r;
    if (lp < this.logMin) lp = 2 * this.logMin - lp;
    else if (lp > this.logMax) lp = 2 * this.logMax - lp;
    const applied = lp - this.logPrice;
    this.logPrice = lp;
    return applied;
  }

  /** Moves the log price by `move` (the permanent share of price impact, impact.ts), within the bounds. */
  shift(move: number): void {
    this.logPrice = Math.min(this.logMax, Math.max(this.logMin, this.logPrice + move));
  }

  private clampH(h: number): number {
    const lo = this.hMean - 4 * H_SD;
    const hi = this.hMean + 4 * H_SD;
    return h < lo ? lo : h > hi ? hi : h;
  }
}
