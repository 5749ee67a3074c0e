// Binance's error answers for the facade: `{code, msg}` with Binance's negative codes and the
// exact message texts clients match (ccxt maps some by message before code), and the table that
// turns a native ApiError into one. Invariant: every error leaving /binance goes through
// binanceErrorOf, so a native envelope never reaches a Binance client.
import { ApiError, Errors, type ErrorDef, type RefusalReason } from '../../../src-shared/errors.ts';
import { PATTERNS } from './schemas.ts';

/** An error already in Binance's terms. */
export class BinanceError extends Error {
  readonly code: number;
  readonly http: number;
  constructor(code: number, msg: string, http = 400) {
    super(msg);
    this.code = code;
    this.http = http;
  }
}

/** The message texts clients match exactly (reference a.1, a.5, d.2 item 7). */
export const MSG = {
  UNKNOWN: 'An unknown error occured while processing the request.',
  TOO_MANY_REQUESTS:
    'Too many requests; current limit is exceeded. Please use the websocket for live updates to avoid polling the API.',
  TIMESTAMP: 'Timestamp for this request is outside of the recvWindow.',
  TIMESTAMP_AHEAD: "Timestamp for this request was 1000ms ahead of the server's time.",
  SIGNATURE: 'Signature for this request is not valid.',
  KEY_FORMAT: 'API-key format invalid.',
  KEY_INVALID: 'Invalid API-key, IP, or permissions for action.',
  RECV_WINDOW: 'recvWindow must be less than 60000',
  INVALID_SYMBOL: 'Invalid symbol.',
  ORDER_NOT_EXIST: 'Order does not exist.',
  UNKNOWN_ORDER: 'Unknown order sent.',
  INVALID_ORDER_TYPE: 'Invalid orderType.',
  TICK: 'Price not increased by tick size.',
  PRECISION: 'Precision is over the maximum defined for this asset.',
  MARGIN: 'Margin is insufficient.',
  LEVERAGE_MARGIN: 'Leverage is smaller than permitted: insufficient margin balance.',
  REDUCE_ONLY: 'ReduceOnly Order is rejected.',
  DUP_CLIENT_ID: 'ClientOrderId is duplicated.',
  POSITION_SIDE: "Order's position side does not match user's setting.",
  MAX_OPEN: 'Reach max open order limit.',
  NO_MARGIN_CHANGE: 'No need to change margin type.',
  NO_POSITION_SIDE_CHANGE: 'No need to change position side.',
  NO_ASSET_MODE_CHANGE: 'Adjusted asset mode is currently set and does not need to be adjusted.',
  NO_MODIFY: 'No need to modify the order.',
  POST_ONLY: 'Due to the order could not be executed as maker, the Post Only order will be rejected.',
  FOK: 'Due to the order could not be filled immediately, the FOK order has been rejected.',
  LISTEN_KEY: 'This listenKey does not exist.',
  SUCCESS: 'success',
} as const;

/** A parameter's schema, as far as its legal range goes (a route schema's property). */
export interface ParamRule {
  type?: unknown;
  pattern?: unknown;
  enum?: unknown;
  minimum?: unknown;
  maximum?: unknown;
}

/** The legal range of parameters refused outside a route schema (signing, batch entries, native refusals). */
const LEGAL: Record<string, string> = {
  quantity: PATTERNS.decimal,
  price: PATTERNS.decimal,
  newClientOrderId: PATTERNS.clientId,
  origClientOrderId: PATTERNS.clientId,
  symbol: PATTERNS.symbol,
  side: 'BUY, SELL',
  timestamp: '0 to 999999999999999',
  recvWindow: '1 to 60000',
  signature: '^[0-9a-fA-F]{64}$',
  dualSidePosition: 'true, false',
};

/**
 * What a parameter takes, as Binance's messages name it: the pattern of a text, the values of an
 * enumeration, the bounds of an integer ("1 to 1000"); from the route's schema when there is one.
 */
export function legalRange(name: string, rule?: ParamRule): string | undefined {
  if (typeof rule?.pattern === 'string') return rule.pattern;
  if (Array.isArray(rule?.enum)) return rule.enum.join(', ');
  if (rule?.type === 'integer' && typeof rule.minimum === 'number' && typeof rule.maximum === 'number')
    return `${rule.minimum} to ${rule.maximum}`;
  return LEGAL[name];
}

