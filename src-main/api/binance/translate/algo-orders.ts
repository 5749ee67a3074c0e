// Algo (conditional) orders between Binance and the venue, pure: Binance's `POST /fapi/v1/algoOrder`
// parameters -> the native placeConditional input, native conditional records -> Binance's algo
// order answers (new, query, list) and the user stream's ALGO_UPDATE. Reference: docs/binance.md
// "Algo orders"; the rules of the orders themselves are trading/conditional.ts's.
//
// Invariants: the order a conditional order places goes through placeInput (translate/orders.ts),
// so positionSide, reduceOnly and the hedge-mode rules are the order route's; a parameter the
// venue cannot honour (priceMatch, GTD, priceProtect=TRUE on a trailing stop) is refused by name,
// never ignored. priceProtect=TRUE holds a reached trigger back while last and mark are more than
// triggerProtect apart (trading/conditional-trigger.ts).
// STOP buys and TAKE_PROFIT sells fire as the price rises to triggerPrice, STOP sells and
// TAKE_PROFIT buys as it falls to it; CONTRACT_PRICE (Binance's default) watches the last price.
import {
  ConditionalStatus,
  OrderStatus,
  OrderType,
  PositionAction,
  Side,
  TriggerDirection,
  WorkingType,
} from '../../../../src-shared/enums.ts';
import type { ConditionalOrderRecord } from '../../../../src-shared/types.ts';
import type { ConditionalInput } from '../../../trading/commands.ts';
import type { SymbolMath } from '../../../trading/pair-figures.ts';
import type { OrderState } from '../../../trading/ports.ts';
import { ApiError, errorByCode } from '../../../../src-shared/errors.ts';
import { BinanceError, fromNative, invalidValue, mandatory, notRequired } from '../errors.ts';
import type { Params } from '../params.ts';
import { CONDITIONAL_TYPES as ALGO_TYPES } from '../schemas.ts';
import { placedMode, placeInput, positionSideName, STP_MODE, TIF, type Mode, type NewOrder } from './orders.ts';

type AlgoType = (typeof ALGO_TYPES)[number];
const CLOSE_ALL_TYPES: readonly string[] = ['STOP_MARKET', 'TAKE_PROFIT_MARKET'];
const TIME_IN_FORCE = ['GTC', 'IOC', 'FOK', 'GTX'];
const ZERO = /^0*\.?0*$/;

/** A checked new algo order, and the native input it places. */
export interface AlgoOrder {
  symbol: string;
  type: AlgoType;
  input: ConditionalInput;
}

/** The direction a STOP / TAKE_PROFIT order of `side` fires in (see the invariants). */
function directionOf(type: AlgoType, side: 'BUY' | 'SELL'): number {
  const stop = type === 'STOP' || type === 'STOP_MARKET';
  return stop === (side === 'BUY') ? TriggerDirection.RISES_TO : TriggerDirection.FALLS_TO;
}

/** The trailing or plain trigger fields of the native input. */
function triggerFields(q: Params, type: AlgoType, side: 'BUY' | 'SELL'): Partial<ConditionalInput> {
  // ccxt sends a trailing stop's activation as activationPrice (the old order route's name)
  const activation = q.str('activatePrice') ?? q.str('activationPrice');
  if (type === 'TRAILING_STOP_MARKET') {
    if (q.has('triggerPrice')) throw notRequired('triggerPrice');
    const rate = q.str('callbackRate');
    if (rate === undefined) throw mandatory('callbackRate', '0.1 to 10');
    return { callback_rate: rate, ...(activation === undefined ? {} : { activation_price: activation }) };
  }
  if (q.has('callbackRate')) throw notRequired('callbackRate');
  if (activation !== undefined) throw notRequired(q.has('activatePrice') ? 'activatePrice' : 'activationPrice');
  const trigger = q.str('triggerPrice');
  if (trigger === undefined) throw mandatory('triggerPrice');
  return { trigger_price: trigger, trigger_direction: directionOf(type, side) };
}

