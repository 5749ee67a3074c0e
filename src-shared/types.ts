// The API's records, exactly as spec/api.md names, orders and types their fields.
//
// Interfaces cannot state field order, so every record that routes serialise also has a
// `*_FIELDS` array in the spec's order; route tests compare JSON keys against it and the
// type checks below keep each array and its interface in step.

import type {
  CloseType,
  ContractType,
  FuturesSymbolStatus,
  MarginMode,
  OrderStatus,
  OrderType,
  PositionAction,
  PositionSide,
  Side,
  SymbolStatus,
  SymbolTag,
  TimeInForce,
  TradeRole,
} from './enums.ts';

export type { Envelope } from './errors.ts';

/** Body of a candlestick-route error (HTTP 200, no `data`). */
export interface KlinesError {
  code: number;
  message: string;
}

// ---------------------------------------------------------------- candlesticks

/** One candlestick: the spec's 12-element array. */
export type Candle = [
  openTime: number,
  closeTime: number,
  open: string,
  high: string,
  low: string,
  close: string,
  volume: string,
  quoteVolume: string,
  trades: number,
  takerBuyBaseVolume: string,
  takerBuyQuoteVolume: string,
  isClosed: boolean,
];

/** Index of each candlestick element. */
export const CandleIndex = Object.freeze({
  OPEN_TIME: 0,
  CLOSE_TIME: 1,
  OPEN: 2,
  HIGH: 3,
  LOW: 4,
  CLOSE: 5,
  VOLUME: 6,
  QUOTE_VOLUME: 7,
  TRADES: 8,
  TAKER_BUY_BASE_VOLUME: 9,
  TAKER_BUY_QUOTE_VOLUME: 10,
  IS_CLOSED: 11,
} as const);

/** `/fapi/v1/klines/batch`: pair name to candles, newest first. */
export type KlinesBatch = Record<string, Candle[]>;

// ---------------------------------------------------------------- prices

export interface PriceRecord {
  symbol: string;
  index_price: string;
  mark_price: string;
  last_price: string;
  /** 6 decimals; positive means longs pay shorts. */
  funding_rate: string;
  next_funding_time: number;
  price_precision: number;
  qty_precision: number;
  timestamp: number;
}

export const PRICE_RECORD_FIELDS = [
  'symbol',
  'index_price',
  'mark_price',
  'last_price',
  'funding_rate',
  'next_funding_time',
  'price_precision',
  'qty_precision',
  'timestamp',
] as const satisfies readonly (keyof PriceRecord)[];

// ---------------------------------------------------------------- trading pairs

/** A record of `/api/v1/symbols` and `/api/v1/symbols/{symbol}`. */
export interface GeneralSymbol {
  id: number;
  symbol: string;
  base_asset: string;
  quote_asset: string;
  status: SymbolStatus;
  allow_market: boolean;
  price_precision: number;
  qty_precision: number;
  quote_precision: number;
  tick_size: string;
  step_size: string;
  min_qty: string;
  max_qty: string;
  min_quote: string;
  maker_fee_rate: string;
  taker_fee_rate: string;
  logo: string;
  sort_order: number;
  is_default: boolean;
  is_hot: boolean;
  is_gainer: boolean;
  is_new: boolean;
  created_at: number;
  updated_at: number;
}

export const GENERAL_SYMBOL_FIELDS = [
  'id',
  'symbol',
  'base_asset',
  'quote_asset',
  'status',
  'allow_market',
  'price_precision',
  'qty_precision',
  'quote_precision',
  'tick_size',
  'step_size',
  'min_qty',
  'max_qty',
  'min_quote',
  'maker_fee_rate',
  'taker_fee_rate',
  'logo',
  'sort_order',
  'is_default',
  'is_hot',
  'is_gainer',
  'is_new',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof GeneralSymbol)[];

/** A record of `/fapi/v1/symbols`. */
export interface FuturesSymbol {
  symbol: string;
  base_asset: string;
  quote_asset: string;
  margin_asset: string;
  contract_type: ContractType;
  status: FuturesSymbolStatus;
  max_leverage: number;
  maintenance_margin_rate: string;
  maker_fee_rate: string;
  taker_fee_rate: string;
  price_precision: number;
  price_step: string;
  qty_precision: number;
  qty_step: string;
  min_qty: string;
  max_qty: string;
  min_notional: string;
  market_price_protect_ratio: string;
  price_merges: string[];
  logo: string;
}

