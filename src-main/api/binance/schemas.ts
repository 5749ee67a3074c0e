// The facade's request schemas (TypeBox), one per route, keyed by method and path: Binance's
// parameter names, types and ranges. They validate Binance's totalParams (the query and the form
// body together, merged before validation) and document every operation in /openapi.json under
// the `binance` tag. A failure answers Binance's code for it (index.ts, validationError).
//
// Invariants: unknown parameters are accepted (Binance ignores them); no schema sets a default
// (the validator would add it to the request); the handlers read only parameters listed here.
import { Type, type TProperties, type TSchema } from 'typebox';
import { INTERVALS } from '../../../src-shared/intervals.ts';
import { OPEN_INTEREST_PERIODS } from '../../market/open-interest-history.ts';
import { ERROR } from './response-fields.ts';
import { ANSWERS } from './response-schemas.ts';

const text = (pattern: string, description: string) => Type.String({ pattern, description });
const oneOf = (values: readonly string[], description: string) =>
  Type.Unsafe<string>({ type: 'string', enum: [...values], description });
const int = (minimum: number, maximum: number, description: string) => Type.Integer({ minimum, maximum, description });

/** The patterns of the facade's text parameters (errors.ts names them in -1100 / -1102 messages). */
export const PATTERNS = {
  decimal: '^([0-9]{1,20})(\\.[0-9]{1,20})?$',
  symbol: '^[A-Za-z0-9_.-]{1,20}$',
  clientId: '^[.A-Z:/a-z0-9_-]{1,36}$',
} as const;
const DECIMAL = PATTERNS.decimal;
const symbol = text(PATTERNS.symbol, 'Pair, e.g. BTCUSDT (any case)');
const time = (what: string) => int(0, Number.MAX_SAFE_INTEGER, `${what}, ms of market time`);
const limit = (max: number, dflt: number) => int(1, max, `Rows, default ${dflt}, at most ${max}`);
/** The words a boolean parameter takes (Params.bool reads a batch entry's with them). */
export const BOOL_WORDS = ['true', 'false', 'TRUE', 'FALSE', 'True', 'False'];
const bool = (description: string) => oneOf(BOOL_WORDS, description);
const orderId = int(1, Number.MAX_SAFE_INTEGER, 'The order id');
const clientId = text(PATTERNS.clientId, 'Client order id: 1 to 36 of letters, digits, . : / _ -');
const KLINE_INTERVALS = INTERVALS.filter((i) => i !== '1s');
const window = { startTime: time('From (inclusive)'), endTime: time('Up to (inclusive)') };
const page = int(1, 1_000_000, 'Page of `limit` rows, default 1: page p skips the (p - 1) x limit before it');

/** Parameters every signed route takes (in the query or the form body). */
const SIGNED: TProperties = {
  timestamp: int(0, 999_999_999_999_999, 'Wall-clock ms (GET /fapi/v1/time serverTime)'),
  recvWindow: int(1, 60_000, 'How long after timestamp the request stays valid, ms (default 5000, at most 60000)'),
  signature: Type.String({
    minLength: 1,
    description: 'Lowercase hex HMAC-SHA256(secret, the query string and form body without signature)',
  }),
};

