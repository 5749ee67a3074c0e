// The touch's resiliency after a sweep: a taker that walks through the whole ladder leaves a hole
// the crowd does not quote at once. Real books refill over seconds, not a step: the spread widens
// and decays back, and the depth the sweep took comes back with a half-life of seconds (Obizhaeva
// and Wang 2013, "Optimal trading strategy and supply/demand dynamics", J. Financial Markets 16;
// Large 2007; Degryse, de Jong and van Kervel 2015 for the recovery after large trades).
// Keeps true: per side, `hole` ticks from the side's target are left unquoted by the touch and
// the band (the spread is 1 + both holes), the hole decays as e^(-t ln2 / holeHalfLifeS) and is
// dropped under one tick; the ladder levels within `swept` ticks of the target are quoted again
// at the rate ln2 / depthHalfLifeS each instead of at once, and `swept` decays likewise.
// The model: docs/simulated-market.md, "The touch" (resiliency).

export interface ResilienceSettings {
  /** A sweep opens a hole when it reaches past the ladder and past this share of the price (ticks: the larger). */
  minReach: number;
  /** A move of the fair price past this share of the price in one step (a jump) opens a hole on the side it moved towards, as a sweep of that reach. */
  jumpReach: number;
  /** Share of a sweep's reach past the ladder (ticks) left unquoted right after it. */
  holeShare: number;
  /** Half-life of that hole, seconds. */
  holeHalfLifeS: number;
  /** Half-life at which emptied ladder levels within a sweep's reach are quoted again, seconds. */
  depthHalfLifeS: number;
}

export const DEFAULT_RESILIENCE: ResilienceSettings = {
  minReach: 0.0002,
  jumpReach: 0.001,
  holeShare: 0.5,
  holeHalfLifeS: 1,
  depthHalfLifeS: 3,
};

/** One side's state: ticks from its target left unquoted, and the reach of its last sweeps (ticks from the target). */
export class SideGap {
  hole = 0;
  swept = 0;
  /** The hole's whole ticks the side quoted around at its last step (a change is a new best price). */
  shown = 0;

  /** A sweep that reached `reach` ticks past the side's target; `least`: the ticks it must pass (resilience settings' minReach, the ladder). */
  open(reach: number, least: number, cfg: ResilienceSettings): void {
    if (!(reach > least)) return;
    this.hole = Math.max(this.hole, cfg.holeShare * (reach - least));
    this.swept = Math.max(this.swept, reach);
  }

  /** The decay over dt seconds. */
  decay(dt: number, cfg: ResilienceSettings): void {
    if (this.hole > 0) {
      this.hole *= Math.exp((-dt * Math.LN2) / cfg.holeHalfLifeS);
      if (this.hole < 1) this.hole = 0;
    }
    if (this.swept > 0) {
      this.swept *= Math.exp((-dt * Math.LN2) / cfg.depthHalfLifeS);
      if (this.swept < 1) this.swept = 0;
    }
  }

  /** Whole ticks from the target left unquoted. */
  get holeTicks(): number {
    return Math.floor(this.hole);
  }
}
