// The leverage's notional limit as the order form sees it. The venue refuses an open (3013)
// when the side's notional after it would pass the tier cap of the chosen leverage
// (maxNotionalFor in src-main/risk/tiers.ts): the side's notional is its position at the mark
// plus its open non-reduce-only orders at their price (the mark for a market order), and the
// new order counts at its limit price (the reference price for a market order). Max and %
// sizes are capped by the room left under that limit, so they never offer what is refused.
// Pure: the view hands in records and prices. Close orders (PositionAction.CLOSE) are reduce-only
// and never count; the order record does not carry reduce_only, so a reduce-only open of
// one-way mode counts here (the estimate errs on the safe side).
import type { OrderRecord } from '../../../../src-shared/types.ts';
import type { BackingPosition } from './preview.ts';
import { PositionAction, PositionSide } from '../../../../src-shared/enums.ts';

export interface SideNotionalInput {
  symbol: string;
  /** Hedge: the position's side. One-way: every position of the pair counts, orders of side LONG. */
  positionSide: PositionSide;
  oneWay: boolean;
  positions: readonly Pick<BackingPosition, 'symbol' | 'position_side' | 'quantity' | 'mark_price'>[];
  orders: readonly Pick<OrderRecord, 'symbol' | 'position_side' | 'position_action' | 'price' | 'qty' | 'filled_qty'>[];
  /** The live mark of the pair; the position record's mark when not a positive number. */
  mark: number | undefined;
}

/** The side's notional as the venue counts it against the leverage's cap, USDT. */
export function sideNotional(i: SideNotionalInput): number {
  const side = i.oneWay ? PositionSide.LONG : i.positionSide;
  let total = 0;
  for (const p of i.positions) {
    if (p.symbol !== i.symbol || p.quantity === 0) continue;
    if (!i.oneWay && p.position_side !== side) continue;
    const mark = i.mark !== undefined && i.mark > 0 ? i.mark : p.mark_price;
    total += Math.abs(p.quantity) * mark;
  }
  for (const o of i.orders) {
    if (o.symbol !== i.symbol || o.position_action === PositionAction.CLOSE || o.position_side !== side) continue;
    const left = Number(o.qty) - Number(o.filled_qty);
    const price = Number(o.price) > 0 ? Number(o.price) : (i.mark ?? NaN);
    if (left > 0 && price > 0) total += left * price;
  }
  return total;
}

/**
 * Largest quantity one more order at `price` may add under `maxNotional` (USDT) given the
 * side's `existing` notional: 0 when the side is already at the cap; Infinity when the cap is
 * unknown (NaN / undefined) or the price is not known (nothing to cap against yet).
 */
export function notionalRoomQty(maxNotional: number | undefined, existing: number, price: number): number {
  if (maxNotional === undefined || !Number.isFinite(maxNotional) || !(price > 0)) return Infinity;
  const room = maxNotional - (existing > 0 ? existing : 0);
  // a hair below the cap: the venue compares the exact notional, the float here may round up
  return room > 0 ? (room * (1 - 1e-9)) / price : 0;
}
