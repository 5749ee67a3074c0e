// The top bar's mark, index and funding: "—" where the venue has none (a delisted pair's mark and
// index, the funding of a pair that settles none), never the last figures its price record carries.
import { describe, expect, it } from 'vitest';
import { venueFigures, type Ticker } from '../../src-renderer/src/features/topbar/ticker-store.ts';

const ticker = (over: Partial<Ticker>): Ticker => ({
  symbol: 'X',
  last: 0.4,
  lastAt: 0,
  mark: 0.4,
  index: 0.4,
  fundingRate: 0.0001,
  nextFundingTime: 1_700_000_000_000,
  day: null,
  ...over,
});

describe('venueFigures', () => {
  it('passes a trading pair’s figures through', () => {
    expect(venueFigures(ticker({}), false)).toEqual({
      mark: 0.4,
      index: 0.4,
      fundingRate: 0.0001,
      nextFundingTime: 1_700_000_000_000,
    });
  });
  it('has no funding rate for a pair with no next settlement (paused: next_funding_time 0)', () => {
    const v = venueFigures(ticker({ nextFundingTime: 0 }), false);
    expect(v.fundingRate).toBeNaN();
    expect(v.nextFundingTime).toBe(0);
    expect(v.mark).toBe(0.4);
  });
  it('has no mark, index nor funding for a delisted pair', () => {
    const v = venueFigures(ticker({ nextFundingTime: 0 }), true);
    for (const n of [v.mark, v.index, v.fundingRate]) expect(n).toBeNaN();
  });
  it('has nothing before the first price record', () => {
    const v = venueFigures(undefined, false);
    for (const n of [v.mark, v.index, v.fundingRate]) expect(n).toBeNaN();
  });
});
