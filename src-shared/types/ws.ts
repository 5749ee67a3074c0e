// WebSocket framing of the API (DESIGN section 4), re-exported by ../types.ts.

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
