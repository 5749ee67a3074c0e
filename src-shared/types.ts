// The API's records, exactly as spec/api.md names, orders and types their fields: market data
// (types/market.ts), trading (types/trading.ts), WebSocket framing (types/ws.ts) and replays
// (types/replay.ts), re-exported here so every importer keeps one path.
//
// Interfaces cannot state field order, so every record that routes serialise also has a
// `*_FIELDS` array in the spec's order; route tests compare JSON keys against it and the
// type checks below keep each array and its interface in step.

import type {
  FUTURES_SYMBOL_FIELDS,
  FuturesSymbol,
  GENERAL_SYMBOL_FIELDS,
  GeneralSymbol,
  PRICE_RECORD_FIELDS,
  PriceRecord,
} from './types/market.ts';
import type {
  BOT_ORDER_REQUEST_FIELDS,
  BotOrderRequest,
  CLOSED_POSITION_RECORD_FIELDS,
  ClosedPositionRecord,
  ORDER_RECORD_FIELDS,
  ORDER_REQUEST_FIELDS,
  OrderRecord,
  OrderRequest,
  PLACEMENT_RESULT_FIELDS,
  POSITION_RECORD_FIELDS,
  PlacementResult,
  PositionRecord,
  TRADE_RECORD_FIELDS,
  TradeRecord,
} from './types/trading.ts';

export type { Envelope } from './errors.ts';
export * from './types/market.ts';
export * from './types/trading.ts';
export * from './types/conditional.ts';
export * from './types/ws.ts';
export * from './types/replay.ts';

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
