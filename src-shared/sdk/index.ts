// Client SDK entry point: everything a bot or the renderer imports from the SDK.
// Re-exports only; each module documents its own invariants. A bot needs nothing outside
// this file: the clients, their option and error types, the wire records they take and
// answer, the enums those records use, and the signing helpers.

export * from './local-order-book.ts';
export * from './rest-client.ts';
export * from './ws-client.ts';
export { DEFAULT_PING_INTERVAL_MS, DEFAULT_PING_TIMEOUT_MS } from './ws-types.ts';

// The REST depth record is not re-exported: the book's own `DepthSnapshot` (above) has the
// same name and accepts it as it is.
export type {
  BotOrderRequest,
  Candle,
  ClosedPositionRecord,
  ConditionalOrderRecord,
  ConditionalOrderRequest,
  DepthSnapshotEvent,
  DepthUpdateEvent,
  Envelope,
  FuturesSymbol,
  GeneralSymbol,
  GeneralSymbolsQuery,
  KlinesBatch,
  MyTradesPage,
  MyTradesQuery,
  OrderRecord,
  OrderRequest,
  PlacementResult,
  PositionHistoryPage,
  PositionHistoryQuery,
  PositionRecord,
  PriceRecord,
  Ticker24hRecord,
  TradeRecord,
} from '../types.ts';
export { CandleIndex } from '../types.ts';
export type {
  DatasetDeleted,
  DatasetImportResults,
  DatasetTradeWire,
  DatasetWire,
  ImportResultWire,
} from '../types/datasets.ts';
export type { UploadKey } from '../dataset-upload.ts';
export type {
  SweepExampleWire,
  SweepJob,
  SweepJobWire,
  SweepMetrics,
  SweepSet,
  SweepSummaryWire,
  SweepWire,
} from '../types/sweeps.ts';
export {
  CloseType,
  ConditionalStatus,
  MarginMode,
  OrderStatus,
  OrderType,
  PositionAction,
  PositionMode,
  PositionSide,
  Side,
  TimeInForce,
  TradeRole,
  TriggerDirection,
  WorkingType,
} from '../enums.ts';
export { buildSignedQuery, hmacSha256Hex } from '../sign.ts';
