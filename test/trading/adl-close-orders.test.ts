// What an auto-deleveraging does to the counterparties' resting close orders (trading/liquidation.ts,
// fills.ts drain / trimCloseOrders): as after any other close, no reduce-only order may exceed the
// position ADL left, and one whose position ADL closed is cancelled, within the liquidation's own
// command. Before, ADL's closes only queued the trims: the orders stayed as they were, and the
// next command that traded on any pair sent the trims to its own book, where another pair's order
// is unknown: that command failed with "engine refused the command (reason 12)" and the order
// ended REJECTED.
import { describe, expect, it } from 'vitest';
import { houseLimit, placeOrder, setPositionMode, setPrices } from '../helpers/exchange-commands.ts';
import { OrderStatus } from '../../src-shared/enums.ts';
import type { OrderInput } from '../../src-main/trading/exchange.ts';
import type { LocalVenue as Venue } from '../../src-main/venue.ts';
import { identityHolds, venueKit } from './venues.ts';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const USDT = 100_000_000n;
const kit = venueKit({ wall: T0, balance: 10_000n * USDT, pause: true, simulate: false });
const user = kit.user;

function open(side: 1 | 2, qty: string, price?: string, symbol = 'BTCUSDT'): OrderInput {
  return { symbol, side, position_side: side, position_action: 1, type: price ? 1 : 2, qty, price };
}

/** The order's status and quantity (lots of 0.001 BTC). */
function state(v: Venue, accountId: number, orderId: string): [number, number] {
  const o = v.trading.orders({ accountId, limit: 20 }).find((x) => String(x.id) === orderId)!;
  return [o.status, o.qtyLots];
}

describe('ADL and the counterparties resting close orders', () => {
  it('cancels the close order of a position ADL closed and trims one to what ADL left, at once; the next order on another pair goes through', async () => {
    const { v } = await kit.fundedVenue('perpdesk-adl-close-', 0n); // an empty fund: every bankrupt close is ADL
    setPrices(v.exchange, 'BTCUSDT', { mark: 96_000 });
    setPrices(v.exchange, 'ETHUSDT', { mark: 3_400 });
    const hedge = user(v, 'adlhedge01', 300n * USDT);
    const oneWay = user(v, 'adloneway1', 300n * USDT);
    const loser = user(v, 'adlloser02', 200n * USDT);
    setPositionMode(v.exchange, oneWay, 'one_way');
    placeOrder(v.exchange, hedge, open(2, '0.030', '96000.0'));
    placeOrder(v.exchange, oneWay, { ...open(2, '0.030', '96000.0'), position_side: 1 });
    // the loser (cross, 20x, wallet 200: bankruptcy price 91,048) takes the hedge short's 0.03
    // and 0.01 of the one-way short; another buyer the one-way short's other 0.02
    placeOrder(v.exchange, loser, open(1, '0.040'));
    placeOrder(v.exchange, user(v, 'adlother02'), open(1, '0.020'));
    // take-profits resting under the market for the whole of each short
    const hedgeTp = placeOrder(v.exchange, hedge, {
      ...open(1, '0.030', '90000.0'),
      position_side: 2,
      position_action: 2,
    });
    const oneWayTp = placeOrder(v.exchange, oneWay, {
      ...open(1, '0.030', '90000.0'),
      position_side: 1,
      reduce_only: true,
    });
    expect(state(v, hedge, hedgeTp.order_id)).toEqual([OrderStatus.NEW, 30]);
    expect(state(v, oneWay, oneWayTp.order_id)).toEqual([OrderStatus.NEW, 30]);

    // the mark gaps to 80,000 with no bid: the loser's 0.04 goes to ADL, the hedge short (the
    // thinner backed: higher effective leverage) first, then 0.01 of the one-way short
    setPrices(v.exchange, 'BTCUSDT', { mark: 80_000 });
    expect(v.exchange.positions(loser)).toEqual([]);
    expect(v.exchange.positions(hedge)).toEqual([]);
    expect(v.exchange.positions(oneWay)).toMatchObject([{ quantity: 0.02 }]);
    expect(state(v, hedge, hedgeTp.order_id)).toEqual([OrderStatus.CANCELED, 30]);
    expect(state(v, oneWay, oneWayTp.order_id)).toEqual([OrderStatus.NEW, 20]);

    // an order on another pair trades as usual and leaves them as they are
    houseLimit(v.exchange, 2, '3400.00', '1.000', 'ETHUSDT');
    expect(placeOrder(v.exchange, user(v, 'ethbuyer01'), open(1, '0.100', undefined, 'ETHUSDT'))).toMatchObject({
      status: OrderStatus.FILLED,
    });
    expect(state(v, hedge, hedgeTp.order_id)).toEqual([OrderStatus.CANCELED, 30]);
    expect(state(v, oneWay, oneWayTp.order_id)).toEqual([OrderStatus.NEW, 20]);
    for (const id of [hedge, oneWay, loser]) expect(identityHolds(v, id)).toBe(true);
  });
});
