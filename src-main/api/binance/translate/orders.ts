// Orders between Binance and the venue, pure (no venue, no I/O): Binance's new-order parameters
// -> the native place command's input, native order and trade records -> Binance's order and
// user-trade records, enum names both ways. Reference: binance-usdm.md a.3 and a.5.
//
// Invariants: a parameter Binance would refuse is refused here with Binance's code and its
// Binance name; the native input carries only what the exchange command takes; hedge-mode
// closes are reduce-only natively but Binance reports reduceOnly only in one-way mode.
import { Decimal } from 'decimal.js';
import type { Static } from 'typebox';
import {
  OrderStatus,
  OrderType,
  PositionAction,
  PositionSide,
  Side,
  TimeInForce,
  TradeRole,
} from '../../../../src-shared/enums.ts';
import type { OrderInput } from '../../../trading/exchange.ts';
import { isForcedCloseClientId } from '../../../trading/liquidation-client-id.ts';
import { moneyText, type SymbolMath } from '../../../trading/pair-figures.ts';
import type { OrderState, TradeState } from '../../../trading/ports.ts';
import {
  BinanceError,
  MSG,
  enumRefusal,
  illegal,
  mandatory,
  notRequired,
  positionSideMessage,
  priceMatchRefusal,
} from '../errors.ts';
import type { Params } from '../params.ts';
import type { FORCE_ORDER, ORDER_ANSWER } from '../response-schemas-orders.ts';
import { CONDITIONAL_TYPES, NEW_ORDER } from '../schemas.ts';

export type Mode = 'hedge' | 'one_way';

export const STATUS = ['', 'NEW', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'REJECTED', 'EXPIRED'] as const;
export const TIF = ['', 'GTC', 'IOC', 'FOK', 'GTX'] as const;
export const SIDES = ['BUY', 'SELL'] as const;
const TIME_IN_FORCE = ['GTC', 'IOC', 'FOK', 'GTX'] as const;
export const POSITION_SIDES = ['BOTH', 'LONG', 'SHORT'] as const;

/** Binance's client order id characters (reference a.5). */
export const CLIENT_ID = /^[.A-Z:/a-z0-9_-]{1,36}$/;

/** Binance's order status; a taker expired by self-trade prevention is EXPIRED_IN_MATCH (reference a.5). */
export function statusName(o: Readonly<Pick<OrderState, 'status' | 'expiredInMatch'>>): string {
  return o.status === OrderStatus.EXPIRED && o.expiredInMatch === true ? 'EXPIRED_IN_MATCH' : STATUS[o.status];
}

export function sideName(side: number): 'BUY' | 'SELL' {
  return side === Side.BUY ? 'BUY' : 'SELL';
}

export function positionSideName(mode: Mode, nativeSide: number): 'BOTH' | 'LONG' | 'SHORT' {
  if (mode === 'one_way') return 'BOTH';
  return nativeSide === PositionSide.SHORT ? 'SHORT' : 'LONG';
}

/**
 * The position mode a recorded order was placed in, so that its record (and its fills') keep the
 * positionSide and reduceOnly they were answered with after the account switches modes (which it
 * may only do with nothing open). One-way orders are stored on LONG: a record on SHORT is a hedge
 * order, and on LONG a sell that opens or a buy that closes is one only one-way mode takes. A buy
 * that opens LONG and a sell that closes it read the same in both modes: named by the mode now.
 */
export function placedMode(o: Pick<OrderState, 'side' | 'positionSide' | 'positionAction'>, modeNow: Mode): Mode {
  if (o.positionSide === PositionSide.SHORT) return 'hedge';
  const hedgeSide = o.positionAction === PositionAction.OPEN ? Side.BUY : Side.SELL;
  return o.side === hedgeSide ? modeNow : 'one_way';
}

/**
 * The position mode a fill was made in: its order's (placedMode). A one-way order is stored on LONG
 * while its fills carry the side of the position they change, so a fill on another side than its
 * order's is one-way; `order` undefined (not found) is the mode now.
 */
export function fillMode(
  t: Pick<TradeState, 'positionSide'>,
  order: Pick<OrderState, 'side' | 'positionSide' | 'positionAction'> | undefined,
  modeNow: Mode,
): Mode {
  if (order === undefined) return modeNow;
  return t.positionSide !== order.positionSide ? 'one_way' : placedMode(order, modeNow);
}

/** A new order's Binance parameters, checked (the single route's, or one entry of a batch). */
export interface NewOrder {
  symbol: string;
  side: 'BUY' | 'SELL';
  type: 'LIMIT' | 'MARKET';
  quantity: string;
  price: string | undefined;
  /** Native time in force (GTC for a market order). */
  tif: number;
  respType: 'ACK' | 'RESULT';
  clientOrderId: string | undefined;
  positionSide: 'BOTH' | 'LONG' | 'SHORT';
  reduceOnly: boolean | undefined;
}

