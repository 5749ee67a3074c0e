// The records and queries of the REST routes that the SDK's entry point does not take from
// src-shared/types.ts: order pages and filters, TP/SL, isolated margin, leverage, the simulator
// and replay controls, the insurance fund, the admin routes and the small answers (server time,
// cancel-all counts, credentials, deposit, whitelist, a closed replay). Each wire type is
// declared once in src-shared/types/ and the route's schema is checked against it at compile
// time (`agree` beside the schema, src-main/api/routes/); only the client's own option types
// (KlinesOptions, OrderRef, PositionHistoryFilter) are declared here. Types only; the client
// that sends them is rest-client.ts, which re-exports all of them.
import type { PositionHistoryQuery } from '../types.ts';

export type { AccountSummary, AllOrdersQuery, BotCancelResult, CancelAllResult, OrdersPage } from '../types/trading.ts';
export type { InsuranceBalance, PublicTrade, ServerTime } from '../types/market.ts';
export type {
  IsolatedMarginLimits,
  LeverageSetting,
  MaintenanceBracket,
  MarginChangeRecord,
  MarginChangeRequest,
  MarginChangeResult,
  MarginHistoryPage,
  MarginHistoryQuery,
  MarginModeSetting,
  PositionModeSetting,
  PositionTpSl,
  TpSlRequest,
  TpSlResult,
} from '../types/position-settings.ts';
export type { SimChange, SimIndexVenue, SimOverload, SimPairView, SimState } from '../types/sim.ts';
export type {
  ReplayAccountReport,
  ReplayAction,
  ReplayClosed,
  ReplayInfo,
  ReplayReport,
  ReplayState,
  StartReplayRequest,
} from '../types/replay.ts';
export type {
  AdminAccount,
  AdminAccountRequest,
  ApiCredentials,
  DepositResult,
  IpWhitelist,
  SessionCredentials,
  WhitelistStatus,
} from '../types/admin.ts';

/** Candles of `GET /fapi/v1/klines`: the client writes startTime / endTime as start_time / end_time. */
export interface KlinesOptions {
  /** Latest N candles (default 500, max 1500); never together with a time range (the route refuses it, 6003). */
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
