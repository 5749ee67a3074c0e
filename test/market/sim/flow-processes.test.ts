// Property tests of the order-flow processes against their definitions: each draws many samples
// from a seeded stream and checks a statistic that the definition fixes (with a tolerance a few
// standard errors wide), and a contrast that a broken process would fail.
import { describe, expect, it } from 'vitest';
import { activity, WEEK } from '../../../src-main/market/sim/activity-profile.ts';
import { lomaxDistance } from '../../../src-main/market/sim/deep-book.ts';
import { ActivityFactor, Hawkes } from '../../../src-main/market/sim/hawkes.ts';
import { Metaorders, parentLength } from '../../../src-main/market/sim/metaorders.ts';
import { HouseOrders } from '../../../src-main/market/sim/house-orders.ts';
import { DEFAULT_FLOW, OrderFlow, queueFactor } from '../../../src-main/market/sim/order-flow.ts';
import { PairLimits } from '../../../src-main/market/sim/order-sizing.ts';
import { LIQUIDITY_ACCOUNT, TAKER_ACCOUNT } from '../../../src-main/market/sim/simulator.ts';
import { T0, testVenue } from './helpers.ts';
import { Rng } from '../../../src-main/market/sim/rng.ts';
import { poisson } from '../../../src-main/market/sim/touch-book.ts';
import { roundLot, TradeSizes } from '../../../src-main/market/sim/trade-size.ts';
import { autocorr, hill, mean, median, variance } from '../../helpers/realism-stats.ts';

describe('Hawkes arrivals', () => {
  it('has the mean intensity mu / (1 - n) and the long-window variance mean / (1 - n)^2', () => {
    for (const n of [0, 0.5, 0.8]) {
      const h = new Hawkes(Rng.stream(1, 'hawkes', n), n, 2);
      const mu = 10;
      const windows: number[] = [];
      let total = 0;
      const steps = 200_000; // 100 ms steps: 20,000 s
      let w = 0;
      for (let i = 0; i < steps; i++) {
        const k = h.step(100, mu);
        total += k;
        w += k;
        if (i % 600 === 599) {
          windows.push(w); // 60 s windows, much longer than 1/beta = 0.5 s
          w = 0;
        }
      }
      const rate = total / (steps / 10);
      expect(rate / (mu / (1 - n))).toBeGreaterThan(0.95);
      expect(rate / (mu / (1 - n))).toBeLessThan(1.05);
      const fano = variance(windows) / mean(windows);
      const want = 1 / (1 - n) ** 2;
      expect(fano / want, `n ${n}: Fano ${fano}, want ${want}`).toBeGreaterThan(0.6);
      expect(fano / want).toBeLessThan(1.5);
    }
  });

  it('clusters: the counts of adjacent 100 ms steps are correlated for n > 0, not for n = 0', () => {
    const run = (n: number) => {
      const h = new Hawkes(Rng.stream(2, 'hawkes'), n, 2);
      return Array.from({ length: 100_000 }, () => h.step(100, 5));
    };
    expect(Math.abs(autocorr(run(0), 1))).toBeLessThan(0.02);
    expect(autocorr(run(0.7), 1)).toBeGreaterThan(0.15);
  });

  it('refuses a critical or negative branching ratio', () => {
    expect(() => new Hawkes(Rng.stream(1, 'x'), 1, 2)).toThrow(RangeError);
    expect(() => new Hawkes(Rng.stream(1, 'x'), -0.1, 2)).toThrow(RangeError);
  });

  it('the activity factor has mean 1 and the configured log standard deviation', () => {
    const a = new ActivityFactor(Rng.stream(3, 'act'), 0.5, 60);
    const xs: number[] = [];
    for (let i = 0; i < 400_000; i++) xs.push(a.advance(1000));
    expect(mean(xs)).toBeGreaterThan(0.95);
    expect(mean(xs)).toBeLessThan(1.05);
    expect(Math.sqrt(variance(xs.map(Math.log)))).toBeCloseTo(0.5, 1);
  });
});

describe('trade sizes', () => {
  it('have a Pareto tail of index 1.5 (Hill estimator) and the configured median', () => {
    const s = new TradeSizes(Rng.stream(4, 'sizes'), 600, 1.5, 0.9, 0);
    const xs = Array.from({ length: 400_000 }, () => s.notional());
    // the deep tail, where the log-normal body no longer matters
    const a = hill(xs, 2_000);
    expect(a).toBeGreaterThan(1.3);
    expect(a).toBeLessThan(1.7);
    expect(median(xs) / 600).toBeGreaterThan(0.97);
    expect(median(xs) / 600).toBeLessThan(1.03);
    // a thinner tail is told apart
    const thin = new TradeSizes(Rng.stream(4, 'sizes'), 600, 3, 0.9, 0);
    expect(
      hill(
        Array.from({ length: 400_000 }, () => thin.notional()),
        2_000,
      ),
    ).toBeGreaterThan(2.5);
  });

  it('round lots: about roundShare of quantities have one significant digit', () => {
    const s = new TradeSizes(Rng.stream(5, 'sizes'), 600, 1.5, 0.9, 0.3);
    const qs = Array.from({ length: 50_000 }, () => s.quantity(96_000));
    const round = qs.filter((q) => q === roundLot(q)).length / qs.length;
    expect(round).toBeGreaterThan(0.28);
    expect(round).toBeLessThan(0.33);
    expect(roundLot(0.0347)).toBeCloseTo(0.03, 12);
    expect(roundLot(7.6)).toBe(8);
  });
});

