// The standard errors that set the realism bench's bands for the minute return's autocorrelation
// and variance ratio: Lo and MacKinlay's heteroskedasticity-consistent delta_j and theta(q),
// against hand values and against the spread of the statistics over many simulated samples.
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src-main/market/sim/rng.ts';
import { acfDelta, autocorr, mean, varianceRatio, varianceRatioTheta } from './realism-stats.ts';

/** Returns in blocks of `block` with standard deviation 1 and 3 in turn: uncorrelated, clustered volatility. */
function clustered(rng: Rng, n: number, block: number): number[] {
  const r: number[] = [];
  for (let i = 0; i < n; i++) r.push(rng.normal() * (Math.floor(i / block) % 2 === 0 ? 1 : 3));
  return r;
}

const sd = (xs: number[]): number => Math.sqrt(mean(xs.map((x) => (x - mean(xs)) ** 2)));

describe('acfDelta and varianceRatioTheta', () => {
  it('take the values of their definitions on a small series', () => {
    // mean 0, sum of squares 4, lag-1 products of squares 3: 4 x 3 / 16
    expect(acfDelta([1, -1, 1, -1], 1)).toBeCloseTo(0.75, 12);
    // six returns, lag 2: 6 x 4 / 36; theta(3) = (4/3)^2 delta_1 + (2/3)^2 delta_2
    expect(acfDelta([1, -1, 1, -1, 1, -1], 2)).toBeCloseTo(4 / 6, 12);
    expect(varianceRatioTheta([1, -1, 1, -1, 1, -1], 3)).toBeCloseTo((16 / 9) * (5 / 6) + (4 / 9) * (4 / 6), 12);
  });

  it('are the i.i.d. values for i.i.d. returns: delta 1, theta(15) = 2 (2q - 1)(q - 1) / 3q', () => {
    const rng = Rng.stream(7, 'iid');
    const r = Array.from({ length: 200_000 }, () => rng.normal());
    expect(acfDelta(r, 1)).toBeCloseTo(1, 1);
    expect(varianceRatioTheta(r, 15) / ((2 * 29 * 14) / 45)).toBeGreaterThan(0.95);
    expect(varianceRatioTheta(r, 15) / ((2 * 29 * 14) / 45)).toBeLessThan(1.05);
  });

  it('with clustered volatility, give the spread the statistics really have over many samples', () => {
    // two regimes of variance 1 and 9: delta_j -> (1 + 81) / 2 / 5^2 = 1.64 inside the blocks
    const rng = Rng.stream(11, 'clustered');
    const n = 1000;
    const acfs: number[] = [];
    const vrs: number[] = [];
    const deltas: number[] = [];
    const thetas: number[] = [];
    for (let k = 0; k < 600; k++) {
      const r = clustered(rng, n, 100);
      acfs.push(autocorr(r, 1));
      const logPrice = [0];
      for (const x of r) logPrice.push(logPrice[logPrice.length - 1] + x);
      vrs.push(varianceRatio(logPrice, 15));
      deltas.push(acfDelta(r, 1));
      thetas.push(varianceRatioTheta(r, 15));
    }
    expect(mean(deltas)).toBeGreaterThan(1.5);
    expect(mean(deltas)).toBeLessThan(1.75);
    // the autocorrelation's spread is sqrt(delta / n), wider than the i.i.d. 1/sqrt(n)
    const acfSe = Math.sqrt(mean(deltas) / n);
    expect(sd(acfs) / acfSe).toBeGreaterThan(0.88);
    expect(sd(acfs) / acfSe).toBeLessThan(1.12);
    expect(sd(acfs)).toBeGreaterThan(1.15 / Math.sqrt(n));
    // the variance ratio's spread is sqrt(theta / n)
    const vrSe = Math.sqrt(mean(thetas) / n);
    expect(sd(vrs) / vrSe).toBeGreaterThan(0.85);
    expect(sd(vrs) / vrSe).toBeLessThan(1.15);
  });
});
