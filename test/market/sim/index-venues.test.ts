import { describe, expect, it } from 'vitest';
import { IndexVenues } from '../../../src-main/market/sim/index-venues.ts';
import { Rng } from '../../../src-main/market/sim/rng.ts';
import { Simulator } from '../../../src-main/market/sim/simulator.ts';
import { T0, testVenue } from './helpers.ts';

const STEP = 250;

describe('index from synthetic venues', () => {
  it('is the weighted average of the venues that are up, renormalised through a dropout', () => {
    const v = new IndexVenues(Rng.stream(1, 'idx'), Math.log(100), 0.0005, undefined, 0);
    let t = T0;
    const check = () => {
      const up = v.view().filter((x) => x.up);
      const w = up.reduce((a, x) => a + x.weight, 0);
      expect(v.index).toBeCloseTo(up.reduce((a, x) => a + x.weight * x.price, 0) / w, 9);
    };
    for (let i = 0; i < 40; i++) {
      v.update((t += STEP), STEP, Math.log(100));
      check();
      expect(Math.abs(v.index / 100 - 1)).toBeLessThan(0.003);
    }
    expect(v.setDown('alpha', t + 10_000)).toBe(true);
    v.update((t += STEP), STEP, Math.log(100));
    const [alpha, bravo, charlie] = v.view();
    expect(alpha.up).toBe(false);
    expect(v.index).toBeCloseTo((0.35 * bravo.price + 0.25 * charlie.price) / 0.6, 9);
    expect(v.index).not.toBeCloseTo((0.4 * alpha.price + 0.35 * bravo.price + 0.25 * charlie.price) / 1, 9);
    // the last venue up cannot drop
    expect(v.setDown('bravo', t + 10_000)).toBe(true);
    expect(v.setDown('charlie', t + 10_000)).toBe(false);
    v.update((t += STEP), STEP, Math.log(100));
    expect(v.index).toBeCloseTo(v.view()[2].price, 9);
    // back after the outage
    while (t < T0 + 40 * STEP + 10_000 + STEP) v.update((t += STEP), STEP, Math.log(100));
    expect(v.view().every((x) => x.up)).toBe(true);
    check();
  });

  it('venues see the latent price with their lags', () => {
    const v = new IndexVenues(Rng.stream(1, 'lag'), Math.log(100), 0, undefined, 0); // no basis: exact prices
    let t = T0;
    v.update((t += STEP), STEP, Math.log(100));
    const seen: number[][] = [];
    for (let i = 0; i < 5; i++) {
      v.update((t += STEP), STEP, Math.log(110));
      seen.push(v.view().map((x) => Math.round(x.price * 1e6) / 1e6));
    }
    // alpha lag 0, bravo lag 1, charlie lag 3
    expect(seen).toEqual([
      [110, 100, 100],
      [110, 110, 100],
      [110, 110, 100],
      [110, 110, 110],
      [110, 110, 110],
    ]);
  });

  it('random outages come and go, and never take the last venue', () => {
    const v = new IndexVenues(Rng.stream(2, 'outages'), Math.log(50), 0.0004, undefined, 1000); // ~1000 per venue per day
    let t = T0;
    const everDown = new Set<string>();
    let minUp = 3;
    let maxDev = 0;
    let returns = 0;
    let prevUp = v.view().map((x) => x.up);
    for (let i = 0; i < (2 * 3600_000) / STEP; i++) {
      v.update((t += STEP), STEP, Math.log(50));
      const up = v.view().map((x) => x.up);
      for (let k = 0; k < 3; k++) if (up[k] && !prevUp[k]) returns++;
      prevUp = up;
      if (v.upCount < 3) for (const x of v.view()) if (!x.up) everDown.add(x.name);
      minUp = Math.min(minUp, v.upCount);
      maxDev = Math.max(maxDev, Math.abs(v.index / 50 - 1));
    }
    expect(maxDev).toBeLessThan(0.004);
    expect(v.outages).toBeGreaterThan(50);
    expect(everDown).toEqual(new Set(['alpha', 'bravo', 'charlie']));
    expect(minUp).toBeGreaterThanOrEqual(1);
    expect(returns).toBeGreaterThan(20); // outages end
  });

  it('in the live market the index stays close to the latent price, through dropouts', () => {
    const tv = testVenue({ seed: 21 });
    try {
      const sim = new Simulator({ exchange: tv.venue.exchange, clock: tv.venue.clock, seed: 21, outagesPerDay: 2000 });
      let maxDev = 0;
      let downSteps = 0;
      for (let i = 0; i < (4 * 60_000) / sim.stepMs; i++) {
        sim.step();
        for (const s of sim.symbols) {
          maxDev = Math.max(maxDev, Math.abs(s.feed.index / s.process.price - 1) / s.params.venueBasis);
          if (s.venues.upCount < 3) downSteps++;
          if (s.pair.indexPrice !== s.feed.index)
            throw new Error(`${s.symbol}: exchange index ${s.pair.indexPrice} != feed ${s.feed.index}`);
        }
      }
      expect(downSteps).toBeGreaterThan(50);
      // within a few basis standard deviations (plus the lagged venues' share of the last moves)
      expect(maxDev).toBeLessThan(8);
      expect(sim.stats.errors).toBe(0);
    } finally {
      tv.close();
    }
  });
});