describe('metaorder signs', () => {
  it('are balanced, positively autocorrelated and decay like a power law', () => {
    const m = new Metaorders(Rng.stream(6, 'meta'), 3, 1.5, 0.9);
    const xs = Array.from({ length: 1_000_000 }, () => m.next());
    expect(Math.abs(mean(xs))).toBeLessThan(0.05);
    const c1 = autocorr(xs, 1);
    const c10 = autocorr(xs, 10);
    const c100 = autocorr(xs, 100);
    expect(c1).toBeGreaterThan(0.1);
    expect(c1).toBeLessThan(0.5);
    // long memory: still positive at lag 100, falling slower than an exponential would
    expect(c100).toBeGreaterThan(0.015);
    expect(c10 / c1).toBeGreaterThan(0.3);
    // independent signs (share 0) have none
    const iid = new Metaorders(Rng.stream(6, 'meta'), 3, 1.5, 0);
    expect(
      Math.abs(
        autocorr(
          Array.from({ length: 200_000 }, () => iid.next()),
          1,
        ),
      ),
    ).toBeLessThan(0.01);
  });
});

describe('metaorder signs drawn by parent (the history)', () => {
  it('buys(n) has the law of n calls of next(): the mean, spread and memory of block imbalances', () => {
    const block = 50;
    const blocks = 20_000;
    for (const bias of [0, 0.05]) {
      const one = new Metaorders(Rng.stream(7, 'one', bias), 2, 1.8, 0.9);
      const bulk = new Metaorders(Rng.stream(7, 'bulk', bias), 2, 1.8, 0.9);
      const a: number[] = [];
      const b: number[] = [];
      for (let k = 0; k < blocks; k++) {
        let buys = 0;
        for (let i = 0; i < block; i++) if (one.next(bias) === 1) buys++;
        a.push(buys / block);
        b.push(bulk.buys(block, bias) / block);
      }
      expect(mean(b), `bias ${bias}`).toBeCloseTo(mean(a), 2);
      expect(mean(b)).toBeCloseTo(0.5 + bias, 1);
      // the block's spread (the parents' renewal-reward variance; short parents drawn as
      // independent signs would give 0.87 of it)
      const ratio = Math.sqrt(variance(b) / variance(a));
      expect(ratio, `sd ratio ${ratio}`).toBeGreaterThan(0.93);
      expect(ratio).toBeLessThan(1.12);
      // long parents carry over from block to block in both (0.42 against 0.26 with that mistake)
      expect(Math.abs(autocorr(b, 1) - autocorr(a, 1)), `${autocorr(b, 1)} vs ${autocorr(a, 1)}`).toBeLessThan(0.08);
    }
  });
});

describe('deep-book placement', () => {
  it('distances follow the Lomax law: median d0 (2^(1/mu) - 1) and tail index mu', () => {
    const rng = Rng.stream(7, 'deep');
    const d0 = 0.002;
    const mu = 0.6;
    const xs = Array.from({ length: 200_000 }, () => lomaxDistance(rng, d0, mu, 1e9));
    expect(median(xs) / (d0 * (2 ** (1 / mu) - 1))).toBeGreaterThan(0.95);
    expect(median(xs) / (d0 * (2 ** (1 / mu) - 1))).toBeLessThan(1.05);
    const a = hill(
      xs.map((x) => x + d0),
      2_000,
    );
    expect(a).toBeGreaterThan(0.5);
    expect(a).toBeLessThan(0.7);
    // a cap resamples: nothing beyond it
    expect(Math.max(...Array.from({ length: 10_000 }, () => lomaxDistance(rng, d0, mu, 0.04)))).toBeLessThanOrEqual(
      0.04,
    );
  });

  it('poisson() has the mean and variance of its parameter', () => {
    const rng = Rng.stream(8, 'poisson');
    const xs = Array.from({ length: 100_000 }, () => poisson(rng, 2.5));
    expect(mean(xs)).toBeCloseTo(2.5, 1);
    expect(variance(xs)).toBeCloseTo(2.5, 1);
  });
});

