// The depth profile outside BTCUSDT: the share of a book's 1 % depth (both sides, from the mid)
// that lies within 0.5 % of the mid is 0.31-0.55 on every real USD-M book of
// test/fixtures/binance (AKRO, KEEP, SUSHI, CTK 2021, TRX 2025: docs/realism.md, "The depth
// profile"). Before, the touch crowd held most of every other pair's 1 % depth near the touch
// (0.63-0.87 within 0.5 %); now the deep book starts 0.1 % behind the best at most and its orders
// grow with the distance (params.ts deepShape). BTCUSDT keeps its own calibration (ladder.test.ts).
import { describe, expect, it } from 'vitest';
import { Simulator } from '../../../src-main/market/sim/simulator.ts';
import { Side } from '../../../src-shared/enums.ts';
import { median } from '../../helpers/realism-stats.ts';
import { T0, testVenue, tradingSymbols } from './helpers.ts';

/** The real books' range of the 0.5 % share (docs/realism.md, the depth profile). */
const REAL_05: [number, number] = [0.31, 0.55];

function share05(book: {
  bestBid(): number;
  bestAsk(): number;
  topLevels(side: 1 | 2, n: number): Array<[number, number]>;
}): number {
  const mid = (book.bestBid() + book.bestAsk()) / 2;
  let d1 = 0;
  let d05 = 0;
  for (const side of [Side.BUY, Side.SELL] as const) {
    for (const [p, q] of book.topLevels(side, 100_000)) {
      const x = Math.abs(p - mid) / mid;
      if (x > 0.01) break;
      d1 += q;
      if (x <= 0.005) d05 += q;
    }
  }
  return d05 / d1;
}

describe('the depth profile outside BTCUSDT', () => {
  it('every pair but BTCUSDT holds 0.31-0.55 of its 1 % depth within 0.5 % of the mid (median of 60 reads over 5 minutes)', () => {
    for (const seed of [1, 2]) {
      const tv = testVenue({ seed, start: T0 + 14 * 3_600_000 });
      try {
        const ex = tv.venue.exchange;
        const symbols = tradingSymbols(tv.venue).filter((s) => s !== 'BTCUSDT');
        const sim = new Simulator({ exchange: ex, clock: tv.venue.clock, seed, symbols });
        const reads = new Map<string, number[]>(symbols.map((s) => [s, []]));
        for (let k = 0; k < 60; k++) {
          sim.runUntil(T0 + 14 * 3_600_000 + 60_000 + k * 5_000);
          for (const s of symbols) reads.get(s)!.push(share05(ex.pair(s)!.book));
        }
        expect(sim.stats.errors).toBe(0);
        for (const s of symbols) {
          const m = median(reads.get(s)!);
          expect(m, `${s} seed ${seed}`).toBeGreaterThanOrEqual(REAL_05[0]);
          expect(m, `${s} seed ${seed}`).toBeLessThanOrEqual(REAL_05[1]);
        }
      } finally {
        tv.close();
      }
    }
  });
});
