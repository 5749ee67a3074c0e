// The answers of the facade's order routes (routes/orders.ts, algo-orders.ts, countdown.ts,
// history.ts's allOrders, userTrades and forceOrders; translate/orders.ts and algo-orders.ts
// write them), by "METHOD path": what each sends, field by field in its order.
//
// ORDER_ANSWER is also POST /fapi/v1/order's serializer (response-schemas.ts SERIALIZED): it writes
// exactly its fields in its order and types, so it is changed only with placedOrder, which it
// types. The others are documentation (response-fields.ts).
import { Type, type TProperties, type TSchema } from 'typebox';
import {
  always,
  alwaysNull,
  bool,
  DONE,
  ERROR,
  int,
  list,
  MARKET_MS,
  obj,
  oneOf,
  str,
  SYMBOL,
} from './response-fields.ts';

/**
 * The answer of POST /fapi/v1/order (translate/orders.ts placedOrder), in Binance's field order:
 * the route's serializer is compiled from it, so it writes exactly these fields in this order and
 * types (a field missing here would be dropped, one out of place moved): placedOrder is typed
 * by it, and the facade's tests hold the field order to Binance's.
 */
export const ORDER_ANSWER = Type.Object(
  {
    orderId: Type.Integer({ description: 'Order id' }),
    symbol: str('Pair'),
    status: str('NEW (always, for ACK), PARTIALLY_FILLED, FILLED, CANCELED, EXPIRED or EXPIRED_IN_MATCH'),
    clientOrderId: str('Client order id (the one sent, or the venue-made one)'),
    price: str("Limit price at the pair's precision; '0' for a market order"),
    avgPrice: str(
      "Average fill price (cumQuote / executedQty, 8 decimals, not rounded to the tick); '0' before any fill",
    ),
    origQty: str('Quantity ordered'),
    executedQty: str("Quantity filled at the pair's decimals; '0' in an ACK answer"),
    cumQty: str("Quantity filled at the pair's decimals; '0' in an ACK answer"),
    cumQuote: str("Quote filled (USDT, 8 decimals); '0' in an ACK answer"),
    timeInForce: str('GTC, IOC, FOK or GTX'),
    type: str('LIMIT or MARKET'),
    reduceOnly: Type.Boolean(),
    closePosition: Type.Boolean({ description: 'Always false' }),
    side: str('BUY or SELL'),
    positionSide: str('BOTH, LONG or SHORT'),
    stopPrice: str("Always '0'"),
    workingType: str('Always CONTRACT_PRICE'),
    priceProtect: Type.Boolean({ description: 'Always false' }),
    origType: str('LIMIT or MARKET'),
    priceMatch: str('Always NONE'),
    selfTradePreventionMode: str('Always EXPIRE_TAKER: the mode the venue applies, whatever was sent'),
    goodTillDate: Type.Integer({ description: 'Always 0' }),
    updateTime: Type.Integer({ description: 'Market time of the order, ms' }),
  },
  { description: 'The order as accepted (ACK) or as it left matching (RESULT)' },
);

/**
 * One entry of GET /fapi/v1/forceOrders (translate/orders.ts forcedOrder), in Binance's field order:
 * a liquidation's close order (clientOrderId autoclose-<orderId>) or an auto-deleveraged position's
 * (adl_autoclose), each filled by what it closed.
 */
export const FORCE_ORDER = Type.Object(
  {
    orderId: Type.Integer({ description: 'Order id' }),
    symbol: str('Pair'),
    status: str('FILLED (a forced close always closes what it was sent for)'),
    clientOrderId: str('autoclose-<orderId> (liquidation) or adl_autoclose (auto-deleveraging)'),
    price: str("The bankruptcy price the close was limited to, at the pair's precision"),
    avgPrice: str('Average fill price (cumQuote / executedQty, 8 decimals)'),
    origQty: str('Quantity the close was sent for'),
    executedQty: str('Quantity closed: its fills in the book and its closes at the bankruptcy price'),
    cumQuote: str('Quote closed (USDT)'),
    timeInForce: str('Always IOC'),
    type: str('Always LIMIT'),
    reduceOnly: Type.Boolean({ description: "Always false, as in Binance's example of forceOrders" }),
    closePosition: Type.Boolean({ description: 'Always false' }),
    side: str('BUY or SELL'),
    positionSide: str('BOTH (one-way account), LONG or SHORT'),
    stopPrice: str("Always '0'"),
    workingType: str('Always CONTRACT_PRICE'),
    origType: str('Always LIMIT'),
    time: Type.Integer({ description: 'Market time of the liquidation, ms' }),
    updateTime: Type.Integer({ description: 'Market time of its last fill, ms' }),
  },
  { description: "A forced close order, as Binance's forceOrders" },
);

