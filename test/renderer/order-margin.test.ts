// The open orders' Margin column (order-margin.ts): each resting order's initial margin, worked
// out with the order form's own functions, against what a real in-process venue freezes for the
// same orders (one-way mode: resting sells take the long oldest first), and by hand in hedge mode;
// a close and a market order hold none.
import { describe, expect, it } from 'vitest';
import type { OrderInput } from '../../src-main/trading/exchange.ts';
import type { OrderRecord, PositionRecord } from '../../src-shared/types.ts';
import { orderMargins } from '../../src-renderer/src/features/orders/order-margin.ts';
import { placeOrder } from '../helpers/exchange-commands.ts';
import { BTC_LONG_125X, deskKit, deskLong, frozen, placeLimit, restingSells, type Desk } from './venue-desk.ts';

const kit = deskKit();

/** The Margin column of the desk's open orders (one-way), at the pair's taker fee. */
const marginColumn = (d: Desk) =>
  orderMargins(d.v.exchange.openOrders(d.u, d.symbol), d.v.exchange.positions(d.u), true, () =>
    Number(d.v.symbols.get(d.symbol)!.takerFeeRate),
  );

describe('the Margin of an open order', () => {
  it('one-way, BTCUSDT 125x, long 0.5 at 96,000: what the venue freezes for each resting order is its margin plus the taker fee', () => {
    const d = deskLong(kit, 'omgn0001', BTC_LONG_125X);
    // two sells against the long: the older (0.3) is covered whole, the newer (0.4) opens 0.2; a buy opens all of it
    const { older, newer } = restingSells(d);
    const buy = placeLimit(d, 1, '0.010', '95000.0');
    const m = marginColumn(d);
    expect(m.get(older.order_id)).toEqual({ opens: 0, margin: 0, hold: 0 });
    // 0.2 x 99,000 / 125 = 158.4
    expect(m.get(newer.order_id)!.opens).toBeCloseTo(0.2, 12);
    expect(m.get(newer.order_id)!.margin).toBeCloseTo(158.4, 9);
    // 0.01 x 95,000 / 125 = 7.6
    expect(m.get(buy.order_id)!.margin).toBeCloseTo(7.6, 9);
    for (const id of [older.order_id, newer.order_id, buy.order_id])
      expect(m.get(id)!.hold, `order ${id}`).toBeCloseTo(frozen(d, id), 6);
  });

  it("the account's mode not loaded yet (one-way account, long 0.5): an order the position covers has no figure, not the hedge one; an order that opens all of it in either mode has its own", () => {
    const d = deskLong(kit, 'omgn0003', BTC_LONG_125X);
    const { older, newer } = restingSells(d);
    const buy = placeLimit(d, 1, '0.010', '95000.0');
    const m = orderMargins(d.v.exchange.openOrders(d.u, d.symbol), d.v.exchange.positions(d.u), undefined, () =>
      Number(d.v.symbols.get(d.symbol)!.takerFeeRate),
    );
    // the venue holds nothing for the covered sell and 0.2 of the newer one: in hedge mode the column said 0.3 and 0.4
    expect(frozen(d, older.order_id)).toBe(0);
    expect(m.get(older.order_id)!.margin).toBeNaN();
    expect(m.get(newer.order_id)!.margin).toBeNaN();
    expect(m.get(buy.order_id)!.margin).toBeCloseTo(7.6, 9);
    expect(m.get(buy.order_id)!.hold).toBeCloseTo(frozen(d, buy.order_id), 6);
  });

  it('one-way: a reduce-only order another client sent as an open (reduce_only, position_action 1) holds nothing, at the venue and in the column', () => {
    const d = deskLong(kit, 'omgn0002', BTC_LONG_125X);
    const input: OrderInput = {
      symbol: d.symbol,
      side: 2,
      position_side: 1,
      position_action: 1,
      type: 1,
      price: '99000.0',
      qty: '0.400',
      reduce_only: true,
    };
    const ro = placeOrder(d.v.exchange, d.u, input);
    // a plain sell placed after it still has the whole long to cover: the reduce-only order takes no part
    const plain = placeLimit(d, 2, '0.300', '98000.0');
    expect(frozen(d, ro.order_id)).toBe(0);
    expect(frozen(d, plain.order_id)).toBe(0);
    const m = marginColumn(d);
    // no entry: the cell shows '—', as for a close
    expect(m.has(ro.order_id)).toBe(false);
    expect(m.get(plain.order_id)).toEqual({ opens: 0, margin: 0, hold: 0 });
  });

  it('hedge mode: what is left of an opening limit order at its price over its leverage; a close and a market order hold none', () => {
    const order = (id: string, o: Partial<OrderRecord>): OrderRecord =>
      ({
        id,
        symbol: 'BTCUSDT',
        side: 1,
        type: 1,
        price: '90000.0',
        qty: '0.100',
        filled_qty: '0.000',
        leverage: 20,
        margin_mode: 2,
        position_action: 1,
        position_side: 1,
        ...o,
      }) as OrderRecord;
    const long = { symbol: 'BTCUSDT', position_side: 1, quantity: 0.5, mark_price: 95_000 } as PositionRecord;
    const m = orderMargins(
      [
        order('1', { filled_qty: '0.020' }),
        order('2', { side: 2, position_action: 2, qty: '0.500' }),
        order('3', { type: 2, price: '0' }),
        order('4', { symbol: 'ETHUSDT', price: '3000.00', qty: '2.000', leverage: 10, side: 2, position_side: 2 }),
      ],
      [long],
      false,
      (symbol) => (symbol === 'BTCUSDT' ? 0.0005 : NaN),
    );
    // 0.08 left x 90,000 / 20 = 360, held with 7,200 x 0.0005 = 3.6
    expect(m.get('1')!.margin).toBeCloseTo(360, 9);
    expect(m.get('1')!.hold).toBeCloseTo(363.6, 9);
    // the long does not cover a hedge-mode order (only a close reduces it)
    expect(m.get('1')!.opens).toBeCloseTo(0.08, 12);
    expect(m.has('2')).toBe(false);
    expect(m.has('3')).toBe(false);
    // another pair, its taker fee not known yet: the margin is, the hold is not
    expect(m.get('4')!.margin).toBeCloseTo(600, 9);
    expect(m.get('4')!.hold).toBeNaN();
  });
});
