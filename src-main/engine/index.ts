// Public surface of the matching engine. See order-book.ts for the rules and limits.

export { OrderBook, createBook } from './order-book.ts';
export { RecordingSink } from './recording-sink.ts';
export type { EngineEvent } from './recording-sink.ts';
