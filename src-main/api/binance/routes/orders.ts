// Order routes of the facade (signed): place, modify, query, cancel, batches, open orders. Each
// handler checks Binance's parameters through the translation layer (translate/orders.ts), runs
// one native command through the venue, and answers Binance's order record.
//
// Where the native core answers differently from Binance, the translation is named: reduceOnly
// in hedge mode is -1106; a modification that changes nothing is -5027; a post-only order that
// would take (native 3022) is -5022 and a FOK that cannot fill (3023) -5021.
import type { FastifyInstance } from 'fastify';
import { ApiError, Errors } from '../../../../src-shared/errors.ts';
import { OrderStatus } from '../../../../src-shared/enums.ts';
import type { PlacementResult } from '../../../../src-shared/types.ts';
import type { PairView } from '../../../trading/pair-state.ts';
import type { OrderState } from '../../../trading/ports.ts';
import { enter, pairOf, signedRequest, translated, type BinanceContext, type Signed } from '../context.ts';
import { MODIFY_ORDER, routeSchema } from '../schemas.ts';
import {
  BinanceError,
  MSG,
  binanceErrorOf,
  enumRefusal,
  fromNative,
  illegal,
  invalidValue,
  mandatory,
  positionSideMessage,
  priceMatchRefusal,
  type ErrorContext,
} from '../errors.ts';
import { duplicated, Params } from '../params.ts';
import {
  binanceOrder,
  CLIENT_ID,
  parseNewOrder,
  placedOrder,
  placeInput,
  POSITION_SIDES,
  positionSideName,
  sideName,
  SIDES,
  type Mode,
  type NewOrder,
  type PlacedAnswer,
} from '../translate/orders.ts';

/** Binance's batch sizes: 5 new orders, 10 cancels a request. */
const BATCH_NEW_MAX = 5;
const BATCH_CANCEL_MAX = 10;
/** Binance's weight of a batch of new or modified orders (IP and order limits alike). */
const BATCH_WEIGHT = 5;
const BOTH_EMPTY = (a: string, b: string) =>
  new BinanceError(-1102, `Param '${a}' or '${b}' must be sent, but both were empty/null!`);

/** A parameter holding a JSON array of 1 to `max` entries (batchOrders, orderIdList, ...), else -1102 / -1130. */
function jsonList(q: Params, name: string, max: number): unknown[] {
  const text = q.required(name);
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch {
    throw invalidValue(name, 'It must be a JSON array.');
  }
  if (!Array.isArray(list) || list.length === 0) throw invalidValue(name, 'It must be a non-empty JSON array.');
  if (list.length > max) throw invalidValue(name, `At most ${max} entries a request.`);
  return list;
}

/** One entry of batchOrders (a JSON object of parameters) as parameters. */
function batchEntry(e: unknown): Params {
  if (e === null || typeof e !== 'object' || Array.isArray(e))
    throw invalidValue('batchOrders', 'Each order is a JSON object of parameters.');
  const values: Record<string, string> = Object.create(null);
  for (const [k, v] of Object.entries(e as Record<string, unknown>)) {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') values[k] = String(v);
    else if (v !== null)
      throw invalidValue('batchOrders', `Parameter '${k}' of an order must be a string, number or boolean.`);
  }
  return Params.of(values);
}

/**
 * The entries of a batch run one after the other (with a replay's order latency each waits for
 * its own arrival), each answered in its place: what `run` answers, or that entry's {code, msg}.
 */
async function eachEntry<T>(
  entries: T[],
  run: (entry: T) => unknown,
  context: (entry: T) => ErrorContext,
): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const entry of entries) {
    try {
      out.push(await run(entry));
    } catch (err) {
      const e = binanceErrorOf(err, context(entry));
      out.push({ code: e.code, msg: e.message });
    }
  }
  return out;
}

/** The error context of a new or modified order entry (its side, the account's mode). */
const orderContext =
  (s: Signed) =>
  (q: Params): ErrorContext => ({ side: q.str('side'), positionMode: s.mode });

/** A batch of new or modified orders weighs 5 in both rate limits, as on Binance (index.ts reads `weight`). */
const batchRoute = (method: 'POST' | 'PUT') => ({
  ...routeSchema(method, '/fapi/v1/batchOrders'),
  config: { weight: BATCH_WEIGHT },
});

/**
 * A modification's positionSide that is not its order's (BOTH on a one-way account, the order's
 * LONG / SHORT on a hedge one): -4061, as Binance answers a position side that does not match the
 * account's setting (PUT order reads the account's live mode).
 */
