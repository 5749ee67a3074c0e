// Names of the order enums as the screen shows them.
import type { OrderRecord } from '../../../../src-shared/types.ts';

export const STATUS_NAMES: Record<number, string> = {
  1: 'New',
  2: 'Partially filled',
  3: 'Filled',
  4: 'Canceled',
  5: 'Rejected',
  6: 'Expired',
};

export const TYPE_NAMES: Record<number, string> = { 1: 'Limit', 2: 'Market' };

/**
 * "Open long", "Close short", ... from side, position side and action (hedge mode). In one-way
 * mode every order carries position_side 1 and whether it opens, reduces or flips the net
 * position depends on that position, so the order is named by its side: "Buy", "Sell (close)",
 * "Sell (reduce-only)".
 */
export function directionName(
  o: Pick<OrderRecord, 'side' | 'position_side' | 'position_action'> & { reduce_only?: boolean },
  oneWay = false,
): string {
  if (oneWay)
    return `${o.side === 1 ? 'Buy' : 'Sell'}${o.position_action === 2 ? ' (close)' : o.reduce_only === true ? ' (reduce-only)' : ''}`;
  return `${o.position_action === 1 ? 'Open' : 'Close'} ${o.position_side === 1 ? 'long' : 'short'}`;
}

/**
 * Whether an order request can only be a one-way order: reduce-only on an open, or a side that
 * hedge mode refuses for its position side and action (a sell that opens side 1, a buy that
 * closes it). Such a request the API accepted was one-way; the others read as hedge orders.
 */
export function oneWayOnly(
  o: Pick<OrderRecord, 'side' | 'position_side' | 'position_action'> & { reduce_only?: boolean },
): boolean {
  // one-way mode only takes position_side 1
  if (o.position_side !== 1) return false;
  if (o.reduce_only === true) return true;
  const hedgeSide = (o.position_side === 1) === (o.position_action === 1) ? 1 : 2;
  return o.side !== hedgeSide;
}

/** Whether the order buys (green) or sells (red). */
export const sideClass = (side: number): string => (side === 1 ? 'up' : 'down');
