// What the form says after the API accepted an order request: a success line for an order
// that rests or filled ("Open long 0.050 BTCUSDT: filled 0.050 at 95,810.0"), a warning with
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

export interface PlacementNotice {
  kind: 'ok' | 'warn';
  text: string;
}

export function placementNotice(
  order: OrderRequest,
  r: PlacementResult,
  pd: number,
  qd: number,
  oneWay?: boolean,
): PlacementNotice {
  const what =
    (oneWay ?? oneWayOnly(order))
      ? `${order.side === 1 ? 'Buy' : 'Sell'} ${order.qty} ${order.symbol}${order.position_action === 2 ? ' (close)' : order.reduce_only === true ? ' (reduce-only)' : ''}`
      : `${directionName(order)} ${order.qty} ${order.symbol}`;
  const filled = Number(r.filled_qty);
  const fills = filled > 0 ? `filled ${fmt(filled, qd)} at ${fmt(Number(r.filled_quote) / filled, pd)}` : '';
  const tif = order.type === 2 ? 'market' : (order.time_in_force ?? 1);
  switch (r.status) {
    case 1:
      return { kind: 'ok', text: `${what}: placed` };
    case 2:
      return { kind: 'ok', text: `${what}: ${fills}, the rest placed` };
    case 3:
      return { kind: 'ok', text: `${what}: ${fills}` };
    case 4:
      return { kind: 'warn', text: `Order cancelled${fills ? ` after it ${fills}` : ', nothing filled'}. ${what}.` };
    case 5:
      return { kind: 'warn', text: `Order rejected by the venue, nothing filled. ${what}.` };
    case 6:
      return {
        kind: 'warn',
        text: `${expiredReason(tif, filled > 0)}. ${what}${fills ? `: ${fills}` : ', nothing filled'}.`,
      };
    default:
      return { kind: 'warn', text: `${what}: status ${r.status}${fills ? `, ${fills}` : ''}` };
  }
}

function expiredReason(tif: 'market' | number, partly: boolean): string {
  const rest = partly ? 'The rest expired' : 'Expired';
  switch (tif) {
    case 'market':
      return `Market order: ${rest.toLowerCase()}, no more liquidity within the price protection`;
    case 4:
      return 'Post-only order expired: it would have taken liquidity';
    case 2:
      return `IOC order: ${rest.toLowerCase()}, ${partly ? 'no more' : 'nothing'} to fill at the limit price`;
    case 3:
      return 'Fill-or-kill order expired: it could not fill completely at the limit price';
    default:
      return `Order: ${rest.toLowerCase()} (self-trade prevention or liquidation)`;
  }
}