function positionSideRefusal(s: Signed, o: Readonly<OrderState>, sent: string): never {
  const own = positionSideName(s.mode, o.positionSide);
  if (s.mode === 'one_way' || sent === 'BOTH') throw new BinanceError(-4061, positionSideMessage(s.mode));
  throw new BinanceError(
    -4061,
    `${MSG.POSITION_SIDE} Order ${o.id} is on ${own}; its positionSide cannot be modified.`,
  );
}

export function registerOrders(app: FastifyInstance, ctx: BinanceContext): void {
  const { venue } = ctx;
  const ex = venue.exchange;
  const orderOf = (s: Signed, o: Readonly<OrderState>) => binanceOrder(ex.pair(o.symbol)!.math, o, s.mode);

  /** The account's order named by orderId or origClientOrderId on `symbol`, else -2013. */
  const findOrder = (s: Signed, symbol: string, q = s.q): Readonly<OrderState> => {
    const id = q.int('orderId', 1);
    const cid = q.str('origClientOrderId');
    if (id === undefined && cid === undefined) throw BOTH_EMPTY('orderId', 'origClientOrderId');
    const o = id !== undefined ? ex.liveOrder(s.account.id, id) : ex.liveOrderByClientId(s.account.id, cid!, symbol);
    if (o === undefined || o.accountId !== s.account.id || o.symbol !== symbol)
      throw new BinanceError(-2013, MSG.ORDER_NOT_EXIST);
    return o;
  };

  /** The native input in the cached mode; refused there, decided again in the live one. */
  const inputFor = (s: Signed, o: NewOrder, symbol: string) => {
    try {
      return placeInput(o, symbol, s.mode);
    } catch (err) {
      const live: Mode = ex.summary(s.account.id).position_mode;
      if (!(err instanceof BinanceError) || live === s.mode) throw err;
      s.mode = live;
      return placeInput(o, symbol, live);
    }
  };

  /** Binance's answer to a placement the place command answered `r` (`ranAt`: the market time it ran at, its fills' time, when known). */
  const placedAnswer = (s: Signed, o: NewOrder, pair: PairView, r: PlacementResult, ranAt: number | null) => {
    const id = Number(r.order_id);
    // a resting order's own creation time (a map read); a finished one's is the time the command
    // ran (it is no longer live, and liveOrder would read its stored row, flushing the turn's writes)
    const rests = r.status === OrderStatus.NEW || r.status === OrderStatus.PARTIALLY_FILLED;
    const live = rests ? ex.liveOrder(s.account.id, id) : undefined;
    const time = live?.createdAt ?? ranAt ?? venue.trading.order(id)!.createdAt;
    // A reduce-only order (one-way reduceOnly, any hedge close) was trimmed to its position on
    // entry: its quantity is the record's. An expired order may be a self-trade's
    // EXPIRED_IN_MATCH, which only the record says. Those are the only reads of the record on
    // this route (closes, and expired orders answered in full).
    const reduces = s.mode === 'one_way' ? o.reduceOnly === true : (o.positionSide === 'LONG') !== (o.side === 'BUY');
    const expired = r.status === OrderStatus.EXPIRED && o.respType === 'RESULT';
    const record = reduces || expired ? (live ?? venue.trading.order(id)) : undefined;
    const placed = {
      orderId: id,
      clientOrderId: r.client_order_id,
      status: r.status,
      filledQty: r.filled_qty,
      filledQuote: r.filled_quote,
      expiredInMatch: expired && record?.expiredInMatch === true,
      time,
      ...(reduces && record !== undefined ? { qtyLots: record.qtyLots } : {}),
    };
    return placedOrder(pair.math, o, placed, s.mode);
  };

  /**
   * One new order through the exchange's place command; Binance's order answer (ACK or RESULT):
   * at once when the command ran at once, else when it has run (a replay's order latency).
   * `validated`: the route's schema has checked the parameters (a batch entry's are not).
   */
  const placeOrder = (s: Signed, q: Params, validated: boolean): PlacedAnswer | Promise<PlacedAnswer> => {
    const o = parseNewOrder(q, validated);
    const pair = pairOf(ctx, o.symbol);
    const input = inputFor(s, o, pair.row.symbol);
    const entered = enter(
      ctx,
      { kind: 'place', accountId: s.account.id, input },
      { side: o.side, positionMode: s.mode },
      s,
    );
    // with a replay's latency the command runs later, at the order's creation time
    if (entered instanceof Promise) return entered.then((r) => placedAnswer(s, o, pair, r, null));
    return placedAnswer(s, o, pair, entered, ex.lastCommandTime);
  };

  // A handler that answers at once (no promise, no microtask turn) when the command ran at once.
  app.post('/fapi/v1/order', routeSchema('POST', '/fapi/v1/order'), (req, reply) => {
    const s = signedRequest(ctx, req, false);
    const answer = placeOrder(s, s.q, true);
    if (answer instanceof Promise) return answer;
    reply.send(answer);
    return undefined;
  });

  // Binance's New Order Test: the parameters and every check a placement meets (filters, margin,
  // reduce-only, post-only / fill-or-kill against the book) as the account stands now, with the
  // same codes; nothing is placed, frozen or stored, no order id is taken. Answers {}.
  app.post('/fapi/v1/order/test', routeSchema('POST', '/fapi/v1/order/test'), (req, reply) => {
    const s = signedRequest(ctx, req, false);
    const o = parseNewOrder(s.q, true);
    const pair = pairOf(ctx, o.symbol);
    const input = inputFor(s, o, pair.row.symbol);
    try {
      ex.checkOrder(s.account.id, input);
    } catch (err) {
      translated(ctx, err, { side: o.side, positionMode: s.mode }, s);
    }
    reply.send({});
  });

  // Batches: each entry runs alone, in the order sent, through the same command as a single
  // order, answered in its place with the order or its own {code, msg}.
  app.post('/fapi/v1/batchOrders', batchRoute('POST'), async (req) => {
    const s = signedRequest(ctx, req, false);
    const entries = jsonList(s.q, 'batchOrders', BATCH_NEW_MAX).map(batchEntry);
    return eachEntry(entries, (q) => placeOrder(s, q, false), orderContext(s));
  });

  app.delete('/fapi/v1/batchOrders', routeSchema('DELETE', '/fapi/v1/batchOrders'), async (req) => {
    const s = signedRequest(ctx, req);
    const symbol = pairOf(ctx, s.q.required('symbol')).row.symbol;
    // ccxt sends the lists' names in lower case; Binance takes either, and one list sent in both
    // spellings is one parameter sent twice (-1101), not one of its values dropped
    const idName = s.q.has('orderIdList') ? 'orderIdList' : 'orderidlist';
    const cidName = s.q.has('origClientOrderIdList') ? 'origClientOrderIdList' : 'origclientorderidlist';
    if (idName === 'orderIdList' && s.q.has('orderidlist')) throw duplicated(idName, 'orderidlist');
    if (cidName === 'origClientOrderIdList' && s.q.has('origclientorderidlist'))
      throw duplicated(cidName, 'origclientorderidlist');
    if (!s.q.has(idName) && !s.q.has(cidName)) throw BOTH_EMPTY('orderIdList', 'origClientOrderIdList');
    // Binance takes "either" list; both is refused before anything runs, not one of them dropped
    if (s.q.has(idName) && s.q.has(cidName))
      throw new BinanceError(
        -1128,
        'Combination of optional parameters invalid. Send orderIdList or origClientOrderIdList, not both.',
      );
    const targets = s.q.has(idName)
      ? jsonList(s.q, idName, BATCH_CANCEL_MAX).map((v) => {
          const id = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,16}$/.test(v) ? Number(v) : NaN;
          if (!Number.isSafeInteger(id) || id < 1) throw invalidValue(idName, 'Order ids are positive integers.');
          return { orderId: id };
        })
      : jsonList(s.q, cidName, BATCH_CANCEL_MAX).map((v) => {
          if (typeof v !== 'string' || !CLIENT_ID.test(v)) throw illegal('origClientOrderId');
          return { clientOrderId: v };
        });
    const cancelled = async (t: (typeof targets)[number]) => {
      const rec = await enter(ctx, { kind: 'cancel', accountId: s.account.id, symbol, ...t }, { method: 'DELETE' });
      return orderOf(s, venue.trading.order(Number(rec.id))!);
    };
    return eachEntry(targets, cancelled, () => ({ method: 'DELETE' }));
  });

  /**
   * Modify (ccxt editOrder): a resting LIMIT order's price and total quantity through the
   * exchange's amend command (Binance's rules: the order goes to the back of its queue; an
   * amendment to a quantity not above what has filled, or a post-only price that would take,
   * cancels it). `validated`: the route's schema has checked the parameters (a batch entry's are
   * checked here).
   */
  const modifyOrder = async (s: Signed, q: Params, validated: boolean) => {
    // a batch entry, which no schema checks: as PUT order's schema checks its parameters (until
    // 2026-12-07 an entry's empty positionSide, origType, priceMatch or orderId was read as absent
    // and the modification made, and a symbol off its pattern was -1121, not -1100)
    if (!validated) q.checkAs(MODIFY_ORDER);
    const pair = pairOf(ctx, q.required('symbol'));
    const symbol = pair.row.symbol;
    const side = q.oneOf('side', SIDES, () => new BinanceError(-1117, 'Invalid side.'));
    if (side === undefined) throw mandatory('side');
    const quantity = q.required('quantity');
    const priceMatch = q.str('priceMatch');
    if (priceMatch !== undefined && priceMatch !== 'NONE') throw priceMatchRefusal(priceMatch);
    const price = q.required('price');
    q.oneOf('origType', ['LIMIT']);
    const positionSide = q.oneOf('positionSide', POSITION_SIDES, () => enumRefusal('positionSide'));
    const o = findOrder(s, symbol, q);
    if (o.status !== OrderStatus.NEW && o.status !== OrderStatus.PARTIALLY_FILLED)
      throw new BinanceError(-2013, MSG.ORDER_NOT_EXIST);
    if (sideName(o.side) !== side)
      throw invalidValue('side', `Order ${o.id} is a ${sideName(o.side)}; side cannot be modified.`);
    if (positionSide !== undefined && positionSide !== positionSideName(s.mode, o.positionSide))
      positionSideRefusal(s, o, positionSide);
    const m = pair.math;
    const p = m.price.toUnits(price);
    const n = m.qty.toUnits(quantity);
    if (p.ok && n.ok && p.value === o.priceTicks && n.value === o.qtyLots) throw new BinanceError(-5027, MSG.NO_MODIFY);
    try {
      await venue.submit({ kind: 'amend', accountId: s.account.id, symbol, orderId: o.id, price, qty: quantity });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      // the order finished between the look-up and the command: as Binance, it does not exist
      if (err.def === Errors.ORDER_NOT_FOUND || err.def === Errors.ORDER_NOT_CANCELLABLE)
        throw new BinanceError(-2013, MSG.ORDER_NOT_EXIST);
      throw fromNative(err, { side, positionMode: s.mode });
    }
    return orderOf(s, ex.liveOrder(s.account.id, o.id)!);
  };

  app.put('/fapi/v1/order', routeSchema('PUT', '/fapi/v1/order'), async (req) => {
    const s = signedRequest(ctx, req);
    return modifyOrder(s, s.q, true);
  });

  // Binance's "Modify Multiple Orders": up to 5 modifications, each run alone in the order sent
  // as PUT order runs it, answered in its place with the order or its own {code, msg}.
  app.put('/fapi/v1/batchOrders', batchRoute('PUT'), async (req) => {
    const s = signedRequest(ctx, req);
    const entries = jsonList(s.q, 'batchOrders', BATCH_NEW_MAX).map(batchEntry);
    return eachEntry(entries, (q) => modifyOrder(s, q, false), orderContext(s));
  });

  app.get('/fapi/v1/order', routeSchema('GET', '/fapi/v1/order'), async (req) => {
    const s = signedRequest(ctx, req);
    return orderOf(s, findOrder(s, pairOf(ctx, s.q.required('symbol')).row.symbol));
  });

  app.delete('/fapi/v1/order', routeSchema('DELETE', '/fapi/v1/order'), async (req) => {
    const s = signedRequest(ctx, req);
    const symbol = pairOf(ctx, s.q.required('symbol')).row.symbol;
    const orderId = s.q.int('orderId', 1);
    const clientOrderId = s.q.str('origClientOrderId');
    if (orderId === undefined && clientOrderId === undefined) throw BOTH_EMPTY('orderId', 'origClientOrderId');
    const which = orderId !== undefined ? { orderId } : { clientOrderId };
    const rec = await enter(ctx, { kind: 'cancel', accountId: s.account.id, symbol, ...which }, { method: 'DELETE' });
    return orderOf(s, venue.trading.order(Number(rec.id))!);
  });

  app.delete('/fapi/v1/allOpenOrders', routeSchema('DELETE', '/fapi/v1/allOpenOrders'), async (req) => {
    const s = signedRequest(ctx, req);
    const symbol = pairOf(ctx, s.q.required('symbol')).row.symbol;
    await enter(ctx, { kind: 'cancelAll', accountId: s.account.id, symbol }, { method: 'DELETE' });
    return { code: 200, msg: 'The operation of cancel all open order is done.' };
  });

  app.get('/fapi/v1/openOrders', routeSchema('GET', '/fapi/v1/openOrders'), async (req) => {
    const s = signedRequest(ctx, req);
    const text = s.q.str('symbol');
    const symbol = text === undefined ? undefined : pairOf(ctx, text).row.symbol;
    return ex.openOrders(s.account.id, symbol).map((r) => orderOf(s, ex.liveOrder(s.account.id, Number(r.id))!));
  });

  app.get('/fapi/v1/openOrder', routeSchema('GET', '/fapi/v1/openOrder'), async (req) => {
    const s = signedRequest(ctx, req);
    const o = findOrder(s, pairOf(ctx, s.q.required('symbol')).row.symbol);
    if (o.status !== OrderStatus.NEW && o.status !== OrderStatus.PARTIALLY_FILLED)
      throw new BinanceError(-2013, MSG.ORDER_NOT_EXIST);
    return orderOf(s, o);
  });
}