/** Binance's conditional order types: algo orders (POST /fapi/v1/algoOrder); POST /fapi/v1/order refuses them (-4120). */
export const CONDITIONAL_TYPES = [
  'STOP',
  'STOP_MARKET',
  'TAKE_PROFIT',
  'TAKE_PROFIT_MARKET',
  'TRAILING_STOP_MARKET',
] as const;
const SIDE = oneOf(['BUY', 'SELL'], 'BUY or SELL');
const POSITION_SIDE = oneOf(['BOTH', 'LONG', 'SHORT'], 'BOTH (one-way account), LONG or SHORT (hedge account)');
/** POST /fapi/v1/order's own parameters (a batchOrders entry is checked against them too: translate/orders.ts). */
export const NEW_ORDER: TProperties = {
  symbol,
  side: SIDE,
  type: oneOf(
    ['LIMIT', 'MARKET', ...CONDITIONAL_TYPES],
    'LIMIT or MARKET; the conditional types are -4120 here, as on Binance: they go to POST /fapi/v1/algoOrder',
  ),
  quantity: text(DECIMAL, 'Quantity, on the pair step (LIMIT and MARKET: mandatory)'),
  price: text(DECIMAL, 'Limit price, on the pair tick (LIMIT only)'),
  timeInForce: oneOf(['GTC', 'IOC', 'FOK', 'GTX'], 'LIMIT only: GTC, IOC, FOK or GTX (post-only)'),
  positionSide: POSITION_SIDE,
  reduceOnly: bool(
    'One-way accounts only: the order may only reduce the position (sent on a hedge account, any value: -1106)',
  ),
  newClientOrderId: clientId,
  newOrderRespType: oneOf(['ACK', 'RESULT'], 'ACK (default): the order as accepted; RESULT: as it left matching'),
  closePosition: bool(
    'Close-All, for STOP_MARKET / TAKE_PROFIT_MARKET (algo orders): true on LIMIT or MARKET is -4136',
  ),
  workingType: oneOf(['MARK_PRICE', 'CONTRACT_PRICE'], 'Accepted, not used (conditional orders are algo orders)'),
  priceProtect: bool('Accepted, not used'),
  priceMatch: oneOf(['NONE'], 'Only NONE (price matching is not served yet)'),
  selfTradePreventionMode: oneOf(
    ['NONE', 'EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH'],
    'Accepted; the venue applies EXPIRE_TAKER',
  ),
  goodTillDate: time('Accepted, not used (no GTD)'),
};
const ORDER_REF: TProperties = { symbol, orderId, origClientOrderId: clientId };
/** PUT /fapi/v1/order's parameters (a PUT batchOrders entry is checked against them too: routes/orders.ts). */
export const MODIFY_ORDER: TProperties = {
  ...ORDER_REF,
  side: SIDE,
  quantity: text(DECIMAL, 'The new total quantity (filled part included)'),
  price: text(DECIMAL, 'The new price'),
  priceMatch: oneOf(['NONE'], 'Only NONE'),
  origType: oneOf(['LIMIT'], 'Only LIMIT orders are modified'),
  positionSide: POSITION_SIDE,
};
const algoId = int(1, Number.MAX_SAFE_INTEGER, 'The algo order id');
const ALGO_REF: TProperties = { algoId, clientAlgoId: clientId };
const algoType = oneOf(['CONDITIONAL'], 'CONDITIONAL (the only algo type)');
/** POST /fapi/v1/algoOrder (translate/algo-orders.ts parseAlgoOrder checks what depends on the type). */
const NEW_ALGO_ORDER: TProperties = {
  algoType,
  symbol,
  side: SIDE,
  type: oneOf(CONDITIONAL_TYPES, 'STOP / TAKE_PROFIT (limit), STOP_MARKET / TAKE_PROFIT_MARKET, TRAILING_STOP_MARKET'),
  positionSide: POSITION_SIDE,
  timeInForce: oneOf(['GTC', 'IOC', 'FOK', 'GTX'], 'STOP / TAKE_PROFIT: GTC (default), IOC, FOK or GTX'),
  quantity: text(DECIMAL, 'Quantity, on the pair step (mandatory unless closePosition=true)'),
  price: text(DECIMAL, 'Limit price of STOP / TAKE_PROFIT, on the pair tick'),
  triggerPrice: text(DECIMAL, 'Trigger price, on the pair tick (mandatory but for TRAILING_STOP_MARKET)'),
  workingType: oneOf(
    ['MARK_PRICE', 'CONTRACT_PRICE'],
    'The price watched: CONTRACT_PRICE (default, the last price) or MARK_PRICE',
  ),
  priceMatch: oneOf(
    ['NONE', 'OPPONENT', 'OPPONENT_5', 'OPPONENT_10', 'OPPONENT_20', 'QUEUE', 'QUEUE_5', 'QUEUE_10', 'QUEUE_20'],
    'Only NONE (price matching is refused by name)',
  ),
  closePosition: bool(
    'Close-All (STOP_MARKET / TAKE_PROFIT_MARKET, no quantity): closes the whole position when it fires',
  ),
  priceProtect: bool(
    'TRUE: a reached trigger is held back while the last price and the mark are more than triggerProtect (0.05) apart; not on TRAILING_STOP_MARKET',
  ),
  reduceOnly: bool('One-way accounts only (sent on a hedge account, any value: -1106)'),
  activatePrice: text(DECIMAL, 'TRAILING_STOP_MARKET: activation price (absent: it trails at once)'),
  activationPrice: text(DECIMAL, "activatePrice under the order route's name, as ccxt sends it"),
  callbackRate: text('^[0-9]{1,2}(\\.[0-9])?$', 'TRAILING_STOP_MARKET: percent, 0.1 to 10, one decimal'),
  clientAlgoId: clientId,
  newOrderRespType: oneOf(['ACK', 'RESULT'], 'Either: the answer is the algo order as placed'),
  selfTradePreventionMode: oneOf(
    ['NONE', 'EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH'],
    'Accepted; the venue applies EXPIRE_TAKER',
  ),
  goodTillDate: time('Accepted, not used (no GTD)'),
};

