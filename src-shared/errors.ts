// The one error-code registry of the API (DESIGN section 4).
//
// Envelope routes answer `{code, message, data: null}` with the HTTP status of the code's class.
// The candlestick routes are the spec's exception: HTTP 200 always, body `{code, message}`,
// 6000-6999 client errors, 7000-7999 server errors. `/fapi/v1/complete_price` uses the spec's
// 7000 (invalid parameter), 7001 (pair not found) and 7002 (internal).
//
// Codes are stable: never renumber one, only add.

export type ErrorClass =
  'validation' | 'not_found' | 'auth' | 'forbidden' | 'order_rejected' | 'rate_limit' | 'internal' | 'klines' | 'price';

export interface ErrorDef {
  readonly code: number;
  /** HTTP status the envelope is sent with. */
  readonly http: number;
  readonly cls: ErrorClass;
  /** Default message; a route may send a more precise one with the same code. */
  readonly message: string;
}

function def(code: number, http: number, cls: ErrorClass, message: string): ErrorDef {
  return { code, http, cls, message };
}

export const Errors = {
  // 1000-1099: the request itself is malformed (HTTP 400)
  BAD_REQUEST: def(1000, 400, 'validation', 'Malformed request'),
  INVALID_PARAMETER: def(1001, 400, 'validation', 'Invalid parameter'),
  MISSING_PARAMETER: def(1002, 400, 'validation', 'Missing required parameter'),
  UNKNOWN_PARAMETER: def(1003, 400, 'validation', 'Unknown parameter'),
  INVALID_JSON: def(1004, 400, 'validation', 'Request body is not valid JSON'),
  BODY_TOO_LARGE: def(1005, 400, 'validation', 'Request body is too large'),
  UNSUPPORTED_MEDIA_TYPE: def(1006, 400, 'validation', 'Content-Type must be application/json'),
  // refused before routing, with the HTTP status that names the cause
  URI_TOO_LONG: def(1007, 414, 'validation', 'Request URL is too long'),
  HEADERS_TOO_LARGE: def(1008, 431, 'validation', 'Request headers are too large'),
  REQUEST_TIMEOUT: def(1009, 408, 'validation', 'The request did not arrive in time'),
  REPLAY_LIMIT: def(1010, 400, 'validation', 'Too many replays running; close one first'),
  DATASET_IN_USE: def(1011, 400, 'validation', 'A running replay reads this dataset; close the replay first'),

  // 1100-1199: the thing asked for does not exist (HTTP 404)
  ROUTE_NOT_FOUND: def(1100, 404, 'not_found', 'No such route'),
  SYMBOL_NOT_FOUND: def(1101, 404, 'not_found', 'Unknown symbol'),
  ORDER_NOT_FOUND: def(1102, 404, 'not_found', 'Order not found'),
  POSITION_NOT_FOUND: def(1103, 404, 'not_found', 'Position not found'),
  ACCOUNT_NOT_FOUND: def(1104, 404, 'not_found', 'Account not found'),
  METHOD_NOT_ALLOWED: def(1105, 405, 'not_found', 'Method not allowed on this route'),
  DATASET_NOT_FOUND: def(1106, 404, 'not_found', 'Dataset not found'),
  REPLAY_NOT_FOUND: def(1107, 404, 'not_found', 'Replay not found'),
  NOT_A_REPLAY: def(1108, 404, 'not_found', 'This venue is not a replay'),
  SWEEP_NOT_FOUND: def(1109, 404, 'not_found', 'Sweep not found'),

  // 2000-2099: authentication (HTTP 401)
  API_KEY_MISSING: def(2001, 401, 'auth', 'Missing X-API-KEY header'),
  API_KEY_UNKNOWN: def(2002, 401, 'auth', 'Unknown API key'),
  SIGNATURE_MISSING: def(2003, 401, 'auth', 'Missing signature parameter'),
  SIGNATURE_INVALID: def(2004, 401, 'auth', 'Signature does not match'),
  TIMESTAMP_MISSING: def(2005, 401, 'auth', 'Missing or malformed timestamp parameter'),
  TIMESTAMP_STALE: def(2006, 401, 'auth', 'Timestamp is older than recv_window'),
  TIMESTAMP_IN_FUTURE: def(2007, 401, 'auth', 'Timestamp is more than 1000 ms ahead of server time'),
  RECV_WINDOW_INVALID: def(2008, 401, 'auth', 'recv_window must be an integer from 1 to 60000'),
  SIGNATURE_NOT_LAST: def(2009, 401, 'auth', 'signature must be the last query parameter'),
  TOKEN_INVALID: def(2010, 401, 'auth', 'Login token is invalid or already used'),

  // 2100-2199: authenticated but not allowed (HTTP 403)
  IP_NOT_WHITELISTED: def(2101, 403, 'forbidden', 'Caller IP is not on the bot whitelist'),
  LOOPBACK_ONLY: def(2102, 403, 'forbidden', 'This route answers loopback callers only'),
  HOST_NOT_ALLOWED: def(2103, 403, 'forbidden', 'The Host header names another site (DNS rebinding guard)'),
  REPLAY_HELD: def(2104, 403, 'forbidden', 'Another client holds the replay clock (lockstep)'),

  // 3000-3099: order and position rejections (HTTP 400)
  SYMBOL_NOT_TRADING: def(3001, 400, 'order_rejected', 'Symbol is not trading'),
  MARKET_NOT_ALLOWED: def(3002, 400, 'order_rejected', 'Market orders are not allowed on this symbol'),
  PRICE_OFF_TICK: def(3003, 400, 'order_rejected', 'Price is not a multiple of the tick size'),
  QTY_OFF_STEP: def(3004, 400, 'order_rejected', 'Quantity is not a multiple of the step size'),
  QTY_BELOW_MIN: def(3005, 400, 'order_rejected', 'Quantity is below the minimum'),
  QTY_ABOVE_MAX: def(3006, 400, 'order_rejected', 'Quantity is above the maximum'),
  NOTIONAL_BELOW_MIN: def(3007, 400, 'order_rejected', 'Order notional is below the minimum'),
  PRICE_OUTSIDE_BAND: def(3008, 400, 'order_rejected', 'Price is outside the price-protection band'),
  INSUFFICIENT_MARGIN: def(3009, 400, 'order_rejected', 'Insufficient available margin'),
  REDUCE_ONLY_REJECTED: def(3010, 400, 'order_rejected', 'Reduce-only order would not reduce a position'),
  DUPLICATE_CLIENT_ORDER_ID: def(3011, 400, 'order_rejected', 'client_order_id is already used by a live order'),
  POSITION_SIDE_MISMATCH: def(3012, 400, 'order_rejected', 'position_side does not fit the account position mode'),
  LEVERAGE_INVALID: def(3013, 400, 'order_rejected', 'Leverage is outside the allowed range'),
  MARGIN_MODE_CHANGE_REFUSED: def(
    3014,
    400,
    'order_rejected',
    'Margin mode cannot change while a position or open order exists',
  ),
  POSITION_MODE_CHANGE_REFUSED: def(
    3015,
    400,
    'order_rejected',
    'Position mode cannot change while a position or open order exists',
  ),
  PRICE_REQUIRED: def(3016, 400, 'order_rejected', 'price is required for limit orders'),
  PRICE_NOT_ALLOWED: def(3017, 400, 'order_rejected', 'price must not be sent with market orders'),
  NO_POSITION_TO_CLOSE: def(3018, 400, 'order_rejected', 'No position to close'),
  ORDER_NOT_CANCELLABLE: def(3019, 400, 'order_rejected', 'Order is no longer open'),
  // reserved, never sent: a market order that meets no liquidity within its band is not refused,
  // it expires (status 6); the registry in the OpenAPI document says so
  NO_LIQUIDITY: def(3020, 400, 'order_rejected', 'Reserved, never sent: a market order with no liquidity expires'),
  TOO_MANY_OPEN_ORDERS: def(3021, 400, 'order_rejected', 'Too many open orders'),
  POST_ONLY_WOULD_TAKE: def(3022, 400, 'order_rejected', 'Post-only (GTX) order would take liquidity'),
  FOK_NOT_FILLABLE: def(3023, 400, 'order_rejected', 'Fill-or-kill (FOK) order cannot fill completely'),
  MARGIN_NOT_ISOLATED: def(3024, 400, 'order_rejected', 'Margin can be added or removed only on an isolated position'),
  MARGIN_REMOVE_TOO_LARGE: def(
    3025,
    400,
    'order_rejected',
    'The amount exceeds the margin the isolated position can release',
  ),
  TRIGGER_ALREADY_REACHED: def(
    3026,
    400,
    'order_rejected',
    'The watched price is already at or past the trigger price: the conditional order would fire at once',
  ),
  TOO_MANY_CONDITIONAL_ORDERS: def(3027, 400, 'order_rejected', 'Too many waiting conditional orders'),

  // 4290: rate limits (HTTP 429)
  RATE_LIMITED: def(4290, 429, 'rate_limit', 'Too many requests'),

  // 5000-5099: the service failed (HTTP 500)
  INTERNAL: def(5000, 500, 'internal', 'Internal error'),
  SERVICE_UNAVAILABLE: def(5001, 500, 'internal', 'Service is starting or shutting down'),
  STORAGE_FULL: def(
    5002,
    503,
    'internal',
    'The disk of the data folder is nearly full; changes are refused until there is room',
  ),

  // 6000-6999 / 7000-7999: candlestick routes (HTTP 200 always)
  KLINES_INVALID_PARAMETER: def(6000, 200, 'klines', 'Invalid parameter'),
  KLINES_INVALID_INTERVAL: def(6001, 200, 'klines', 'Invalid interval'),
  KLINES_SYMBOL_NOT_FOUND: def(6002, 200, 'klines', 'Unknown symbol'),
  KLINES_TIME_RANGE_RULE: def(
    6003,
    200,
    'klines',
    'start_time and end_time must be given together and never with limit',
  ),
  KLINES_LIMIT_OUT_OF_RANGE: def(6004, 200, 'klines', 'limit must be an integer from 1 to 1500'),
  KLINES_TOO_MANY_SYMBOLS: def(6005, 200, 'klines', 'At most 20 symbols per batch'),
  KLINES_MISSING_PARAMETER: def(6006, 200, 'klines', 'Missing required parameter'),
  KLINES_URI_TOO_LONG: def(6007, 200, 'klines', 'Request URL is too long'),
  KLINES_INTERNAL: def(7000, 200, 'klines', 'Internal error'),

  // complete_price (spec codes; HTTP status by class)
  PRICE_INVALID_PARAMETER: def(7000, 400, 'price', 'Invalid parameter'),
  // the spec gives complete_price no other client code: an over-long URL is 7000 too, with the
  // HTTP status of its cause, as every envelope route answers it (1007 there)
  PRICE_URI_TOO_LONG: def(7000, 414, 'price', 'Request URL is too long'),
  PRICE_PAIR_NOT_FOUND: def(7001, 404, 'price', 'Trading pair not found'),
  PRICE_INTERNAL: def(7002, 500, 'price', 'Internal error'),
} as const;