/**
 * A new algo order's parameters (the route's schema has checked each one's form) as the native
 * input of a conditional order on pair `symbol` in position mode `mode`.
 */
export function parseAlgoOrder(q: Params, symbol: string, mode: Mode): AlgoOrder {
  const side = q.required('side') as 'BUY' | 'SELL';
  const type = q.required('type');
  if (!(ALGO_TYPES as readonly string[]).includes(type))
    throw new BinanceError(
      -1116,
      `Invalid orderType. The algo order route takes ${ALGO_TYPES.join(', ')}; LIMIT and MARKET orders go to POST /fapi/v1/order.`,
    );
  const t = type as AlgoType;
  const priceMatch = q.str('priceMatch');
  if (priceMatch !== undefined && priceMatch !== 'NONE')
    throw invalidValue('priceMatch', 'priceMatch is not supported by this venue yet: send a price.');
  const priceProtect = q.str('priceProtect')?.toLowerCase() === 'true';
  if (priceProtect && t === 'TRAILING_STOP_MARKET')
    throw invalidValue(
      'priceProtect',
      'Price protection is for STOP and TAKE_PROFIT orders: send FALSE or leave it out on a TRAILING_STOP_MARKET.',
    );
  const limit = t === 'STOP' || t === 'TAKE_PROFIT';
  const tifName = q.str('timeInForce') ?? 'GTC';
  const tif = TIME_IN_FORCE.indexOf(tifName);
  if (tif < 0)
    throw new BinanceError(
      -1115,
      `Invalid timeInForce. ${tifName} is not supported by this venue${tifName === 'GTD' ? ' yet' : ''}.`,
    );
  const price = q.str('price');
  if (limit && price === undefined) throw mandatory('price');
  if (!limit && price !== undefined) throw notRequired('price');
  const close = q.str('closePosition')?.toLowerCase() === 'true';
  const quantity = q.str('quantity');
  if (close) {
    if (!CLOSE_ALL_TYPES.includes(t))
      throw new BinanceError(-4136, `Target strategy invalid for orderType ${t},closePosition true`);
    if (quantity !== undefined && !ZERO.test(quantity))
      throw new BinanceError(-4137, 'Quantity must be zero with closePosition equals true');
    if (q.has('reduceOnly')) throw notRequired('reduceOnly');
  } else if (quantity === undefined) throw mandatory('quantity');
  const reduceOnly = q.str('reduceOnly');
  const order: NewOrder = {
    symbol,
    side,
    type: limit ? 'LIMIT' : 'MARKET',
    quantity: close ? '0' : quantity!,
    price,
    tif: tif + 1,
    respType: 'ACK',
    clientOrderId: q.str('clientAlgoId'),
    positionSide: (q.str('positionSide') as NewOrder['positionSide'] | undefined) ?? 'BOTH',
    reduceOnly: reduceOnly === undefined ? undefined : reduceOnly.toLowerCase() === 'true',
  };
  const { qty, ...placed } = placeInput(order, symbol, mode);
  if (close && mode === 'hedge' && (order.positionSide === 'LONG') === (side === 'BUY'))
    throw invalidValue(
      'closePosition',
      `A Close-All ${side} closes the ${side === 'BUY' ? 'SHORT' : 'LONG'} position: send positionSide ${side === 'BUY' ? 'SHORT' : 'LONG'}.`,
    );
  const input: ConditionalInput = {
    ...placed,
    // a Close-All is a close in either mode (one-way sends no reduceOnly with it: placeInput read an open)
    ...(close ? { close_position: true, position_action: PositionAction.CLOSE } : { qty }),
    ...triggerFields(q, t, side),
    working_type: q.str('workingType') === 'MARK_PRICE' ? WorkingType.MARK_PRICE : WorkingType.LAST_PRICE,
    ...(priceProtect ? { price_protect: true } : {}),
  };
  return { symbol, type: t, input };
}

