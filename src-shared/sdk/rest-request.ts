// One request of RestClient as data: the client's options, the query and body of a request,
// how it is authorised, the raw exchange it gives back, and the API's error; `writeRequest`,
// which writes one out (serialises the body once, signs the query), and `exchange`, which sends
// it and records its answer. The client that writes it (and
// signs it), and its invariants, are in rest-client.ts.

import { buildSignedQuery, serializeQuery } from '../sign.ts';
import type { OrderRef } from './rest-routes.ts';

export interface RestClientOptions {
  /** e.g. http://127.0.0.1:8787 */
  baseUrl: string;
  apiKey?: string;
  apiSecret?: string;
  /** `recv_window` sent with signed requests, ms (server default 5000, max 60000). */
  recvWindow?: number;
  /** Injected fetch (defaults to the global one). */
  fetch?: typeof fetch;
  /** Wall clock for signature timestamps, ms; default Date.now. */
  now?: () => number;
  /**
   * How long a request waits for its whole answer, ms (default {@link DEFAULT_TIMEOUT_MS}); 0 or
   * Infinity: as long as it takes. A request over it ends with status NO_ANSWER and `timedOut`.
   */
  timeoutMs?: number;
}

/** The default `timeoutMs`: a service that does not answer in this long is taken for hung. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** `code` of a PerpdeskApiError the client raised itself: no answer, no credentials, not an envelope. */
export const CLIENT_ERROR = -1;
/** `status` of a request that never got an HTTP answer. */
export const NO_ANSWER = 0;
/** `status` of a signed request that was never sent: the client has no API key and secret. */
export const NO_CREDENTIALS = -1;
/** `status` of a request that was never sent because it cannot be written (a NaN or infinite query number). */
export const NOT_SENT = -2;

/** An error answer of the API: `code` is from the error registry (docs/api.md, Errors). */
export class PerpdeskApiError extends Error {
  readonly code: number;
  readonly status: number;
  /**
   * How long the answer asked to wait before trying again (its `Retry-After` header, e.g. on a
   * 429 / 4290 over the rate limit), ms; undefined when it said nothing.
   */
  readonly retryAfterMs: number | undefined;
  /**
   * No answer within the time-out (status NO_ANSWER): unlike a service that could not be reached,
   * the request may have been applied; read the state back before sending it again.
   */
  readonly timedOut: boolean;
  /**
   * The request was sent and no answer came (status NO_ANSWER): its time-out passed (`timedOut`),
   * or the connection closed after it was sent (a service that stopped or crashed while serving
   * it). It may have been applied; read the state back before sending it again. False for a
   * service that could not be reached at all (nothing was sent).
   */
  readonly maybeApplied: boolean;
  /**
   * `unanswered`: true for a request whose time-out passed, 'connection-lost' for one whose
   * connection closed after it was sent (either may have been applied); false otherwise.
   */
  constructor(
    code: number,
    message: string,
    status: number,
    retryAfterMs?: number,
    unanswered: boolean | 'connection-lost' = false,
  ) {
    super(message);
    this.name = 'PerpdeskApiError';
    this.code = code;
    this.status = status;
    this.retryAfterMs = retryAfterMs;
    this.timedOut = unanswered === true;
    this.maybeApplied = unanswered !== false;
  }
}

export type Query = Record<string, string | number | boolean | undefined>;

/** A route's query under every wire name of its type `Q`, none left out and none added (undefined: not sent). */
export type WireQuery<Q> = { [K in keyof Required<Q>]: string | number | undefined };

/** The query naming one order: by the venue's id (bare or `{ orderId }`) or by `{ clientOrderId }`. */
export function orderQuery(symbol: string, order: string | number | OrderRef): Query {
  const ref: OrderRef = typeof order === 'object' ? order : { orderId: order };
  return ref.clientOrderId !== undefined
    ? { symbol, client_order_id: ref.clientOrderId }
    : // a number as a number: one that is not finite (NaN) is refused unsent, as any query number is
      { symbol, order_id: typeof ref.orderId === 'number' ? ref.orderId : String(ref.orderId) };
}

/**
 * An id a JSON body takes as a JSON integer (`PUT /fapi/v1/order`'s `order_id`, the conditional
 * amend's `id`), from the id as a record has it (a string) or a number. A string must be written
 * exactly as a whole number of at most 2^53 - 1, the most a JSON number carries exactly: as
 * `Number(id)` one beyond it was rounded to another id, and `'0x1f'`, `' 12'` or `'1e3'` became
 * some other order's id; such a string is refused unsent (NOT_SENT), as a NaN number is.
 */
export function bodyId(route: string, field: string, id: string | number): number {
  if (typeof id === 'number') return id; // a NaN or infinite one is refused unsent when the body is written
  if (/^(0|[1-9][0-9]*)$/.test(id) && Number.isSafeInteger(Number(id))) return Number(id);
  throw new PerpdeskApiError(
    CLIENT_ERROR,
    `${route} was not sent: body field ${field} '${id}' is not written as a whole number of at most 2^53 - 1 (9007199254740991), ` +
      'which the route takes as a JSON integer',
    NOT_SENT,
  );
}