/** Binance's income types, in its documentation's order (the income route answers [] for those the venue never produces). */
export const INCOME_TYPES = [
  'TRANSFER',
  'WELCOME_BONUS',
  'REALIZED_PNL',
  'FUNDING_FEE',
  'COMMISSION',
  'INSURANCE_CLEAR',
  'REFERRAL_KICKBACK',
  'COMMISSION_REBATE',
  'API_REBATE',
  'CONTEST_REWARD',
  'CROSS_COLLATERAL_TRANSFER',
  'OPTIONS_PREMIUM_FEE',
  'OPTIONS_SETTLE_PROFIT',
  'INTERNAL_TRANSFER',
  'AUTO_EXCHANGE',
  'DELIVERED_SETTELMENT',
  'COIN_SWAP_DEPOSIT',
  'COIN_SWAP_WITHDRAW',
  'POSITION_LIMIT_INCREASE_FEE',
  'STRATEGY_UMFUTURES_TRANSFER',
  'FEE_RETURN',
  'BFUSD_REWARD',
] as const;

interface RouteParams {
  props: TProperties;
  required?: string[];
}

const p = (props: TProperties, required: string[] = []): RouteParams => ({ props, required });
const candles = (who: 'symbol' | 'pair', intervals: readonly string[]) =>
  p({ [who]: symbol, interval: oneOf(intervals, 'Candle interval'), ...window, limit: limit(1500, 500) }, [
    who,
    'interval',
  ]);
const optionalSymbol = p({ symbol });
/** The /futures/data statistics' parameters (routes/futures-data.ts). */
const FUTURES_DATA = p(
  { symbol, period: oneOf(Object.keys(OPEN_INTEREST_PERIODS), 'Sample period'), ...window, limit: limit(500, 30) },
  ['symbol', 'period'],
);

