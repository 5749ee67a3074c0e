// What the venue's answers say about its store, for the top bar (connection-status.ts
// storeView). Two states stop changes, and a trader must see why wherever the answer came from
// (an order, the account's background refresh, a cancel), not only under the order form:
//   - 'failed': a store commit failed (a full disk, another program holding the write lock). The
//     failed batch was answered 5000 and every later change, and every read of an account it
//     touched, is answered 5001; each of them ends with the cause and what to do
//     (src-shared/errors.ts STORE_FAILED). It ends only with a restart of the venue, so it is
//     kept until the page is loaded again. 5001 also answers other things (a replay closing, a
//     service shutting down): only the store failure's own messages count.
//   - 'full': the disk guard refuses changes (503 / 5002, the free space in the message); reads go
//     on, and it ends by itself once there is room. It is cleared by the next change the venue
//     accepts (code 0): the guard stands before every change, so an accepted one is the proof that
//     there is room again. A successful poll is not: the guard lets every read through while the
//     disk is full. The 5002's message says to free space and retry; the retry clears it.
// Every REST answer passes through watchedRestClient (services.ts builds the screen's one client
// with it), and the WebSocket clients' error sinks pass theirs through wsAnswer. Pure but for
// that client: no DOM.
import { Errors, STORE_FAILED } from '../../../src-shared/errors.ts';
import {
  RestClient,
  type RawExchange,
  type RequestOptions,
  type RestClientOptions,
} from '../../../src-shared/sdk/rest-client.ts';
import { WsRequestError } from '../../../src-shared/sdk/ws-client.ts';

export type StoreStatus =
  | { kind: 'ok' }
  /** `cause`: the failure's cause and what to do, as the venue said it (without its prefix). */
  | { kind: 'failed'; cause: string }
  /** `message`: the venue's 5002 message (the folder, the free space, what to do). */
  | { kind: 'full'; message: string };

/** One answer of the venue, as far as the store is concerned. */
export interface VenueAnswer {
  code: number;
  message: string;
  /** A request that changes something (what the disk guard refuses), not a read or the login. */
  change: boolean;
}

export const STORE_OK: StoreStatus = { kind: 'ok' };

const FAILED_PREFIXES: Record<number, readonly string[]> = {
  [Errors.INTERNAL.code]: [STORE_FAILED.batch],
  [Errors.SERVICE_UNAVAILABLE.code]: [STORE_FAILED.change, STORE_FAILED.account],
};

/** The cause a store failure's answer carries (its message without the prefix), or null for any other answer. */
export function storeFailureCause(code: number, message: string): string | null {
  const prefix = FAILED_PREFIXES[code]?.find((p) => message.startsWith(p));
  return prefix === undefined ? null : message.slice(prefix.length);
}

/** The store's state after `a`: a failure is kept for good, a full disk until a change is accepted. */
export function nextStoreStatus(prev: StoreStatus, a: VenueAnswer): StoreStatus {
  if (prev.kind === 'failed') return prev;
  const cause = storeFailureCause(a.code, a.message);
  if (cause !== null) return { kind: 'failed', cause };
  if (a.code === Errors.STORAGE_FULL.code)
    return prev.kind === 'full' && prev.message === a.message ? prev : { kind: 'full', message: a.message };
  if (prev.kind === 'full' && a.change && a.code === 0) return STORE_OK;
  return prev;
}

/** The methods the disk guard lets through (reads), and the login it lets through too. */
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const LOGIN_PATH = '/api/v1/session';

/** A REST exchange as a VenueAnswer; null when the venue gave no `{code, message}` (a bare success, no answer). */
export function restAnswer(x: RawExchange): VenueAnswer | null {
  const j = x.json as { code?: unknown; message?: unknown } | null | undefined;
  if (typeof j !== 'object' || j === null || typeof j.code !== 'number') return null;
  let path: string;
  try {
    path = new URL(x.url).pathname;
  } catch {
    path = x.url;
  }
  return {
    code: j.code,
    message: typeof j.message === 'string' ? j.message : '',
    change: !READ_METHODS.has(x.method.toUpperCase()) && !path.startsWith(LOGIN_PATH),
  };
}

/** A WebSocket error (a sink's) as a VenueAnswer; null unless the venue answered a request with a code. */
export function wsAnswer(err: unknown): VenueAnswer | null {
  if (!(err instanceof WsRequestError) || err.code === undefined) return null;
  return { code: err.code, message: err.message, change: false };
}

/**
 * The screen's REST client: every exchange's answer is handed to `watch` before the caller sees it.
 * `timeoutOf` gives a request's time-out where the caller set none (undefined: the client's).
 */
export function watchedRestClient(
  opts: RestClientOptions,
  watch: (a: VenueAnswer) => void,
  timeoutOf: (method: string) => number | undefined = () => undefined,
): RestClient {
  return new (class extends RestClient {
    override async request(method: string, path: string, options?: RequestOptions): Promise<RawExchange> {
      const timeoutMs = options?.timeoutMs ?? timeoutOf(method);
      const x = await super.request(method, path, timeoutMs === undefined ? options : { ...options, timeoutMs });
      const a = restAnswer(x);
      if (a !== null) watch(a);
      return x;
    }
  })(opts);
}
