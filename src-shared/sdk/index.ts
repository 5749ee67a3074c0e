// Client SDK entry point: everything a bot or the renderer imports from the SDK.
// Re-exports only; each module documents its own invariants.

export * from './local-order-book.ts';
export * from './ws-client.ts';