/** Public routes' parameters, by "METHOD path" under /binance. */
const PUBLIC: Record<string, RouteParams> = {
  'GET /fapi/v1/depth': p(
    {
      symbol,
      limit: Type.Unsafe<number>({
        type: 'integer',
        enum: [5, 10, 20, 50, 100, 500, 1000],
        description: 'Levels: 5, 10, 20, 50, 100, 500 (default) or 1000',
      }),
    },
    ['symbol'],
  ),
  'GET /fapi/v1/trades': p({ symbol, limit: limit(1000, 500) }, ['symbol']),
  'GET /fapi/v1/historicalTrades': p(
    { symbol, limit: limit(500, 100), fromId: int(0, Number.MAX_SAFE_INTEGER, 'From this trade id') },
    ['symbol'],
  ),
  'GET /fapi/v1/aggTrades': p(
    { symbol, fromId: int(0, Number.MAX_SAFE_INTEGER, 'From this trade id'), ...window, limit: limit(1000, 500) },
    ['symbol'],
  ),
  'GET /fapi/v1/klines': candles('symbol', KLINE_INTERVALS),
  // a perpetual's continuous contract is the perpetual itself (the venue lists no delivery contracts)
  'GET /fapi/v1/continuousKlines': p(
    {
      pair: symbol,
      contractType: oneOf(['PERPETUAL'], 'Contract type: PERPETUAL (the venue lists perpetuals only)'),
      interval: oneOf(KLINE_INTERVALS, 'Candle interval'),
      ...window,
      limit: limit(1500, 500),
    },
    ['pair', 'contractType', 'interval'],
  ),
  'GET /fapi/v1/markPriceKlines': candles('symbol', KLINE_INTERVALS),
  'GET /fapi/v1/indexPriceKlines': candles('pair', KLINE_INTERVALS),
  'GET /fapi/v1/premiumIndexKlines': candles('symbol', KLINE_INTERVALS),
  'GET /fapi/v1/ticker/24hr': optionalSymbol,
  'GET /fapi/v1/ticker/bookTicker': optionalSymbol,
  'GET /fapi/v1/ticker/price': optionalSymbol,
  'GET /fapi/v2/ticker/price': optionalSymbol,
  'GET /fapi/v1/premiumIndex': optionalSymbol,
  'GET /fapi/v1/fundingRate': p({ symbol, ...window, limit: limit(1000, 100) }),
  'GET /fapi/v1/openInterest': p({ symbol }, ['symbol']),
  'GET /futures/data/openInterestHist': FUTURES_DATA,
  'GET /futures/data/globalLongShortAccountRatio': FUTURES_DATA,
  'GET /futures/data/topLongShortAccountRatio': FUTURES_DATA,
  'GET /futures/data/topLongShortPositionRatio': FUTURES_DATA,
  'GET /futures/data/takerlongshortRatio': FUTURES_DATA,
};

