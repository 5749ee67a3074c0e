// The touch crowd and the deep book on the real engine, without the rest of the simulator.
import { placeBotOrder } from '../../helpers/exchange-commands.ts';
import { describe, expect, it } from 'vitest';
import { DeepBook } from '../../../src-main/market/sim/deep-book.ts';
import { DEFAULT_FLOW, OrderFlow } from '../../../src-main/market/sim/order-flow.ts';
import { PairLimits } from '../../../src-main/market/sim/order-sizing.ts';
import { Rng } from '../../../src-main/market/sim/rng.ts';
import { TouchBook } from '../../../src-main/market/sim/touch-book.ts';
import { HOUSE_ACCOUNT } from '../../../src-main/trading/exchange.ts';
import { median } from '../../helpers/realism-stats.ts';
import { testVenue } from './helpers.ts';

const CROWD = HOUSE_ACCOUNT + 3;
const TAKER = HOUSE_ACCOUNT + 1;

describe('touch crowd (queue-reactive)', () => {
  it('quotes a one-tick spread straddling the fair price, levels one tick apart, and follows the fair price', () => {
    const tv = testVenue();
    try {
      const ex = tv.venue.exchange;
      const pair = ex.pair('BTCUSDT')!;
      const touch = new TouchBook(
        { ex, pair, limits: new PairLimits(pair), rng: Rng.stream(1, 'touch'), account: CROWD },
        {
          levels: 3,
          queueNotional: 100_000,
          limitRate: 4,
          cancelRate: 2,
          refillRate: 12,
        },
      );
      const fair = 960_000.4; // ticks
      touch.step(0, 0, fair, 1, 0);
      const book = pair.book;
      expect([book.bestBid(), book.bestAsk()]).toEqual([960_000, 960_001]);
      const d = book.depth(10);
      expect(d.bids.map((l) => l[0])).toEqual([960_000, 959_999, 959_998]);
      expect(d.asks.map((l) => l[0])).toEqual([960_001, 960_002, 960_003]);
      // the fair price moves 50 ticks up: nothing stale stays, the ladder straddles the new price
      touch.step(100, 100, fair + 50, 1, 0);
      expect([book.bestBid(), book.bestAsk()]).toEqual([960_050, 960_051]);
      expect(book.depth(10).bids.map((l) => l[0])).toEqual([960_050, 960_049, 960_048]);
      expect(book.openOrderIds(CROWD).sort()).toEqual([...touch.house.orders.keys()].sort());
    } finally {
      tv.close();
    }
  });

  it('an eaten best queue moves the price a tick, and the queue re-forms at the refill rate', () => {
    const tv = testVenue();
    try {
      const ex = tv.venue.exchange;
      const pair = ex.pair('BTCUSDT')!;
      const touch = new TouchBook(
        { ex, pair, limits: new PairLimits(pair), rng: Rng.stream(2, 'touch'), account: CROWD },
        {
          levels: 3,
          queueNotional: 100_000,
          limitRate: 0,
          cancelRate: 0,
          refillRate: 5,
        },
      );
      const fair = 960_000.4;
      touch.step(0, 0, fair, 1, 0);
      const book = pair.book;
      let refills = 0;
      let trials = 0;
      for (let i = 0; i < 1000; i++) {
        const empty = book.bestAsk() !== 960_001;
        if (!empty) {
          // a taker buys the whole best ask queue: the price moves a tick
          const lots = book.depth(1).asks[0][1];
          placeBotOrder(
            ex,
            {
              symbol: 'BTCUSDT',
              side: 1,
              position_side: 1,
              position_action: 1,
              type: 1,
              price: pair.math.formatPrice(960_001),
              qty: pair.math.formatQty(lots),
              time_in_force: 2,
            },
            TAKER,
          );
          expect(book.bestAsk()).toBe(960_002);
        }
        touch.step(100 * i, 100, fair, 960_001, 960_001);
        trials++;
        if (book.bestAsk() === 960_001) refills++;
        expect(book.bestAsk()).toBeLessThanOrEqual(960_002); // deeper levels are kept
      }
      // P(refill in a 100 ms step) = 1 - e^(-5 x 0.1) = 0.393
      expect(refills / trials).toBeGreaterThan(0.31);
      expect(refills / trials).toBeLessThan(0.48);
    } finally {
      tv.close();
    }
  });
});

