// A restart keeps the running funding interval (docs/simulated-market.md, "A restart"): the
// premium samples taken since the last settlement are saved with the market checkpoint, so a
// service stopped and started again on the same data folder shows and settles the funding rate an
// uninterrupted run would. Before, the interval started again without samples: after one-sided
// flow had held the book over the index, BTCUSDT's rate read 0.0100 % before the stop and 0.0644 %
// after it (the few samples after the restart, at the premium of the moment, were all the average
// had), and the interval's earlier samples were lost to the settlement too.
import { describe, expect, it } from 'vitest';
import { placeBotOrder } from '../../helpers/exchange-commands.ts';
import { restartingSim, T0 } from './helpers.ts';

const SYMBOL = 'BTCUSDT';
const START = T0 + 14 * 3_600_000; // two hours before the 16:00 settlement
const { open, stop, run } = restartingSim({
  prefix: 'perpdesk-funding-restart-',
  seed: 5,
  start: START,
  symbol: SYMBOL,
});

describe('the running funding interval across a restart', () => {
  it('goes on with the samples taken before the stop', { timeout: 300_000 }, async () => {
    const a = open(true);
    run(a.market, 5_000);
    // two minutes of market buys of 4 M USDT a second hold the book over the index: the
    // interval's premium average leaves the clamp band and the rate leaves the interest rate
    run(a.market, 120_000, () => {
      const qty = (4_000_000 / a.s.pair.markPrice).toFixed(3);
      placeBotOrder(a.v.exchange, { symbol: SYMBOL, side: 1, position_side: 1, position_action: 1, type: 2, qty });
    });
    run(a.market, 30_000);
    const rate = a.s.pair.fundingRate;
    const samples = a.s.feed.samples;
    expect(rate).toBeGreaterThan(0.0002);
    expect(samples).toBe(31);
    expect(a.market.sim.stats.errors).toBe(0);
    await stop(a);

    const b = open(false);
    // no market time has passed: the rate the pair shows is the one before the stop
    expect(b.s.pair.fundingRate).toBe(rate);
    expect(b.s.feed.samples).toBe(samples);
    run(b.market, 10_000);
    // two more samples of 33: the rate moves by a fraction of its distance from the interest rate
    expect(b.s.feed.samples).toBe(samples + 2);
    expect(Math.abs(b.s.pair.fundingRate - rate)).toBeLessThan(0.25 * (rate - 0.0001));
    expect(b.market.sim.stats.errors).toBe(0);
  });
});