/** Binance's order type of a conditional record. */
function algoTypeOf(r: ConditionalOrderRecord): AlgoType {
  if (r.callback_rate !== null) return 'TRAILING_STOP_MARKET';
  const rises = r.trigger_direction === TriggerDirection.RISES_TO;
  const stop = rises === (r.side === Side.BUY);
  const market = r.type === OrderType.MARKET;
  if (stop) return market ? 'STOP_MARKET' : 'STOP';
  return market ? 'TAKE_PROFIT_MARKET' : 'TAKE_PROFIT';
}

/**
 * Binance's algoStatus: a triggered one is TRIGGERED while the order it placed is open, FINISHED
 * once that order has ended (`actual` the order, when it was placed).
 */
export function algoStatus(r: ConditionalOrderRecord, actual: Readonly<OrderState> | undefined): string {
  switch (r.status) {
    case ConditionalStatus.NEW:
      return 'NEW';
    case ConditionalStatus.CANCELED:
      return 'CANCELED';
    case ConditionalStatus.REJECTED:
      return 'REJECTED';
    default:
      return actual !== undefined &&
        (actual.status === OrderStatus.NEW || actual.status === OrderStatus.PARTIALLY_FILLED)
        ? 'TRIGGERED'
        : 'FINISHED';
  }
}

/**
 * When an algo order last changed: a fired one whose order has ended since changed then (FINISHED
 * at the order's end: its cancel, expiry or last fill), else the record's own update time.
 */
function algoUpdatedAt(r: ConditionalOrderRecord, actual: Readonly<OrderState> | undefined): number {
  if (actual === undefined || algoStatus(r, actual) !== 'FINISHED') return r.updated_at;
  return Math.max(r.updated_at, actual.updatedAt);
}

/** Which answer: POST algoOrder's, GET algoOrder's, or an entry of openAlgoOrders / allAlgoOrders. */
export type AlgoShape = 'new' | 'query' | 'list';

/** The fields every shape shares, up to algoStatus, in Binance's order. */
function head(m: SymbolMath, r: ConditionalOrderRecord, mode: Mode, status: string) {
  const type = algoTypeOf(r);
  const market = r.type === OrderType.MARKET;
  return {
    algoId: Number(r.id),
    clientAlgoId: r.client_order_id,
    algoType: 'CONDITIONAL',
    orderType: type,
    symbol: r.symbol,
    side: r.side === Side.BUY ? 'BUY' : 'SELL',
    positionSide: positionSideName(mode, r.position_side),
    timeInForce: market ? 'GTC' : TIF[r.time_in_force],
    quantity: r.qty ?? m.formatQty(0),
    algoStatus: status,
  };
}

/** The order a triggered algo order placed, as Binance's actual* fields show it. */
function actualFields(m: SymbolMath, actual: Readonly<OrderState> | undefined) {
  if (actual === undefined) return { actualOrderId: '', actualPrice: '0' };
  return {
    actualOrderId: String(actual.id),
    actualPrice: m.averagePrice(actual.filledQuote, actual.filledLots),
  };
}

/**
 * The position mode a conditional record was placed in (placedMode's rule; a reduce-only one that
 * opens, which hedge mode refuses, is one-way too).
 */
function algoPlacedMode(r: ConditionalOrderRecord, modeNow: Mode): Mode {
  if (r.reduce_only && r.position_action === PositionAction.OPEN) return 'one_way';
  return placedMode({ side: r.side, positionSide: r.position_side, positionAction: r.position_action }, modeNow);
}

