// --volatility / --intensity reach every pair's simulation settings.
import { describe, expect, it } from 'vitest';
import { openVenue } from '../../../src-main/venue.ts';

describe('simulator settings', () => {
  it('volatility and intensity multiply the class defaults of every pair', () => {
    const base = openVenue({ dataDir: ':memory:', simulate: true });
    const scaled = openVenue({ dataDir: ':memory:', simulate: true, simVolatility: 2, simIntensity: 0.5 });
    try {
      const a = new Map(base.market!.view().map((v) => [v.symbol, v]));
      const b = scaled.market!.view();
      expect(b.length).toBeGreaterThan(5);
      for (const v of b) {
        expect(v.volatility).toBeCloseTo(a.get(v.symbol)!.volatility * 2, 10);
        expect(v.taker_rate).toBeCloseTo(a.get(v.symbol)!.taker_rate * 0.5, 10);
      }
      expect(b.find((v) => v.symbol === 'BTCUSDT')!.volatility).toBeCloseTo(0.9, 10);
    } finally {
      base.close();
      scaled.close();
    }
  }, 180_000); // two venues, each building 30 days of history for every pair
});