/** The body fields naming the order `PUT /fapi/v1/order` modifies: `order_id` (a JSON integer, see bodyId) or `client_order_id`. */
export function amendRef(order: string | number | OrderRef): { order_id: number } | { client_order_id: string } {
  const ref: OrderRef = typeof order === 'object' ? order : { orderId: order };
  return ref.clientOrderId !== undefined
    ? { client_order_id: ref.clientOrderId }
    : { order_id: bodyId('PUT /fapi/v1/order', 'order_id', ref.orderId) };
}

export function toQueryString(params: Query): string {
  return serializeQuery(params);
}

/** How a route is authorised: none, HMAC-signed, or by IP (bot, loopback admin routes). */
export type AuthKind = 'public' | 'signed';

export interface RequestOptions {
  query?: Query;
  /** JSON body; serialised once, and that exact text is signed and sent. */
  body?: unknown;
  /** A file's bytes sent as the body as they are, with this content type (not with `body`; never signed). */
  upload?: { bytes: Uint8Array | Blob; type: string };
  auth?: AuthKind;
  /** This request's time-out, ms, instead of the client's `timeoutMs` (0 or Infinity: none). */
  timeoutMs?: number;
}

/** What signs a request: the credentials (undefined: none), the `recv_window` option and the timestamp source. */
interface Signer {
  apiKey: string | undefined;
  apiSecret: string | undefined;
  recvWindow: number | undefined;
  timestamp: () => number;
}

/**
 * Why `baseUrl` is no address to send a request to (undefined when it is one): it must be an
 * http:// or https:// URL. Without the scheme (`localhost:8787`) or with ws:// the fetch failed
 * as if the service were down ("Cannot reach the service at null: fetch failed").
 */
function baseUrlProblem(baseUrl: string): string | undefined {
  let scheme: string | undefined;
  try {
    scheme = new URL(baseUrl).protocol;
  } catch {
    scheme = undefined;
  }
  if (scheme === 'http:' || scheme === 'https:') return undefined;
  return `baseUrl '${baseUrl}' is not an http:// or https:// URL; give the service's address, such as http://127.0.0.1:8787`;
}

/**
 * Writes one request out: its URL (`baseUrl`, the path and the query string, signed last for a
 * signed route), the body's JSON text (serialised once: the text signed is the text sent) and
 * the headers. Throws, so that nothing is sent, a PerpdeskApiError of code CLIENT_ERROR when a
 * signed route has no credentials (NO_CREDENTIALS) or the request cannot be written (NOT_SENT:
 * `baseUrl` is no http(s) URL, a query or body number is not finite, ...).
 */
export function writeRequest(
  method: string,
  baseUrl: string,
  path: string,
  options: RequestOptions,
  signer: Signer,
): {
  url: string;
  headers: Record<string, string>;
  bodyText: string | undefined;
  bytes: Uint8Array<ArrayBuffer> | Blob | undefined;
} {
  const headers: Record<string, string> = {};
  let bodyText: string | undefined;
  let qs: string;
  try {
    const bad = baseUrlProblem(baseUrl);
    if (bad !== undefined) throw new Error(bad);
    if (options.upload !== undefined && (options.body !== undefined || options.auth === 'signed'))
      throw new Error('an upload is the whole body and is not signed');
    bodyText = options.body === undefined ? undefined : JSON.stringify(options.body, finiteOnly);
    if (options.auth === 'signed') {
      if (!signer.apiKey || !signer.apiSecret)
        throw new PerpdeskApiError(CLIENT_ERROR, 'No API key: log in first', NO_CREDENTIALS);
      const params: Query = { ...(options.query ?? {}), timestamp: signer.timestamp() };
      if (signer.recvWindow !== undefined) params.recv_window = signer.recvWindow;
      qs = buildSignedQuery(params, signer.apiSecret, bodyText);
      headers['X-API-KEY'] = signer.apiKey;
    } else {
      qs = serializeQuery(options.query ?? {});
    }
  } catch (err) {
    if (err instanceof PerpdeskApiError) throw err;
    const why = err instanceof Error ? err.message : String(err);
    throw new PerpdeskApiError(CLIENT_ERROR, `${method} ${path} was not sent: ${why}`, NOT_SENT);
  }
  if (bodyText !== undefined) headers['Content-Type'] = 'application/json';
  if (options.upload !== undefined) headers['Content-Type'] = options.upload.type;
  const url = `${baseUrl}${path}${qs ? `?${qs}` : ''}`;
  return { url, headers, bodyText, bytes: sendable(options.upload?.bytes) };
}

