// The synthetic book's levels while no user has an order on the pair (docs/replay.md "Speed",
// "2026-11-30, 05:00"): every level is one order of the book account, whose size is the level's
// (a refill grows the level's order in place, a print trims its front order, a side change
// replaces the level). A direct path for the synthetic book (its own levels' order ids and
// sizes, no reads of the engine's levels) would rest on this: a second order at a level (a
// refill placed as a new order, say) is what this test catches.
import { afterEach, describe, expect, it } from 'vitest';
import { Side } from '../../src-shared/enums.ts';
import { memoryReplayVenue, tradesReplayData, walkTrades } from './harness.ts';

const START = Date.UTC(2024, 0, 1);
const N = 20_000;

const closers: Array<() => void> = [];
afterEach(() => {
  for (const c of closers.splice(0)) c();
});

describe('synthetic book without users', () => {
  it('holds one order of the book account a level, of the level size, through 20,000 walk prints', () => {
    const data = tradesReplayData(START, walkTrades(START, N));
    const rig = memoryReplayVenue(data, 'BTCUSDT', START, '50000.0');
    closers.push(() => rig.close());
    const book = rig.exchange.pair('BTCUSDT')!.book;
    const ids: number[] = [];
    const accounts: number[] = [];
    const rem: number[] = [];
    const owners = new Set<number>();
    let levels = 0;
    for (let i = 1; i <= N; i += 7) {
      rig.market.seek(START + (i - 1) * 10);
      for (const side of [Side.BUY, Side.SELL]) {
        for (const [price, lots] of book.topLevels(side)) {
          const n = book.levelQueue(side, price, ids, accounts, rem);
          expect(n, `side ${side} price ${price} after print ${i}`).toBe(1);
          expect(rem[0]).toBe(lots);
          owners.add(accounts[0]);
          levels++;
        }
      }
    }
    expect(owners.size).toBe(1); // the book account's alone
    expect(levels).toBeGreaterThan(N); // the book was read at every check (10 to 20 levels a side)
  });
});
