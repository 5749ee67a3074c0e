// The exchange's amend command (Binance USD-M's modify, orders.ts amendOrder): a resting limit
// order gets a new price and total quantity in place, checked as a placement is, reordered in its
// queue, its frozen margin following the new remainder; the two amendments Binance turns into a
// cancel (a total not above the filled part, a post-only price that would take); a refused one
// changes nothing; the amended order is what a restart finds.
import { btc, refusal, venueKit } from './venues.ts';
import { cancelOrder, houseLimit, placeOrder } from '../helpers/exchange-commands.ts';

import { describe, expect, it } from 'vitest';
import { Errors } from '../../src-shared/errors.ts';
import { type OrderInput } from '../../src-main/trading/exchange.ts';
import { type LocalVenue as Venue } from '../../src-main/venue.ts';
import type { AmendTarget } from '../../src-main/trading/commands.ts';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const USDT = 100_000_000n;
const { venue, user, dataDir } = venueKit({ wall: T0, balance: 1_000_000n * USDT, pause: true });
const bid = (price: string, qty = '0.010', more: Partial<OrderInput> = {}) =>
  btc({ side: 1, position_side: 1, position_action: 1, price, qty, ...more });

const frozenOf = (v: Venue, id: number) => BigInt(Math.round(Number(v.exchange.summary(id).frozen_margin) * 1e8));
const marginOf = (v: Venue, priceTicks: number, lots: number, leverage: number) => {
  const m = v.exchange.pair('BTCUSDT')!.math;
  const n = m.notional(priceTicks, lots);
  return (n + BigInt(leverage) - 1n) / BigInt(leverage) + m.fee(n, false);
};

