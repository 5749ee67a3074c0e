// The latent price: the volatility asked for, volatility clustering, jumps at the asked rate.
import { describe, expect, it } from 'vitest';
import { PriceProcess } from '../../../src-main/market/sim/price-process.ts';
import { Rng } from '../../../src-main/market/sim/rng.ts';

const YEAR_S = 365 * 86_400;
const bounds = { min: 1e-6, max: 1e12 };

function returns(p: PriceProcess, dtMs: number, n: number): Float64Array {
  const r = new Float64Array(n);
  for (let i = 0; i < n; i++) r[i] = p.advance(dtMs);
  return r;
}

function autocorr(x: Float64Array, lag: number): number {
  let m = 0;
  for (const v of x) m += v;
  m /= x.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < x.length; i++) {
    den += (x[i] - m) ** 2;
    if (i >= lag) num += (x[i] - m) * (x[i - lag] - m);
  }
  return num / den;
}

describe('latent price process', () => {
  it('realises the configured volatility, at 1 min and at 250 ms steps alike', () => {
    for (const [dtMs, n] of [
      [60_000, 200 * 1440],
      [250, 4 * 86_400 * 4],
    ] as const) {
      const p = new PriceProcess(
        { volatility: 0.6, jumpsPerDay: 0, jumpScale: 0 },
        { price: 100 },
        Rng.stream(1, 'vol', dtMs),
        bounds,
      );
      const r = returns(p, dtMs, n);
      let ss = 0;
      for (const v of r) ss += v * v;
      const annual = Math.sqrt((ss / (n * dtMs)) * 1000 * YEAR_S);
      // the variance itself wanders (clustering), so a finite run only gets near the long-run level
      expect(annual, `dt ${dtMs}`).toBeGreaterThan(0.45);
      expect(annual, `dt ${dtMs}`).toBeLessThan(0.8);
    }
  });

  it('realises the configured volatility with the jumps included (the jumps and their lift of the variance are part of it)', () => {
    // the class defaults of params.ts: BTC and the memes (the most jumps); before, the figure was
    // the diffusion's alone and a long run realised 0.54 and 2.2
    for (const [volatility, jumpsPerDay, jumpScale] of [
      [0.45, 2, 0.003],
      [1.3, 6, 0.012],
    ] as const) {
      const p = new PriceProcess({ volatility, jumpsPerDay, jumpScale }, { price: 100 }, Rng.stream(5, 'jumpvol'), {
        min: 1e-9,
        max: 1e15,
      });
      // three years of minutes: the variance's 4 h clustering leaves a sampling error of about 1 %
      const n = 3 * 365 * 1440;
      const r = returns(p, 60_000, n);
      let ss = 0;
      for (const v of r) ss += v * v;
      const annual = Math.sqrt((ss / n) * 525_600);
      expect(annual / volatility, `volatility ${volatility}: ${annual}`).toBeGreaterThan(0.95);
      expect(annual / volatility, `volatility ${volatility}: ${annual}`).toBeLessThan(1.05);
      expect(p.meanVariance * YEAR_S).toBeLessThan(volatility * volatility);
    }
  });

  it('clusters volatility: absolute returns are autocorrelated, raw returns are not', () => {
    const p = new PriceProcess(
      { volatility: 0.8, jumpsPerDay: 0, jumpScale: 0 },
      { price: 100 },
      Rng.stream(2, 'cluster'),
      bounds,
    );
    const r = returns(p, 60_000, 60 * 1440);
    const abs = r.map(Math.abs);
    for (const lag of [1, 10, 60]) {
      expect(autocorr(abs, lag), `|r| lag ${lag}`).toBeGreaterThan(0.05);
      expect(Math.abs(autocorr(r, lag)), `r lag ${lag}`).toBeLessThan(0.03);
    }
    // a process with constant variance shows no such memory (the test can tell the difference)
    const rng = Rng.stream(2, 'iid');
    const iid = Float64Array.from({ length: r.length }, () => Math.abs(rng.normal()));
    expect(Math.abs(autocorr(iid, 1))).toBeLessThan(0.03);
  });

  it('jumps at the configured rate, and a jump raises the variance', () => {
    const p = new PriceProcess(
      { volatility: 0.5, jumpsPerDay: 24, jumpScale: 0.01 },
      { price: 100 },
      Rng.stream(3, 'jumps'),
      bounds,
    );
    let raised = 0;
    let jumps = 0;
    for (let i = 0; i < 20 * 1440; i++) {
      const h = p.h;
      const before = p.jumps;
      p.advance(60_000);
      if (p.jumps > before) {
        jumps++;
        if (p.h > h) raised++;
      }
    }
    // Poisson(480): within 4 standard deviations
    expect(p.jumps).toBeGreaterThan(480 - 4 * Math.sqrt(480));
    expect(p.jumps).toBeLessThan(480 + 4 * Math.sqrt(480));
    expect(raised / jumps).toBeGreaterThan(0.8);
  });

  it('keeps the price inside its bounds', () => {
    const p = new PriceProcess(
      { volatility: 5, jumpsPerDay: 100, jumpScale: 0.1 },
      { price: 1 },
      Rng.stream(4, 'bounds'),
      { min: 0.5, max: 2 },
    );
    for (let i = 0; i < 50_000; i++) {
      p.advance(60_000);
      if (p.price < 0.5 - 1e-9 || p.price > 2 + 1e-9) throw new Error(`price ${p.price} out of bounds at ${i}`);
    }
  });
});