/** Signed routes' own parameters (timestamp, recvWindow and signature are added). */
const SIGNED_ROUTES: Record<string, RouteParams> = {
  // quantity is mandatory for LIMIT and MARKET (translate/orders.ts parseNewOrder), as Binance's
  // "additional mandatory parameters based on type": a Close-All order is refused for its type first
  'POST /fapi/v1/order': p(NEW_ORDER, ['symbol', 'side', 'type']),
  // a test order takes exactly a new order's parameters (Binance's New Order Test)
  'POST /fapi/v1/order/test': p(NEW_ORDER, ['symbol', 'side', 'type']),
  'PUT /fapi/v1/order': p(MODIFY_ORDER, ['symbol', 'side', 'quantity', 'price']),
  'POST /fapi/v1/algoOrder': p(NEW_ALGO_ORDER, ['algoType', 'symbol', 'side', 'type']),
  'GET /fapi/v1/algoOrder': p(ALGO_REF),
  'DELETE /fapi/v1/algoOrder': p(ALGO_REF),
  'GET /fapi/v1/openAlgoOrders': p({ algoType, symbol, algoId }),
  'GET /fapi/v1/allAlgoOrders': p({ symbol, algoId, ...window, page, limit: limit(1000, 500) }, ['symbol']),
  'DELETE /fapi/v1/algoOpenOrders': p({ symbol }, ['symbol']),
  'GET /fapi/v1/order': p(ORDER_REF, ['symbol']),
  'DELETE /fapi/v1/order': p(ORDER_REF, ['symbol']),
  'GET /fapi/v1/openOrder': p(ORDER_REF, ['symbol']),
  'POST /fapi/v1/batchOrders': p(
    { batchOrders: Type.String({ minLength: 2, description: 'JSON array of 1 to 5 orders (POST order parameters)' }) },
    ['batchOrders'],
  ),
  'PUT /fapi/v1/batchOrders': p(
    {
      batchOrders: Type.String({
        minLength: 2,
        description:
          'JSON array of 1 to 5 modifications (PUT order parameters: symbol, side, quantity, price, orderId or ' +
          'origClientOrderId, priceMatch)',
      }),
    },
    ['batchOrders'],
  ),
  'DELETE /fapi/v1/batchOrders': p(
    {
      symbol,
      orderIdList: Type.String({ minLength: 2, description: 'JSON array of 1 to 10 order ids' }),
      origClientOrderIdList: Type.String({ minLength: 2, description: 'JSON array of 1 to 10 client order ids' }),
    },
    ['symbol'],
  ),
  'DELETE /fapi/v1/allOpenOrders': p({ symbol }, ['symbol']),
  'POST /fapi/v1/countdownCancelAll': p(
    {
      symbol,
      countdownTime: int(
        0,
        Number.MAX_SAFE_INTEGER,
        "ms until the pair's open orders are cancelled, counted from this request on the wall clock; " +
          'a new call replaces the countdown, 0 ends it',
      ),
    },
    ['symbol', 'countdownTime'],
  ),
  'GET /fapi/v1/openOrders': optionalSymbol,
  'GET /fapi/v1/allOrders': p({ symbol, orderId, ...window, limit: limit(1000, 500) }, ['symbol']),
  'GET /fapi/v1/userTrades': p(
    {
      symbol,
      orderId,
      fromId: int(0, Number.MAX_SAFE_INTEGER, 'From this trade id'),
      ...window,
      limit: limit(1000, 500),
    },
    ['symbol'],
  ),
  'GET /fapi/v1/forceOrders': p({
    symbol,
    autoCloseType: oneOf(['LIQUIDATION', 'ADL'], 'LIQUIDATION or ADL; both when absent'),
    startTime: time('From (inclusive); default endTime - 7 days'),
    endTime: time('Up to (inclusive); default startTime + 7 days, or now'),
    limit: limit(100, 50),
  }),
  'GET /fapi/v1/income': p({
    symbol,
    incomeType: oneOf(INCOME_TYPES, 'Income type'),
    ...window,
    limit: limit(1000, 100),
    page,
  }),
  'GET /fapi/v2/positionRisk': optionalSymbol,
  'GET /fapi/v3/positionRisk': optionalSymbol,
  'GET /fapi/v1/leverageBracket': optionalSymbol,
  'GET /fapi/v1/symbolConfig': optionalSymbol,
  'GET /fapi/v1/adlQuantile': optionalSymbol,
  'POST /fapi/v1/leverage': p({ symbol, leverage: int(1, 125, 'Leverage, 1 to the pair maximum') }, [
    'symbol',
    'leverage',
  ]),
  'POST /fapi/v1/marginType': p(
    { symbol, marginType: oneOf(['ISOLATED', 'CROSSED', 'isolated', 'crossed'], 'ISOLATED or CROSSED') },
    ['symbol', 'marginType'],
  ),
  'POST /fapi/v1/positionSide/dual': p({ dualSidePosition: bool('true: hedge mode; false: one-way') }, [
    'dualSidePosition',
  ]),
  'POST /fapi/v1/multiAssetsMargin': p(
    {
      multiAssetsMargin: bool(
        'false: Single-Asset Mode, the only one the venue has (already set: -4171); true: -1130 (Multi-Assets Mode is not offered)',
      ),
    },
    ['multiAssetsMargin'],
  ),
  'GET /fapi/v1/commissionRate': p({ symbol }, ['symbol']),
  'POST /fapi/v1/positionMargin': p(
    {
      symbol,
      positionSide: POSITION_SIDE,
      amount: text(DECIMAL, 'USDT to add or remove, above 0, at most 8 decimals'),
      type: int(1, 2, '1: add margin to the isolated position, 2: remove margin from it'),
    },
    ['symbol', 'amount', 'type'],
  ),
  'GET /fapi/v1/positionMargin/history': p(
    { symbol, type: int(1, 2, '1: additions, 2: removals'), ...window, limit: limit(1000, 500) },
    ['symbol'],
  ),
};

/** The querystring schema of a facade route ("METHOD path"), or undefined for a route without parameters. */
function paramsSchema(key: string, signed: boolean): TSchema | undefined {
  const own = signed ? SIGNED_ROUTES[key] : PUBLIC[key];
  if (!signed && own === undefined) return undefined;
  const all = signed ? { ...(own?.props ?? {}), ...SIGNED } : own!.props;
  const required = new Set([...(own?.required ?? []), ...(signed ? ['timestamp', 'signature'] : [])]);
  const props: TProperties = {};
  for (const [k, v] of Object.entries(all)) props[k] = required.has(k) ? v : Type.Optional(v);
  return Type.Object(props, { additionalProperties: true });
}

