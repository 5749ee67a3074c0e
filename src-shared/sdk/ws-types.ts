// What WsClient takes and gives: the WebSocket it drives, its options and states, and the
// error its requests reject with. The protocol and the client's invariants are in ws-client.ts.

import type { Scheduler } from './scheduler.ts';

/**
 * The part of the WHATWG WebSocket the client uses. Node 24's global `WebSocket`, the
 * browser's, and the `ws` package's class all fit. Handlers take `any` because each of those
 * declares its own event types.
 */
export interface WebSocketLike {
  readonly readyState: number;
  binaryType?: string;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: any) => void) | null;
  onmessage: ((event: any) => void) | null;
  onclose: ((event: any) => void) | null;
  onerror: ((event: any) => void) | null;
}

/** Constructor of a {@link WebSocketLike}. */
export type WebSocketConstructor = new (url: string) => WebSocketLike;

/**
 * - `idle`: created, `connect()` not called yet.
 * - `connecting`: first connection attempt.
 * - `open`: socket open (re-login and re-subscription may still be running).
 * - `reconnecting`: lost the connection; waiting for the backoff or reconnecting.
 * - `closed`: `close()` was called; final.
 */
export type WsState = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'closed';

/** Options of {@link WsClient}. Timings are in ms of the injected scheduler. */
export interface WsClientOptions {
  /** Full URL of the endpoint, e.g. `ws://127.0.0.1:8080/ws`. */
  url: string;
  /** WebSocket implementation; default `globalThis.WebSocket`. */
  WebSocket?: WebSocketConstructor;
  /** A request without an answer for this long is rejected. Default 10000. */
  requestTimeoutMs?: number;
  /** Delay before the first reconnect attempt; doubles per failed attempt. Default 250. */
  reconnectBaseMs?: number;
  /** Upper bound of the reconnect delay. Default 30000. */
  reconnectMaxMs?: number;
  /** Share of each delay that is random, 0..1: delay x (1 - jitter + jitter x random()). Default 0.5. */
  reconnectJitter?: number;
  /** Random source in [0, 1) for the jitter; default `Math.random`. */
  random?: () => number;
  /** Send `{"method":"PING","id":n}` this often; 0 (default) disables pings. */
  pingIntervalMs?: number;
  /** With pings on: no message at all for this long drops the connection. Default 2 x pingIntervalMs. */
  pingTimeoutMs?: number;
  /** Clock and timers; default the host's. */
  scheduler?: Scheduler;
}

/** Why a request failed: the server's error answer, no answer in time, or the client closed. */
export type WsRequestErrorKind = 'server' | 'timeout' | 'closed';

/** Rejection of a {@link WsClient} request. */
export class WsRequestError extends Error {
  /** What went wrong; see {@link WsRequestErrorKind}. */
  readonly kind: WsRequestErrorKind;
  /** The server's error code when `kind` is `'server'`. */
  readonly code: number | undefined;
  /** The request's method. */
  readonly method: string;

  constructor(kind: WsRequestErrorKind, method: string, message: string, code?: number) {
    super(message);
    this.name = 'WsRequestError';
    this.kind = kind;
    this.method = method;
    this.code = code;
  }
}

/**
 * LOGIN params, or a function that builds them (sync or async) each time LOGIN is sent. Our
 * server's LOGIN is signed with a timestamp that expires after `recv_window`, so a client that
 * must survive reconnects passes a function that signs afresh.
 */
export type LoginParamsSource = object | (() => object | Promise<object>);

/** Passed to `onClose` listeners. */
export interface WsCloseInfo {
  /** Close code from the socket (1006 when it failed without one). */
  readonly code: number;
  readonly reason: string;
  /** False only after `close()`. */
  readonly willReconnect: boolean;
}
