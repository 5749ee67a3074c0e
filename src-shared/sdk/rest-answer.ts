// What a REST answer means: the `data` of an envelope, a bare body (klines), or the API's
// error as PerpdeskApiError. An answer that is neither, or no answer at all, is an error of
// code CLIENT_ERROR; nothing here throws anything but PerpdeskApiError.
import type { Envelope } from '../errors.ts';
import { CLIENT_ERROR, NO_ANSWER, PerpdeskApiError, type RawExchange } from './rest-request.ts';

/** The envelope code of success; any other code is the API's error. */
const OK_CODE = 0;

function networkFailure(x: RawExchange): PerpdeskApiError {
  return new PerpdeskApiError(CLIENT_ERROR, `Cannot reach the service: ${x.networkError ?? 'no answer'}`, NO_ANSWER);
}

/** `data` of an envelope answer, or the API's error as PerpdeskApiError. */
export function unwrap<T>(x: RawExchange): T {
  if (x.networkError !== undefined) throw networkFailure(x);
  const env = x.json as Envelope<T> | undefined;
  if (typeof env !== 'object' || env === null || typeof env.code !== 'number') {
    throw new PerpdeskApiError(CLIENT_ERROR, `HTTP ${x.status}: the answer is not an envelope`, x.status);
  }
  if (env.code !== OK_CODE) throw new PerpdeskApiError(env.code, env.message, x.status);
  return env.data;
}

/** A bare success body (klines), or the route's `{code, message}` error as PerpdeskApiError. */
export function unwrapBare<T>(x: RawExchange, isSuccess: (body: unknown) => boolean): T {
  if (x.networkError !== undefined) throw networkFailure(x);
  const body = x.json;
  if (body !== undefined && isSuccess(body)) return body as T;
  const err = body as { code?: unknown; message?: unknown } | undefined;
  if (typeof err === 'object' && err !== null && typeof err.code === 'number') {
    throw new PerpdeskApiError(err.code, typeof err.message === 'string' ? err.message : 'error', x.status);
  }
  throw new PerpdeskApiError(CLIENT_ERROR, `HTTP ${x.status}: unexpected answer`, x.status);
}