/**
 * A new order's parameters checked. `validated`: the route's schema has already held each one to
 * its type, pattern or values (the single route), so only what the schema cannot say is checked
 * here (what depends on the order type, closePosition); a batch entry's are checked in full.
 */
export function parseNewOrder(q: Params, validated = false): NewOrder {
  // a batch entry, which no schema checks: as POST order's schema checks its parameters (until
  // 2026-12-07 an entry's empty newClientOrderId, positionSide... was read as absent and the order
  // placed, goodTillDate "x" was not looked at, and a symbol off its pattern was -1121, not -1100)
  if (!validated) q.checkAs(NEW_ORDER);
  const symbol = q.required('symbol');
  const side = validated
    ? (q.required('side') as NewOrder['side'])
    : q.oneOf('side', SIDES, () => new BinanceError(-1117, 'Invalid side.'));
  if (side === undefined) throw mandatory('side');
  const type = q.required('type');
  // Binance's conditional types: since its move of them to the Algo Service, POST order refuses them
  if ((CONDITIONAL_TYPES as readonly string[]).includes(type))
    throw new BinanceError(
      -4120,
      `Order type not supported for this endpoint. Please use the Algo Order API endpoints instead. ${type} orders go to POST /fapi/v1/algoOrder with algoType=CONDITIONAL.`,
    );
  if (type !== 'LIMIT' && type !== 'MARKET') throw new BinanceError(-1116, MSG.INVALID_ORDER_TYPE);
  // Close-All goes with STOP_MARKET / TAKE_PROFIT_MARKET only (algo orders, refused above); on a
  // LIMIT or MARKET order Binance refuses it with -4136 before it asks for the quantity such an
  // order needs, as a bot sending closePosition=true sends none
  const closePosition = q.str('closePosition');
  if (closePosition !== undefined && (validated ? closePosition.toLowerCase() === 'true' : q.bool('closePosition')))
    throw new BinanceError(-4136, `Target strategy invalid for orderType ${type},closePosition true`);
  const quantity = q.required('quantity');
  const price = q.str('price');
  let tif: number = TimeInForce.GTC;
  if (type === 'LIMIT') {
    if (price === undefined) throw mandatory('price');
    const name = q.required('timeInForce');
    const i = TIME_IN_FORCE.indexOf(name as (typeof TIME_IN_FORCE)[number]);
    if (i < 0) {
      const reason = name === 'GTD' ? ' GTD is not supported by this venue yet.' : '';
      throw new BinanceError(-1115, `Invalid timeInForce.${reason}`);
    }
    tif = i + 1;
  } else if (price !== undefined) throw notRequired('price');
  const clientOrderId = q.str('newClientOrderId');
  const reduceOnly = q.str('reduceOnly');
  if (validated)
    return {
      symbol,
      side,
      type,
      quantity,
      price,
      tif,
      respType: (q.str('newOrderRespType') as NewOrder['respType'] | undefined) ?? 'ACK',
      clientOrderId,
      positionSide: (q.str('positionSide') as NewOrder['positionSide'] | undefined) ?? 'BOTH',
      reduceOnly: reduceOnly === undefined ? undefined : reduceOnly.toLowerCase() === 'true',
    };
  const priceMatch = q.str('priceMatch');
  if (priceMatch !== undefined && priceMatch !== 'NONE') throw priceMatchRefusal(priceMatch);
  q.oneOf('selfTradePreventionMode', ['NONE', 'EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH'], () =>
    enumRefusal('selfTradePreventionMode'),
  );
  q.oneOf('workingType', ['MARK_PRICE', 'CONTRACT_PRICE'], () => enumRefusal('workingType'));
  q.bool('priceProtect');
  if (clientOrderId !== undefined && !CLIENT_ID.test(clientOrderId)) throw illegal('newClientOrderId');
  return {
    symbol,
    side,
    type,
    quantity,
    price,
    tif,
    respType: q.oneOf('newOrderRespType', ['ACK', 'RESULT'], () => enumRefusal('newOrderRespType')) ?? 'ACK',
    clientOrderId,
    positionSide: q.oneOf('positionSide', POSITION_SIDES, () => enumRefusal('positionSide')) ?? 'BOTH',
    reduceOnly: q.bool('reduceOnly'),
  };
}

/**
 * The native place input of a checked order on pair `symbol` in position mode `mode`: hedge mode
 * takes LONG / SHORT (open or close from the side), one-way takes BOTH (reduceOnly closes).
 */