const rangeText = (range: string | undefined) => (range === undefined ? '' : `; legal range is '${range}'`);

export const mandatory = (name: string, range = LEGAL[name]) =>
  new BinanceError(
    -1102,
    `Mandatory parameter '${name}' was not sent, was empty/null, or malformed${rangeText(range)}.`,
  );
export const illegal = (name: string, range = LEGAL[name]) =>
  new BinanceError(-1100, `Illegal characters found in parameter '${name}'${rangeText(range)}.`);
export const invalidValue = (name: string, detail?: string) =>
  new BinanceError(-1130, `Data sent for parameter '${name}' is not valid.${detail ? ` ${detail}` : ''}`);
/**
 * -1130 for a value not in its list, or a whole number outside its bounds, in the words of a
 * schema refusal (fromSchema), so a batch entry (checked by Params, no schema) reads as the single
 * request does.
 */
export const notOneOf = (name: string, allowed: readonly string[]) =>
  invalidValue(name, `It must be one of ${allowed.join(', ')}.`);
export const outsideBounds = (name: string, min: number, max: number) =>
  invalidValue(name, `Legal range is '${min} to ${max}'.`);
/** Binance's priceMatch modes: documented there, not served here (only NONE is taken). */
const PRICE_MATCH_MODES = new Set([
  'OPPONENT',
  'OPPONENT_5',
  'OPPONENT_10',
  'OPPONENT_20',
  'QUEUE',
  'QUEUE_5',
  'QUEUE_10',
  'QUEUE_20',
]);
/** -1130 for a priceMatch other than NONE; one of Binance's modes is named as not served yet. */
export function priceMatchRefusal(value: unknown): BinanceError {
  const later =
    typeof value === 'string' && PRICE_MATCH_MODES.has(value) ? ` ${value} is not supported by this venue yet.` : '';
  return invalidValue('priceMatch', `It must be one of NONE.${later}`);
}
/**
 * -1131 for a recvWindow that is a whole number but not from 1 to 60000, in Binance's text
 * ("recvWindow must be less than 60000", its USD-M error list and what ccxt records) followed by
 * what was sent and what is taken, so that 0 or a negative value is not told it is too large.
 */
export function recvWindowError(sent: unknown): BinanceError {
  const text = String(sent);
  const tooLarge = /^\d+$/.test(text) && /[1-9]/.test(text);
  return new BinanceError(
    -1131,
    tooLarge
      ? `${MSG.RECV_WINDOW}. Sent ${text}; it is at most 60000 (ms after timestamp the request stays valid).`
      : `${MSG.RECV_WINDOW} and above 0. Sent ${text}; send 1 to 60000 (ms after timestamp the request stays valid), or leave it out for 5000.`,
  );
}

export const notRequired = (name: string) => new BinanceError(-1106, `Parameter '${name}' sent when not required.`);

/** What the request was doing when the native error came (some codes depend on it). */
export interface ErrorContext {
  method?: string;
  /** BUY or SELL, for the price band (-4016 / -4024). */
  side?: string;
  /** The account's position mode, for -4061. */
  positionMode?: 'hedge' | 'one_way';
  /** The leverage asked for (the leverage route), for -4028 and -2028. */
  leverage?: string;
  /** The isolated margin route (positionMargin): 3009 is -4050, no position -4054. */
  margin?: boolean;
}

/** Native parameter and field names -> Binance's, for native messages passed on. */
const BINANCE_NAMES: Record<string, string> = {
  qty: 'quantity',
  client_order_id: 'newClientOrderId',
  time_in_force: 'timeInForce',
  position_side: 'positionSide',
  position_action: 'reduceOnly',
  reduce_only: 'reduceOnly',
  order_id: 'orderId',
  start_time: 'startTime',
  end_time: 'endTime',
  margin_mode: 'marginType',
  position_mode: 'dualSidePosition',
  min_qty: 'minQty',
  max_qty: 'maxQty',
  step_size: 'stepSize',
  tick_size: 'tickSize',
  min_notional: 'notional',
  trigger_price: 'triggerPrice',
  working_type: 'workingType',
  close_position: 'closePosition',
  callback_rate: 'callbackRate',
  activation_price: 'activatePrice',
};
const NATIVE_NAME = new RegExp(`\\b(${Object.keys(BINANCE_NAMES).join('|')})\\b`, 'g');

