// The records and queries of the REST routes that src-shared/types.ts does not define: order
// pages and filters, TP/SL, isolated margin, leverage, the simulator and replay controls, the
// insurance fund and the admin account route. Types only; the
// client that sends them is rest-client.ts, which re-exports all of them.
import type { MarginChangeType, MarginMode, OrderStatus, PositionSide, Side, WorkingType } from '../enums.ts';
import type { ReplayAccountReport, ReplayState } from '../types/replay.ts';
import type { AccountSummary, OrderRecord, PositionHistoryQuery, PositionRecord } from '../types.ts';

/** A cursor page of `allOrders` (same shape as myTrades). */
export interface OrdersPage {
  has_more: boolean;
  next_cursor: string;
  items: OrderRecord[];
}

export interface AllOrdersQuery {
  symbol?: string;
  status?: OrderStatus;
  cursor?: string;
  limit?: number;
}

export type { AccountSummary };

/** One public trade of `GET /fapi/v1/trades`. */
export interface PublicTrade {
  id: string;
  price: string;
  qty: string;
  quote_qty: string;
  time: number;
  taker_side: Side;
  is_buyer_maker: boolean;
}

/** One open position's take-profit / stop-loss, as `GET /fapi/v1/position/tpsl` lists them. */
export interface PositionTpSl {
  symbol: string;
  position_side: PositionSide;
  take_profit_price: string | null;
  stop_loss_price: string | null;
  /** 1 mark price, 2 last price. */
  working_type: WorkingType;
}

/** Body of `POST /fapi/v1/position/tpsl`: a string sets, null removes, absent keeps. */
export interface TpSlRequest {
  symbol: string;
  position_side: PositionSide;
  take_profit_price?: string | null;
  stop_loss_price?: string | null;
  /** 1 mark price (default), 2 last price. */
  working_type?: WorkingType;
}

/** Answer of the TP/SL route: the position plus its triggers. */
export type TpSlResult = PositionRecord & {
  take_profit_price: string | null;
  stop_loss_price: string | null;
  working_type: WorkingType;
};

/** Body of `POST /fapi/v1/position/margin`: move `amount` USDT into (type 1) or out of (type 2) an isolated position. */
export interface MarginChangeRequest {
  symbol: string;
  /** The position's side (in one-way mode either value names the net position). */
  position_side: PositionSide;
  /** USDT, a decimal string above 0 with at most 8 decimals. */
  amount: string;
  type: MarginChangeType;
}

/** Answer of `POST /fapi/v1/position/margin`. */
export interface MarginChangeResult {
  symbol: string;
  position_side: PositionSide;
  type: MarginChangeType;
  /** USDT moved, 8 decimals. */
  amount: string;
  /** The position's isolated margin after it, 8 decimals. */
  margin: string;
  position: PositionRecord;
}

/** `GET /fapi/v1/position/margin`: how far an isolated position's margin may move now (USDT, 8 decimals). */
export interface IsolatedMarginLimits {
  symbol: string;
  position_side: PositionSide;
  margin: string;
  /** Initial margin at the mark and the leverage. */
  initial_margin: string;
  max_add: string;
  max_remove: string;
}

/** Filters of `GET /fapi/v1/position/margin/history`. */
export interface MarginHistoryQuery {
  symbol?: string;
  position_side?: PositionSide;
  type?: MarginChangeType;
  start_time?: number;
  end_time?: number;
  cursor?: string;
  limit?: number;
}

/** A cursor page of `GET /fapi/v1/position/margin/history`. */
export interface MarginHistoryPage {
  has_more: boolean;
  next_cursor: string;
  items: Array<{
    id: string;
    symbol: string;
    position_side: PositionSide;
    position_id: string;
    type: MarginChangeType;
    amount: string;
    margin: string;
    created_at: number;
  }>;
}

/** A pair's leverage setting, as `GET` and `POST /fapi/v1/leverage` answer it. */
export interface LeverageSetting {
  symbol: string;
  leverage: number;
  margin_mode: MarginMode;
  /** The pair's maximum leverage. */
  max_leverage: number;
  /** Largest position notional allowed at this leverage, USDT. */
  max_notional: string;
}