/** An algo order as Binance answers it (`actual`: the order it placed, when it fired). */
export function binanceAlgoOrder(
  m: SymbolMath,
  r: ConditionalOrderRecord,
  modeNow: Mode,
  shape: AlgoShape,
  actual?: Readonly<OrderState>,
): Record<string, unknown> {
  // a past algo order is named in the mode it was placed in, not the account's now
  const mode = algoPlacedMode(r, modeNow);
  const trailing = r.callback_rate !== null;
  const zero = m.formatPrice(0);
  const out: Record<string, unknown> = { ...head(m, r, mode, algoStatus(r, actual)) };
  if (shape !== 'new') Object.assign(out, actualFields(m, actual));
  if (shape === 'query')
    Object.assign(out, {
      actualType: actual === undefined ? '' : actual.type === OrderType.MARKET ? 'MARKET' : 'LIMIT',
      actualQty: actual === undefined ? '0' : m.formatQty(actual.filledLots),
    });
  Object.assign(out, { triggerPrice: r.trigger_price, price: r.price, icebergQuantity: null });
  if (shape === 'list')
    Object.assign(out, { tpTriggerPrice: zero, tpPrice: zero, slTriggerPrice: zero, slPrice: zero });
  if (shape !== 'new') out.tpOrderType = '';
  Object.assign(out, {
    selfTradePreventionMode: STP_MODE,
    workingType: r.working_type === WorkingType.MARK_PRICE ? 'MARK_PRICE' : 'CONTRACT_PRICE',
    priceMatch: 'NONE',
    closePosition: r.close_position,
    priceProtect: r.price_protect,
    reduceOnly: mode === 'one_way' ? r.reduce_only : false,
  });
  if (shape === 'new' || trailing)
    Object.assign(out, { activatePrice: r.activation_price ?? '', callbackRate: r.callback_rate ?? '' });
  return Object.assign(out, {
    createTime: r.created_at,
    updateTime: algoUpdatedAt(r, actual),
    triggerTime: r.triggered_at ?? 0,
    goodTillDate: 0,
  });
}

/** Why a fired algo order's order was refused, as Binance says it (the order route's code turned into its text). */
function rejectText(r: ConditionalOrderRecord): string {
  const def = r.reject_code === null ? undefined : errorByCode(r.reject_code);
  if (def === undefined) return r.reject_reason ?? '';
  const e = fromNative(new ApiError(def, r.reject_reason ?? undefined), { side: r.side === Side.BUY ? 'BUY' : 'SELL' });
  return `${e.code} ${e.message}`;
}

/** The user stream's ALGO_UPDATE for a conditional record (`status`: Binance's algoStatus to show). */
export function algoUpdate(
  m: SymbolMath,
  r: ConditionalOrderRecord,
  mode: Mode,
  o: { now: number; status: string; actual?: Readonly<OrderState> },
): { e: string } & Record<string, unknown> {
  const h = head(m, r, mode, o.status);
  const a = o.actual;
  return {
    e: 'ALGO_UPDATE',
    // the transaction's time: FINISHED is the end of the order it placed, which may come later
    T: o.status === 'FINISHED' ? algoUpdatedAt(r, a) : r.updated_at,
    E: o.now,
    o: {
      caid: h.clientAlgoId,
      aid: h.algoId,
      at: h.algoType,
      o: h.orderType,
      s: h.symbol,
      S: h.side,
      ps: h.positionSide,
      f: h.timeInForce,
      q: h.quantity,
      X: o.status,
      ai: a === undefined ? '' : String(a.id),
      ap: a === undefined ? '0' : m.averagePrice(a.filledQuote, a.filledLots),
      aq: a === undefined ? '0' : m.formatQty(a.filledLots),
      act: a === undefined ? '0' : a.type === OrderType.MARKET ? 'MARKET' : 'LIMIT',
      tp: r.trigger_price,
      p: r.price,
      V: STP_MODE,
      wt: r.working_type === WorkingType.MARK_PRICE ? 'MARK_PRICE' : 'CONTRACT_PRICE',
      pm: 'NONE',
      cp: r.close_position,
      pP: r.price_protect,
      R: mode === 'one_way' ? r.reduce_only : false,
      tt: r.triggered_at ?? 0,
      gtd: 0,
      rm: rejectText(r),
    },
  };
}