describe('arbitrage of stale quotes', () => {
  // a fresh ladder for every call: the fair price alternates 100 ticks apart, so every quote is new
  const setup = () => {
    const tv = testVenue();
    const ex = tv.venue.exchange;
    const pair = ex.pair('BTCUSDT')!;
    const limits = new PairLimits(pair);
    const touch = new TouchBook(
      { ex, pair, limits: limits, rng: Rng.stream(3, 'touch'), account: CROWD },
      {
        levels: 3,
        queueNotional: 1_000_000,
        limitRate: 4,
        cancelRate: 2,
        refillRate: 12,
      },
    );
    // a threshold of 9.9 ticks at a fair price near 960,000 ticks
    const flow = new OrderFlow(
      { ex, pair, limits: limits, rng: Rng.stream(3, 'flow'), account: TAKER },
      {
        ...DEFAULT_FLOW,
        rate: 1,
        medianNotional: 600,
        queueNotional: 0,
        arbMove: 9.9 / 960_000,
      },
    );
    let i = 0;
    /** The fair price moved `through` ticks past the best ask (up) or bid (down); the lots the arbitrage bought (+) or sold (-). */
    const cross = (dir: 1 | -1, through: number, maxLots: number): number => {
      touch.step(100 * i, 100, 960_000.4 + 100 * (i++ % 2), 1, 0);
      const bidT = dir === 1 ? pair.book.bestAsk() + through : pair.book.bestBid() - through - 1;
      const before = tv.trades.length;
      flow.arbitrage(bidT, bidT + 1, maxLots);
      let lots = 0;
      for (const t of tv.trades.slice(before)) lots += t.takerSide === 1 ? t.qtyLots : -t.qtyLots;
      return lots;
    };
    return { tv, cross };
  };

  it('trades the net move through the quotes once it reaches the threshold: maxLots per tick, times a multiplier of median 1', () => {
    const { tv, cross } = setup();
    try {
      const maxLots = 40;
      const ratios: number[] = [];
      for (let k = 0; k < 200; k++) {
        // three crossings of 3 ticks (the ask and two above it) stay below the threshold
        for (let j = 0; j < 3; j++) expect(cross(1, 2, maxLots)).toBe(0);
        // the fourth makes 12: one buy of about 12 x maxLots
        const lots = cross(1, 2, maxLots);
        expect(lots).toBeGreaterThan(0);
        ratios.push(lots / (12 * maxLots));
      }
      expect(median(ratios)).toBeGreaterThan(0.8);
      expect(median(ratios)).toBeLessThan(1.25);
      // the same downwards: sells
      for (let j = 0; j < 3; j++) expect(cross(-1, 2, maxLots)).toBe(0);
      expect(cross(-1, 2, maxLots)).toBeLessThan(0);
    } finally {
      tv.close();
    }
  });

  it('a fair price jittering back and forth through the quotes nets to nothing and is not traded', () => {
    const { tv, cross } = setup();
    try {
      for (let k = 0; k < 300; k++) {
        expect(cross(1, 4, 40)).toBe(0);
        expect(cross(-1, 4, 40)).toBe(0);
      }
      // a move that does reach the threshold still trades
      expect(cross(1, 4, 40)).toBe(0);
      expect(cross(1, 4, 40)).toBeGreaterThan(0);
    } finally {
      tv.close();
    }
  });
});

describe('deep book (power-law placement)', () => {
  it('keeps about `orders` orders a side behind the touch, at Lomax distances, cancelling those a move brings inside', () => {
    const tv = testVenue();
    try {
      const ex = tv.venue.exchange;
      const pair = ex.pair('BTCUSDT')!;
      const limits = new PairLimits(pair);
      const cfg = { orders: 150, lifetimeS: 20, scale: 0.002, mu: 0.6, maxDistance: 0.04, orderNotional: 3_000 };
      const deep = new DeepBook({ ex, pair, limits: limits, rng: Rng.stream(3, 'deep'), account: CROWD }, cfg);
      const bid = 960_000;
      deep.step({ time: 0, dtMs: 0, bidTop: bid, askTop: bid + 1, inner: 3, lo: 1, hi: 0 });
      const dist: number[] = [];
      for (let i = 1; i <= 3000; i++) {
        deep.step({ time: i * 100, dtMs: 100, bidTop: bid, askTop: bid + 1, inner: 3, lo: 1, hi: 0 });
        if (i % 100 === 0) for (const l of pair.book.depth(1000).bids) dist.push(bid - l[0] - 3);
      }
      const [nb, na] = deep.counts;
      expect(nb).toBeGreaterThan(110);
      expect(nb).toBeLessThan(190);
      expect(na).toBeGreaterThan(110);
      // median distance of the standing orders (lifetimes do not depend on distance): the median of
      // the Lomax law truncated at maxDistance, F(m) = F(max) / 2, in ticks
      const fMax = 1 - (cfg.scale / (cfg.scale + cfg.maxDistance)) ** cfg.mu;
      const want = (cfg.scale * ((1 - fMax / 2) ** (-1 / cfg.mu) - 1) * 96_000) / 0.1;
      expect(median(dist) / want).toBeGreaterThan(0.8);
      expect(median(dist) / want).toBeLessThan(1.25);
      expect(Math.max(...dist)).toBeLessThanOrEqual(cfg.maxDistance * 960_000 + 1);
      // a move of 500 ticks down: bids now inside the touch zone are withdrawn
      deep.step({ time: 400_000, dtMs: 100, bidTop: bid - 500, askTop: bid - 499, inner: 3, lo: 1, hi: 0 });
      expect(pair.book.bestBid()).toBeLessThanOrEqual(bid - 503);
      expect(pair.book.openOrderIds(CROWD).sort()).toEqual([...deep.house.orders.keys()].sort());
    } finally {
      tv.close();
    }
  });
});
