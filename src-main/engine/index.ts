// Public surface of the matching engine. See order-book.ts for the rules and limits.

export { OrderBook, createBook, bandLimit } from './order-book.ts';
export { RecordingSink } from './recording-sink.ts';
export type { EngineEvent } from './recording-sink.ts';
export { CountingSink } from './counting-sink.ts';
export { applyCommand } from './commands.ts';
export type { Command } from './commands.ts';
export {
  Side,
  OrderType,
  TimeInForce,
  StpMode,
  OrderFlag,
  CommandKind,
  RejectReason,
  ExpireReason,
  CancelReason,
  MAX_PRICE_TICKS,
  MAX_QTY_LOTS,
  MAX_BAND_PPM,
} from './types.ts';
export type { EngineSink, BookCommands, BookConfig, DepthView, Level, OrderView } from './types.ts';
