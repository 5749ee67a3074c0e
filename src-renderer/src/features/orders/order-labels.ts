// Names of the order enums as the screen shows them.
import type { OrderRecord } from '../../../../src-shared/types.ts';
import {
  OrderStatus,
  OrderType,
  PositionAction,
  PositionMode,
  PositionSide,
  Side,
} from '../../../../src-shared/enums.ts';

export const STATUS_NAMES: Record<number, string> = {
  [OrderStatus.NEW]: 'New',
  [OrderStatus.PARTIALLY_FILLED]: 'Partially filled',
  [OrderStatus.FILLED]: 'Filled',
  [OrderStatus.CANCELED]: 'Canceled',
  [OrderStatus.REJECTED]: 'Rejected',
  [OrderStatus.EXPIRED]: 'Expired',
};

export const TYPE_NAMES: Record<number, string> = { [OrderType.LIMIT]: 'Limit', [OrderType.MARKET]: 'Market' };

/** A close order the venue sent itself, not the trader: what the screen calls it. */
export type VenueClose = 'Liquidation' | 'ADL' | 'Reset';

/**
 * Which close the venue sent, by the client id no user may take (docs/api.md): a liquidation's
 * `autoclose-<id>` (a limit IOC down to the bankruptcy price), an auto-deleveraging's
 * `adl_autoclose`, a paper reset's `reset-<id>` (at the mark, no fee); null for any other order.
 */
export function venueCloseName(clientOrderId: string): VenueClose | null {
  if (/^autoclose-[0-9]+$/.test(clientOrderId)) return 'Liquidation';
  if (clientOrderId === 'adl_autoclose') return 'ADL';
  if (/^reset-[0-9]+$/.test(clientOrderId)) return 'Reset';
  return null;
}

/** An order's type as the histories name it: a close the venue sent is named for what it was; else Limit / Market. */
export function orderTypeName(o: Pick<OrderRecord, 'type' | 'client_order_id'>): string {
  return venueCloseName(o.client_order_id) ?? TYPE_NAMES[o.type] ?? String(o.type);
}

/**
 * "Open long", "Close short", ... from side, position side and action (hedge mode). In one-way
 * mode every order carries position_side LONG and whether it opens, reduces or flips the net
 * position depends on that position, so the order is named by its side: "Buy", "Sell (close)",
 * "Sell (reduce-only)".
 */
export function directionName(
  o: Pick<OrderRecord, 'side' | 'position_side' | 'position_action'> & { reduce_only?: boolean },
  oneWay = false,
): string {
  if (oneWay)
    return `${o.side === Side.BUY ? 'Buy' : 'Sell'}${
      o.position_action === PositionAction.CLOSE ? ' (close)' : o.reduce_only === true ? ' (reduce-only)' : ''
    }`;
  return `${o.position_action === PositionAction.OPEN ? 'Open' : 'Close'} ${o.position_side === PositionSide.LONG ? 'long' : 'short'}`;
}

/**
 * Whether an order request can only be a one-way order: reduce-only on an open, or a side that
 * hedge mode refuses for its position side and action (a sell that opens LONG, a buy that
 * closes it). Such a request the API accepted was one-way; the others read as hedge orders.
 */
export function oneWayOnly(
  o: Pick<OrderRecord, 'side' | 'position_side' | 'position_action'> & { reduce_only?: boolean },
): boolean {
  // one-way mode only takes position_side LONG
  if (o.position_side !== PositionSide.LONG) return false;
  if (o.reduce_only === true) return true;
  // on LONG, hedge mode buys to open and sells to close
  const hedgeSide = o.position_action === PositionAction.OPEN ? Side.BUY : Side.SELL;
  return o.side !== hedgeSide;
}

/**
 * Whether a recorded order was placed in one-way mode, so that a past order keeps the name of
 * the mode it was placed in after the account switches modes. A one-way order always carries
 * position_side LONG: a record on SHORT is a hedge order, a combination only one-way mode takes
 * (oneWayOnly) a one-way one. The rest (a buy that opens LONG, a sell that closes it) reads the
 * same in both modes and is named by the account's mode now (`accountOneWay`).
 */
function placedOneWay(
  o: Pick<OrderRecord, 'side' | 'position_side' | 'position_action'> & { reduce_only?: boolean },
  accountOneWay: boolean,
): boolean {
  if (o.position_side !== PositionSide.LONG) return false;
  // a stop's record carries reduce_only, which the venue sets on every close, hedge or one-way:
  // only a reduce-only open tells one-way mode (a hedge close-long stop read "Sell (close)")
  const { side, position_side, position_action } = o;
  return (
    accountOneWay || oneWayOnly(position_action === PositionAction.CLOSE ? { side, position_side, position_action } : o)
  );
}

/**
 * An order's or a stop's Direction, as every table, dialog and toast of the account names it: from
 * its record and the account's position mode (`mode`: undefined until the account has loaded), in
 * the mode it was placed in (placedOneWay; the venue switches modes only with no order open, so an
 * open order's is the mode now). While the mode is unknown a record that only one mode places is
 * named in that mode, and the others (a buy that opens LONG, a sell that closes it) by their side,
 * "Buy", "Sell (close)", which is true in either mode: until 2026-12-08 they were named as hedge
 * orders, and a one-way short's limit close, a buy, read "Close long" in Open orders until the mode
 * came.
 */
export function orderDirection(
  o: Pick<OrderRecord, 'side' | 'position_side' | 'position_action'> & { reduce_only?: boolean },
  mode: PositionMode | undefined,
): string {
  return directionName(o, placedOneWay(o, mode !== PositionMode.HEDGE));
}

/** Whether the order buys (green) or sells (red). */
export const sideClass = (side: number): string => (side === Side.BUY ? 'up' : 'down');