export function placeInput(o: NewOrder, symbol: string, mode: Mode): OrderInput {
  const side = o.side === 'BUY' ? Side.BUY : Side.SELL;
  let positionSide: number = PositionSide.LONG;
  let action: number;
  if (mode === 'hedge') {
    if (o.positionSide === 'BOTH') throw new BinanceError(-4061, positionSideMessage('hedge'));
    // Binance: reduceOnly "cannot be sent in Hedge Mode", whatever its value (false too); the side
    // and positionSide say whether the order closes
    if (o.reduceOnly !== undefined) throw notRequired('reduceOnly');
    positionSide = o.positionSide === 'LONG' ? PositionSide.LONG : PositionSide.SHORT;
    action = (o.positionSide === 'LONG') === (side === Side.BUY) ? PositionAction.OPEN : PositionAction.CLOSE;
  } else {
    if (o.positionSide !== 'BOTH') throw new BinanceError(-4061, positionSideMessage('one_way'));
    action = o.reduceOnly === true ? PositionAction.CLOSE : PositionAction.OPEN;
  }
  const market = o.type === 'MARKET';
  return {
    symbol,
    side,
    type: market ? OrderType.MARKET : OrderType.LIMIT,
    position_side: positionSide,
    position_action: action,
    qty: o.quantity,
    ...(market ? {} : { price: o.price, time_in_force: o.tif }),
    ...(mode === 'one_way' && o.reduceOnly === true ? { reduce_only: true } : {}),
    ...(o.clientOrderId !== undefined ? { client_order_id: o.clientOrderId } : {}),
  };
}

/** What the place command answered, and what only the order record knows. */
export interface Placed {
  orderId: number;
  clientOrderId: string;
  /** Native status. */
  status: number;
  filledQty: string;
  filledQuote: string;
  /** An expired order that self-trade prevention expired. */
  expiredInMatch: boolean;
  /**
   * The order's quantity as the exchange accepted it, when it may differ from the quantity sent
   * (a reduce-only order is trimmed to its position on entry); absent: the quantity sent.
   */
  qtyLots?: number;
  /** Market time the order was created at. */
  time: number;
}

/** The answer of POST order (response-schemas-orders.ts ORDER_ANSWER: its serializer writes the fields in Binance's order). */
export type PlacedAnswer = Static<typeof ORDER_ANSWER>;

/** The answer of POST order: the order as accepted (ACK) or as the command left it (RESULT). */
export function placedOrder(m: SymbolMath, o: NewOrder, placed: Placed, mode: Mode): PlacedAnswer {
  const ack = o.respType === 'ACK';
  const market = o.type === 'MARKET';
  // an ACK says nothing filled as Binance's does, "0" for the quantities and the quote alike (its
  // New Order example, and live answers ccxt records); RESULT and the queries carry the decimals
  const filled = ack ? '0' : placed.filledQty;
  const quote = ack ? '0' : placed.filledQuote;
  return {
    orderId: placed.orderId,
    symbol: m.symbol,
    status: ack ? 'NEW' : statusName({ status: placed.status, expiredInMatch: placed.expiredInMatch }),
    clientOrderId: placed.clientOrderId,
    price: market ? '0' : m.formatPrice(m.price.mustToUnits(o.price!)),
    avgPrice: averagePrice(m, quote, filled),
    origQty: m.formatQty(placed.qtyLots ?? m.qty.mustToUnits(o.quantity)),
    executedQty: filled,
    cumQty: filled,
    cumQuote: quote,
    timeInForce: TIF[o.tif],
    type: o.type,
    reduceOnly: mode === 'one_way' && o.reduceOnly === true,
    closePosition: false,
    side: o.side,
    positionSide: o.positionSide,
    stopPrice: '0',
    workingType: 'CONTRACT_PRICE',
    priceProtect: false,
    origType: o.type,
    priceMatch: 'NONE',
    selfTradePreventionMode: STP_MODE,
    goodTillDate: 0,
    updateTime: placed.time,
  };
}

/** An order as Binance answers it (cancel / query / lists). */
export function binanceOrder(m: SymbolMath, o: Readonly<OrderState>, modeNow: Mode): Record<string, unknown> {
  const market = o.type === OrderType.MARKET;
  // an order of the history is named in the mode it was placed in, not the account's now
  const mode = placedMode(o, modeNow);
  // a liquidation's or an ADL's close order is Binance's LIQUIDATION order, as the user stream shows it
  const type = isForcedCloseClientId(o.clientOrderId) ? 'LIQUIDATION' : market ? 'MARKET' : 'LIMIT';
  return {
    orderId: o.id,
    symbol: o.symbol,
    status: statusName(o),
    clientOrderId: o.clientOrderId,
    price: market ? '0' : m.formatPrice(o.priceTicks),
    avgPrice: m.averagePrice(o.filledQuote, o.filledLots),
    origQty: m.formatQty(o.qtyLots),
    executedQty: m.formatQty(o.filledLots),
    cumQty: m.formatQty(o.filledLots),
    cumQuote: moneyText(o.filledQuote),
    // a market order's native IOC is an implementation detail; Binance reports GTC for market orders
    timeInForce: market ? 'GTC' : TIF[o.tif],
    type,
    reduceOnly: mode === 'one_way' ? o.reduceOnly : false,
    closePosition: false,
    side: sideName(o.side),
    positionSide: positionSideName(mode, o.positionSide),
    stopPrice: '0',
    workingType: 'CONTRACT_PRICE',
    priceProtect: false,
    origType: type,
    priceMatch: 'NONE',
    selfTradePreventionMode: STP_MODE,
    goodTillDate: 0,
    time: o.createdAt,
    updateTime: o.updatedAt,
  };
}

