// Wire types of a position's settings (extensions of the API): take-profit / stop-loss, isolated
// margin by hand, a pair's leverage and margin mode, the account's position mode. Declared once here; the routes' schemas are checked
// against them (src-main/api/routes/tpsl.ts, position-margin.ts, account.ts: `agree`), the
// exchange answers them and the SDK re-exports them.

import type { MarginChangeType, MarginMode, PositionMode, PositionSide, WorkingType } from '../enums.ts';
import type { PositionRecord } from './trading.ts';

// ---------------------------------------------------------------- take-profit / stop-loss

/** One open position's take-profit / stop-loss, as `GET /fapi/v1/position/tpsl` lists them. */
export interface PositionTpSl {
  symbol: string;
  position_side: PositionSide;
  take_profit_price: string | null;
  stop_loss_price: string | null;
  /** 1 mark price, 2 last price: the take-profit's when set, else the stop-loss' (each trigger has its own, below). */
  working_type: WorkingType;
  /** The price the take-profit watches (1 mark, 2 last); null when none is set. */
  take_profit_working_type: WorkingType | null;
  /** The price the stop-loss watches (1 mark, 2 last); null when none is set. */
  stop_loss_working_type: WorkingType | null;
}

/** Body of `POST /fapi/v1/position/tpsl`: a string sets, null removes, absent keeps. */
export interface TpSlRequest {
  symbol: string;
  position_side: PositionSide;
  take_profit_price?: string | null;
  stop_loss_price?: string | null;
  /** 1 mark price (default), 2 last price. */
  working_type?: WorkingType;
  /** The price the take-profit watches, over `working_type` (each trigger may watch its own). */
  take_profit_working_type?: WorkingType;
  /** The price the stop-loss watches, over `working_type`. */
  stop_loss_working_type?: WorkingType;
}

/** Answer of `POST /fapi/v1/position/tpsl`: the position plus its triggers. */
export type TpSlResult = PositionRecord & {
  take_profit_price: string | null;
  stop_loss_price: string | null;
  working_type: WorkingType;
  take_profit_working_type: WorkingType | null;
  stop_loss_working_type: WorkingType | null;
};

// ---------------------------------------------------------------- isolated margin

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
  /** The available balance. */
  max_add: string;
  max_remove: string;
}

/** Filters of `GET /fapi/v1/position/margin/history`. */
export interface MarginHistoryQuery {
  symbol?: string;
  position_side?: PositionSide;
  type?: MarginChangeType;
  /** Inclusive, ms, market clock. */
  start_time?: number;
  end_time?: number;
  cursor?: string;
  limit?: number;
}

/** One change of `GET /fapi/v1/position/margin/history`. */
export interface MarginChangeRecord {
  id: string;
  symbol: string;
  position_side: PositionSide;
  position_id: string;
  type: MarginChangeType;
  /** USDT moved, 8 decimals. */
  amount: string;
  /** The position's isolated margin after it, 8 decimals. */
  margin: string;
  /** Market time, ms. */
  created_at: number;
}

/** A cursor page of `GET /fapi/v1/position/margin/history`; `next_cursor` is '' on the last page. */
export interface MarginHistoryPage {
  has_more: boolean;
  next_cursor: string;
  items: MarginChangeRecord[];
}

// ---------------------------------------------------------------- leverage

/** A pair's leverage setting, as `GET` and `POST /fapi/v1/leverage` answer it. */
export interface LeverageSetting {
  symbol: string;
  leverage: number;
  margin_mode: MarginMode;
  /** The pair's maximum leverage. */
  max_leverage: number;
  /** Largest position notional allowed at this leverage, USDT. */
  max_notional: string;
  /** The pair's maintenance tiers, lowest first: what a liquidation price is worked out with. */
  brackets: MaintenanceBracket[];
}

/**
 * One maintenance tier of a pair (decimal strings): a position whose notional at the mark is above
 * `notional_floor` and at most `notional_cap` (tier 1 holds 0) keeps a maintenance margin of
 * notional x `maintenance_margin_rate` - `maintenance_amount`, and may be held at most at
 * `max_leverage`.
 */
export interface MaintenanceBracket {
  tier: number;
  notional_floor: string;
  notional_cap: string;
  maintenance_margin_rate: string;
  maintenance_amount: string;
  max_leverage: number;
}

// ---------------------------------------------------------------- margin mode and position mode

/** Answer of `POST /fapi/v1/marginType`: the pair and its margin mode now (1 isolated, 2 cross). */
export interface MarginModeSetting {
  symbol: string;
  margin_mode: MarginMode;
}

/** Answer of `POST /fapi/v1/positionMode`: the account's position mode now. */
export interface PositionModeSetting {
  position_mode: PositionMode;
}
