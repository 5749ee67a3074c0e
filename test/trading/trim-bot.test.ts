// The trimBot command: a resting bot order reduced in place keeps its place in the queue (what the
// replay's book mirror relies on), 0 cancels it, and a size that is not a reduction is refused
// having changed nothing.
import { placeBotOrder } from '../helpers/exchange-commands.ts';
import { describe, expect, it } from 'vitest';
import { ApiError, Errors } from '../../src-shared/errors.ts';
import { HOUSE_ACCOUNT } from '../../src-main/trading/exchange.ts';
import type { LocalVenue } from '../../src-main/venue.ts';
import { paperVenues } from './venues.ts';

const venue = paperVenues();

const bid = (v: LocalVenue, qty: string, account = HOUSE_ACCOUNT) =>
  Number(
    placeBotOrder(
      v.exchange,
      {
        symbol: 'BTCUSDT',
        side: 1,
        position_side: 1,
        position_action: 1,
        type: 1,
        price: '95000.0',
        qty,
        time_in_force: 1,
      },
      account,
    ).order_id,
  );

describe('trimBot', () => {
  it('reduces in place: the trimmed order is still first in its level and fills first', () => {
    const v = venue();
    const a = bid(v, '1.000');
    const b = bid(v, '1.000', HOUSE_ACCOUNT + 1);
    const r = v.exchange.execute({ kind: 'trimBot', symbol: 'BTCUSDT', orderId: a, lots: 400 });
    expect(r).toEqual({ order_id: String(a), remaining_lots: 400 });
    const book = v.exchange.pair('BTCUSDT')!.book;
    expect(book.levelOrderIds(1, book.bestBid())).toEqual([a, b]);
    expect(book.topLevels(1, 1)).toEqual([[book.bestBid(), 1400]]);
    // a sell of 0.5 takes the 0.4 of a first, then 0.1 of b
    placeBotOrder(
      v.exchange,
      {
        symbol: 'BTCUSDT',
        side: 2,
        position_side: 2,
        position_action: 1,
        type: 1,
        price: '95000.0',
        qty: '0.500',
        time_in_force: 2,
      },
      HOUSE_ACCOUNT + 2,
    );
    expect(book.getOrder(a)).toBeNull();
    expect(book.getOrder(b)!.remainingLots).toBe(900);
  });

  it('0 cancels; growing, equal, negative or fractional sizes and unknown orders are refused, changing nothing', () => {
    const v = venue();
    const a = bid(v, '1.000');
    const book = v.exchange.pair('BTCUSDT')!.book;
    for (const lots of [1000, 1500, -1, 0.5]) {
      expect(() => v.exchange.execute({ kind: 'trimBot', symbol: 'BTCUSDT', orderId: a, lots })).toThrow(ApiError);
      expect(book.getOrder(a)!.remainingLots).toBe(1000);
    }
    try {
      v.exchange.execute({ kind: 'trimBot', symbol: 'BTCUSDT', orderId: 999_999, lots: 1 });
      expect.unreachable();
    } catch (err) {
      expect((err as ApiError).code).toBe(Errors.ORDER_NOT_FOUND.code);
    }
    v.exchange.execute({ kind: 'trimBot', symbol: 'BTCUSDT', orderId: a, lots: 0 });
    expect(book.getOrder(a)).toBeNull();
  });
});
