// Read views (grouped depth, impact price, order look-ups), the band arithmetic, and structural
// edge cases: lazy level removal and compaction, deep levels, growth, misuse.

import { describe, expect, it } from 'vitest';
import { CountingSink } from '../../src-main/engine/counting-sink.ts';
import { OrderBook, bandLimit } from '../../src-main/engine/order-book.ts';
import { RecordingSink } from '../../src-main/engine/recording-sink.ts';
import { ReferenceBook } from '../../src-main/engine/reference-book.ts';
import type { EngineSink } from '../../src-main/engine/types.ts';
import { expectSameState } from './harness.ts';

const BUY = 1;
const SELL = 2;

function book(): OrderBook {
  const b = new OrderBook({ bandPpm: 50_000 }, new CountingSink());
  // bids 1000 x3, 999 x2, 995 x4, 990 x1 ; asks 1001 x1, 1003 x2, 1010 x5, 1011 x1
  let id = 1;
  for (const [side, price, qty] of [
    [BUY, 1000, 3],
    [BUY, 999, 2],
    [BUY, 995, 4],
    [BUY, 990, 1],
    [SELL, 1001, 1],
    [SELL, 1003, 2],
    [SELL, 1010, 5],
    [SELL, 1011, 1],
  ]) {
    b.placeLimit(id++, 7, side, price, qty, 1);
  }
  return b;
}

describe('read views', () => {
  it('best prices and top N levels, best first', () => {
    const b = book();
    expect(b.bestBid()).toBe(1000);
    expect(b.bestAsk()).toBe(1001);
    expect(b.topLevels(BUY, 2)).toEqual([
      [1000, 3],
      [999, 2],
    ]);
    expect(b.topLevels(SELL, 3)).toEqual([
      [1001, 1],
      [1003, 2],
      [1010, 5],
    ]);
    const empty = new OrderBook({ bandPpm: 0 }, new CountingSink());
    expect([empty.bestBid(), empty.bestAsk()]).toEqual([0, 0]);
    expect(empty.depth(5)).toEqual({ updateId: 0, bids: [], asks: [] });
  });

  it('groups by price_merges step: bids down, asks up', () => {
    const b = book();
    expect(b.topLevels(BUY, 10, 5)).toEqual([
      [1000, 3],
      [995, 6],
      [990, 1],
    ]);
    expect(b.topLevels(SELL, 10, 5)).toEqual([
      [1005, 3],
      [1010, 5],
      [1015, 1],
    ]);
    expect(b.depth(2, 10)).toEqual({
      updateId: b.updateId,
      bids: [
        [1000, 3],
        [990, 7],
      ],
      asks: [
        [1010, 8],
        [1020, 1],
      ],
    });
    expect(() => b.topLevels(BUY, 5, 0)).toThrow(RangeError);
  });

  it('impact price is the average fill price of a market order of that tick*lot notional', () => {
    const b = book();
    // Buy 1 lot at 1001 (1001) + 2 at 1003 (2006) + 0.5 at 1010 (505) = 3512 notional for 3.5 lots.
    expect(b.impactAsk(3512)).toBeCloseTo(3512 / 3.5, 12);
    // Exactly the first level.
    expect(b.impactBid(3000)).toBe(1000);
    // More than the whole side can absorb, or a bad notional.
    expect(b.impactAsk(1e9)).toBeNull();
    expect(b.impactBid(0)).toBeNull();
    expect(b.impactBid(Number.NaN)).toBeNull();
  });

  it('looks up orders and lists an account in entry order', () => {
    const sink = new RecordingSink();
    const b = new OrderBook({ bandPpm: 50_000 }, sink);
    b.placeLimit(5, 1, SELL, 200, 4, 4, 1);
    b.placeLimit(3, 1, BUY, 100, 2, 1);
    b.placeLimit(9, 2, BUY, 200, 1, 1); // takes 1 from #5
    b.placeLimit(4, 1, BUY, 101, 6, 1);
    expect(b.getOrder(5)).toEqual({
      orderId: 5,
      account: 1,
      side: SELL,
      priceTicks: 200,
      qtyLots: 4,
      remainingLots: 3,
      filledLots: 1,
      tif: 4,
      flags: 1,
      reduceOnly: true,
    });
    expect(b.getOrder(9)).toBeNull();
    expect(b.getOrder(-1)).toBeNull();
    expect(b.openOrderIds(1)).toEqual([5, 3, 4]);
    b.amend(3, 100, 5); // quantity up: loses priority, moves to the back of the account list too
    expect(b.openOrderIds(1)).toEqual([5, 4, 3]);
    expect(b.openOrderIds(2)).toEqual([]);
    expect(b.openOrderIds(404)).toEqual([]);
    expect(b.orderCount).toBe(3);
  });

  it('band limits round toward the reference and never below 1 tick', () => {
    expect(bandLimit(BUY, 100, 10_000)).toBe(101);
    expect(bandLimit(BUY, 199, 10_000)).toBe(200); // 200.99 -> 200
    expect(bandLimit(SELL, 199, 10_000)).toBe(198); // 197.01 -> 198
    expect(bandLimit(SELL, 100, 0)).toBe(100);
    expect(bandLimit(SELL, 5, 1_000_000)).toBe(1);
    expect(bandLimit(BUY, 2_147_483_647, 1_000_000)).toBe(4_294_967_294);
  });
});

