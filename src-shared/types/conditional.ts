// Conditional orders (perpdesk's own routes, beyond the spec): an order request held by the venue
// until a watched price reaches a trigger, then placed as any order is (re-exported by ../types.ts).
import type { OrderRequest } from './trading.ts';
import type {
  ConditionalStatus,
  MarginMode,
  OrderType,
  PositionAction,
  PositionSide,
  Side,
  TimeInForce,
  TriggerDirection,
  WorkingType,
} from '../enums.ts';

/**
 * Body of `POST /fapi/v1/conditional/order`: the order to place when the trigger is reached (the
 * fields of `POST /fapi/v1/orders`), and the trigger. `qty` is absent with `close_position` (the
 * whole position then, by a reduce-only market order).
 */
export interface ConditionalOrderRequest extends Omit<OrderRequest, 'qty'> {
  qty?: string;
  close_position?: boolean;
  /** Required unless `callback_rate` makes it a trailing stop (whose trigger follows the price). */
  trigger_price?: string;
  /** Required with trigger_price; a trailing stop's is its side's (a sell falls to, a buy rises to). */
  trigger_direction?: TriggerDirection;
  /** Default 1 (mark price). */
  working_type?: WorkingType;
  /**
   * Price protection (default false): a reached trigger is held back while the last price and the
   * mark are more than 5 % apart. Not for a trailing stop.
   */
  price_protect?: boolean;
  /** A trailing stop: the percent (0.1 to 10, one decimal) the price must come back from its best to fire it. */
  callback_rate?: string;
  /** A trailing stop's activation price (absent: it trails from placement). */
  activation_price?: string;
}

/** A conditional order as the routes and the `user` stream's `conditional` event show it. */
export interface ConditionalOrderRecord {
  id: string;
  client_order_id: string;
  symbol: string;
  side: Side;
  position_side: PositionSide;
  position_action: PositionAction;
  type: OrderType;
  /** The limit price (zero at the pair's precision, e.g. "0.0", for a market order, as order records write it). */
  price: string;
  /** null with close_position. */
  qty: string | null;
  close_position: boolean;
  reduce_only: boolean;
  time_in_force: TimeInForce;
  /** null: the account's setting on the pair when it fires. */
  leverage: number | null;
  margin_mode: MarginMode | null;
  trigger_price: string;
  trigger_direction: TriggerDirection;
  working_type: WorkingType;
  /** Held back while the last price and the mark are more than 5 % apart (price protection). */
  price_protect: boolean;
  /** A trailing stop's percent; null for a plain trigger. */
  callback_rate: string | null;
  /** A trailing stop's activation price; null when none. */
  activation_price: string | null;
  /** The best price a trailing stop has seen since it activated (its trigger follows it); null before. */
  peak_price: string | null;
  status: ConditionalStatus;
  /** The order it placed when it fired (null before, and when that order was refused). */
  order_id: string | null;
  /** Why its order was refused (status 4): the error code and message the order route would have answered. */
  reject_code: number | null;
  reject_reason: string | null;
  created_at: number;
  updated_at: number;
  /** When it fired (null while waiting or cancelled). */
  triggered_at: number | null;
  user_id: string;
}

/** A cursor page of `GET /fapi/v1/conditional/allOrders` (as allOrders'). */
export interface ConditionalPage {
  has_more: boolean;
  next_cursor: string;
  items: ConditionalOrderRecord[];
}

/** Answer of `DELETE /fapi/v1/conditional/allOpenOrders`: the pair (null: every pair) and how many were cancelled. */
export interface ConditionalCancelAllResult {
  symbol: string | null;
  cancelled: number;
}

/** Filters of `GET /fapi/v1/conditional/allOrders`. */
export interface ConditionalHistoryQuery {
  symbol?: string;
  status?: ConditionalStatus;
  cursor?: string;
  limit?: number;
}
