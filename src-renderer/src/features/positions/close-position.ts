// Closing a position at market: a close order (position_action 2) of the whole quantity on
// the opposite side. In one-way mode the net position uses position_side 1 and the sign of
// the quantity tells the direction.
import type { RestClient } from '../../../../src-shared/sdk/rest-client.ts';
import type { OrderRequest, PlacementResult, PositionRecord } from '../../../../src-shared/types.ts';

export function closeOrder(p: PositionRecord, qtyDecimals: number, oneWay: boolean): OrderRequest {
  const long = oneWay ? p.quantity > 0 : p.position_side === 1;
  return {
    symbol: p.symbol,
    side: long ? 2 : 1,
    position_side: oneWay ? 1 : p.position_side,
    position_action: 2,
    type: 2,
    qty: Math.abs(p.quantity).toFixed(qtyDecimals),
  };
}

export function closePosition(api: RestClient, p: PositionRecord, qtyDecimals: number, oneWay: boolean): Promise<PlacementResult> {
  return api.placeOrder(closeOrder(p, qtyDecimals, oneWay));
}
