// The order book the facade's order tests trade against, and Binance's order field lists: a
// listening service (market clock paused where the test needs prices to stand still), the mid
// price taken from the BTCUSDT mark, resting native limit orders of a market-maker account, and
// each test's own resting orders in one line. What each test checks stays in the test file.
import type { PlacementResult } from '../../../src-shared/types.ts';
import type { LocalVenue as Venue } from '../../../src-main/venue.ts';
import { OrderType, PositionAction, PositionSide, Side } from '../../../src-shared/enums.ts';
import { placeOrder } from '../../helpers/exchange-commands.ts';
import type { Creds } from '../../helpers/signed.ts';
import { account, startService, type Service } from './helpers.ts';

/** A placed order's answer (POST order, each batch entry): Binance's fields in Binance's order. */
export const ORDER_ANSWER_FIELDS = [
  'orderId',
  'symbol',
  'status',
  'clientOrderId',
  'price',
  'avgPrice',
  'origQty',
  'executedQty',
  'cumQty',
  'cumQuote',
  'timeInForce',
  'type',
  'reduceOnly',
  'closePosition',
  'side',
  'positionSide',
  'stopPrice',
  'workingType',
  'priceProtect',
  'origType',
  'priceMatch',
  'selfTradePreventionMode',
  'goodTillDate',
  'updateTime',
];
/** An order as the queries answer it (GET order, openOrders, allOrders): the same plus `time`. */
export const ORDER_FIELDS = [...ORDER_ANSWER_FIELDS.slice(0, -1), 'time', 'updateTime'];

/** The tests' mid price: the BTCUSDT mark, rounded to a whole number. */
export function midOf(venue: Venue): number {
  return Math.round(venue.exchange.pair('BTCUSDT')!.markPrice);
}

/** A resting (or taking) BTCUSDT limit order of an account, opening on its side, placed natively. */
export function limit(
  venue: Venue,
  who: { id: number },
  order: { side: Side; price: string; qty: string; clientId?: string },
): PlacementResult {
  return placeOrder(venue.exchange, who.id, {
    symbol: 'BTCUSDT',
    side: order.side,
    position_side: order.side === Side.BUY ? PositionSide.LONG : PositionSide.SHORT,
    position_action: PositionAction.OPEN,
    type: OrderType.LIMIT,
    price: order.price,
    qty: order.qty,
    ...(order.clientId === undefined ? {} : { client_order_id: order.clientId }),
  });
}

/** Bids at mid - 10, 20, 30 and asks at mid + 10, 20, 30 of `qty` each, from a new maker account. */
export function ladder(venue: Venue, name: string, qty = '0.100'): Creds {
  const mm = account(venue, name);
  const mid = midOf(venue);
  for (let i = 1; i <= 3; i++) {
    limit(venue, mm, { side: Side.BUY, price: (mid - i * 10).toFixed(1), qty });
    limit(venue, mm, { side: Side.SELL, price: (mid + i * 10).toFixed(1), qty });
  }
  return mm;
}

/** A service with its market clock paused and one ask of `qty` at mid + 5 (a maker account `name`). */
export async function pausedWithAsk(name: string, qty: string): Promise<{ svc: Service; mid: number }> {
  const svc = await startService();
  svc.venue.clock.pause();
  const mid = midOf(svc.venue);
  limit(svc.venue, account(svc.venue, name), { side: Side.SELL, price: (mid + 5).toFixed(1), qty });
  return { svc, mid };
}
