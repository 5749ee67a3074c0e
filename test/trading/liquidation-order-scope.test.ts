// Which open orders a liquidation cancels (trading/liquidation.ts; docs/api.md "the open orders
// that could add to the positions it closes"): a cross liquidation every order on cross margin, of
// any pair, and none of an isolated position's; an isolated one the orders of its own pair. Before,
// a cross liquidation also expired an isolated ETHUSDT position's take-profit, leaving that
// position (which the liquidation did not touch) without it.
import { describe, expect, it } from 'vitest';
import { OrderStatus } from '../../src-shared/enums.ts';
import type { OrderInput } from '../../src-main/trading/exchange.ts';
import type { LocalVenue as Venue } from '../../src-main/venue.ts';
import { houseLimit, placeOrder, setMarginMode, setPrices } from '../helpers/exchange-commands.ts';
import { venueKit } from './venues.ts';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const USDT = 100_000_000n;
const { venue, user } = venueKit({ wall: T0, balance: 1_000n * USDT, pause: true, simulate: false });

const order = (symbol: string, side: 1 | 2, action: 1 | 2, qty: string, price?: string): OrderInput => ({
  symbol,
  side,
  position_side: action === 1 ? side : side === 1 ? 2 : 1,
  position_action: action,
  type: price ? 1 : 2,
  qty,
  price,
});

const status = (v: Venue, accountId: number, orderId: string): number =>
  v.trading.orders({ accountId, limit: 50 }).find((o) => String(o.id) === orderId)!.status;

describe('the orders a liquidation cancels', () => {
  it('a cross liquidation: the cross orders of every pair, not the take-profit of an isolated position', () => {
    const v = venue();
    setPrices(v.exchange, 'BTCUSDT', { mark: 96_000 });
    setPrices(v.exchange, 'ETHUSDT', { mark: 3_400 });
    const u = user(v, 'liqscope01');
    // ETHUSDT isolated: a long of 0.5 with a take-profit over the market
    setMarginMode(v.exchange, u, 'ETHUSDT', 1);
    houseLimit(v.exchange, 2, '3400.00', '0.500', 'ETHUSDT');
    placeOrder(v.exchange, u, order('ETHUSDT', 1, 1, '0.500'));
    const ethTp = placeOrder(v.exchange, u, order('ETHUSDT', 2, 2, '0.500', '3600.00'));
    // BTCUSDT cross at 20x: a long of 0.15 (720 of margin), and a cross bid on SOLUSDT far under it
    houseLimit(v.exchange, 2, '96000.0', '0.150');
    placeOrder(v.exchange, u, order('BTCUSDT', 1, 1, '0.150'));
    setPrices(v.exchange, 'SOLUSDT', { mark: 200 });
    const solBid = placeOrder(v.exchange, u, order('SOLUSDT', 1, 1, '1.00', '150.000'));
    expect([status(v, u, ethTp.order_id), status(v, u, solBid.order_id)]).toEqual([OrderStatus.NEW, OrderStatus.NEW]);

    // the mark falls through the cross liquidation price
    houseLimit(v.exchange, 1, '90000.0', '1.000');
    setPrices(v.exchange, 'BTCUSDT', { mark: 90_100 });
    expect(v.exchange.positions(u).map((p) => p.symbol)).toEqual(['ETHUSDT']);
    expect(status(v, u, solBid.order_id)).toBe(OrderStatus.EXPIRED);
    expect(status(v, u, ethTp.order_id)).toBe(OrderStatus.NEW);
  });

  it('an isolated liquidation: the orders of its own pair only', () => {
    const v = venue();
    setPrices(v.exchange, 'BTCUSDT', { mark: 96_000 });
    setPrices(v.exchange, 'ETHUSDT', { mark: 3_400 });
    const u = user(v, 'liqscope02');
    setMarginMode(v.exchange, u, 'BTCUSDT', 1);
    houseLimit(v.exchange, 2, '96000.0', '0.100');
    placeOrder(v.exchange, u, order('BTCUSDT', 1, 1, '0.100'));
    const btcBid = placeOrder(v.exchange, u, order('BTCUSDT', 1, 1, '0.010', '80000.0'));
    const ethBid = placeOrder(v.exchange, u, order('ETHUSDT', 1, 1, '0.100', '3000.00'));
    houseLimit(v.exchange, 1, '91000.0', '1.000');
    setPrices(v.exchange, 'BTCUSDT', { mark: 91_500 });
    expect(v.exchange.positions(u)).toEqual([]);
    expect(status(v, u, btcBid.order_id)).toBe(OrderStatus.EXPIRED);
    expect(status(v, u, ethBid.order_id)).toBe(OrderStatus.NEW);
  });
});