describe('amend', () => {
  it('moves price and quantity in place; the frozen margin follows; every amended order goes to the back of its level', () => {
    const v = venue();
    const ex = v.exchange;
    const mid = Math.round(ex.pair('BTCUSDT')!.markPrice);
    const a = user(v, 'am1');
    const b = user(v, 'am2');
    const px = (mid - 100).toFixed(1);
    const first = Number(placeOrder(ex, a, bid(px, '0.050')).order_id);
    const second = Number(placeOrder(ex, b, bid(px, '0.050')).order_id);
    const lev = ex.pairSetting(a, 'BTCUSDT').leverage;
    const m = ex.pair('BTCUSDT')!.math;

    // a smaller quantity at the same price: Binance reorders it, so it is now behind b's
    const r = ex.execute({ kind: 'amend', accountId: a, symbol: 'BTCUSDT', orderId: first, price: px, qty: '0.030' });
    expect(r).toMatchObject({ id: String(first), price: px, qty: '0.030', status: 1 });
    expect(frozenOf(v, a)).toBe(marginOf(v, m.price.mustToUnits(px), 30, lev));
    expect(ex.pair('BTCUSDT')!.book.levelOrderIds(1, m.price.mustToUnits(px))).toEqual([second, first]);
    // a seller takes 0.05: all of it from b's order, which was behind before
    const s = user(v, 'am3');
    placeOrder(ex, s, btc({ side: 2, position_side: 2, position_action: 1, type: 2, qty: '0.050' }));
    expect(ex.openOrders(b, 'BTCUSDT')).toHaveLength(0);
    expect(ex.openOrders(a, 'BTCUSDT')[0]).toMatchObject({ filled_qty: '0.000', qty: '0.030' });

    // a new price: same id and client id, margin at the new price
    const px2 = (mid - 200).toFixed(1);
    const cid = ex.openOrders(a, 'BTCUSDT')[0].client_order_id;
    ex.execute({ kind: 'amend', accountId: a, symbol: 'BTCUSDT', clientOrderId: cid, price: px2, qty: '0.040' });
    const [o] = ex.openOrders(a, 'BTCUSDT');
    expect(o).toMatchObject({ id: String(first), client_order_id: cid, price: px2, qty: '0.040' });
    expect(frozenOf(v, a)).toBe(marginOf(v, m.price.mustToUnits(px2), 40, lev));
    expect(v.exchange.pair('BTCUSDT')!.book.getOrder(first)).toMatchObject({
      priceTicks: m.price.mustToUnits(px2),
      remainingLots: 40,
    });
  });

  it('a new price that crosses trades at once, at the makers price', () => {
    const v = venue();
    const ex = v.exchange;
    const mid = Math.round(ex.pair('BTCUSDT')!.markPrice);
    const ask = (mid + 10).toFixed(1);
    houseLimit(ex, 2, ask, '0.020');
    const a = user(v, 'cross');
    const id = Number(placeOrder(ex, a, bid((mid - 50).toFixed(1), '0.050')).order_id);
    const r = ex.execute({ kind: 'amend', accountId: a, orderId: id, price: (mid + 20).toFixed(1), qty: '0.050' });
    expect(r).toMatchObject({ status: 2, filled_qty: '0.020', avg_price: ask });
    expect(ex.positions(a)[0]).toMatchObject({ quantity: 0.02 });
    // what still rests freezes margin for its 0.03 only
    const m = ex.pair('BTCUSDT')!.math;
    expect(frozenOf(v, a)).toBe(
      marginOf(v, m.price.mustToUnits((mid + 20).toFixed(1)), 30, ex.pairSetting(a, 'BTCUSDT').leverage),
    );
  });

  it('cancels instead, as Binance: a total not above the filled part; a post-only price that would take', () => {
    const v = venue();
    const ex = v.exchange;
    const mid = Math.round(ex.pair('BTCUSDT')!.markPrice);
    const a = user(v, 'cx');
    const px = (mid - 10).toFixed(1);
    const id = Number(placeOrder(ex, a, bid(px, '0.050')).order_id);
    const s = user(v, 'cxs');
    placeOrder(ex, s, btc({ side: 2, position_side: 2, position_action: 1, type: 2, qty: '0.020' }));
    const r = ex.execute({ kind: 'amend', accountId: a, orderId: id, price: px, qty: '0.020' });
    expect(r).toMatchObject({ status: 4, filled_qty: '0.020' });
    expect(ex.openOrders(a)).toHaveLength(0);
    expect(ex.summary(a).frozen_margin).toMatch(/^0(\.0+)?$/);

    houseLimit(ex, 2, (mid + 10).toFixed(1), '0.100');
    const gtx = Number(placeOrder(ex, a, bid((mid - 30).toFixed(1), '0.010', { time_in_force: 4 })).order_id);
    const g = ex.execute({ kind: 'amend', accountId: a, orderId: gtx, price: (mid + 10).toFixed(1), qty: '0.010' });
    expect(g.status).toBe(4);
    expect(ex.positions(a)[0].quantity).toBe(0.02); // nothing more was bought
  });

  it('a refused amendment changes nothing', () => {
    const v = venue();
    const ex = v.exchange;
    const mid = Math.round(ex.pair('BTCUSDT')!.markPrice);
    const a = user(v, 'rf', 2_000n * USDT);
    const px = (mid - 100).toFixed(1);
    const id = Number(placeOrder(ex, a, bid(px, '0.010')).order_id);
    const before = { order: ex.openOrders(a)[0], summary: ex.summary(a), book: ex.pair('BTCUSDT')!.book.getOrder(id) };
    /** The code the venue refuses an amendment of the order to 0.010 at px with, `o` changed. */
    const refused = (o: Partial<AmendTarget>) =>
      refusal(() => ex.execute({ kind: 'amend', accountId: a, orderId: id, price: px, qty: '0.010', ...o })).code;
    const cases: Array<[string, Partial<AmendTarget>, { code: number }]> = [
      ['nothing to modify', {}, Errors.INVALID_PARAMETER],
      ['price off the tick', { price: `${px}5` }, Errors.PRICE_OFF_TICK],
      ['quantity off the step', { qty: '0.0105' }, Errors.QTY_OFF_STEP],
      ['price outside the band', { price: (mid * 2).toFixed(1) }, Errors.PRICE_OUTSIDE_BAND],
      ['more than the margin', { qty: '5.000' }, Errors.INSUFFICIENT_MARGIN],
      ['below the minimum notional', { qty: '0.001' }, Errors.NOTIONAL_BELOW_MIN],
      ['no such order', { orderId: 999_999 }, Errors.ORDER_NOT_FOUND],
      ['the order on another pair', { symbol: 'ETHUSDT' }, Errors.ORDER_NOT_FOUND],
    ];
    for (const [what, o, error] of cases) expect(refused(o), what).toBe(error.code);
    expect({ order: ex.openOrders(a)[0], summary: ex.summary(a), book: ex.pair('BTCUSDT')!.book.getOrder(id) }).toEqual(
      before,
    );
    cancelOrder(ex, a, { orderId: id });
    expect(refused({ qty: '0.020' })).toBe(Errors.ORDER_NOT_CANCELLABLE.code);
  });

  it('a reduce-only order stays within the position it reduces', () => {
    const v = venue();
    const ex = v.exchange;
    const mid = Math.round(ex.pair('BTCUSDT')!.markPrice);
    houseLimit(ex, 2, (mid + 10).toFixed(1), '1.000');
    const a = user(v, 'ro');
    placeOrder(ex, a, btc({ side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.030' }));
    const close = Number(
      placeOrder(
        ex,
        a,
        btc({ side: 2, position_side: 1, position_action: 2, price: (mid + 200).toFixed(1), qty: '0.010' }),
      ).order_id,
    );
    ex.execute({ kind: 'amend', accountId: a, orderId: close, price: (mid + 150).toFixed(1), qty: '0.100' });
    expect(ex.openOrders(a)[0]).toMatchObject({ qty: '0.030', price: (mid + 150).toFixed(1) });
    expect(ex.summary(a).frozen_margin).toMatch(/^0(\.0+)?$/);
  });

  it('the amended order is what a restart finds, and it keeps matching there', async () => {
    const dir = dataDir('perpdesk-amend-');
    let v = venue(dir);
    const mid = Math.round(v.exchange.pair('BTCUSDT')!.markPrice);
    const a = user(v, 'rs');
    const id = Number(placeOrder(v.exchange, a, bid((mid - 100).toFixed(1), '0.010')).order_id);
    v.exchange.execute({ kind: 'amend', accountId: a, orderId: id, price: (mid - 50).toFixed(1), qty: '0.020' });
    const frozen = v.exchange.summary(a).frozen_margin;
    await new Promise<void>((resolve, reject) => v.durability.whenDurable((err) => (err ? reject(err) : resolve())));
    await v.close();
    v = venue(dir);
    expect(v.exchange.openOrders(a)[0]).toMatchObject({ id: String(id), price: (mid - 50).toFixed(1), qty: '0.020' });
    expect(v.exchange.summary(a).frozen_margin).toBe(frozen);
    const s = user(v, 'rs2');
    placeOrder(v.exchange, s, btc({ side: 2, position_side: 2, position_action: 1, type: 2, qty: '0.020' }));
    expect(v.exchange.positions(a)[0]).toMatchObject({ quantity: 0.02, entry_price: mid - 50 });
  });
});