/** An order as the queries, cancels and lists answer it (translate/orders.ts binanceOrder): POST's answer plus `time`. */
const { updateTime: _placedAt, ...PLACED } = ORDER_ANSWER.properties;
const ORDER = obj(
  {
    ...PLACED,
    status: str('NEW, PARTIALLY_FILLED, FILLED, CANCELED, REJECTED, EXPIRED or EXPIRED_IN_MATCH'),
    timeInForce: str('GTC, IOC, FOK or GTX (GTC for a market order)'),
    type: str("LIMIT, MARKET, or LIQUIDATION (a liquidation's or an auto-deleveraging's close order)"),
    reduceOnly: bool('One-way account: a reduce-only order; always false on a hedge account'),
    origType: str('As type'),
    time: MARKET_MS('Created'),
    updateTime: MARKET_MS('Last change'),
  },
  'An order',
);

const USER_TRADE = obj(
  {
    symbol: SYMBOL,
    id: int('Trade id (the public trade id)'),
    orderId: int('Order id'),
    side: oneOf(['BUY', 'SELL'], 'BUY or SELL'),
    price: str('Price'),
    qty: str('Quantity'),
    realizedPnl: str('Profit or loss the fill realized, USDT, 8 decimals'),
    marginAsset: always('USDT', 'Always USDT'),
    quoteQty: str('Price x quantity, USDT, 8 decimals'),
    commission: str('Fee, USDT, 8 decimals'),
    commissionAsset: always('USDT', 'Always USDT'),
    time: MARKET_MS('Trade time'),
    positionSide: oneOf(['BOTH', 'LONG', 'SHORT'], 'BOTH (one-way account), LONG or SHORT'),
    buyer: bool('The account bought'),
    maker: bool('The account was the maker'),
  },
  "One of the account's fills",
);

// ---- algo orders (translate/algo-orders.ts binanceAlgoOrder): three shapes of one record

const TRAILING_ONLY = ' (POST: always; GET and lists: a TRAILING_STOP_MARKET only)';
/** Every field an algo order answer may have, in Binance's order. */
const ALGO_FIELDS: TProperties = {
  algoId: int('Algo order id'),
  clientAlgoId: str('Client algo id (the one sent, or the venue-made one)'),
  algoType: always('CONDITIONAL', 'Always CONDITIONAL'),
  orderType: oneOf(['STOP', 'STOP_MARKET', 'TAKE_PROFIT', 'TAKE_PROFIT_MARKET', 'TRAILING_STOP_MARKET'], 'Type'),
  symbol: SYMBOL,
  side: oneOf(['BUY', 'SELL'], 'BUY or SELL'),
  positionSide: oneOf(['BOTH', 'LONG', 'SHORT'], 'BOTH (one-way account), LONG or SHORT'),
  timeInForce: oneOf(['GTC', 'IOC', 'FOK', 'GTX'], 'GTC for the *MARKET types'),
  quantity: str("Quantity ('0' at the quantity precision for a Close-All order)"),
  algoStatus: oneOf(
    ['NEW', 'CANCELED', 'REJECTED', 'TRIGGERED', 'FINISHED'],
    'NEW (waiting), TRIGGERED (its order is open), FINISHED (its order ended), CANCELED or REJECTED (its order was refused)',
  ),
  actualOrderId: str("The order it placed, an id in a string; '' before it fired"),
  actualPrice: str("That order's average fill price, 8 decimals; '0' before a fill"),
  actualType: oneOf(['', 'LIMIT', 'MARKET'], "That order's type; '' before it fired"),
  actualQty: str("That order's filled quantity; '0' before it fired"),
  triggerPrice: str('Trigger price'),
  price: str("Limit price of STOP / TAKE_PROFIT; zero at the price precision (e.g. '0.0') for the *MARKET types"),
  icebergQuantity: alwaysNull('Always null'),
  tpTriggerPrice: str('Always zero at the price precision'),
  tpPrice: str('Always zero at the price precision'),
  slTriggerPrice: str('Always zero at the price precision'),
  slPrice: str('Always zero at the price precision'),
  tpOrderType: always('', "Always ''"),
  selfTradePreventionMode: always('EXPIRE_TAKER', 'Always EXPIRE_TAKER (the mode the venue applies)'),
  workingType: oneOf(['MARK_PRICE', 'CONTRACT_PRICE'], 'The price watched: the mark, or the last price'),
  priceMatch: always('NONE', 'Always NONE'),
  closePosition: bool('A Close-All order'),
  priceProtect: bool(
    'Price protection: a reached trigger held back while last and mark are more than triggerProtect apart',
  ),
  reduceOnly: bool('One-way account: reduce-only (a Close-All order is); always false on a hedge account'),
  activatePrice: str(`Trailing stop's activation price, '' when none${TRAILING_ONLY}`),
  callbackRate: str(`Trailing stop's callback rate, percent; '' for the other types${TRAILING_ONLY}`),
  createTime: MARKET_MS('Placed'),
  updateTime: MARKET_MS('Last change'),
  triggerTime: int('Market time it fired, ms; 0 before'),
  goodTillDate: always(0, 'Always 0'),
};
const OPTIONAL = new Set(['activatePrice', 'callbackRate']);
/** The algo order answer with `names`' fields; activatePrice and callbackRate optional but on POST's. */
const algoShape = (names: string, optional: boolean, description: string) => {
  const props: TProperties = {};
  for (const n of names.split(' '))
    props[n] = optional && OPTIONAL.has(n) ? Type.Optional(ALGO_FIELDS[n]) : ALGO_FIELDS[n];
  return obj(props, description);
};
const HEAD = 'algoId clientAlgoId algoType orderType symbol side positionSide timeInForce quantity algoStatus';
const TAIL = 'activatePrice callbackRate createTime updateTime triggerTime goodTillDate';
const SETTINGS = 'selfTradePreventionMode workingType priceMatch closePosition priceProtect reduceOnly';
const NEW_ALGO = algoShape(
  `${HEAD} triggerPrice price icebergQuantity ${SETTINGS} ${TAIL}`,
  false,
  'The algo order as placed',
);
const QUERIED_ALGO = algoShape(
  `${HEAD} actualOrderId actualPrice actualType actualQty triggerPrice price icebergQuantity tpOrderType ${SETTINGS} ${TAIL}`,
  true,
  'The algo order',
);
const LISTED_ALGO = algoShape(
  `${HEAD} actualOrderId actualPrice triggerPrice price icebergQuantity tpTriggerPrice tpPrice slTriggerPrice slPrice ` +
    `tpOrderType ${SETTINGS} ${TAIL}`,
  true,
  'An algo order',
);