/** Signed routes without parameters of their own. */
const SIGNED_ONLY = new Set([
  'GET /fapi/v2/account',
  'GET /fapi/v3/account',
  'GET /fapi/v2/balance',
  'GET /fapi/v3/balance',
  'GET /fapi/v1/multiAssetsMargin',
  'GET /fapi/v1/accountConfig',
  'GET /fapi/v1/positionSide/dual',
]);

const SEE =
  " Parameters, answers and errors are Binance's ({code, msg}); what is served and what differs: docs/binance.md.";
const KIND_TEXT = {
  public: 'Binance-compatible public market data: no key, no signature.' + SEE,
  signed:
    'Binance-compatible signed route: X-MBX-APIKEY header, and timestamp plus signature (hex HMAC-SHA256 of the ' +
    'query string and form body, with the API secret) in the parameters, as Binance. Parameters may be sent in ' +
    'the query or in an application/x-www-form-urlencoded body.' +
    SEE,
  apiKey: 'Binance-compatible user-stream key: the X-MBX-APIKEY header only, no signature.' + SEE,
} as const;

/** Name of the OpenAPI security scheme of the facade's keyed routes (components.securitySchemes, app.ts). */
export const BINANCE_KEY_SCHEME = 'binanceApiKey';

const refusal = (description: string) => ({ ...ERROR, description });
/** The refusals of the service's guards, which answer in Binance's terms under /binance (error-handler.ts sendError). */
const GUARDS = {
  403: refusal('-1002: the Host header names another site (the DNS rebinding guard)'),
  414: refusal('-1000: the request URL is too long'),
  431: refusal("-1000: the request line and headers are over Node's 16 KiB (refused before any route)"),
  429: refusal('-1003: too many requests (per IP, or per API key); Retry-After says when to retry'),
  500: refusal('-1000: the service failed to serve the request'),
};
/** What a request that changes something may also be answered (the disk guard, the sequencer). */
const UNAVAILABLE = refusal(
  '-1000: the disk of the data folder is nearly full, changes are refused; -1001: the service is starting or ' +
    'shutting down (a request that comes in during its close is not run: retry once it is back)',
);
/** What a read may be answered while the service closes (app.ts closingCheck): not run. */
const CLOSING = refusal('-1001: the service is shutting down: the request was not run; retry once it is back');
const KEY_REFUSED = refusal('-2014: no X-MBX-APIKEY header, or a malformed key; -2015: an unknown key');
const ERRORS = {
  public: { 400: refusal('A refused parameter (-1100 to -1130; -1121 a pair the venue does not list)'), ...GUARDS },
  signed: {
    400: refusal('A refused parameter, timestamp (-1021), signature (-1022), order or change'),
    401: KEY_REFUSED,
    ...GUARDS,
  },
  apiKey: { 400: refusal('-1125: the account has no listenKey (PUT, DELETE)'), 401: KEY_REFUSED, ...GUARDS },
} as const;

/**
 * A facade route's schema: its parameters (validated), its answer (response-schemas.ts) and
 * errors (documented), the `binance` tag. A route without an answer schema is a mistake: it
 * throws, so that every facade route documents what it answers.
 */
export function routeSchema(method: string, path: string): { schema: Record<string, unknown> } {
  const key = `${method} ${path}`;
  const kind =
    path === '/fapi/v1/listenKey' ? 'apiKey' : key in SIGNED_ROUTES || SIGNED_ONLY.has(key) ? 'signed' : 'public';
  const querystring = kind === 'apiKey' ? undefined : paramsSchema(key, kind === 'signed');
  const answer = ANSWERS[key];
  if (answer === undefined) throw new Error(`No answer schema for the facade route ${key} (response-schemas.ts)`);
  return {
    schema: {
      tags: ['binance'],
      summary: `${method} ${path} (Binance USD-M)`,
      description: KIND_TEXT[kind],
      // the document's security: the X-MBX-APIKEY scheme, or none for public market data
      security: kind === 'public' ? [] : [{ [BINANCE_KEY_SCHEME]: [] }],
      ...(querystring === undefined ? {} : { querystring }),
      response: {
        ...(answer === null ? {} : { 200: answer }),
        ...ERRORS[kind],
        503: method === 'GET' ? CLOSING : UNAVAILABLE,
      },
    },
  };
}
