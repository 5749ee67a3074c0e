// History finer than the pair's steps is rounded to them exactly, halves up (docs/replay.md
// "Market"): the 1m BTCUSDT klines of 2021-05-16 (real data at 0.01 / 0.000001) imported as USD-M,
// whose catalogue lists BTCUSDT at a 0.1 tick and a 0.001 step, give candles whose open, high, low
// and close are the source's to the nearest tenth, halves up (48950.45 -> 48950.5, as 47479.55 ->
// 47479.6), and whose volume is the source's to the nearest lot. Until 2026-12-07 the values were
// divided as doubles (Math.round(48950.45 / 0.1) = 489504) and about half the ties went down.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roundedTextUnits, roundedUnits } from '../../src-main/replay/units.ts';
import { KLINES, replayVenue, type ReplayVenue } from './harness.ts';

const FILE = path.join(KLINES, 'binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv');
const START = Date.UTC(2021, 4, 16, 8);
const UNTIL = Date.UTC(2021, 4, 16, 10);

/** A source decimal (8 decimals) to `dp` decimals, halves up, on its digits (bigints). */
function halfUp(text: string, dp: number): string {
  const [i, f = ''] = text.split('.');
  const n = BigInt(i + f.padEnd(8, '0').slice(0, 8));
  const d = 10n ** BigInt(8 - dp);
  const q = (n + d / 2n) / d;
  const s = q.toString().padStart(dp + 1, '0');
  return `${s.slice(0, s.length - dp)}.${s.slice(s.length - dp)}`;
}

describe('off-step values, halves up', () => {
  it('rounds decimal texts and mantissas on their digits', () => {
    const tenth = { stepUnits: 1, stepDecimals: 1 };
    const lot = { stepUnits: 1, stepDecimals: 3 };
    const half = { stepUnits: 5, stepDecimals: 1 };
    expect(roundedTextUnits('48950.45', tenth)).toBe(489505);
    expect(roundedTextUnits('47479.55000000', tenth)).toBe(474796);
    expect(roundedTextUnits('48950.44999999', tenth)).toBe(489504);
    expect(roundedTextUnits('0.0125', lot)).toBe(13);
    expect(roundedTextUnits('0.0124', lot)).toBe(12);
    expect(roundedTextUnits('0.0000', lot)).toBe(0);
    expect(roundedTextUnits('1.25', half)).toBe(3); // 2.5 steps of 0.5
    expect(roundedTextUnits('1.24', half)).toBe(2);
    expect(roundedTextUnits('123456789012345678.05', tenth)).toBe(Number(1234567890123456781n));
    expect(roundedTextUnits('1e5', tenth)).toBeNaN();
    // the store's trade blocks: integer mantissas at the block's decimals
    expect(roundedUnits(4895045, 2, tenth)).toBe(489505);
    expect(roundedUnits(125, 4, lot)).toBe(13);
    expect(roundedUnits(5, 0, tenth)).toBe(50);
  });

  describe('a USD-M replay of 0.01 candles on a 0.1 tick', () => {
    let v: ReplayVenue;
    beforeAll(async () => {
      v = await replayVenue(
        [{ paths: [FILE], opts: { market: 'um', symbol: 'BTCUSDT', kind: 'klines', interval: '1m' } }],
        {
          symbols: ['BTCUSDT'],
          start: START,
          until: UNTIL,
        },
      );
    }, 60_000);
    afterAll(() => v?.close());

    it("every candle is the source's rounded to the tick and the step, halves up", () => {
      const pair = v.exchange.pair('BTCUSDT')!;
      expect([pair.row.tickSize, pair.row.stepSize]).toEqual(['0.1', '0.001']);
      v.market.seek(UNTIL);
      const source = readFileSync(FILE, 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.split(','))
        .filter((r) => Number(r[0]) >= START && Number(r[0]) < UNTIL);
      expect(source).toHaveLength(120);
      const venue = new Map(v.klines.klines('BTCUSDT', '1m', { limit: 200 }).map((k) => [Number(k[0]), k]));
      let ties = 0;
      for (const r of source) {
        const k = venue.get(Number(r[0]))!;
        expect(k, r[0]).toBeDefined();
        const want = [1, 2, 3, 4].map((i) => halfUp(r[i], 1));
        expect([k[2], k[3], k[4], k[5]], `candle ${r[0]}`).toEqual(want);
        expect(k[6], `volume ${r[0]}`).toBe(halfUp(r[5], 3));
        ties += [1, 2, 3, 4].filter((i) => r[i].endsWith('5000000')).length;
      }
      // the span holds ties a double rounds down (48950.45 / 0.1 = 489504.49999999994)
      expect(ties).toBeGreaterThan(10);
      expect(venue.get(Date.UTC(2021, 4, 16, 8, 58))![2]).toBe('48950.5');
    });
  });
});

describe('the price a pair starts with, off the tick', () => {
  let v: ReplayVenue;
  // the 01:05 candle closed at 47579.85: the last price at 01:06 (docs/replay.md, Session)
  const AT = Date.UTC(2021, 4, 16, 1, 6);
  beforeAll(async () => {
    v = await replayVenue(
      [{ paths: [FILE], opts: { market: 'um', symbol: 'BTCUSDT', kind: 'klines', interval: '1m' } }],
      {
        symbols: ['BTCUSDT'],
        start: AT,
        until: AT + 3_600_000,
      },
    );
  }, 60_000);
  afterAll(() => v?.close());

  it("is the last candle's close rounded as the candles are: last price, mark and index", () => {
    const pair = v.exchange.pair('BTCUSDT')!;
    const [before] = v.klines.klines('BTCUSDT', '1m', { limit: 1 });
    expect([before[0], before[5]]).toEqual([AT - 60_000, '47579.9']);
    expect(pair.math.formatPrice(pair.lastPriceTicks)).toBe('47579.9');
    expect([pair.markPrice, pair.indexPrice]).toEqual([47579.9, 47579.9]);
  });
});