describe('activity profile', () => {
  it('has mean 1 over a week, no steps, a weekday peak at 14h UTC and trough at 04h-06h, quieter weekends', () => {
    expect(WEEK.length).toBe(168);
    expect(mean(WEEK)).toBeCloseTo(1, 12);
    const sunday = Date.UTC(2025, 0, 5);
    const week = Array.from({ length: 7 * 1440 }, (_, m) => activity(sunday + m * 60_000 + 30_000));
    expect(mean(week)).toBeCloseTo(1, 3);
    // continuous: a minute never moves it by more than a few percent, midnight included
    for (let m = 1; m < week.length; m++) expect(Math.abs(week[m] - week[m - 1])).toBeLessThan(0.03);
    const day = (d: number) => week.slice(d * 1440, (d + 1) * 1440);
    const wednesday = day(3);
    expect(Math.floor(wednesday.indexOf(Math.max(...wednesday)) / 60)).toBe(14);
    expect(Math.floor(wednesday.indexOf(Math.min(...wednesday)) / 60)).toBeGreaterThanOrEqual(4);
    expect(Math.floor(wednesday.indexOf(Math.min(...wednesday)) / 60)).toBeLessThanOrEqual(6);
    expect(Math.max(...wednesday) / Math.min(...wednesday)).toBeGreaterThan(2.5);
    // the weekend trades about 0.55 of a weekday and its day is flatter (no US-open peak)
    expect(mean(day(0)) / mean(day(1))).toBeGreaterThan(0.4);
    expect(mean(day(0)) / mean(day(1))).toBeLessThan(0.7);
    expect(mean(day(6)) / mean(day(5))).toBeLessThan(0.7);
    expect(Math.max(...day(6)) / Math.min(...day(6))).toBeLessThan(2);
  });
});

describe('queue-reactive market orders', () => {
  it('queueFactor is 0 at an empty touch, 1 at a typical queue, rising, concave and saturating at 1.5', () => {
    expect(queueFactor(0)).toBe(0);
    expect(queueFactor(1)).toBeCloseTo(1, 12);
    let prev = 0;
    let slope = Infinity;
    for (let x = 0.25; x <= 20; x += 0.25) {
      const q = queueFactor(x);
      expect(q).toBeGreaterThan(prev);
      expect(q - prev).toBeLessThan(slope); // concave
      slope = q - prev;
      prev = q;
    }
    expect(queueFactor(1e9)).toBeCloseTo(1.5, 6);
  });

  it('the taker arrivals follow the best queues: their mean is the rate times queueFactor(x)', () => {
    const means: number[] = [];
    const xs = [0.25, 2];
    for (const x of xs) {
      const tv = testVenue({ seed: 4 });
      try {
        const ex = tv.venue.exchange;
        const pair = ex.pair('BTCUSDT')!;
        const limits = new PairLimits(pair);
        const queue = 150_000;
        const bid = Math.round(pair.markPrice / limits.tick);
        // a book of one bid and one ask queue of x typical queues; nobody trades
        const house = new HouseOrders(ex, pair, LIQUIDITY_ACCOUNT);
        house.place(1, bid, limits.lotsFor(queue * x, bid), T0);
        house.place(2, bid + 1, limits.lotsFor(queue * x, bid), T0);
        const flow = new OrderFlow(
          { ex, pair, limits, rng: Rng.stream(4, 'qr', x), account: TAKER_ACCOUNT },
          { ...DEFAULT_FLOW, activitySd: 0, rate: 20, medianNotional: 600, queueNotional: queue },
        );
        expect(flow.queueFactorNow()).toBeCloseTo(queueFactor(x), 2);
        let n = 0;
        const steps = 30_000;
        for (let i = 0; i < steps; i++) {
          flow.pace(T0 + 12 * 3_600_000, 100);
          n += flow.arrivals(100, 1);
        }
        means.push(n / steps);
      } finally {
        tv.close();
      }
    }
    // the activity profile is fixed (one instant), the slow factor off: only the queues differ
    const ratio = means[0] / means[1];
    const want = queueFactor(xs[0]) / queueFactor(xs[1]);
    expect(ratio / want, `ratio ${ratio}, want ${want}`).toBeGreaterThan(0.9);
    expect(ratio / want).toBeLessThan(1.1);
  });
});

describe('metaorder lengths', () => {
  it('follow the discrete Pareto law P(L >= l) = l^-alpha', () => {
    for (const alpha of [1.5, 1.8]) {
      const rng = Rng.stream(9, 'lengths', alpha);
      const n = 200_000;
      const ls = Array.from({ length: n }, () => parentLength(rng, alpha));
      expect(ls.reduce((a, b) => Math.min(a, b))).toBe(1);
      for (const l of [2, 5, 20, 100]) {
        const share = ls.filter((x) => x >= l).length / n;
        const want = l ** -alpha;
        const se = Math.sqrt((want * (1 - want)) / n);
        expect(Math.abs(share - want), `alpha ${alpha}, l ${l}: ${share} vs ${want}`).toBeLessThan(4 * se + 1e-4);
      }
    }
  });
});