const CANCEL_ALL = 'The operation of cancel all open order is done.';
const orders = (description: string) => list(ORDER, description);

/** The order routes' 200 answers, by "METHOD path" under /binance. */
export const ORDER_ANSWERS: Record<string, TSchema> = {
  'POST /fapi/v1/order': ORDER_ANSWER,
  'POST /fapi/v1/order/test': obj(
    {},
    'Empty ({}): the order passed every check a new order meets (parameters, filters, margin, post-only and fill-or-kill against the book); nothing was placed',
  ),
  'PUT /fapi/v1/order': obj(ORDER.properties, 'The order as modified'),
  'GET /fapi/v1/order': ORDER,
  'DELETE /fapi/v1/order': obj(ORDER.properties, 'The order as cancelled'),
  'GET /fapi/v1/openOrder': obj(ORDER.properties, 'The open order'),
  'GET /fapi/v1/openOrders': orders('The open orders (of the pair, or all)'),
  'GET /fapi/v1/allOrders': orders("The pair's orders in the window, oldest first"),
  'POST /fapi/v1/batchOrders': list(
    Type.Union([ORDER_ANSWER, ERROR]),
    'One entry an order, in the order sent: the order as accepted, or its own {code, msg}',
  ),
  'PUT /fapi/v1/batchOrders': list(
    Type.Union([ORDER, ERROR]),
    'One entry a modification, in the order sent: the order as modified, or its own {code, msg}',
  ),
  'DELETE /fapi/v1/batchOrders': list(
    Type.Union([ORDER, ERROR]),
    'One entry an id sent, in its order: the order as cancelled, or its own {code, msg}',
  ),
  'DELETE /fapi/v1/allOpenOrders': DONE(CANCEL_ALL),
  'POST /fapi/v1/countdownCancelAll': obj(
    { symbol: SYMBOL, countdownTime: str('The countdown, ms, as a string (0: ended)') },
    'The countdown as set',
  ),
  'GET /fapi/v1/userTrades': list(USER_TRADE, "The account's fills, oldest first"),
  'GET /fapi/v1/forceOrders': Type.Array(FORCE_ORDER, {
    description: "The account's forced close orders in the window, oldest first",
  }),
  'POST /fapi/v1/algoOrder': NEW_ALGO,
  'GET /fapi/v1/algoOrder': QUERIED_ALGO,
  'DELETE /fapi/v1/algoOrder': obj(
    {
      algoId: int('Algo order id'),
      clientAlgoId: str('Client algo id'),
      code: always('200', "Always '200' (a string, as Binance sends it)"),
      msg: always('success', 'Always success'),
    },
    'The algo order cancelled',
  ),
  'GET /fapi/v1/openAlgoOrders': list(LISTED_ALGO, 'The waiting algo orders (NEW)'),
  'GET /fapi/v1/allAlgoOrders': list(LISTED_ALGO, "The pair's algo orders in the window, oldest first"),
  'DELETE /fapi/v1/algoOpenOrders': DONE(CANCEL_ALL),
};
