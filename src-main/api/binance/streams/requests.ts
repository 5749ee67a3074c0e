// A client's control message on the facade's streams (reference a.4), read as Binance reads it:
// `{"method", "params", "id"}` with method SUBSCRIBE, UNSUBSCRIBE, LIST_SUBSCRIPTIONS,
// SET_PROPERTY or GET_PROPERTY and id an unsigned integer. Anything else is Binance's error
// answer `{"error":{"code","msg"},"id"}` with its codes and texts (USD-M "Live Subscribing /
// Unsubscribing to streams", error messages):
//   0 `Unknown property` (SET_PROPERTY / GET_PROPERTY of a property other than `combined`),
//   1 `Invalid value type: expected Boolean` (SET_PROPERTY's value),
//   2 `Invalid request: …` (missing or unknown method, id not an unsigned integer, property name not a
//     string, too many parameters, params not a list, an unknown stream),
// A SUBSCRIBE / UNSUBSCRIBE parameter is a stream name or a listenKey (the hub checks the key).
//   3 `Invalid JSON: …` (a frame that is not JSON text).
// The id comes back when it could be read, else null. Pure: the hub (hub.ts) applies the request.
import { parseStream } from './events.ts';

/** Binance's limit of client messages a second on a connection (USD-M market streams, "general info"). */
export const MAX_MESSAGES_PER_SECOND = 10;

/** Binance's limit of streams a connection listens to (USD-M market streams, "general info"). */
export const MAX_STREAMS = 1024;

/** The stream paths under /binance (each also with a `/<streams>` tail: endpoints.ts). */
export const PATHS = [
  '/ws',
  '/stream',
  '/public/ws',
  '/public/stream',
  '/market/ws',
  '/market/stream',
  '/private/ws',
  '/private/stream',
];

/** The events of Binance's user data stream, those `events=` may name (some this venue never sends). */
const USER_EVENTS: ReadonlySet<string> = new Set([
  'listenKeyExpired',
  'ACCOUNT_UPDATE',
  'MARGIN_CALL',
  'ORDER_TRADE_UPDATE',
  'TRADE_LITE',
  'ACCOUNT_CONFIG_UPDATE',
  'STRATEGY_UPDATE',
  'GRID_UPDATE',
  'CONDITIONAL_ORDER_TRIGGER_REJECT',
  'ALGO_UPDATE',
]);

/**
 * Whether a name is a listenKey, not a stream: a user data stream is named by its key, in a path
 * (`ws/<listenKey>`) or in a SUBSCRIBE (Binance's own futures connector subscribes a user stream
 * so: `{"method":"SUBSCRIBE","params":["<listenKey>"]}`). Stream names have an `@` or a `!`.
 */
function isListenKeyName(s: string): boolean {
  return s.length >= 32 && s.length <= 128 && /^[A-Za-z0-9_-]+$/.test(s);
}

/**
 * What a stream URL under /binance names: its path, whether it is combined (`stream`: events come
 * as {stream, data}), the stream names of its tail and `?streams=`, its listenKey (`?listenKey=`
 * or the legacy `ws/<listenKey>`; other segments that name no stream, ccxt's opaque connection
 * index `public/ws/<n>`, are ignored, as Binance does) and the user events `events=A/B` asks for
 * (none: all of them, as ccxt connects). `refusal`: why the connection is closed (1008), checked
 * after the listenKey itself: a private path without a key could never send anything, and an
 * event Binance's user stream does not have would filter every event out.
 */
export function readStreamUrl(raw: string): {
  path: string;
  combined: boolean;
  names: string[];
  key: string | undefined;
  events: string[];
  refusal: string | undefined;
} {
  const url = new URL(raw, 'http://x');
  const path = url.pathname.replace(/^\/binance/, '');
  const base = PATHS.find((p) => path === p || path.startsWith(p + '/')) ?? '/ws';
  const tail = path.slice(base.length + 1);
  const names = [...(tail ? tail.split('/') : []), ...(url.searchParams.get('streams')?.split('/') ?? [])].filter(
    (s) => s !== '',
  );
  const key = url.searchParams.get('listenKey') ?? names.find(isListenKeyName);
  const events =
    url.searchParams
      .get('events')
      ?.split('/')
      .filter((e) => e !== '') ?? [];
  const unknown = key === undefined ? undefined : events.find((e) => !USER_EVENTS.has(e));
  const refusal =
    key === undefined && base.startsWith('/private/')
      ? 'A listenKey is required: /private/ws?listenKey=<listenKey>.'
      : unknown !== undefined
        ? `Unknown user event '${unknown.slice(0, 40)}' in events=.`
        : undefined;
  return { path, combined: /\/stream/.test(path), names, key, events, refusal };
}

