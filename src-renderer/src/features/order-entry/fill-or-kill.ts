// A fill-or-kill limit order meets the book whole or not at all: the venue refuses one the book
// cannot fill at once at its price or better (3023). The order form says so before it is sent
// when the levels it holds (the ladder's, LocalOrderBook's best 40) reach past the price.
import { Side } from '../../../../src-shared/enums.ts';
import type { PriceLevel } from '../../../../src-shared/sdk/local-order-book.ts';

/** The book as the order form holds it: the best prices and the levels, best first (undefined: not held). */
interface BookSides {
  bestBid: number;
  bestAsk: number;
  bids?: readonly PriceLevel[];
  asks?: readonly PriceLevel[];
}

/**
 * A fill-or-kill order of `side` for `qty` at `price`: what the book shows at that price or better
 * when it is less than `qty` (the venue refuses the order, 3023), else NaN, as when the levels
 * held end before the price (the book may hold more beyond them). The account's own orders count,
 * though self-trade prevention keeps them out: a shortfall said is one the venue finds too.
 */
export function fillOrKillShort(side: Side, price: number, qty: number, i: BookSides): number {
  if (!(qty > 0) || !(price > 0)) return NaN;
  const buy = side === Side.BUY;
  const best = buy ? i.bestAsk : i.bestBid;
  if (!(best > 0)) return NaN;
  const reaches = (p: number): boolean => (buy ? p <= price : p >= price);
  // nothing at the price or better: none of it fills
  if (!reaches(best)) return 0;
  const levels = buy ? i.asks : i.bids;
  if (!levels) return NaN;
  let sum = 0;
  for (const [p, q] of levels) {
    if (!reaches(Number(p))) return sum < qty * (1 - 1e-9) ? sum : NaN;
    sum += Number(q);
  }
  return NaN;
}
