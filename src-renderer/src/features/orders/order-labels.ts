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

/** "Open long", "Close short", ... from side, position side and action. */
export function directionName(o: Pick<OrderRecord, 'side' | 'position_side' | 'position_action'>, oneWay = false): string {
  if (oneWay) return `${o.side === 1 ? 'Buy' : 'Sell'}${o.position_action === 2 ? ' (close)' : ''}`;
  return `${o.position_action === 1 ? 'Open' : 'Close'} ${o.position_side === 1 ? 'long' : 'short'}`;
}

/** Whether the order buys (green) or sells (red). */
export const sideClass = (side: number): string => (side === 1 ? 'up' : 'down');