const METHODS = ['SUBSCRIBE', 'UNSUBSCRIBE', 'LIST_SUBSCRIPTIONS', 'SET_PROPERTY', 'GET_PROPERTY'] as const;
const UNKNOWN_PROPERTY = 0;
const BAD_VALUE_TYPE = 1;
const INVALID_REQUEST = 2;
const INVALID_JSON = 3;

interface ErrorAnswer {
  error: { code: number; msg: string };
  id: number | null;
}

type Control =
  | { method: 'SUBSCRIBE' | 'UNSUBSCRIBE'; id: number; streams: string[] }
  | { method: 'LIST_SUBSCRIPTIONS' | 'GET_PROPERTY'; id: number }
  | { method: 'SET_PROPERTY'; id: number; combined: boolean };

function fail(code: number, msg: string, id: number | null): { error: ErrorAnswer } {
  return { error: { error: { code, msg }, id } };
}

const invalid = (why: string, id: number | null) => fail(INVALID_REQUEST, `Invalid request: ${why}`, id);

/**
 * A value shown in an error text, cut short (a frame may be 64 KiB). A value nested thousands of
 * levels deep (`[[[…]]]`, under 64 KiB) parses but overflows JSON.stringify's stack: it is named.
 */
function shown(v: unknown): string {
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    return 'a value nested too deeply to show';
  }
  return s.length > 64 ? `${s.slice(0, 64)}…` : s;
}

/** The request in a text frame (null: a binary frame), or Binance's error answer to it. */
export function readControl(text: string | null): Control | { error: ErrorAnswer } {
  if (text === null) return fail(INVALID_JSON, 'Invalid JSON: a binary frame; send the request as JSON text', null);
  let msg: unknown;
  try {
    msg = JSON.parse(text);
  } catch {
    return fail(INVALID_JSON, 'Invalid JSON: the message is not JSON', null);
  }
  if (typeof msg !== 'object' || msg === null || Array.isArray(msg))
    return invalid('expected a JSON object {"method":…,"params":[…],"id":<unsigned integer>}', null);
  const m = msg as { method?: unknown; params?: unknown; id?: unknown };
  const id = typeof m.id === 'number' && Number.isSafeInteger(m.id) && m.id >= 0 ? m.id : null;
  if (m.method === undefined) return invalid('missing field `method`', id);
  const method = METHODS.find((x) => x === m.method);
  if (method === undefined)
    return invalid(`unknown variant ${shown(m.method)}, expected one of ${METHODS.join(', ')}`, id);
  if (id === null) {
    // Binance reads ids as u64; a JSON number above 2^53 - 1 cannot come back as it was sent
    const big = typeof m.id === 'number' && Number.isInteger(m.id) && m.id > 0;
    return invalid(`request ID must be an unsigned integer${big ? ' of at most 9007199254740991' : ''}`, null);
  }
  // params, when sent, is a list (a lone stream name was acked and subscribed nothing)
  if (m.params != null && !Array.isArray(m.params)) return invalid('params must be an array', id);
  const params: unknown[] = Array.isArray(m.params) ? m.params : [];
  switch (method) {
    case 'SUBSCRIBE':
    case 'UNSUBSCRIBE': {
      const bad = params.find((p) => typeof p !== 'string' || (parseStream(p) === null && !isListenKeyName(p)));
      if (bad !== undefined) return invalid(`unknown stream ${shown(bad)}`, id);
      return { method, id, streams: params as string[] };
    }
    case 'LIST_SUBSCRIPTIONS':
      return params.length > 0 ? invalid('too many parameters', id) : { method, id };
    case 'SET_PROPERTY':
    case 'GET_PROPERTY': {
      const max = method === 'SET_PROPERTY' ? 2 : 1;
      if (typeof params[0] !== 'string') return invalid('property name must be a string', id);
      if (params.length > max) return invalid('too many parameters', id);
      if (params[0] !== 'combined') return fail(UNKNOWN_PROPERTY, 'Unknown property', id);
      if (method === 'GET_PROPERTY') return { method, id };
      if (typeof params[1] !== 'boolean') return fail(BAD_VALUE_TYPE, 'Invalid value type: expected Boolean', id);
      return { method, id, combined: params[1] };
    }
  }
}