export type ErrorName = keyof typeof Errors;

/**
 * How the answers after a failed store commit begin; the failure's cause and what to do follow
 * (store/write-failure.ts). `batch`: the 5000 of the failed batch's own requests; `change`: the
 * 5001 of every change after it; `account`: the 5001 of a read of an account the batch touched.
 * The trading screen keys its "Changes cannot be stored" banner on them (lib/store-status.ts),
 * as 5001 also answers other things (a replay closing, a service shutting down).
 */
export const STORE_FAILED = {
  batch: 'Storing the command failed, nothing of it is stored: ',
  change: 'The venue takes no changes until it restarts: ',
  account: "This account's last changes could not be stored, so it cannot be shown until the venue restarts: ",
} as const;

/** The success envelope's message. */
export const SUCCESS_MESSAGE = 'success';

export interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

/** Which cause of its code a refusal is (ApiError.reason). */
export type RefusalReason = 'position' | 'open_orders' | 'not_positive' | 'too_large' | 'no_change';

/** An error the API layer turns into an envelope. Thrown by services and routes. */
export class ApiError extends Error {
  readonly def: ErrorDef;
  readonly detail: string;
  /**
   * Which of the code's causes it is, where a dialect tells them apart (3014 / 3015: 'position'
   * or 'open_orders', Binance's -4048 / -4047 and -4068 / -4067; 1001 for an order's quantity or
   * price: 'not_positive' or 'too_large', Binance's -4003 / -4005 and -4001 / -4002; 1001 for a
   * modification that leaves the order as it rests: 'no_change', Binance's -5027). Not on the
   * wire natively.
   */
  readonly reason?: RefusalReason;
  /**
   * The input field a 1001 / 1002 is about, when `detail` is that name, a space and the rule
   * (`qty must be greater than zero (got '0')`). The checks that raise it (src-main/trading) do not
   * know where the field was sent; the native REST transport does, and words the message
   * `Invalid body parameter 'qty': must be ...` (api/error-handler.ts). Not on the wire.
   */
  readonly param?: string;
  constructor(def: ErrorDef, detail?: string, reason?: RefusalReason, param?: string) {
    super(detail ?? def.message);
    this.def = def;
    this.detail = detail ?? def.message;
    if (reason !== undefined) this.reason = reason;
    if (param !== undefined) this.param = param;
  }
  get code(): number {
    return this.def.code;
  }
  get http(): number {
    return this.def.http;
  }
}

export function errorByCode(code: number): ErrorDef | undefined {
  for (const d of Object.values(Errors)) if (d.code === code && d.cls !== 'price') return d;
  return undefined;
}