/**
 * A liquidation's or an ADL's close order as Binance's forceOrders lists it (response-schemas-orders.ts
 * FORCE_ORDER): a LIMIT IOC at the bankruptcy price, its fills what closed; `reduceOnly` false as in
 * Binance's own example of the endpoint (and as every order of a hedge account reads, binanceOrder).
 */
export function forcedOrder(m: SymbolMath, o: Readonly<OrderState>, modeNow: Mode): Static<typeof FORCE_ORDER> {
  const mode = placedMode(o, modeNow);
  return {
    orderId: o.id,
    symbol: o.symbol,
    status: statusName(o),
    clientOrderId: o.clientOrderId,
    price: o.type === OrderType.MARKET ? '0' : m.formatPrice(o.priceTicks),
    avgPrice: m.averagePrice(o.filledQuote, o.filledLots),
    origQty: m.formatQty(o.qtyLots),
    executedQty: m.formatQty(o.filledLots),
    cumQuote: moneyText(o.filledQuote),
    timeInForce: 'IOC',
    type: 'LIMIT',
    reduceOnly: false,
    closePosition: false,
    side: sideName(o.side),
    positionSide: positionSideName(mode, o.positionSide),
    stopPrice: '0',
    workingType: 'CONTRACT_PRICE',
    origType: 'LIMIT',
    time: o.createdAt,
    updateTime: o.updatedAt,
  };
}

/**
 * An order's average fill price, as Binance gives it (avgPrice, the user stream's `ap`): filled
 * quote / filled quantity exactly, at 8 decimals, not rounded to the tick (SymbolMath.averagePrice,
 * the native avg_price's rule); '0' before any fill. For figures the caller holds as text or
 * decimals (an answer's, a record's); an order's own integers go to SymbolMath.averagePrice.
 */
export function averagePrice(m: SymbolMath, quote: Decimal.Value, qty: Decimal.Value): string {
  // the venue's own texts (formatQty, moneyText) are read as they are, without a Decimal each (a
  // placement's answer is one: its figures are the place command's texts)
  const read = typeof qty === 'string' ? m.qty.toUnits(qty, { allowZero: true }) : undefined;
  const lots = read?.ok === true ? read.value : m.qty.mustToUnits(new Decimal(qty).toFixed(), { allowZero: true });
  if (lots === 0) return m.averagePrice(0n, 0);
  const money = typeof quote === 'string' ? MONEY_TEXT.exec(quote) : null;
  return m.averagePrice(
    money !== null ? BigInt(money[1] + money[2]) : BigInt(new Decimal(quote).times(1e8).toFixed(0)),
    lots,
  );
}

/** A quote amount as the venue writes it (moneyText: 8 decimals), its digits the units. */
const MONEY_TEXT = /^(\d+)\.(\d{8})$/;

/**
 * The self-trade prevention the venue applies to every order, whatever `selfTradePreventionMode`
 * was sent (the parameter is accepted, as Binance's whole parameter set is): the order records
 * report it (selfTradePreventionMode, the stream's `V`).
 */
export const STP_MODE = 'EXPIRE_TAKER';

/** A fill as userTrades lists it; `mode` the mode it was made in (fillMode). */
export function binanceTrade(m: SymbolMath, t: TradeState, mode: Mode): Record<string, unknown> {
  return {
    symbol: t.symbol,
    id: t.id,
    orderId: t.orderId,
    side: sideName(t.side),
    price: m.formatPrice(t.priceTicks),
    qty: m.formatQty(t.qtyLots),
    realizedPnl: moneyText(t.realizedPnl),
    marginAsset: 'USDT',
    quoteQty: moneyText(t.quote),
    commission: moneyText(t.fee),
    commissionAsset: 'USDT',
    time: t.createdAt,
    positionSide: positionSideName(mode, t.positionSide),
    buyer: t.side === Side.BUY,
    maker: t.role === TradeRole.MAKER,
  };
}
