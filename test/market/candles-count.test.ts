// A trade record standing for several trades (the simulated history records counts, not single
// trades): the candle's trade count adds the count, volume adds the quantity once.
import { describe, expect, it } from 'vitest';
import { CandleBuilder, type Candle } from '../../src-main/market/candles.ts';

describe('CandleBuilder.trade with a count', () => {
  it('adds the count to trades and the quantity to volume once', () => {
    const closed: Candle[] = [];
    const b = new CandleBuilder({ intervals: ['1m'], onClose: (c) => closed.push(c) });
    b.trade(60_000, 100, 5, 1, 40);
    b.trade(61_000, 90, 3, 2);
    b.trade(62_000, 95, 7, 2, 12);
    b.advanceTo(120_000);
    expect(closed).toHaveLength(1);
    const c = closed[0];
    expect(c.trades).toBe(53);
    expect(c.volume).toBe(15);
    expect(c.takerBuyVolume).toBe(5);
    expect([c.open, c.high, c.low, c.close]).toEqual([100, 100, 90, 95]);
  });

  it('rejects a count that is not a positive integer, changing nothing', () => {
    const closed: Candle[] = [];
    const b = new CandleBuilder({ intervals: ['1m'], onClose: (c) => closed.push(c) });
    b.trade(60_000, 100, 5, 1);
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => b.trade(60_500, 101, 1, 1, bad)).toThrow(RangeError);
    b.advanceTo(120_000);
    expect(closed[0].trades).toBe(1);
    expect(closed[0].high).toBe(100);
  });
});
