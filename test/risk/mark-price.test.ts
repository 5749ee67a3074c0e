import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  BasisAverager,
  fundingBasisPrice,
  markPrice,
  median,
  median3,
  midBasisPrice,
} from '../../src-main/risk/mark-price.ts';
import { FUNDING_INTERVAL_MS } from '../../src-main/risk/funding.ts';

describe('median', () => {
  it('median3 picks the middle value in every ordering', () => {
    const orders = [
      [1, 2, 3],
      [1, 3, 2],
      [2, 1, 3],
      [2, 3, 1],
      [3, 1, 2],
      [3, 2, 1],
    ] as const;
    for (const [a, b, c] of orders) expect(median3(a, b, c)).toBe(2);
    expect(median3(5, 5, 1)).toBe(5);
    expect(median3(1, 5, 1)).toBe(1);
  });

  it('median of a list: middle or mean of the middle two', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(() => median([])).toThrow(RangeError);
  });

  it('median3 agrees with median', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true }), fc.double({ noNaN: true }), fc.double({ noNaN: true }), (a, b, c) => {
        // === rather than toBe: 0 and -0 are the same median
        expect(median3(a, b, c) === median([a, b, c])).toBe(true);
      }),
    );
  });
});

describe('mark price', () => {
  it('P1 carries the index by the part of the funding rate still to accrue', () => {
    expect(fundingBasisPrice(100, 0.0001, FUNDING_INTERVAL_MS / 2, FUNDING_INTERVAL_MS)).toBeCloseTo(100.005, 12);
    expect(fundingBasisPrice(100, 0.0001, 0, FUNDING_INTERVAL_MS)).toBe(100);
  });

  it('P2 is the index plus the average basis', () => {
    expect(midBasisPrice(60_000, 10)).toBe(60_010);
  });

  // index 60,000, F 0.01%, full interval to go: P1 = 60,006; average basis 10: P2 = 60,010
  const p1 = fundingBasisPrice(60_000, 0.0001, FUNDING_INTERVAL_MS, FUNDING_INTERVAL_MS);
  const p2 = midBasisPrice(60_000, 10);

  it('equals last when last lies between P1 and P2, whichever is larger', () => {
    expect(p1).toBeCloseTo(60_006, 9);
    expect(markPrice(p1, p2, 60_008)).toBe(60_008);
    expect(markPrice(p2, p1, 60_008)).toBe(60_008);
  });

  it('is the nearer bound when last lies outside [P1, P2]', () => {
    expect(markPrice(p1, p2, 60_020)).toBe(p2);
    expect(markPrice(p1, p2, 59_990)).toBe(p1);
    const q2 = midBasisPrice(60_000, -10); // now P2 < P1
    expect(markPrice(p1, q2, 60_020)).toBe(p1);
    expect(markPrice(p1, q2, 59_980)).toBe(q2);
  });
});

/** Naive reference: a second's sample is the last value fed at or before its end. */
function naiveAverage(feeds: readonly (readonly [number, number])[], ts: number): number {
  const now = Math.floor(ts / 1000);
  let sum = 0;
  let n = 0;
  for (let k = now - 29; k <= now; k++) {
    let v: number | undefined;
    for (const [t, val] of feeds) if (Math.floor(t / 1000) <= k) v = val;
    if (v !== undefined) {
      sum += v;
      n++;
    }
  }
  return n === 0 ? 0 : sum / n;
}

describe('BasisAverager', () => {
  it('is 0 before any sample', () => {
    expect(new BasisAverager().average(1_000)).toBe(0);
  });

  it('averages the last 30 one-second samples', () => {
    const a = new BasisAverager();
    for (let s = 0; s < 40; s++) a.update(s * 1000 + 500, s);
    expect(a.average(39_999)).toBe(24.5); // mean of 10..39
  });

  it('keeps the last value fed within a second', () => {
    const a = new BasisAverager();
    a.update(1_000, 1);
    a.update(1_500, 3);
    expect(a.average(1_999)).toBe(3);
  });

  it('holds the previous value through seconds with no feed', () => {
    const a = new BasisAverager();
    a.update(0, 0);
    a.update(10_000, 30);
    expect(a.average(10_500)).toBeCloseTo(30 / 11, 15); // seconds 0..9 at 0, 10 at 30
    expect(a.average(20_000)).toBeCloseTo(330 / 21, 15); // 0..9 at 0, 10..20 at 30
    expect(a.average(39_000)).toBe(30); // 10..39 all 30
    expect(a.average(1_000_000)).toBe(30);
  });

  it('rejects time going backwards', () => {
    const a = new BasisAverager();
    a.update(5_000, 1);
    expect(() => a.update(3_999, 1)).toThrow(RangeError);
    expect(() => a.average(4_000)).toThrow(RangeError);
  });

  it('matches a naive sample-and-hold reference on random feeds', () => {
    const feed = fc.array(fc.tuple(fc.integer({ min: 0, max: 5_000 }), fc.integer({ min: -1000, max: 1000 })), {
      maxLength: 60,
    });
    fc.assert(
      fc.property(feed, fc.integer({ min: 0, max: 60_000 }), (steps, lookAhead) => {
        const a = new BasisAverager();
        const feeds: [number, number][] = [];
        let t = 0;
        for (const [dt, v] of steps) {
          t += dt;
          a.update(t, v);
          feeds.push([t, v]);
          expect(a.average(t)).toBeCloseTo(naiveAverage(feeds, t), 9);
        }
        expect(a.average(t + lookAhead)).toBeCloseTo(naiveAverage(feeds, t + lookAhead), 9);
      }),
    );
  });
});
