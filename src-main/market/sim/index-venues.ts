// The index price of one symbol: a weighted average of synthetic spot venues.
//
// Each venue sees the latent price a few steps late (its lag), times its own basis, a slow
// mean-reverting log offset (OU, time constant 20 s, stationary sd = the symbol's venueBasis).
// No white noise on top: the book follows the index, so a per-step noise (it was a quarter of the
// basis sd a venue and step, 20 ticks on BTCUSDT, 1-1.5 bp on the memes) moved the touch back and
// forth every step, printed its jitter on the tape and fed the arbitrage several orders a second. Venues drop out (Poisson, a few times a day each) and
// come back after an exponential while (mean 2 min, at most 15 min); the index averages the
// venues that are up, weights renormalised. A venue never drops while it is the last one up,
// so there is always an index. Everything is stepped at fixed dt; the lag ring holds the latent
// log price of the last MAX_LAG_STEPS steps.
import type { Rng } from './rng.ts';

export interface VenueSpec {
  name: string;
  weight: number;
  /** Delay in steps behind the latent price. */
  lagSteps: number;
}

export const DEFAULT_VENUES: readonly VenueSpec[] = [
  { name: 'alpha', weight: 0.4, lagSteps: 0 },
  { name: 'bravo', weight: 0.35, lagSteps: 1 },
  { name: 'charlie', weight: 0.25, lagSteps: 3 },
];

export interface VenueView {
  name: string;
  weight: number;
  up: boolean;
  price: number;
}

/** Time constant of a venue's basis, seconds. */
export const BASIS_TAU_S = 20;
const OUTAGES_PER_DAY = 3;
const OUTAGE_MEAN_MS = 120_000;
const OUTAGE_MAX_MS = 15 * 60_000;
const MAX_LAG_STEPS = 8;

interface Venue {
  spec: VenueSpec;
  basis: number;
  up: boolean;
  downUntil: number;
  outageBudget: number;
  price: number;
}

/**
 * The variance the venues' bases add to the index's log move over a step of dtMs (all venues up):
 * each basis is an OU of stationary sd basisSd, whose step shock has variance basisSd^2 (1 - decay^2).
 */
export function basisStepVariance(basisSd: number, dtMs: number, specs: readonly VenueSpec[] = DEFAULT_VENUES): number {
  let sw = 0;
  let sw2 = 0;
  for (const v of specs) {
    sw += v.weight;
    sw2 += v.weight * v.weight;
  }
  const decay = Math.exp(-dtMs / 1000 / BASIS_TAU_S);
  return (sw2 / (sw * sw)) * basisSd * basisSd * (1 - decay * decay);
}

export class IndexVenues {
  private readonly venues: Venue[];
  private readonly rng: Rng;
  private readonly basisSd: number;
  private readonly ring = new Float64Array(MAX_LAG_STEPS + 1);
  private head = 0;
  private readonly outageRatePerMs: number;
  index = 0;
  /** Outages started so far. */
  outages = 0;

  constructor(
    rng: Rng,
    logPrice: number,
    basisSd: number,
    specs: readonly VenueSpec[] = DEFAULT_VENUES,
    outagesPerDay = OUTAGES_PER_DAY,
  ) {
    if (specs.length === 0) throw new RangeError('at least one venue');
    this.rng = rng;
    this.basisSd = basisSd;
    this.outageRatePerMs = outagesPerDay / 86_400_000;
    this.ring.fill(logPrice);
    this.venues = specs.map((spec) => {
      if (
        !(spec.weight > 0) ||
        !Number.isInteger(spec.lagSteps) ||
        spec.lagSteps < 0 ||
        spec.lagSteps > MAX_LAG_STEPS
      ) {
        throw new RangeError(`venue ${spec.name}: weight > 0 and lagSteps 0..${MAX_LAG_STEPS}`);
      }
      return {
        spec,
        basis: basisSd * rng.normal(),
        up: true,
        downUntil: 0,
        outageBudget: rng.exp(),
        price: Math.exp(logPrice),
      };
    });
    this.index = this.average();
  }

  /** Steps every venue by dtMs to time t with the latent log price now; returns the index. */
  update(t: number, dtMs: number, logPrice: number): number {
    this.head = (this.head + 1) % this.ring.length;
    this.ring[this.head] = logPrice;
    const decay = Math.exp(-dtMs / 1000 / BASIS_TAU_S);
    const shock = this.basisSd * Math.sqrt(1 - decay * decay);
    let upCount = 0;
    for (const v of this.venues) if (v.up) upCount++;
    for (const v of this.venues) {
      v.basis = v.basis * decay + shock * this.rng.normal();
      if (!v.up && t >= v.downUntil) {
        v.up = true;
        upCount++;
      }
      if (this.outageRatePerMs > 0) {
        v.outageBudget -= this.outageRatePerMs * dtMs;
        if (v.outageBudget <= 0) {
          v.outageBudget += this.rng.exp();
          const length = Math.min(OUTAGE_MAX_MS, OUTAGE_MEAN_MS * this.rng.exp());
          if (v.up && upCount > 1) this.takeDown(v, t + length);
          if (!v.up) upCount = this.venues.filter((x) => x.up).length;
        }
      }
      const lagged = this.ring[(this.head - v.spec.lagSteps + this.ring.length) % this.ring.length];
      v.price = Math.exp(lagged + v.basis);
    }
    this.index = this.average();
    return this.index;
  }

  /** Moves the latent log price every venue has seen by `move` (the permanent share of price impact: the venues follow it at once). */
  shift(move: number): void {
    for (let i = 0; i < this.ring.length; i++) this.ring[i] += move;
  }

  /** Jumps every lag back to `logPrice` (after the simulator skipped a long stretch). */
  resync(logPrice: number): void {
    this.ring.fill(logPrice);
  }

  /** Forces a venue down until `until` (tests, drills); refused for the last venue up. */
  setDown(name: string, until: number): boolean {
    const v = this.venues.find((x) => x.spec.name === name);
    if (!v) throw new RangeError(`no venue '${name}'`);
    if (!v.up) {
      v.downUntil = Math.max(v.downUntil, until);
      return true;
    }
    if (this.venues.filter((x) => x.up).length <= 1) return false;
    this.takeDown(v, until);
    this.index = this.average();
    return true;
  }

  private takeDown(v: Venue, until: number): void {
    v.up = false;
    v.downUntil = until;
    this.outages++;
  }

  private average(): number {
    let sw = 0;
    let sp = 0;
    for (const v of this.venues) {
      if (!v.up) continue;
      sw += v.spec.weight;
      sp += v.spec.weight * v.price;
    }
    return sp / sw;
  }

  view(): VenueView[] {
    return this.venues.map((v) => ({ name: v.spec.name, weight: v.spec.weight, up: v.up, price: v.price }));
  }

  get upCount(): number {
    let n = 0;
    for (const v of this.venues) if (v.up) n++;
    return n;
  }
}
