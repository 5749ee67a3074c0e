// Closing a position at market: a close order (PositionAction.CLOSE, which the server makes
// reduce-only) of the whole size on the opposite side. Hedge mode names the position side
// being closed; one-way mode only accepts PositionSide.LONG and reduces the net position the
// sell (of a long) or the buy (of a short) is against, so the side is what matters there.
import type { RestClient } from '../../../../src-shared/sdk/rest-client.ts';
import type { OrderRequest, PlacementResult, PositionRecord } from '../../../../src-shared/types.ts';
import { positionDirection } from './position-direction.ts';
import { OrderType, PositionAction, PositionSide, Side } from '../../../../src-shared/enums.ts';

export function closeOrder(p: PositionRecord, qtyDecimals: number, oneWay: boolean): OrderRequest {
  const d = positionDirection(p);
  return {
    symbol: p.symbol,
    side: d.long ? Side.SELL : Side.BUY,
    position_side: oneWay || d.long ? PositionSide.LONG : PositionSide.SHORT,
    position_action: PositionAction.CLOSE,
    type: OrderType.MARKET,
    qty: d.size.toFixed(qtyDecimals),
  };
}

export function closePosition(
  api: RestClient,
  p: PositionRecord,
  qtyDecimals: number,
  oneWay: boolean,
): Promise<PlacementResult> {
  return api.placeOrder(closeOrder(p, qtyDecimals, oneWay));
}
