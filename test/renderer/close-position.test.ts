// The Positions tab's Close (and Close all) of a position larger than the pair's max_qty: the
// venue refuses an order above max_qty whole ("qty 21560.86 is above the maximum 20000"), while
// a position may be larger (built from several orders), so Close could never close it. It is
// now closed by several orders of at most max_qty each, sent one after the other, stopping at
// one the book did not fill whole.
import { describe, expect, it } from 'vitest';
import type { RestClient } from '../../src-shared/sdk/rest-client.ts';
import type { OrderRequest, PlacementResult, PositionRecord } from '../../src-shared/types.ts';
import {
  accountOneWay,
  closeOrder,
  closeOrders,
  closePosition,
  limitCloseCrosses,
  limitCloseOrders,
  limitClosePrefill,
} from '../../src-renderer/src/features/positions/close-position.ts';

const bnb = (position_side: 1 | 2, quantity: number): PositionRecord =>
  ({ symbol: 'BNBUSDT', position_side, quantity, entry_price: 660, mark_price: 655, leverage: 5 }) as PositionRecord;

/** A venue that refuses an order above `max` as the service does, and fills up to `book` in all. */
function venue(max: number, book = Infinity) {
  const sent: OrderRequest[] = [];
  let left = book;
  const api = {
    placeOrder: async (o: OrderRequest): Promise<PlacementResult> => {
      if (Number(o.qty) > max) throw new Error(`qty ${o.qty} is above the maximum ${max}`);
      sent.push(o);
      const filled = Math.min(Number(o.qty), left);
      left -= filled;
      return {
        order_id: String(sent.length),
        client_order_id: `api.${sent.length}`,
        status: filled === Number(o.qty) ? 3 : 6,
        filled_qty: filled.toFixed(2),
        filled_quote: '0',
      };
    },
  } as unknown as RestClient;
  return { api, sent };
}

describe('closing a position larger than max_qty', () => {
  it('splits the close into orders of at most max_qty, the last the rest', () => {
    expect(closeOrders(bnb(1, 21560.86), 2, false, '20000').map((o) => o.qty)).toEqual(['20000.00', '1560.86']);
    expect(closeOrders(bnb(2, 45000), 2, true, '20000').map((o) => [o.qty, o.side, o.position_side])).toEqual([
      ['20000.00', 1, 1],
      ['20000.00', 1, 1],
      ['5000.00', 1, 1],
    ]);
    // at or under max_qty, or max_qty unknown: one order of the whole size
    expect(closeOrders(bnb(1, 20000), 2, false, '20000').map((o) => o.qty)).toEqual(['20000.00']);
    expect(closeOrders(bnb(1, 21560.86), 2, false).map((o) => o.qty)).toEqual(['21560.86']);
  });

  it('closes all of it where one order of the whole size was refused', async () => {
    const { api, sent } = venue(20000);
    const r = await closePosition(api, bnb(1, 21560.86), 2, false, '20000');
    expect(sent.map((o) => [o.qty, o.side, o.position_side, o.position_action, o.type])).toEqual([
      ['20000.00', 2, 1, 2, 2],
      ['1560.86', 2, 1, 2, 2],
    ]);
    expect(r.status).toBe(3);
  });

  it('stops at an order the book did not fill whole: the rest stays open, nothing more is sent', async () => {
    const { api, sent } = venue(20000, 30000);
    const r = await closePosition(api, bnb(2, 45000), 2, false, '20000');
    expect(sent.map((o) => o.qty)).toEqual(['20000.00', '20000.00']);
    expect(r).toMatchObject({ status: 6, filled_qty: '10000.00' });
  });
});

describe("a row's Close before the account summary came", () => {
  // A one-way short closed in the moment after the screen opened, before the account summary came:
  // the table read "not one-way" and sent position_side 2, which a one-way account refuses (3012).
  it('reads the account first, so a one-way short is closed on the one-way side', async () => {
    let summary: { position_mode: string } | null = null;
    let reads = 0;
    const account = {
      getState: () => ({
        summary,
        actions: {
          refresh: async () => {
            reads++;
            summary = { position_mode: 'one_way' };
          },
        },
      }),
    } as unknown as Parameters<typeof accountOneWay>[0];
    const oneWay = await accountOneWay(account);
    expect([oneWay, reads]).toEqual([true, 1]);
    expect(closeOrder(bnb(2, 3), 2, oneWay)).toMatchObject({ side: 1, position_side: 1, position_action: 2 });
    // once it came, not read again
    expect(await accountOneWay(account)).toBe(true);
    expect(reads).toBe(1);
  });
});

