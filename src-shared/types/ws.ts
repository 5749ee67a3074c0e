// WebSocket framing of the API (DESIGN section 4), re-exported by ../types.ts.

// ---------------------------------------------------------------- WebSocket framing (DESIGN section 4)

interface WsRequest {
  method: 'SUBSCRIBE' | 'UNSUBSCRIBE' | 'LIST_SUBSCRIPTIONS' | 'LOGIN';
  params?: unknown[];
  id: number | string;
}

type WsResponse =
  | { id: number | string | null; result: unknown }
  | { id: number | string | null; error: { code: number; message: string } };

interface WsPush<T = unknown> {
  stream: string;
  data: T;
}

export {};