/** A native message in Binance's parameter names (`qty` -> `quantity`, ...). */
function binanceWords(text: string): string {
  return text.replace(NATIVE_NAME, (w) => BINANCE_NAMES[w]);
}

/** Binance's own codes for a quantity or price that is no positive number or too large (ApiError.reason). */
const BOUNDS: Record<string, [number, string]> = {
  'quantity|not_positive': [-4003, 'Quantity less than or equal to zero.'],
  'quantity|too_large': [-4005, 'Quantity greater than max quantity.'],
  'price|not_positive': [-4001, 'Price less than 0.'],
  'price|too_large': [-4002, 'Price greater than max price.'],
  'triggerPrice|not_positive': [-4006, 'Stop price less than zero.'],
  'triggerPrice|too_large': [-4007, 'Stop price greater than max price.'],
};

/** A native validation refusal: the parameter it names, in Binance's terms (-1100 for a malformed number). */
function invalidNative(detail: string, reason?: RefusalReason): BinanceError {
  const d = binanceWords(detail);
  const named = /^(?:Invalid \w+ parameter ')?([A-Za-z]+)'?/.exec(d)?.[1];
  const own = reason === undefined ? undefined : BOUNDS[`${named}|${reason}`];
  if (own !== undefined) return new BinanceError(own[0], `${own[1]} ${d}`);
  if (named === undefined || !/[A-Z]|^(quantity|price|symbol|side|leverage|limit)$/.test(named))
    return new BinanceError(-1130, `Data sent for parameter is not valid. ${d}`);
  if (d.includes('decimal string') && LEGAL[named] !== undefined) return illegal(named);
  return invalidValue(named, d);
}

function bandLimit(detail: string): string {
  const m = /(above|below) ([0-9.]+)/.exec(detail);
  return m ? m[2] : '';
}

/** A native ApiError in Binance's terms (reference a.5 "Native error codes -> Binance"). */
export function fromNative(err: ApiError, ctx: ErrorContext = {}): BinanceError {
  const d = binanceWords(err.detail);
  switch (err.def.code) {
    case Errors.SYMBOL_NOT_FOUND.code:
      return new BinanceError(-1121, MSG.INVALID_SYMBOL);
    case Errors.ORDER_NOT_FOUND.code:
      return ctx.method === 'DELETE'
        ? new BinanceError(-2011, MSG.UNKNOWN_ORDER)
        : new BinanceError(-2013, MSG.ORDER_NOT_EXIST);
    case Errors.ORDER_NOT_CANCELLABLE.code:
      return new BinanceError(-2011, MSG.UNKNOWN_ORDER);
    case Errors.SYMBOL_NOT_TRADING.code:
      return new BinanceError(-4140, 'Invalid symbol status for opening position.');
    case Errors.MARKET_NOT_ALLOWED.code:
      return new BinanceError(-1116, MSG.INVALID_ORDER_TYPE);
    case Errors.PRICE_OFF_TICK.code:
      return new BinanceError(-4014, `${MSG.TICK} ${d}`);
    case Errors.QTY_OFF_STEP.code:
      return new BinanceError(-1111, `${MSG.PRECISION} ${d}`);
    case Errors.QTY_BELOW_MIN.code:
      return new BinanceError(-4004, `Quantity less than min quantity. ${d}`);
    case Errors.QTY_ABOVE_MAX.code:
      return new BinanceError(-4005, `Quantity greater than max quantity. ${d}`);
    case Errors.NOTIONAL_BELOW_MIN.code: {
      const m = /minimum ([0-9.]+)/.exec(d);
      return new BinanceError(
        -4164,
        `Order's notional must be no smaller than ${m ? m[1] : '?'} (unless you choose reduce only).`,
      );
    }
    case Errors.PRICE_OUTSIDE_BAND.code:
      return ctx.side === 'SELL'
        ? new BinanceError(-4024, `Limit price can't be lower than ${bandLimit(d)}.`)
        : new BinanceError(-4016, `Limit price can't be higher than ${bandLimit(d)}.`);
    case Errors.INSUFFICIENT_MARGIN.code:
      // on the leverage route: a lower leverage the account's margin cannot hold; on the margin
      // route: more added than the available (cross) balance
      if (ctx.margin === true) return new BinanceError(-4050, `Cross balance insufficient. ${d}`);
      return ctx.leverage === undefined
        ? new BinanceError(-2019, MSG.MARGIN)
        : new BinanceError(-2028, `${MSG.LEVERAGE_MARGIN} ${d}`);
    case Errors.MARGIN_REMOVE_TOO_LARGE.code:
      return new BinanceError(-4051, `Isolated balance insufficient. ${d}`);
    case Errors.MARGIN_NOT_ISOLATED.code:
      return new BinanceError(-4049, `Add margin only support for isolated position. ${d}`);
    case Errors.POSITION_NOT_FOUND.code:
      return ctx.margin === true
        ? new BinanceError(-4054, `Cannot add position margin: position is 0. ${d}`)
        : new BinanceError(-1130, `${d} (native code ${err.def.code})`);
    case Errors.REDUCE_ONLY_REJECTED.code:
    case Errors.NO_POSITION_TO_CLOSE.code:
      return new BinanceError(-2022, MSG.REDUCE_ONLY);
    case Errors.DUPLICATE_CLIENT_ORDER_ID.code:
      return new BinanceError(-4116, MSG.DUP_CLIENT_ID);
    case Errors.POSITION_SIDE_MISMATCH.code:
      return new BinanceError(-4061, positionSideMessage(ctx.positionMode));
    case Errors.LEVERAGE_INVALID.code: {
      const m = /^leverage must be an integer from 1 to (\d+)/.exec(d);
      // the leverage itself is out of range: -4028; a position too large for it: -2027
      return m
        ? new BinanceError(-4028, `Leverage ${ctx.leverage ?? ''} is not valid`.replace('  ', ' '))
        : new BinanceError(-2027, 'Exceeded the maximum allowable position at current leverage.');
    }
    // the cause the exchange names: open orders (-4047 / -4067; named first when a position is
    // there too, as the facade always answered the position-mode change) or a position
    case Errors.MARGIN_MODE_CHANGE_REFUSED.code:
      return err.reason === 'position'
        ? new BinanceError(-4048, 'Margin type cannot be changed if there exists position.')
        : new BinanceError(-4047, 'Margin type cannot be changed if there exists open orders.');
    case Errors.POSITION_MODE_CHANGE_REFUSED.code:
      return err.reason === 'position'
        ? new BinanceError(-4068, 'Position side cannot be changed if there exists position.')
        : new BinanceError(-4067, 'Position side cannot be changed if there exists open orders.');
    case Errors.PRICE_REQUIRED.code:
      return mandatory('price');
    case Errors.PRICE_NOT_ALLOWED.code:
      return notRequired('price');
    case Errors.NO_LIQUIDITY.code:
      return new BinanceError(-2020, 'Unable to fill.');
    case Errors.TOO_MANY_OPEN_ORDERS.code:
      return new BinanceError(-2025, MSG.MAX_OPEN);
    // conditional orders (the algo order routes): Binance's own codes and texts
    case Errors.TRIGGER_ALREADY_REACHED.code:
      return new BinanceError(-2021, `Order would immediately trigger. ${d}`);
    case Errors.TOO_MANY_CONDITIONAL_ORDERS.code:
      return new BinanceError(-4045, `Reach max stop order limit. ${d}`);
    case Errors.POST_ONLY_WOULD_TAKE.code:
      return new BinanceError(-5022, MSG.POST_ONLY);
    case Errors.FOK_NOT_FILLABLE.code:
      return new BinanceError(-5021, MSG.FOK);
    case Errors.RATE_LIMITED.code:
      return new BinanceError(-1003, MSG.TOO_MANY_REQUESTS, 429);
    case Errors.INTERNAL.code:
      return new BinanceError(-1000, `${MSG.UNKNOWN} ${d}`, 500);
    case Errors.SERVICE_UNAVAILABLE.code:
      return new BinanceError(-1001, 'Internal error; unable to process your request. Please try again.', 503);
    case Errors.INVALID_PARAMETER.code:
      // a modification the core left as it rests (a reduce-only order's new quantity trimmed back
      // to its position): Binance's "nothing to modify", not a parameter of the request
      return err.reason === 'no_change'
        ? new BinanceError(-5027, MSG.NO_MODIFY)
        : invalidNative(err.detail, err.reason);
    case Errors.MISSING_PARAMETER.code:
    case Errors.UNKNOWN_PARAMETER.code:
      return invalidNative(err.detail, err.reason);
    case Errors.HOST_NOT_ALLOWED.code:
    case Errors.LOOPBACK_ONLY.code:
    case Errors.IP_NOT_WHITELISTED.code:
      return new BinanceError(-1002, `You are not authorized to execute this request. ${d}`, err.def.http);
    case Errors.BAD_REQUEST.code:
    case Errors.URI_TOO_LONG.code:
    case Errors.HEADERS_TOO_LARGE.code:
    case Errors.REQUEST_TIMEOUT.code:
    case Errors.BODY_TOO_LARGE.code:
    case Errors.STORAGE_FULL.code:
      return new BinanceError(-1000, d, err.def.http);
    default:
      // no Binance counterpart: the native message, under Binance's "invalid data" code
      return new BinanceError(-1130, `${d} (native code ${err.def.code})`);
  }
}

/** -4061 in Binance's words, plus which mode the account is in and how to switch (DESIGN decision, reference d.2 item 1). */
export function positionSideMessage(mode: 'hedge' | 'one_way' | undefined): string {
  if (mode === 'hedge') {
    return (
      `${MSG.POSITION_SIDE} This account is in hedge mode (dualSidePosition=true): send positionSide LONG or SHORT, ` +
      'or switch to one-way mode with POST /fapi/v1/positionSide/dual dualSidePosition=false (ccxt: setPositionMode(false)) while no position or order is open.'
    );
  }
  if (mode === 'one_way') {
    return (
      `${MSG.POSITION_SIDE} This account is in one-way mode (dualSidePosition=false): send positionSide BOTH or none, ` +
      'or switch to hedge mode with POST /fapi/v1/positionSide/dual dualSidePosition=true (ccxt: setPositionMode(true)) while no position or order is open.'
    );
  }
  return MSG.POSITION_SIDE;
}

/** A refusal of the service's own guards (Host, URL length, disk, ...) for a request under /binance. */
export function binanceRefusal(def: ErrorDef, message: string): { http: number; body: { code: number; msg: string } } {
  const e = fromNative(new ApiError(def, message));
  // a guard's status stays (a Host refusal is 403 here too, where a route's 403 is Binance's 400),
  // but -1001 (the service closing) is the 503 it is on every other answer of the facade
  return { http: e.code === -1001 ? e.http : def.http, body: { code: e.code, msg: e.message } };
}

/** Whether a request URL is the facade's (its prefix, then a path, a query or nothing). */
export function isBinanceUrl(url: string): boolean {
  return url.startsWith('/binance') && (url.length === 8 || url[8] === '/' || url[8] === '?');
}

/** One failure of a route's schema (the validator's first error). */
interface SchemaFailure {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
}

/**
 * Enumerated parameters whose refusal Binance answers with a code of its own (its USD-M error
 * list: -4060 INVALID_POSITION_SIDE, -1136 INVALID_NEW_ORDER_RESP_TYPE, -4031 INVALID_WORKING_TYPE,
 * -5039 INVALID_SELF_TRADE_PREVENTION_MODE; -4006 is its "Stop price less than zero.").
 */
const ENUM_CODES = {
  side: [-1117, 'Invalid side.'],
  type: [-1116, MSG.INVALID_ORDER_TYPE],
  timeInForce: [-1115, 'Invalid timeInForce.'],
  positionSide: [-4060, 'Invalid position side.'],
  interval: [-1120, 'Invalid interval.'],
  newOrderRespType: [-1136, 'Invalid newOrderRespType.'],
  workingType: [-4031, 'Invalid parameter working type'],
  selfTradePreventionMode: [-5039, 'Invalid self trade prevention mode'],
  contractType: [-4104, 'Invalid contract type. This venue lists perpetual contracts only: PERPETUAL.'],
} satisfies Record<string, [number, string]>;

/** Binance's refusal of a value its enumeration `name` does not list (ENUM_CODES). */
export function enumRefusal(name: keyof typeof ENUM_CODES): BinanceError {
  const [code, msg] = ENUM_CODES[name];
  return new BinanceError(code, msg);
}

/** Binance's time in force the venue does not serve yet, named as such. */
const NOT_YET = new Set(['GTD']);

/**
 * A schema refusal in Binance's terms; `values` are the request's parameters (the refused value
 * is named where Binance does), `rules` the route schema's properties (each message names the
 * parameter's legal range from them).
 */
export function fromSchema(
  f: SchemaFailure | undefined,
  values: Record<string, unknown>,
  rules: Record<string, ParamRule> = {},
): BinanceError {
  if (f === undefined) return new BinanceError(-1000, MSG.UNKNOWN);
  if (f.keyword === 'required') {
    const missing = String(f.params.missingProperty);
    return mandatory(missing, legalRange(missing, rules[missing]));
  }
  const name = f.instancePath.replace(/^\//, '').split('/')[0];
  const value = values[name];
  const range = legalRange(name, rules[name]);
  // an empty value (`quantity=`) is one not sent, as Binance's -1102 text says ("was empty/null")
  if (value === '') return mandatory(name, range);
  switch (f.keyword) {
    case 'enum': {
      const own = Object.hasOwn(ENUM_CODES, name) ? ENUM_CODES[name as keyof typeof ENUM_CODES] : undefined;
      if (own === undefined) {
        const allowed = (f.params.allowedValues as unknown[] | undefined)?.map(String) ?? [];
        if (name === 'priceMatch' && allowed.length === 1 && allowed[0] === 'NONE') return priceMatchRefusal(value);
        return notOneOf(name, allowed);
      }
      const later =
        typeof value === 'string' && NOT_YET.has(value) ? ` ${value} is not supported by this venue yet.` : '';
      return new BinanceError(own[0], own[1] + later);
    }
    case 'minimum':
    case 'maximum':
      return outOfRange(
        name,
        value,
        range === undefined
          ? `It must be ${String(f.params.comparison)} ${String(f.params.limit)}.`
          : `Legal range is '${range}'.`,
      );
    case 'minLength':
    case 'maxLength':
      return invalidValue(
        name,
        `Its length must be ${f.keyword === 'minLength' ? 'at least' : 'at most'} ${String(f.params.limit)}.`,
      );
    default:
      // a whole number too large for the validator's integers (20 digits) is out of range, not malformed;
      // one with leading zeros (`limit=05`) is malformed, whatever its value
      if (rules[name]?.type === 'integer' && range !== undefined && /^-?(0|[1-9]\d*)$/.test(String(value)))
        return outOfRange(name, value, `Legal range is '${range}'.`);
      // type, pattern: characters the parameter does not take
      return illegal(name, range);
  }
}

/**
 * A whole number outside its parameter's range: Binance's own code where it has one (-1131
 * recvWindow, -4028 leverage), else -1130 followed by `detail`, the legal range.
 */
function outOfRange(name: string, value: unknown, detail: string): BinanceError {
  if (name === 'recvWindow') return recvWindowError(value);
  if (name === 'leverage') return new BinanceError(-4028, `Leverage ${String(value)} is not valid`);
  return invalidValue(name, detail);
}

/** Any thrown value in Binance's terms. */
export function binanceErrorOf(err: unknown, ctx: ErrorContext = {}): BinanceError {
  if (err instanceof BinanceError) return err;
  if (err instanceof ApiError) return fromNative(err, ctx);
  const e = err as { statusCode?: number; code?: string; message?: string };
  if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new BinanceError(-1000, 'Request body is too large.');
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500)
    return new BinanceError(-1000, e.message ?? MSG.UNKNOWN);
  return new BinanceError(-1000, MSG.UNKNOWN, 500);
}