/** `GET /api/v1/sim`: the simulator of a local venue. */
export interface SimState {
  seed: number;
  speed: number;
  paused: boolean;
  fast: boolean;
  market_time: number;
  /** The driver's overload sampling (null for a source other than the simulator): spans are market ms. */
  overload: {
    behind: boolean;
    thinned_ticks: number;
    thinned_ms: number;
    spans: Array<{ from: number; to: number }>;
  } | null;
  [extra: string]: unknown;
}

/** `GET /api/v1/replay`: a replay venue's status (docs/replay.md). */
export type { ReplayState };

/** A control action of `POST /api/v1/replay` (and the WebSocket REPLAY method). */
export type ReplayAction =
  | { action: 'play' }
  | { action: 'pause' }
  | { action: 'speed'; speed: number }
  | { action: 'step'; ms: number }
  | { action: 'seek'; time: number };

/** `POST /api/v1/replays` (the live venue). */
export interface StartReplayRequest {
  symbols: string[];
  /** ms UTC. */
  start: number;
  until?: number;
  speed?: number;
  /** Starting USDT balance of the replay's local account, e.g. "10000". */
  balance?: string;
  queue_model?: 'pessimistic' | 'probabilistic';
  lockstep?: boolean;
  /** Order entry latency, ms of history (0 to 60000). */
  order_latency?: number;
  /** WebSocket market-data latency, ms of history (0 to 60000). */
  data_latency?: number;
  /** Order response latency, ms of history (0 to 60000). */
  response_latency?: number;
  /**
   * Dataset ids (`GET /api/v1/datasets`) to read, pinned; a symbol none of them covers reads its
   * own pick of the imported datasets (docs/replay.md, "choosing the datasets").
   */
  datasets?: number[];
}

export interface ReplayInfo {
  id: string;
  url: string;
  login_url: string;
  status: ReplayState;
}

/** One account of the session report (`GET /api/v1/replay/report`). */
export type { ReplayAccountReport };

export interface ReplayReport {
  start: number;
  time: number;
  accounts: ReplayAccountReport[];
}

export interface KlinesOptions {
  /** Latest N candles (default 500, max 1500); never together with a time range. */
  limit?: number;
  /** Time range, ms, both ends inclusive; start_time and end_time go together. */
  startTime?: number;
  endTime?: number;
}

/**
 * One order of yours: by the venue's id, or by the `client_order_id` you placed it with
 * (exactly one of the two, as `DELETE /fapi/v1/order` requires).
 */
export type OrderRef = { orderId: string | number; clientOrderId?: never } | { clientOrderId: string; orderId?: never };

/** Filters of `GET /fapi/v1/position/history` (camelCase, as the spec names them). */
export type PositionHistoryFilter = PositionHistoryQuery;

/** `GET /fapi/v1/insuranceBalance`: the one fund every pair shares (USDT, 8 decimals). */
export interface InsuranceBalance {
  asset: string;
  /** The fund, never below zero. */
  balance: string;
  /** What the house backstop has paid: losses the fund could not cover and nobody was left to deleverage. */
  house_backstop: string;
  /** The pairs the fund backs: every listed pair. */
  symbols: string[];
  /** Market time of the reading, ms. */
  time: number;
}

/** Body of `POST /admin/v1/accounts`: every field optional (a new account with generated credentials). */
export interface AdminAccountRequest {
  /** Key and secret as the CLI's --account takes them; a missing key creates a new account. */
  api_key?: string;
  api_secret?: string;
  /** USDT wallet to set, a decimal string (new account default 10000; an existing one is kept). */
  balance?: string;
  position_mode?: 'hedge' | 'one_way';
}

/** Answer of `POST /admin/v1/accounts`. */
export interface AdminAccount {
  user_id: number;
  api_key: string;
  api_secret: string;
  /** USDT wallet balance, 8 decimals. */
  balance: string;
  position_mode: 'hedge' | 'one_way';
}
