// The API's trading records (orders, trades, account, positions) and their queries, exactly
// as spec/api.md names, orders and types their fields (re-exported by ../types.ts).

import type {
  CloseType,
  MarginMode,
  OrderStatus,
  OrderType,
  PositionAction,
  PositionSide,
  Side,
  TimeInForce,
  TradeRole,
} from '../enums.ts';

// ---------------------------------------------------------------- orders

/**
 * An open order. The spec's table ends at `created_at`; its sample also carries
 * `updated_at` and `user_id` (a string here, unlike the positions' integer user_id),
 * which follow in that order.
 */
export interface OrderRecord {
  id: string;
  client_order_id: string;
  symbol: string;
  side: Side;
  type: OrderType;
  status: OrderStatus;
  price: string;
  qty: string;
  filled_qty: string;
  filled_quote: string;
  avg_price: string;
  total_fee: string;
  fee_asset: string;
  leverage: number;
  margin_mode: MarginMode;
  position_action: PositionAction;
  position_side: PositionSide;
  created_at: number;
  updated_at: number;
  user_id: string;
}

export const ORDER_RECORD_FIELDS = [
  'id',
  'client_order_id',
  'symbol',
  'side',
  'type',
  'status',
  'price',
  'qty',
  'filled_qty',
  'filled_quote',
  'avg_price',
  'total_fee',
  'fee_asset',
  'leverage',
  'margin_mode',
  'position_action',
  'position_side',
  'created_at',
  'updated_at',
  'user_id',
] as const satisfies readonly (keyof OrderRecord)[];

/** Answer of the bot and the general order placement routes. */
export interface PlacementResult {
  order_id: string;
  client_order_id: string;
  status: OrderStatus;
  filled_qty: string;
  filled_quote: string;
}

export const PLACEMENT_RESULT_FIELDS = [
  'order_id',
  'client_order_id',
  'status',
  'filled_qty',
  'filled_quote',
] as const satisfies readonly (keyof PlacementResult)[];

/**
 * Body of the general order placement route `POST /fapi/v1/orders` (DESIGN section 4):
 * the bot body without `need_cache`. Prices and quantities are decimal strings.
 */
export interface OrderRequest {
  symbol: string;
  side: Side;
  /** 1 in one-way mode. */
  position_side: PositionSide;
  position_action: PositionAction;
  type: OrderType;
  /** Required for limit orders. */
  price?: string;
  qty: string;
  leverage?: number;
  margin_mode?: MarginMode;
  /** Default GTC. */
  time_in_force?: TimeInForce;
  reduce_only?: boolean;
  client_order_id?: string;
}

/** Body of `POST /fapi/v1/bot/orders`. */
export interface BotOrderRequest extends OrderRequest {
  /** Keep the order in the in-memory order cache; default false (fire-and-forget). */
  need_cache?: boolean;
}

export const ORDER_REQUEST_FIELDS = [
  'symbol',
  'side',
  'position_side',
  'position_action',
  'type',
  'price',
  'qty',
  'leverage',
  'margin_mode',
  'time_in_force',
  'reduce_only',
  'client_order_id',
] as const satisfies readonly (keyof OrderRequest)[];

export const BOT_ORDER_REQUEST_FIELDS = [
  ...ORDER_REQUEST_FIELDS,
  'need_cache',
] as const satisfies readonly (keyof BotOrderRequest)[];

/** Answer of `DELETE /fapi/v1/allOpenOrders`: the pair and how many of its open orders were cancelled. */
export interface CancelAllResult {
  symbol: string;
  cancelled: number;
}

/** Answer of `DELETE /fapi/v1/bot/order`: the cancelled bot order's id and its status, always 4 (cancelled). */
export interface BotCancelResult {
  order_id: string;
  status: typeof OrderStatus.CANCELED;
}

// ---------------------------------------------------------------- trades

export interface TradeRecord {
  id: string;
  order_id: string;
  symbol: string;
  side: Side;
  position_side: PositionSide;
  price: string;
  qty: string;
  quote_qty: string;
  fee: string;
  fee_asset: string;
  fee_rate: string;
  role: TradeRole;
  is_close: boolean;
  realized_pnl: string;
  created_at: number;
}

export const TRADE_RECORD_FIELDS = [
  'id',
  'order_id',
  'symbol',
  'side',
  'position_side',
  'price',
  'qty',
  'quote_qty',
  'fee',
  'fee_asset',
  'fee_rate',
  'role',
  'is_close',
  'realized_pnl',
  'created_at',
] as const satisfies readonly (keyof TradeRecord)[];