export const FUTURES_SYMBOL_FIELDS = [
  'symbol',
  'base_asset',
  'quote_asset',
  'margin_asset',
  'contract_type',
  'status',
  'max_leverage',
  'maintenance_margin_rate',
  'maker_fee_rate',
  'taker_fee_rate',
  'price_precision',
  'price_step',
  'qty_precision',
  'qty_step',
  'min_qty',
  'max_qty',
  'min_notional',
  'market_price_protect_ratio',
  'price_merges',
  'logo',
] as const satisfies readonly (keyof FuturesSymbol)[];

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

// ---------------------------------------------------------------- depth

/** `[price, quantity]`; quantity "0" in a delta deletes the level. */
export type PriceLevel = [price: string, qty: string];

/** `data` of `GET /fapi/v1/depth`; `id` is the update id after the last change included. */
export interface DepthSnapshot {
  bids: PriceLevel[];
  asks: PriceLevel[];
  id: number;
}

/** Event type of `depth_update@{symbol}` (Binance's name). */
export const DEPTH_UPDATE_EVENT = 'depthUpdate';
/** Event type of `depth@{symbol},{level}`. */
export const DEPTH_SNAPSHOT_EVENT = 'depth';

/** Levels the `depth@{symbol},{level}` channel accepts (DESIGN section 4). */
export const DEPTH_CHANNEL_LEVELS = Object.freeze([5, 10, 20, 50, 100] as const);
export type DepthChannelLevel = (typeof DEPTH_CHANNEL_LEVELS)[number];

/** A push of `depth_update@{symbol}`: changes with update ids U..u; `pu` is the previous event's `u`. */
export interface DepthUpdateEvent {
  e: typeof DEPTH_UPDATE_EVENT;
  /** Event time, ms. */
  E: number;
  s: string;
  U: number;
  u: number;
  pu: number;
  b: PriceLevel[];
  a: PriceLevel[];
}

/** A push of `depth@{symbol},{level}`: the top `level` levels after update id `u`. */
export interface DepthSnapshotEvent {
  e: typeof DEPTH_SNAPSHOT_EVENT;
  E: number;
  s: string;
  u: number;
  bids: PriceLevel[];
  asks: PriceLevel[];
}

// ---------------------------------------------------------------- WebSocket framing (DESIGN section 4)

export interface WsRequest {
  method: 'SUBSCRIBE' | 'UNSUBSCRIBE' | 'LIST_SUBSCRIPTIONS' | 'LOGIN';
  params?: unknown[];
  id: number | string;
}

export type WsResponse =
  | { id: number | string | null; result: unknown }
  | { id: number | string | null; error: { code: number; message: string } };

export interface WsPush<T = unknown> {
  stream: string;
  data: T;
}

// ---------------------------------------------------------------- query parameters (as typed values)

export interface KlinesQuery {
  symbol: string;
  interval: string;
  start_time?: number;
  end_time?: number;
  limit?: number;
}

export interface KlinesBatchQuery {
  /** Comma-separated, at most 20. */
  symbols: string;
  interval: string;
  limit?: number;
}

export interface DepthQuery {
  symbol: string;
  with_id?: boolean;
}

export interface GeneralSymbolsQuery {
  status?: SymbolStatus;
  tag?: SymbolTag;
}

export interface FuturesSymbolsQuery {
  /** Comma-separated. */
  symbols?: string;
  tag?: SymbolTag;
}

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

// ---------------------------------------------------------------- compile-time completeness

// Each *_FIELDS array must name every key of its interface exactly once; a missing key
// makes the matching line below fail to type-check (`satisfies` above catches extra keys).
type Missing<T, F extends readonly PropertyKey[]> = Exclude<keyof T, F[number]>;
type AssertNone<K> = [K] extends [never] ? true : { missing: K };
const fieldChecks: [
  AssertNone<Missing<PriceRecord, typeof PRICE_RECORD_FIELDS>>,
  AssertNone<Missing<GeneralSymbol, typeof GENERAL_SYMBOL_FIELDS>>,
  AssertNone<Missing<FuturesSymbol, typeof FUTURES_SYMBOL_FIELDS>>,
  AssertNone<Missing<OrderRecord, typeof ORDER_RECORD_FIELDS>>,
  AssertNone<Missing<PlacementResult, typeof PLACEMENT_RESULT_FIELDS>>,
  AssertNone<Missing<OrderRequest, typeof ORDER_REQUEST_FIELDS>>,
  AssertNone<Missing<BotOrderRequest, typeof BOT_ORDER_REQUEST_FIELDS>>,
  AssertNone<Missing<TradeRecord, typeof TRADE_RECORD_FIELDS>>,
  AssertNone<Missing<PositionRecord, typeof POSITION_RECORD_FIELDS>>,
  AssertNone<Missing<ClosedPositionRecord, typeof CLOSED_POSITION_RECORD_FIELDS>>,
] = [true, true, true, true, true, true, true, true, true, true];
void fieldChecks;
