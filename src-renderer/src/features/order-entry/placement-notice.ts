// What the form says after the API accepted an order request: a success line for an order
// that rests, with its price ("Open long 0.050 BTCUSDT at 95,000.0: placed"), or filled ("Open
// long 0.050 BTCUSDT: filled 0.050 at 95,810.0"), a warning with
// the reason for one that ended without doing what was asked (a post-only order that would
// have taken liquidity, an IOC / FOK / market order that found too little, a cancel or a
// rejection). The average fill price is filled_quote / filled_qty, shown with the pair's
// decimals. In one-way mode the order is named by its side ("Sell 20 BTCUSDT", "Sell 4
// BTCUSDT (reduce-only)"): it may reduce, close or flip the net position, and "Open long"
// would be wrong for all three. The caller says the mode; without it, a request only one-way
// mode accepts (reduce-only, or a side that does not fit its position side in hedge mode) is
// named as one-way. Pure: no clock, no DOM.
import type { OrderRequest, PlacementResult } from '../../../../src-shared/types.ts';
import { fmt } from '../../lib/format.ts';
import { directionName, oneWayOnly } from '../orders/order-labels.ts';
import { OrderStatus, OrderType, PositionAction, Side, TimeInForce } from '../../../../src-shared/enums.ts';

export interface PlacementNotice {
  kind: 'ok' | 'warn';
  text: string;
  /**
   * Whether the form's live region says it: not a whole fill, which the fill toast (a live region
   * too) says with more (the role, the fee, the PnL); it was said twice. Shown all the same.
   */
  live: boolean;
}

export function placementNotice(
  order: OrderRequest,
  r: PlacementResult,
  pd: number,
  qd: number,
  oneWay?: boolean,
): PlacementNotice {
  // the quantity as every figure on screen: the pair's decimals, thousands grouped ("14,708,927")
  const qty = fmt(order.qty, qd);
  const named = (at: string): string =>
    (oneWay ?? oneWayOnly(order))
      ? `${order.side === Side.BUY ? 'Buy' : 'Sell'} ${qty} ${order.symbol}${at}${oneWayTag(order)}`
      : `${directionName(order)} ${qty} ${order.symbol}${at}`;
  const what = named('');
  const filled = Number(r.filled_qty);
  const fills = filled > 0 ? `filled ${fmt(filled, qd)} at ${fmt(Number(r.filled_quote) / filled, pd)}` : '';
  const tif = order.type === OrderType.MARKET ? 'market' : (order.time_in_force ?? TimeInForce.GTC);
  return { ...noticeOf(r.status), live: r.status !== OrderStatus.FILLED };

  function noticeOf(status: number): Omit<PlacementNotice, 'live'> {
    switch (status) {
      case OrderStatus.NEW:
        // a resting order is said with its price, as it will show in Open orders
        return { kind: 'ok', text: `${named(order.price ? ` at ${fmt(order.price, pd)}` : '')}: placed` };
      case OrderStatus.PARTIALLY_FILLED:
        return { kind: 'ok', text: `${what}: ${fills}, the rest placed` };
      case OrderStatus.FILLED:
        return { kind: 'ok', text: `${what}: ${fills}` };
      case OrderStatus.CANCELED:
        return { kind: 'warn', text: `Order cancelled${fills ? ` after it ${fills}` : ', nothing filled'}. ${what}.` };
      case OrderStatus.REJECTED:
        return { kind: 'warn', text: `Order rejected by the venue, nothing filled. ${what}.` };
      case OrderStatus.EXPIRED:
        return {
          kind: 'warn',
          text: `${expiredReason(tif, filled > 0)}. ${what}${fills ? `: ${fills}` : ', nothing filled'}.`,
        };
      default:
        return { kind: 'warn', text: `${what}: status ${r.status}${fills ? `, ${fills}` : ''}` };
    }
  }
}

/** What a one-way order does beyond its side: " (close)", " (reduce-only)" or nothing. */
function oneWayTag(order: OrderRequest): string {
  if (order.reduce_only === true) return ' (reduce-only)';
  return order.position_action === PositionAction.CLOSE ? ' (close)' : '';
}

function expiredReason(tif: 'market' | TimeInForce, partly: boolean): string {
  const rest = partly ? 'The rest expired' : 'Expired';
  switch (tif) {
    case 'market':
      return `Market order: ${rest.toLowerCase()}, no more liquidity within the price protection`;
    case TimeInForce.GTX:
      return 'Post-only order expired: it would have taken liquidity';
    case TimeInForce.IOC:
      return `IOC order: ${rest.toLowerCase()}, ${partly ? 'no more' : 'nothing'} to fill at the limit price`;
    case TimeInForce.FOK:
      return 'Fill-or-kill order expired: it could not fill completely at the limit price';
    default:
      return `Order: ${rest.toLowerCase()} (self-trade prevention or liquidation)`;
  }
}
