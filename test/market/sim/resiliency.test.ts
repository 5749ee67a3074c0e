// The book's resiliency after a sweep (docs/simulated-market.md, "The touch", resiliency): a
// market buy that walks far through the asks leaves a lasting footprint. One step later the ask
// side still has its hole (the spread is wide, the mid above the fair price) and the swept ladder is
// not all quoted again; within seconds the hole closes and the spread is back near one tick.
// Before, the crowd quoted the touch and every ladder level again within that one step.
import { describe, expect, it } from 'vitest';
import { PairLimits } from '../../../src-main/market/sim/order-sizing.ts';
import { Rng } from '../../../src-main/market/sim/rng.ts';
import { Simulator } from '../../../src-main/market/sim/simulator.ts';
import { DEFAULT_TOUCH, TouchBook } from '../../../src-main/market/sim/touch-book.ts';
import { HOUSE_ACCOUNT } from '../../../src-main/trading/exchange.ts';
import { Side } from '../../../src-shared/enums.ts';
import { placeOrder } from '../../helpers/exchange-commands.ts';
import { T0, testVenue } from './helpers.ts';

const H = 3_600_000;
/** BTCUSDT with a thin taker flow and no jumps: the book after the order is the order's doing. */
const QUIET = { takerRate: 0.05, volatility: 0.2, jumpsPerDay: 0 };

/** A user's market buy of `notional` USDT on BTCUSDT at 14:00:20 on seed `seed`; the book read at each of `afterMs`. */
function sweep(seed: number, notional: number, afterMs: number[]) {
  const tv = testVenue({ start: T0 + 14 * H, seed });
  try {
    const ex = tv.venue.exchange;
    const sim = new Simulator({
      exchange: ex,
      clock: tv.venue.clock,
      seed,
      symbols: ['BTCUSDT'],
      params: { BTCUSDT: QUIET },
    });
    const s = sim.symbol('BTCUSDT')!;
    const book = s.pair.book;
    const at = T0 + 14 * H + 20_000;
    sim.runUntil(at);
    const read = () => {
      const ask = book.bestAsk();
      const above = new Set(book.topLevels(Side.SELL, 40).map(([p]) => p));
      let ladder = 0;
      for (let i = 0; i < 20; i++) if (above.has(ask + i)) ladder++;
      const mid = (book.bestBid() + ask) / 2;
      return {
        spread: ask - book.bestBid(),
        ladder,
        midOverFairBp: ((mid * s.limits.tick) / s.impact.fair(s.pair.indexPrice) - 1) * 1e4,
      };
    };
    const before = read();
    const acct = tv.venue.accounts.upsert(
      { apiKey: 'sweep-test-key', apiSecret: 'sweep-test-secret', kind: 'user', balance: 100_000_000n * 10n ** 8n },
      T0,
    );
    const mid0 = ((book.bestBid() + book.bestAsk()) / 2) * s.limits.tick;
    const from = tv.trades.length;
    placeOrder(ex, acct.id, {
      symbol: 'BTCUSDT',
      side: 1,
      position_side: 1,
      position_action: 1,
      type: 2,
      qty: (notional / mid0).toFixed(3),
    });
    const top = Math.max(...tv.trades.slice(from).map((t) => t.priceTicks));
    const wickBp = ((top * s.limits.tick) / mid0 - 1) * 1e4;
    const after = afterMs.map((ms) => {
      sim.runUntil(at + ms);
      return read();
    });
    expect(sim.stats.errors).toBe(0);
    return { before, wickBp, after };
  } finally {
    tv.close();
  }
}

describe('resiliency after a sweep', () => {
  it('a 9.6 M USDT market buy leaves the spread wide and the swept ladder empty one step later; within 20 s the book has recovered', () => {
    for (const seed of [1, 2, 3]) {
      const { before, wickBp, after } = sweep(seed, 9_600_000, [100, 1_000, 20_000]);
      const [step, second, later] = after;
      expect(before.spread).toBeLessThanOrEqual(2);
      expect(wickBp).toBeGreaterThan(5);
      // one step later: a hole of a good share of the wick, the ladder behind the new best mostly empty
      expect(step.spread).toBeGreaterThan(100); // > 1 bp on BTCUSDT's 0.01 bp tick
      expect(step.midOverFairBp).toBeGreaterThan(wickBp / 8);
      expect(step.ladder).toBeLessThan(10);
      // a second later the spread is narrower but still wider than a tick
      expect(second.spread).toBeGreaterThan(1);
      expect(second.spread).toBeLessThan(step.spread);
      // 20 s later: back near one tick, the mid back on the fair price (the index and the impact's transient offset)
      expect(later.spread).toBeLessThanOrEqual(3);
      expect(Math.abs(later.midOverFairBp)).toBeLessThan(1);
    }
  });

  it('a small market buy opens no hole: the spread stays one or two ticks', () => {
    for (const seed of [1, 2]) {
      const { after } = sweep(seed, 20_000, [100, 1_000]);
      for (const a of after) expect(a.spread).toBeLessThanOrEqual(2);
    }
  });
});

describe('resiliency after a jump', () => {
  it('a jump of the fair price widens the spread on the side it moved towards, and it narrows back within seconds', () => {
    const tv = testVenue();
    try {
      const ex = tv.venue.exchange;
      const pair = ex.pair('BTCUSDT')!;
      const touch = new TouchBook(
        { ex, pair, limits: new PairLimits(pair), rng: Rng.stream(5, 'touch'), account: HOUSE_ACCOUNT + 3 },
        { ...DEFAULT_TOUCH, deepDensity: 0 },
      );
      const book = pair.book;
      let fair = 960_000.4; // ticks
      let t = 0;
      touch.step(t, 0, fair, 1, 0);
      for (let i = 0; i < 10; i++) touch.step((t += 100), 100, fair, 1, 0);
      expect(book.bestAsk() - book.bestBid()).toBe(1);
      fair *= 1.005; // a 50 bp jump up, 4,800 ticks (the resilience's jumpReach: 10 bp)
      touch.step((t += 100), 100, fair, 1, 0);
      const [bidT, askT] = TouchBook.targets(fair);
      expect(book.bestBid()).toBe(bidT);
      expect(book.bestAsk() - askT).toBeGreaterThan(1_000);
      const spreads: number[] = [];
      for (let i = 1; i <= 150; i++) {
        touch.step((t += 100), 100, fair, 1, 0);
        if (i % 10 === 0) spreads.push(book.bestAsk() - book.bestBid());
      }
      // narrowing second by second, back within a few ticks 15 s on
      for (let i = 1; i < spreads.length; i++) expect(spreads[i]).toBeLessThanOrEqual(spreads[i - 1]);
      expect(spreads[0]).toBeGreaterThan(100);
      expect(spreads[14]).toBeLessThanOrEqual(3);
    } finally {
      tv.close();
    }
  });
});