/** `data` of `/fapi/v1/myTrades`; `next_cursor` is '' on the last page. */
export interface MyTradesPage {
  has_more: boolean;
  next_cursor: string;
  items: TradeRecord[];
}

/** `data` of `/fapi/v1/allOrders`: a cursor page as myTrades'. */
export interface OrdersPage {
  has_more: boolean;
  next_cursor: string;
  items: OrderRecord[];
}

// ---------------------------------------------------------------- account

/** Balance and margin summary of `GET /fapi/v1/account` (money as 8-decimal strings). */
export interface AccountSummary {
  user_id: number;
  asset: 'USDT';
  wallet_balance: string;
  available_balance: string;
  frozen_margin: string;
  position_margin: string;
  unrealized_pnl: string;
  margin_balance: string;
  total_deposits: string;
  position_mode: 'hedge' | 'one_way';
}

// ---------------------------------------------------------------- positions

/** A current position. Numeric fields are JSON numbers, as the spec says. */
export interface PositionRecord {
  id: string;
  user_id: number;
  symbol: string;
  position_side: PositionSide;
  margin_mode: MarginMode;
  leverage: number;
  quantity: number;
  entry_price: number;
  mark_price: number;
  liquidation_price: number;
  break_even_price: number;
  maintenance_margin_rate: number;
  margin: number;
  margin_ratio: number;
  unrealized_pnl: number;
  realized_pnl: number;
  /** Positive = paid, negative = received. */
  total_funding_fee: number;
  open_fee: number;
  close_fee: number;
  created_at: number;
  updated_at: number;
}

export const POSITION_RECORD_FIELDS = [
  'id',
  'user_id',
  'symbol',
  'position_side',
  'margin_mode',
  'leverage',
  'quantity',
  'entry_price',
  'mark_price',
  'liquidation_price',
  'break_even_price',
  'maintenance_margin_rate',
  'margin',
  'margin_ratio',
  'unrealized_pnl',
  'realized_pnl',
  'total_funding_fee',
  'open_fee',
  'close_fee',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof PositionRecord)[];

/** A closed position. */
export interface ClosedPositionRecord {
  id: number;
  /** A string in the detail route, an integer in the history list (as the spec's samples show). */
  position_id: string | number;
  user_id: number;
  symbol: string;
  position_side: PositionSide;
  margin_mode: MarginMode;
  leverage: number;
  open_quantity: number;
  close_quantity: number;
  entry_price: number;
  exit_price: number;
  open_amount: number;
  close_amount: number;
  open_fee: number;
  close_fee: number;
  total_funding_fee: number;
  realized_pnl: number;
  close_type: CloseType;
  opened_at: number;
  closed_at: number;
  created_at: number;
}

export const CLOSED_POSITION_RECORD_FIELDS = [
  'id',
  'position_id',
  'user_id',
  'symbol',
  'position_side',
  'margin_mode',
  'leverage',
  'open_quantity',
  'close_quantity',
  'entry_price',
  'exit_price',
  'open_amount',
  'close_amount',
  'open_fee',
  'close_fee',
  'total_funding_fee',
  'realized_pnl',
  'close_type',
  'opened_at',
  'closed_at',
  'created_at',
] as const satisfies readonly (keyof ClosedPositionRecord)[];

/** `data` of `/fapi/v1/position/history`. */
export interface PositionHistoryPage {
  limit: number;
  next_cursor: string;
  list: ClosedPositionRecord[];
}

// ---------------------------------------------------------------- query parameters (as typed values)

export interface OpenOrdersQuery {
  symbol?: string;
}

export interface MyTradesQuery {
  symbol?: string;
  side?: Side;
  start_time?: number;
  end_time?: number;
  cursor?: string;
  limit?: number;
}

/** Filters of `GET /fapi/v1/allOrders`. */
export interface AllOrdersQuery {
  symbol?: string;
  status?: OrderStatus;
  cursor?: string;
  limit?: number;
}

/** camelCase names, as the spec gives them for this route only. */
export interface PositionHistoryQuery {
  symbol?: string;
  positionSide?: PositionSide;
  marginMode?: MarginMode;
  closeType?: CloseType;
  startTime?: number;
  endTime?: number;
  cursor?: string;
  limit?: number;
}

export interface PositionHistoryDetailQuery {
  position_id: number;
}
