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

/** The keep-alive's default ping period, ms (`pingIntervalMs`); the trading screen uses it too. */
export const DEFAULT_PING_INTERVAL_MS = 15_000;

/** Silence for this long (ms) drops the connection by default: three pings left unanswered. */
export const DEFAULT_PING_TIMEOUT_MS = 3 * DEFAULT_PING_INTERVAL_MS;

/**
 * The keep-alive's ping period and silence limit, ms, from the options (defaults filled in). The
 * default limit is never below the request timeout: a client that gives the service 60 s to answer
 * (a long replay step, the service busy all along) does not take a shorter silence for death.
 */
export function keepAliveOf(o: WsClientOptions, requestTimeoutMs: number): WsTimings {
  const intervalMs = o.pingIntervalMs ?? DEFAULT_PING_INTERVAL_MS;
  // an interval of its own keeps the default's ratio: three pings unanswered
  const ratio = (intervalMs * DEFAULT_PING_TIMEOUT_MS) / DEFAULT_PING_INTERVAL_MS;
  const timeoutMs = o.pingTimeoutMs ?? Math.max(ratio, requestTimeoutMs);
  return { intervalMs, timeoutMs, connectMs: o.connectTimeoutMs ?? requestTimeoutMs };
}

/** The keep-alive's ping period and silence limit, and how long a connection attempt may take to open, ms. */
export interface WsTimings {
  intervalMs: number;
  timeoutMs: number;
  connectMs: number;
}

/** Options of {@link WsClient}. Timings are in ms of the injected scheduler. */
export interface WsClientOptions {
  /** Full URL of the endpoint, e.g. `ws://127.0.0.1:8080/ws`; the constructor throws a TypeError on one that is no ws:// or wss:// URL. */
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
  /**
   * Keep-alive: send `{"method":"PING","id":n}` this often once the connection is restored.
   * Default {@link DEFAULT_PING_INTERVAL_MS} (15000); 0 turns the keep-alive off (a hung service
   * or a half-open TCP connection then leaves the client `open` until the OS reports the close).
   */
  pingIntervalMs?: number;
  /**
   * With pings on: no message at all (answer, push or PONG) for this long drops the connection as
   * dead and reconnects (close code 4000, `ping timeout`); it is checked at each ping, so the drop
   * comes up to one interval later. Default 3 x pingIntervalMs ({@link DEFAULT_PING_TIMEOUT_MS},
   * 45000, with the default interval), or `requestTimeoutMs` when that is longer.
   */
  pingTimeoutMs?: number;
  /**
   * A connection attempt not open (TCP and the WebSocket upgrade) after this long is abandoned as
   * failed and tried again on the reconnect schedule (a service that takes the TCP connection but
   * never answers the upgrade: hung, or the wrong port behind a proxy). Default `requestTimeoutMs`
   * (10000); 0: no limit (the attempt waits for the OS).
   */
  connectTimeoutMs?: number;
  /** Clock and timers; default the host's. */
  scheduler?: Scheduler;
}

/**
 * Why a request failed: the server's error answer (`server`), no answer in time (`timeout`), never
 * sent because there was no connection (`disconnected`: the service could not be reached, or the
 * connection was down for the whole timeout), or the client closed (`closed`).
 */
export type WsRequestErrorKind = 'server' | 'timeout' | 'disconnected' | 'closed';

/**
 * The service failed to serve the request (its error 5000, docs/api.md): nothing of it was
 * applied and it may be sent again; a refusal is any other server code.
 */
export function isServiceFault(e: unknown): e is WsRequestError {
  return e instanceof WsRequestError && e.kind === 'server' && e.code === 5000;
}

/**
 * A re-login or re-subscription that failed for no refusal, so its connection is dropped and the
 * next one restores everything: the close code, 1011 when the service failed it (5000), 4000 when
 * it was not answered in time (the service hung); null for a refusal.
 */
export function restoreFailureCode(e: unknown): number | null {
  if (isServiceFault(e)) return 1011;
  return e instanceof WsRequestError && e.kind === 'timeout' ? 4000 : null;
}

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
 * A connection attempt failed: nothing listens at the URL, or what listens is no WebSocket endpoint
 * (an HTTP server answering the upgrade with an error). Reported to `onError` once per failed attempt,
 * and the rejection of `whenReady()` while the client has never been connected.
 */
export class WsConnectionError extends Error {
  /** The endpoint the client tried. */
  readonly url: string;
  /** The close code the socket ended with (1006: no close frame, the usual case). */
  readonly closeCode: number;

  constructor(url: string, closeCode: number, reason: string) {
    super(
      `Cannot reach the service at ${url}: the WebSocket connection failed (close ${closeCode}` +
        `${reason === '' ? '' : `: ${reason}`}); is the service running, and is this its /ws URL?`,
    );
    this.name = 'WsConnectionError';
    this.url = url;
    this.closeCode = closeCode;
  }
}

/**
 * The client's login ended without `login()` being asked to: the re-login after a reconnect was
 * refused, or the server ended it (`logged_out`, its API key was regenerated).
 * Private streams (`user`) are off until `login()` succeeds again, which subscribes them again.
 */
export class WsLoginLostError extends Error {
  /** The server's code (e.g. 2002 unknown API key), when it gave one. */
  readonly code: number | undefined;

  constructor(message: string, code?: number) {
    super(message);
    this.name = 'WsLoginLostError';
    this.code = code;
  }
}

/**
 * - `none`: no login asked for (or none accepted yet).
 * - `logged_in`: the last LOGIN was accepted, on this connection or restored after a reconnect.
 * - `lost`: the login ended ({@link WsLoginLostError}); private streams wait for the next `login()`.
 */
export type WsLoginState = 'none' | 'logged_in' | 'lost';

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
