// What a REST answer means: the `data` of an envelope, a bare body (klines), or the API's
// error as PerpdeskApiError. An answer that is neither, or no answer at all, is an error of
// code CLIENT_ERROR; nothing here throws anything but PerpdeskApiError.
import type { Envelope } from '../errors.ts';
import { CLIENT_ERROR, NO_ANSWER, PerpdeskApiError, type RawExchange } from './rest-request.ts';

/** The envelope code of success; any other code is the API's error. */
const OK_CODE = 0;

/** The scheme, host and port a request went to (never its signed query). */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** The route of a request (its path, without the signed query). */
function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

function networkFailure(x: RawExchange): PerpdeskApiError {
  if (x.timedOut === true)
    return new PerpdeskApiError(
      CLIENT_ERROR,
      `${x.method} ${pathOf(x.url)}: the service at ${originOf(x.url)} gave no answer (${x.networkError ?? 'time-out'}); ` +
        'the request may have been applied: read the state back before sending it again',
      NO_ANSWER,
      undefined,
      true,
    );
  if (x.connectionLost === true)
    return new PerpdeskApiError(
      CLIENT_ERROR,
      `${x.method} ${pathOf(x.url)}: the connection to the service at ${originOf(x.url)} closed before its answer ` +
        `(${x.networkError ?? 'connection lost'}); the request may have been applied: read the state back before sending it again`,
      NO_ANSWER,
      undefined,
      'connection-lost',
    );
  return new PerpdeskApiError(
    CLIENT_ERROR,
    `Cannot reach the service at ${originOf(x.url)}: ${x.networkError ?? 'no answer'}; is the service running, and is this its address?`,
    NO_ANSWER,
  );
}

/** HTTP statuses of a service that is not there to answer (bad gateway, unavailable, timeout). */
const UNAVAILABLE = new Set([502, 503, 504]);

/**
 * An answer that is not the API's (the HTTP server's own 503 while the service shuts down, a
 * proxy's error page): said plainly, with its status, and the body's message where it has one.
 */
function foreignAnswer(x: RawExchange): PerpdeskApiError {
  if (UNAVAILABLE.has(x.status))
    return new PerpdeskApiError(
      CLIENT_ERROR,
      `The service is unavailable (HTTP ${x.status})`,
      x.status,
      retryAfterMs(x),
    );
  const body = x.json as { message?: unknown } | undefined;
  const said = typeof body === 'object' && body !== null && typeof body.message === 'string' ? `: ${body.message}` : '';
  return new PerpdeskApiError(CLIENT_ERROR, `Unexpected answer from the service (HTTP ${x.status})${said}`, x.status);
}

/** The answer's `Retry-After` (delay seconds, or an HTTP date) as ms from now; undefined without one. */
function retryAfterMs(x: RawExchange): number | undefined {
  const v = x.headers?.['retry-after']?.trim();
  if (v === undefined || v === '') return undefined;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** The API's error of an answer: its code and message, the HTTP status, and any Retry-After. */
const apiError = (x: RawExchange, code: number, message: string): PerpdeskApiError =>
  new PerpdeskApiError(code, message, x.status, retryAfterMs(x));

/** `data` of an envelope answer, or the API's error as PerpdeskApiError. */
export function unwrap<T>(x: RawExchange): T {
  if (x.networkError !== undefined) throw networkFailure(x);
  const env = x.json as Envelope<T> | undefined;
  if (typeof env !== 'object' || env === null || typeof env.code !== 'number') {
    throw foreignAnswer(x);
  }
  if (env.code !== OK_CODE) throw apiError(x, env.code, env.message);
  return env.data;
}

/** A bare success body (klines), or the route's `{code, message}` error as PerpdeskApiError. */
export function unwrapBare<T>(x: RawExchange, isSuccess: (body: unknown) => boolean): T {
  if (x.networkError !== undefined) throw networkFailure(x);
  const body = x.json;
  if (body !== undefined && isSuccess(body)) return body as T;
  const err = body as { code?: unknown; message?: unknown } | undefined;
  if (typeof err === 'object' && err !== null && typeof err.code === 'number') {
    throw apiError(x, err.code, typeof err.message === 'string' ? err.message : 'error');
  }
  throw foreignAnswer(x);
}
