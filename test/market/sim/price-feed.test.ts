// Mark (median rule), premium index sampling and the funding rate from a book set up by hand.
import { cancelBotOrder, placeBotOrder, setPrices } from '../../helpers/exchange-commands.ts';
import { describe, expect, it } from 'vitest';
import { PriceFeed } from '../../../src-main/market/sim/price-feed.ts';
import { HOUSE_ACCOUNT, type Exchange } from '../../../src-main/trading/exchange.ts';
import { T0, testVenue } from './helpers.ts';

const H = 3_600_000;

function rest(ex: Exchange, side: 1 | 2, price: string, qty: string, account = HOUSE_ACCOUNT): number {
  const r = placeBotOrder(
    ex,
    { symbol: 'BTCUSDT', side, position_side: side, position_action: 1, type: 1, price, qty, time_in_force: 1 },
    account,
  );
  return Number(r.order_id);
}

describe('price feed', () => {
  it('mark = median(P1, P2, last)', () => {
    const tv = testVenue();
    try {
      const ex = tv.venue.exchange;
      const pair = ex.pair('BTCUSDT')!;
      setPrices(ex, 'BTCUSDT', { mark: 100, index: 100 });
      rest(ex, 1, '99.9', '2');
      rest(ex, 2, '100.5', '2'); // mid 100.2: basis +0.2
      const t = T0 + 4 * H; // 4 h before the 08:00 funding
      const feed = new PriceFeed(pair, t);
      expect(feed.rate).toBe(0.0001); // no premium yet: the interest rate
      // P1 = 100 x (1 + 0.0001 x 4/8) = 100.005, P2 = 100 + 0.2 = 100.2
      feed.update(t, 100, 100.1);
      expect(feed.p1).toBeCloseTo(100.005, 10);
      expect(feed.p2).toBeCloseTo(100.2, 10);
      expect(feed.mark).toBeCloseTo(100.1, 10); // last between P1 and P2
      feed.update(t + 1000, 100, 99);
      // last below both: P1, one second closer to funding: 100 x (1 + 0.0001 x 14,399 / 28,800)
      expect(feed.mark).toBeCloseTo(100.00499965277778, 10);
      feed.update(t + 2000, 100, 101);
      expect(feed.mark).toBeCloseTo(100.2, 10); // last above both: P2
      // P2 averages the per-second basis over 30 s: the mid moves to 100.0 (basis 0)
      rest(ex, 1, '99.5', '2');
      cancelBotOrder(ex, 'BTCUSDT', pair.book.levelOrderIds(1, 999)[0]);
      feed.update(t + 3000, 100, 100); // mid (99.5 + 100.5) / 2 = 100.0, basis 0
      // seconds t..t+2 held 0.2, t+3 holds 0: mean 0.15
      expect(feed.p2).toBeCloseTo(100.15, 10);
    } finally {
      tv.close();
    }
  });

  it('samples the premium every 5 s at the impact notional and turns it into the funding rate', () => {
    const tv = testVenue();
    try {
      const ex = tv.venue.exchange;
      const pair = ex.pair('BTCUSDT')!;
      setPrices(ex, 'BTCUSDT', { mark: 100, index: 100 });
      // impact notional 200 x 125 = 25,000 USDT: 250 BTC at ~100
      const bid = rest(ex, 1, '100.1', '300');
      rest(ex, 2, '100.5', '300');
      const t = T0 + H; // a multiple of 5 s
      const feed = new PriceFeed(pair, t);
      expect(feed.impactUnits).toBe(25_000 / (0.1 * 0.001));
      feed.update(t, 100, 100.3);
      // P = (100.1 - 100) / 100 = 0.001; F = 0.001 + clamp(0.0001 - 0.001, +-0.0005) = 0.0005
      expect(feed.lastPremium).toBeCloseTo(0.001, 12);
      expect(feed.samples).toBe(1);
      expect(feed.rate).toBe(0.0005);
      // not a sampling instant: nothing changes
      cancelBotOrder(ex, 'BTCUSDT', bid);
      rest(ex, 1, '99.9', '300');
      feed.update(t + 2500, 100, 100.3);
      expect(feed.samples).toBe(1);
      expect(feed.rate).toBe(0.0005);
      // next sample: index inside the impact prices, P = 0; weighted average (1 x 0.001 + 2 x 0) / 3 = 0.00033 -> 0.01 %
      feed.update(t + 5000, 100, 100.3);
      expect(feed.lastPremium).toBe(0);
      expect(feed.samples).toBe(2);
      expect(feed.rate).toBe(0.0001);
      // a book too thin for the impact notional: the sample is skipped
      cancelBotOrder(ex, 'BTCUSDT', pair.book.levelOrderIds(1, 999)[0]);
      rest(ex, 1, '99.9', '10');
      feed.update(t + 10_000, 100, 100.3);
      expect(feed.samples).toBe(2);
      expect(feed.skippedSamples).toBe(1);
      // settling closes the interval and opens the next one at the interest rate
      expect(feed.settle(T0 + 8 * H)).toBe(0.0001);
      expect(feed.nextFunding).toBe(T0 + 16 * H);
      expect(feed.samples).toBe(0);
    } finally {
      tv.close();
    }
  });

  it('caps the rate at 0.75 x the top tier MMR (BTCUSDT 0.30 %)', () => {
    const tv = testVenue();
    try {
      const ex = tv.venue.exchange;
      setPrices(ex, 'BTCUSDT', { mark: 100, index: 100 });
      rest(ex, 1, '101', '300'); // P = 1 %
      rest(ex, 2, '101.5', '300');
      const feed = new PriceFeed(ex.pair('BTCUSDT')!, T0);
      feed.update(T0, 100, 101);
      expect(feed.lastPremium).toBeCloseTo(0.01, 12);
      expect(feed.rate).toBe(0.003);
    } finally {
      tv.close();
    }
  });

  it("goes on with a restart's running interval, and only with one of the same interval", () => {
    const tv = testVenue();
    try {
      const ex = tv.venue.exchange;
      const pair = ex.pair('BTCUSDT')!;
      setPrices(ex, 'BTCUSDT', { mark: 100, index: 100 });
      rest(ex, 1, '100.1', '300'); // P = 0.1 %
      rest(ex, 2, '100.5', '300');
      const t = T0 + H;
      const a = new PriceFeed(pair, t);
      a.update(t, 100, 100.3);
      a.update(t + 5000, 100, 100.3);
      expect(a.rate).toBe(0.0005);
      const saved = a.interval();
      expect(saved).toEqual({ next: T0 + 8 * H, weighted: 3 * a.lastPremium, weights: 3, samples: 2 });
      // the service stopped and started again in the same interval: the samples and the rate go on
      const b = new PriceFeed(pair, t + 7000, saved);
      expect(b.rate).toBe(0.0005);
      expect(b.samples).toBe(2);
      // the next sample weighs 3, as the third of an uninterrupted interval: (3 x 0.001 + 3 x 0.001) / 6
      b.update(t + 10_000, 100, 100.3);
      a.update(t + 10_000, 100, 100.3);
      expect(b.interval()).toEqual(a.interval());
      // a checkpoint of an interval that has been settled since: the next starts without samples
      const c = new PriceFeed(pair, T0 + 8 * H + 1000, saved);
      expect(c.rate).toBe(0.0001);
      expect(c.samples).toBe(0);
    } finally {
      tv.close();
    }
  });
});
