// The house's resting orders (src-main/market/sim/house-orders.ts) on the real engine: the
// orders by price (lists linked through the orders) stay exact through cancels at the head, in
// the middle and at the tail of a price, and sync counts the fills at the prices traded; an order
// that met others first keeps what is left, a refusal is counted and places nothing.
import { describe, expect, it } from 'vitest';
import { HouseOrders, placeHouseLimit, type HouseOrder } from '../../../src-main/market/sim/house-orders.ts';
import { HOUSE_ACCOUNT, type Exchange } from '../../../src-main/trading/exchange.ts';
import type { PairState } from '../../../src-main/trading/pair-state.ts';
import { testVenue } from './helpers.ts';

const CROWD = HOUSE_ACCOUNT + 3;
const TAKER = HOUSE_ACCOUNT + 1;

/**
 * Runs `fn` on a fresh venue's BTCUSDT with the crowd's HouseOrders on it and a price P 100 ticks
 * below the mark; closes the venue after.
 */
function onHouse(fn: (ex: Exchange, pair: PairState, h: HouseOrders, P: number) => void): void {
  const tv = testVenue();
  try {
    const ex = tv.venue.exchange;
    const pair = ex.pair('BTCUSDT')!;
    fn(ex, pair, new HouseOrders(ex, pair, CROWD), pair.math.ticksRound(pair.markPrice) - 100);
  } finally {
    tv.close();
  }
}

describe('HouseOrders', () => {
  it('keeps exactly the open orders through cancels anywhere in a price and fills, and sync counts the lots filled', () =>
    onHouse((ex, pair, h, P) => {
      // five bids at each of three prices, 10 lots each, oldest first
      const at = new Map<number, HouseOrder[]>();
      for (let k = 0; k < 15; k++) {
        const price = P - (k % 3);
        const o = h.place(1, price, 10, k)!;
        expect(o).not.toBeNull();
        at.set(price, [...(at.get(price) ?? []), o]);
      }
      const open = () => pair.book.openOrderIds(CROWD).sort((a, b) => a - b);
      const ours = () => [...h.orders.keys()].sort((a, b) => a - b);
      // at the best price: cancel the oldest, one in the middle and the newest
      const best = at.get(P)!;
      h.cancel(best[0]);
      h.cancel(best[2]);
      h.cancel(best[4]);
      // the next price loses everything but its middle order, which is then the only one
      const second = at.get(P - 1)!;
      for (const i of [0, 1, 3, 4]) h.cancel(second[i]);
      expect(ours()).toEqual(open());
      expect(ours()).toHaveLength(15 - 3 - 4);
      // a seller takes 25 lots: the best price's two left (20 lots), then 5 of the next price's one
      placeHouseLimit({ ex, pair, account: TAKER }, 2, P - 2, 25);
      expect(pair.book.getOrder(second[2].id)!.remainingLots).toBe(5);
      expect(h.sync(P - 1, P)).toBe(25);
      expect(ours()).toEqual(open());
      expect(h.orders.has(best[1].id)).toBe(false);
      expect(h.orders.get(second[2].id)!.lots).toBe(5);
      // a price emptied and quoted again starts a new list
      const again = h.place(1, P, 7, 99)!;
      expect(ours()).toEqual(open());
      placeHouseLimit({ ex, pair, account: TAKER }, 2, P, 7);
      expect(h.sync(P, P)).toBe(7);
      expect(h.orders.has(again.id)).toBe(false);
      expect(ours()).toEqual(open());
      // the rest is cancelled: nothing left on either side
      h.cancelAll();
      expect(h.orders.size).toBe(0);
      expect(open()).toEqual([]);
      expect(h.sync(P - 2, P)).toBe(0);
    }));

  it('keeps what is left of an order that met others first; counts a refusal and places nothing', () =>
    onHouse((ex, pair, h, P) => {
      // another house account offers 4 lots at P; the crowd bids 10 there: 4 fill, 6 rest
      const offer = placeHouseLimit({ ex, pair, account: TAKER }, 2, P, 4);
      expect(offer.filledLots).toBe(0);
      const o = h.place(1, P, 10, 1)!;
      expect(o.lots).toBe(6);
      expect(pair.book.getOrder(o.id)!.remainingLots).toBe(6);
      expect(pair.book.getOrder(offer.orderId)).toBeNull();
      // all of it fills: nothing to keep (an offer above the crowd's bid, taken whole)
      placeHouseLimit({ ex, pair, account: TAKER }, 2, P + 2, 3);
      expect(h.place(1, P + 2, 3, 2)).toBeNull();
      expect(pair.book.getOrder(o.id)!.remainingLots).toBe(6);
      expect(h.stats.placed).toBe(2);
      // a buy far above the mark is outside the price band: refused, counted, nothing placed
      const before = pair.book.openOrderIds(CROWD).length;
      expect(h.place(1, P * 2, 5, 3)).toBeNull();
      expect(h.stats.rejected).toBe(1);
      expect(pair.book.openOrderIds(CROWD)).toHaveLength(before);
      expect([...h.orders.keys()]).toEqual([o.id]);
    }));

  it('walks a price oldest to newest and back, through cancels at the head, middle and tail and a price quoted anew', () =>
    onHouse((ex, pair, h, P) => {
      const forward = (price: number): number[] => {
        const ids: number[] = [];
        for (let o = h.oldestAt(price); o !== null; o = h.newerThan(o)) ids.push(o.id);
        return ids;
      };
      const backward = (price: number): number[] => {
        const ids: number[] = [];
        for (let o = h.newestAt(price); o !== null; o = h.olderThan(o)) ids.push(o.id);
        return ids;
      };
      expect(h.oldestAt(P)).toBeNull();
      expect(h.newestAt(P)).toBeNull();
      // six bids at P and one at P - 1 placed between them, oldest first
      const os: HouseOrder[] = [];
      for (let k = 0; k < 6; k++) {
        os.push(h.place(1, P, 3 + k, k)!);
        if (k === 2) h.place(1, P - 1, 1, k);
      }
      const ids = os.map((o) => o.id);
      expect(forward(P)).toEqual(ids);
      expect(backward(P)).toEqual([...ids].reverse());
      expect(h.newestAt(P)).toBe(os[5]);
      expect(forward(P - 1)).toHaveLength(1);
      // the oldest, one in the middle and the newest go
      h.cancel(os[0]);
      h.cancel(os[3]);
      h.cancel(os[5]);
      const left = [ids[1], ids[2], ids[4]];
      expect(forward(P)).toEqual(left);
      expect(backward(P)).toEqual([...left].reverse());
      expect(h.oldestAt(P)).toBe(os[1]);
      expect(h.olderThan(os[1])).toBeNull();
      expect(h.newerThan(os[4])).toBeNull();
      // emptied, then quoted anew: a new list of one
      for (const i of [1, 2, 4]) h.cancel(os[i]);
      expect(h.oldestAt(P)).toBeNull();
      expect(h.newestAt(P)).toBeNull();
      const again = h.place(1, P, 2, 9)!;
      expect(forward(P)).toEqual([again.id]);
      expect(backward(P)).toEqual([again.id]);
    }));
});