describe('structure', () => {
  it('levels emptied below the top stay out of every view, are reused, and get compacted', () => {
    const s1 = new RecordingSink();
    const s2 = new RecordingSink();
    const b = new OrderBook({ bandPpm: 50_000, initialLevelCapacity: 1 }, s1);
    const r = new ReferenceBook({ bandPpm: 50_000 }, s2);
    // the engine takes an order's fields as arguments, the reference book as one object
    const limitOn = (x: OrderBook | ReferenceBook, [orderId, account, side, priceTicks, qtyLots, tif]: number[]) =>
      x instanceof OrderBook
        ? x.placeLimit(orderId, account, side, priceTicks, qtyLots, tif)
        : x.placeLimit({ orderId, account, side, priceTicks, qtyLots, tif });
    const both = (f: (x: OrderBook | ReferenceBook) => void): void => {
      f(b);
      f(r);
    };
    // 300 bid levels and 300 ask levels, then cancel most of them away from the top.
    both((x) => {
      for (let i = 0; i < 300; i++) {
        limitOn(x, [1 + i, 1 + (i % 3), BUY, 1000 - i, 1 + (i % 4), 1]);
        limitOn(x, [1001 + i, 1 + (i % 3), SELL, 1001 + i, 1 + (i % 4), 1]);
      }
      for (let i = 1; i < 300; i++) {
        if (i % 5 !== 0) {
          x.cancel(1 + i);
          x.cancel(1001 + i);
        }
      }
    });
    expect(s1.take()).toEqual(s2.take());
    expectSameState(b, r, [1, 2, 3]);
    expect(b.levelCount(BUY)).toBe(60);
    // Re-use prices that were emptied, then sweep through the thinned book.
    both((x) => {
      limitOn(x, [5000, 4, BUY, 998, 2, 1]);
      limitOn(x, [5001, 4, SELL, 1002, 2, 1]);
      limitOn(x, [5002, 5, SELL, 900, 400, 3]); // FOK: far more than the bids hold
      limitOn(x, [5003, 5, SELL, 900, 60, 2]); // IOC sweep across emptied prices
      x.cancelAll(1);
      limitOn(x, [5004, 5, BUY, 1200, 40, 1]);
    });
    expect(s1.take()).toEqual(s2.take());
    expectSameState(b, r, [1, 2, 3, 4, 5]);
  });

  it('deep levels: FIFO holds when orders leave from anywhere in a long queue', () => {
    const sink = new RecordingSink();
    const b = new OrderBook({ bandPpm: 50_000, initialOrderCapacity: 4 }, sink);
    const n = 20_000;
    for (let i = 1; i <= n; i++) b.placeLimit(i, 1 + (i % 50), SELL, 500, 1, 1);
    for (let i = 2; i <= n; i += 2) b.cancel(i);
    expect(b.topLevels(SELL)).toEqual([[500, n / 2]]);
    sink.take();
    b.placeLimit(n + 1, 999, BUY, 500, 3, 2);
    const makers = sink.events.filter((e) => e.type === 'trade').map((e) => (e.type === 'trade' ? e.makerId : 0));
    expect(makers).toEqual([1, 3, 5]);
    expect(b.levelOrderIds(SELL, 500).slice(0, 3)).toEqual([7, 9, 11]);
    expect(b.audit()).toEqual([]);
  });

  it('update ids keep counting across many commands with no gaps', () => {
    const sink = new CountingSink();
    const b = new OrderBook({ bandPpm: 50_000 }, sink);
    for (let i = 1; i <= 1000; i++)
      b.placeLimit(i, i % 7, i % 2 === 0 ? BUY : SELL, i % 2 === 0 ? 100 - (i % 10) : 101 + (i % 10), 1, 1);
    for (let i = 1; i <= 1000; i += 3) b.cancel(i);
    b.placeMarket(5000, 99, BUY, 200, 100);
    expect(sink.lastUpdateId).toBe(sink.levelChanges);
    expect(b.updateId).toBe(sink.levelChanges);
    expect(sink.levelChanges).toBeGreaterThan(1000);
  });

  it('refuses bad config and re-entrant commands from inside a sink', () => {
    expect(() => new OrderBook({ bandPpm: -1 }, new CountingSink())).toThrow(RangeError);
    expect(() => new OrderBook({ bandPpm: 1.5 }, new CountingSink())).toThrow(RangeError);
    expect(() => new OrderBook({ bandPpm: 0, defaultStp: 9 as 1 }, new CountingSink())).toThrow(RangeError);
    let inner: unknown = null;
    const sink = new CountingSink() as CountingSink & EngineSink;
    const b = new OrderBook({ bandPpm: 0 }, sink);
    sink.onAccepted = () => {
      try {
        b.cancel(1);
      } catch (e) {
        inner = e;
      }
    };
    b.placeLimit(1, 1, BUY, 10, 1, 1);
    expect(inner).toBeInstanceOf(Error);
  });
});