// A row's "Limit" (limit-close.tsx): the whole position closed by a reduce-only GTC limit order at
// the typed price, on the side and position_side the mode needs; a price that cannot be sent is
// said, and nothing is.
describe('a limit close of the position', () => {
  const btc = { tick: '0.1', maxQty: '120' };
  const pick = (o: OrderRequest) => [
    o.side,
    o.position_side,
    o.position_action,
    o.type,
    o.time_in_force,
    o.price,
    o.qty,
  ];

  it('closes a hedge long with a sell and a hedge short with a buy on its own side, at the typed price', () => {
    const long = limitCloseOrders(bnb(1, 3.5), '97,000.5', 2, false, btc);
    const short = limitCloseOrders(bnb(2, 3.5), ' 95000 ', 2, false, btc);
    if (!('orders' in long) || !('orders' in short)) throw new Error('refused');
    expect(long.orders.map(pick)).toEqual([[2, 1, 2, 1, 1, '97000.5', '3.50']]);
    expect(short.orders.map(pick)).toEqual([[1, 2, 2, 1, 1, '95000', '3.50']]);
  });

  it('closes a one-way short with a buy on position_side 1, and splits a position above max_qty at one price', () => {
    const r = limitCloseOrders(bnb(2, 250), '650.0', 2, true, btc);
    if (!('orders' in r)) throw new Error(r.error);
    expect(r.orders.map(pick)).toEqual([
      [1, 1, 2, 1, 1, '650.0', '120.00'],
      [1, 1, 2, 1, 1, '650.0', '120.00'],
      [1, 1, 2, 1, 1, '650.0', '10.00'],
    ]);
  });

  it('refuses an empty price, a text, 0 or below and a price off the tick, sending nothing', () => {
    expect(limitCloseOrders(bnb(1, 1), '  ', 2, false, btc)).toEqual({ error: 'Type the price to close at.' });
    expect(limitCloseOrders(bnb(1, 1), '97k', 2, false, btc)).toMatchObject({
      error: expect.stringMatching(/^Not a price/),
    });
    expect(limitCloseOrders(bnb(1, 1), '0', 2, false, btc)).toEqual({ error: 'A price is above 0.' });
    expect(limitCloseOrders(bnb(1, 1), '-5', 2, false, btc)).toEqual({ error: 'A price is above 0.' });
    expect(limitCloseOrders(bnb(1, 1), '97000.05', 2, false, btc)).toEqual({
      error: 'Not on the tick: the venue takes multiples of 0.1.',
    });
    // the tick not known yet: the venue's 3003 says it
    expect(limitCloseOrders(bnb(1, 1), '97000.05', 2, false, {})).toHaveProperty('orders');
  });

  it('starts from the last price, the mark before any trade, empty with neither', () => {
    expect(limitClosePrefill(96010.1, 96011.3, 1)).toBe('96010.1');
    expect(limitClosePrefill(NaN, 96011.3, 1)).toBe('96011.3');
    expect(limitClosePrefill(undefined, 0.254611, 5)).toBe('0.25461');
    expect(limitClosePrefill(NaN, undefined, 1)).toBe('');
  });
});

// A limit close that crosses the book fills at once as a taker: the row's field says so before
// Enter (a warning, it is still sent), in the Modify dialog's words.
describe("a limit close's price against the book", () => {
  const book = { bestBid: 96000.5, bestAsk: 96000.6 };

  it("warns at or below the best bid for a long's sell, at or above the best ask for a short's buy", () => {
    expect(limitCloseCrosses(bnb(1, 1), '95,900.0', book, 1)).toBe(
      'At or below the best bid (96,000.5): it would trade at once, as a taker.',
    );
    expect(limitCloseCrosses(bnb(1, 1), '96000.5', book, 1)).toMatch(/^At or below the best bid/);
    expect(limitCloseCrosses(bnb(2, 1), '96100', book, 1)).toBe(
      'At or above the best ask (96,000.6): it would trade at once, as a taker.',
    );
    // a one-way short (side LONG, negative quantity) closes with a buy too
    expect(limitCloseCrosses({ position_side: 1, quantity: -1 }, '96000.6', book, 1)).toMatch(
      /^At or above the best ask/,
    );
  });

  it('says nothing for a price that rests, a text, or a book not known yet', () => {
    expect(limitCloseCrosses(bnb(1, 1), '96000.6', book, 1)).toBeNull();
    expect(limitCloseCrosses(bnb(2, 1), '96000.5', book, 1)).toBeNull();
    expect(limitCloseCrosses(bnb(1, 1), 'abc', book, 1)).toBeNull();
    expect(limitCloseCrosses(bnb(1, 1), '90000', { bestBid: NaN, bestAsk: NaN }, 1)).toBeNull();
  });
});