/**
 * JSON.stringify's replacer for a body: a number that is NaN or infinite, which JSON.stringify
 * would send as `null` (to the service a null, or a removal where a field takes null), throws.
 */
function finiteOnly(key: string, value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value))
    throw new TypeError(`body field ${key === '' ? '(the body itself)' : key} is not finite: ${value}`);
  return value;
}

/**
 * Bytes fetch takes as a body: a Uint8Array over an ArrayBuffer as it is, one over another buffer
 * (a SharedArrayBuffer; TypeScript types a plain `Uint8Array` so) copied into one.
 */
function sendable(bytes: Uint8Array | Blob | undefined): Uint8Array<ArrayBuffer> | Blob | undefined {
  if (bytes === undefined || bytes instanceof Blob) return bytes;
  return bytes.buffer instanceof ArrayBuffer ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes);
}

/** One HTTP exchange as it went over the wire. */
export interface RawExchange {
  method: string;
  /** Full URL including the signed query string. */
  url: string;
  /** The body text as sent, if any (undefined for an upload's bytes too). */
  requestBody: string | undefined;
  /** HTTP status; 0 when the request never got an answer (`networkError` says why). */
  status: number;
  /** The answer's headers, names in lower case (`retry-after`, `content-type`, ...); absent without an answer. */
  headers?: Record<string, string>;
  /** The answer's text. */
  text: string;
  /** The answer parsed as JSON; undefined when it is not JSON. */
  json: unknown;
  /** Round-trip time, ms. */
  elapsedMs: number;
  networkError?: string;
  /** The answer did not come within the time-out (`networkError` says how long): the request may have been applied. */
  timedOut?: boolean;
  /**
   * The connection closed after the request went out, before its answer (`networkError` says how):
   * the request may have been applied, as after a time-out.
   */
  connectionLost?: boolean;
}

/**
 * Codes of a fetch failure's cause (Node's fetch, undici) when the connection was open and closed
 * before the answer: the request, or part of it, was sent. A failure to connect (ECONNREFUSED,
 * ENOTFOUND, ...) sent nothing; a browser's fetch says neither (a TypeError without a cause).
 */
const LOST_AFTER_CONNECTING = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

/** The cause of a fetch failure when it is a connection lost after connecting, else undefined. */
function lostConnection(err: unknown): string | undefined {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (typeof cause !== 'object' || cause === null || typeof cause.code !== 'string') return undefined;
  if (!LOST_AFTER_CONNECTING.has(cause.code)) return undefined;
  return typeof cause.message === 'string' && cause.message !== '' ? cause.message : cause.code;
}

/** Raised when a request's time-out passes, so that the exchange is recorded as timed out. */
class TimedOut extends Error {}

/**
 * Runs `work` (the fetch and the reading of its answer) under a time-out of `ms` (none when it is
 * 0 or not finite): past it the fetch is aborted and TimedOut thrown, whether or not the injected
 * fetch heeds the abort.
 */
async function withinTimeout<T>(ms: number, work: (signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
  if (!(ms > 0 && Number.isFinite(ms))) return work(undefined);
  const ctrl = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const e = new TimedOut(`no answer in ${ms} ms`);
      reject(e);
      ctrl.abort(e);
    }, ms);
  });
  try {
    return await Promise.race([work(ctrl.signal), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Sends one written request and records the exchange: status, headers and text of the answer
 * (parsed when it is JSON), or the network failure or time-out (status 0). Never throws.
 */
export async function exchange(
  fetchFn: typeof fetch,
  now: () => number,
  req: {
    method: string;
    url: string;
    headers: Record<string, string>;
    bodyText: string | undefined;
    bytes?: Uint8Array<ArrayBuffer> | Blob;
    /** ms; 0 or Infinity: none. */
    timeoutMs: number;
  },
): Promise<RawExchange> {
  const { method, url, headers, bodyText, bytes } = req;
  const started = now();
  const out: RawExchange = { method, url, requestBody: bodyText, status: 0, text: '', json: undefined, elapsedMs: 0 };
  try {
    const answer = await withinTimeout(req.timeoutMs, async (signal) => {
      const res = await fetchFn(url, { method, headers, body: bodyText ?? bytes, signal });
      return { res, text: await res.text() };
    });
    out.status = answer.res.status;
    out.headers = Object.fromEntries(answer.res.headers.entries());
    out.text = answer.text;
    try {
      out.json = JSON.parse(out.text);
    } catch {
      // not JSON (a proxy's page, an empty body): `text` has it as it came
      out.json = undefined;
    }
  } catch (err) {
    out.networkError = err instanceof Error ? err.message : String(err);
    if (err instanceof TimedOut) out.timedOut = true;
    const lost = lostConnection(err);
    if (lost !== undefined) {
      out.connectionLost = true;
      out.networkError = `${out.networkError} (${lost})`;
    }
  }
  out.elapsedMs = now() - started;
  return out;
}
