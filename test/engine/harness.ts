// Shared helpers for the engine tests: a ledger that checks quantity conservation from the event
// stream, and the cross-check of the engine's state against the reference book.

import { expect } from 'vitest';
import type { EngineEvent } from '../../src-main/engine/recording-sink.ts';
import type { OrderBook } from '../../src-main/engine/order-book.ts';
import type { ReferenceBook } from '../../src-main/engine/reference-book.ts';

interface OrderLedger {
  qty: number;
  traded: number;
  done: boolean;
}

/**
 * Follows the events of one book and checks, per order: filled + remaining + cancelled/expired
 * = quantity (as accepted, then as amended), the cumulative filled in fill events equals the
 * traded lots, and update ids rise by exactly one per level change.
 */
export class Ledger {
  readonly orders = new Map<number, OrderLedger>();
  lastUpdateId = 0;
  placedLots = 0;
  tradedLots = 0;
  closedLots = 0;

  apply(events: EngineEvent[]): void {
    for (const e of events) {
      switch (e.type) {
        case 'accepted': {
          const prev = this.orders.get(e.orderId);
          expect(prev === undefined || prev.done, `accepted id ${e.orderId} while live`).toBe(true);
          this.orders.set(e.orderId, { qty: e.qtyLots, traded: 0, done: false });
          this.placedLots += e.qtyLots;
          break;
        }
        case 'trade': {
          expect(e.qtyLots).toBeGreaterThan(0);
          expect(e.makerAccount === e.takerAccount, 'self trade printed').toBe(false);
          this.live(e.makerId).traded += e.qtyLots;
          this.live(e.takerId).traded += e.qtyLots;
          this.tradedLots += e.qtyLots;
          break;
        }
        case 'partiallyFilled': {
          const o = this.live(e.orderId);
          expect(e.filledLots).toBe(o.traded);
          expect(e.remainingLots).toBe(o.qty - o.traded);
          expect(e.remainingLots).toBeGreaterThan(0);
          break;
        }
        case 'filled': {
          const o = this.live(e.orderId);
          expect(e.filledLots).toBe(o.traded);
          expect(o.traded).toBe(o.qty);
          o.done = true;
          break;
        }
        case 'amended': {
          const o = this.live(e.orderId);
          this.placedLots += e.qtyLots - o.qty;
          o.qty = e.qtyLots;
          expect(e.remainingLots).toBe(o.qty - o.traded);
          break;
        }
        case 'cancelled':
        case 'expired': {
          const o = this.live(e.orderId);
          expect(e.remainingLots).toBe(o.qty - o.traded);
          this.closedLots += e.remainingLots;
          o.done = true;
          break;
        }
        case 'level':
          expect(e.updateId).toBe(this.lastUpdateId + 1);
          this.lastUpdateId = e.updateId;
          break;
        case 'rejected':
          break;
      }
    }
  }

  private live(id: number): OrderLedger {
    const o = this.orders.get(id);
    expect(o && !o.done, `event for order ${id} that is not live`).toBe(true);
    return o as OrderLedger;
  }

  /** Every order the events say is live rests in the book with the remaining the events imply, and vice versa. */
  checkAgainst(book: OrderBook): void {
    let restingLots = 0;
    let live = 0;
    for (const [id, o] of this.orders) {
      const view = book.getOrder(id);
      if (o.done) {
        expect(view, `order ${id} finished but still in the book`).toBeNull();
      } else {
        expect(view, `order ${id} live but not in the book`).not.toBeNull();
        expect(view?.remainingLots).toBe(o.qty - o.traded);
        expect(view?.qtyLots).toBe(o.qty);
        restingLots += o.qty - o.traded;
        live++;
      }
    }
    expect(book.orderCount).toBe(live);
    expect(book.updateId).toBe(this.lastUpdateId);
    // Conservation over the whole run: every lot placed is traded (counted once per side of the
    // book: taker and maker each), resting, or closed by cancel/expiry.
    expect(2 * this.tradedLots + restingLots + this.closedLots).toBe(this.placedLots);
  }
}

/** The engine's observable state equals the reference's, and the engine is internally consistent. */
export function expectSameState(book: OrderBook, ref: ReferenceBook, accounts: number[]): void {
  expect(book.audit()).toEqual([]);
  const snap = book.snapshot();
  expect(snap).toEqual(ref.snapshot());
  expect(book.bestBid()).toBe(ref.bestBid());
  expect(book.bestAsk()).toBe(ref.bestAsk());
  if (snap.bids.length > 0 && snap.asks.length > 0) expect(snap.bids[0][0]).toBeLessThan(snap.asks[0][0]);
  for (const [side, levels] of [
    [1, snap.bids],
    [2, snap.asks],
  ] as const) {
    for (const [price, total] of levels) {
      const ids = book.levelOrderIds(side, price);
      // FIFO: same queue as the reference (which orders by entry sequence).
      expect(ids).toEqual(ref.levelOrderIds(side, price));
      const sum = ids.reduce((s, id) => s + (book.getOrder(id)?.remainingLots ?? Number.NaN), 0);
      expect(sum).toBe(total);
    }
    expect(book.levelCount(side)).toBe(levels.length);
  }
  for (const a of accounts) {
    const ids = book.openOrderIds(a);
    expect(ids).toEqual(ref.openOrderIds(a));
    for (const id of ids) expect(book.getOrder(id)).toEqual(ref.getOrder(id));
  }
  expect(book.depth(3, 4)).toEqual(ref.depth(3, 4));
  for (const notional of [50, 1000, 5000]) {
    expect(book.impactBid(notional)).toBe(ref.impactBid(notional));
    expect(book.impactAsk(notional)).toBe(ref.impactAsk(notional));
  }
}
