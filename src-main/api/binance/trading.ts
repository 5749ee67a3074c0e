// Signed trading and account routes of the facade (reference section 2 d.1, REST signed and
// API-key only). Each translates Binance parameters into one native command sent through
// Exchange.execute, or reads the native views (exchange.summary / positions / pairSetting, the
// trading repository's order and trade history), and answers Binance's record shapes.
//
// Where the native core answers differently from Binance, the translation is here and named:
// no-op margin-type and position-mode changes are -4046 / -4059 (native answers success);
// reduceOnly in hedge mode is -1106; a modification that changes nothing is -5027. A post-only order that would take (native 3022) is -5022 and
// a FOK that cannot fill (3023) -5021: the core refuses both before the engine sees them.
import { Decimal } from 'decimal.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../../src-shared/errors.ts';
import {
  MarginMode,
  OrderStatus,
  OrderType,
  PositionAction,
  PositionSide,
  Side,
  TimeInForce,
} from '../../../src-shared/enums.ts';
import type { Account } from '../../core/account.ts';
import { maxNotionalFor } from '../../risk/tiers.ts';
import { TransferKind, type OrderState, type TradeState } from '../../trading/ports.ts';
import type { Command, ResultOf } from '../../trading/exchange.ts';
import { bodyText, listedPairs, pairOf, paramsOf, type BinanceContext } from './context.ts';
import {
  BinanceError,
  MSG,
  binanceErrorOf,
  fromNative,
  positionSideMessage,
  illegal,
  invalidValue,
  mandatory,
  notRequired,
  type ErrorContext,
} from './errors.ts';
import { Params, queryOf } from './params.ts';
import {
  binanceOrder,
  binancePosition,
  binanceTrade,
  STATUS,
  statusName,
  TIF,
  usdtAsset,
  type Mode,
} from './records.ts';
import { verifySigned, accountByKey } from './signing.ts';

/** Binance's client order id characters (reference a.5). */
const CLIENT_ID = /^[.A-Z:/a-z0-9_-]{1,36}$/;
const HISTORY_PAGE = 500;
/** Binance's batch sizes: 5 new orders, 10 cancels a request. */
const BATCH_NEW_MAX = 5;
const BATCH_CANCEL_MAX = 10;

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

interface Signed {
  account: Account;
  q: Params;
  mode: Mode;
}

export function registerTrading(app: FastifyInstance, ctx: BinanceContext): void {
  const { venue } = ctx;
  const ex = venue.exchange;

  const signed = (req: FastifyRequest, live = true): Signed => {
    const q = paramsOf(req);
    const account = verifySigned(ctx.auth, req, queryOf(req.url), bodyText(req), q);
    // The live mode; the cached account row may predate a change made through the native
    // POST /fapi/v1/positionMode, which does not invalidate the cache. Order placement, the hot
    // route, takes the cached one (a stale one makes the core refuse, and run() then names the
    // live mode).
    const mode = live ? ex.summary(account.id).position_mode : account.positionMode;
    return { account, q, mode };
  };

  /** Runs a native command, its errors in Binance's terms. */
  const run = <C extends Command>(c: C, ectx: ErrorContext, s?: Signed) => {
    try {
      return ex.execute(c);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      // the account row the mode came from is a cached snapshot: the refusal names the live mode
      if (s !== undefined && err.def.code === 3012)
        ectx = { ...ectx, positionMode: ex.summary(s.account.id).position_mode };
      throw fromNative(err, ectx);
    }
  };

  /**
   * Order entry (an order or a cancel): through the venue's submit, so a replay's order latency
   * applies. Synchronous (the answer at once) unless the venue delays it; errors in Binance's terms.
   */
  const enter = <C extends Command>(c: C, ectx: ErrorContext, s?: Signed): ResultOf<C> | Promise<ResultOf<C>> => {
    const fail = (err: unknown): never => {
      if (!(err instanceof ApiError)) throw err;
      if (s !== undefined && err.def.code === 3012)
        ectx = { ...ectx, positionMode: ex.summary(s.account.id).position_mode };
      throw fromNative(err, ectx);
    };
    let r: ResultOf<C> | Promise<ResultOf<C>>;
    try {
      r = venue.submit(c);
    } catch (err) {
      return fail(err);
    }
    return r instanceof Promise ? r.catch(fail) : r;
  };

  const orderOf = (s: Signed, o: Readonly<OrderState>) => binanceOrder(ex.pair(o.symbol)!.math, o, s.mode);

  /** The account's order named by orderId or origClientOrderId on `symbol`, else -2013. */
  const findOrder = (s: Signed, symbol: string): Readonly<OrderState> => {
    const id = s.q.int('orderId', 1);
    const cid = s.q.str('origClientOrderId');
    if (id === undefined && cid === undefined)
      throw new BinanceError(-1102, "Param 'orderId' or 'origClientOrderId' must be sent, but both were empty/null!");
    const o = id !== undefined ? ex.liveOrder(s.account.id, id) : ex.liveOrderByClientId(s.account.id, cid!, symbol);
    if (o === undefined || o.accountId !== s.account.id || o.symbol !== symbol)
      throw new BinanceError(-2013, MSG.ORDER_NOT_EXIST);
    return o;
  };

  // ---------------------------------------------------------------- orders

  /**
   * One new order from its Binance parameters `q` (the single route's, or one entry of a batch),
   * through the exchange's place command; answers Binance's order (ACK or RESULT).
   */
  const placeOrder = async (s: Signed, q: Params): Promise<Record<string, unknown>> => {
    const pair = pairOf(ctx, q.required('symbol'));
    const symbol = pair.row.symbol;
    const sideName = q.required('side');
    if (sideName !== 'BUY' && sideName !== 'SELL') throw new BinanceError(-1117, 'Invalid side.');
    const typeName = q.required('type');
    if (typeName !== 'LIMIT' && typeName !== 'MARKET') {
      const known = ['STOP', 'STOP_MARKET', 'TAKE_PROFIT', 'TAKE_PROFIT_MARKET', 'TRAILING_STOP_MARKET'].includes(
        typeName,
      );
      throw new BinanceError(
        -1116,
        known
          ? `${MSG.INVALID_ORDER_TYPE} ${typeName} orders are not supported by this venue yet.`
          : MSG.INVALID_ORDER_TYPE,
      );
    }
    const side = sideName === 'BUY' ? Side.BUY : Side.SELL;
    const market = typeName === 'MARKET';
    if (q.bool('closePosition') === true)
      throw invalidValue('closePosition', 'closePosition orders are not supported by this venue yet.');
    const quantity = q.required('quantity');
    const price = q.str('price');
    let tif: number = TimeInForce.GTC;
    const tifName = q.str('timeInForce');
    if (!market) {
      if (price === undefined) throw mandatory('price');
      if (tifName === undefined) throw mandatory('timeInForce');
      const i = ['GTC', 'IOC', 'FOK', 'GTX'].indexOf(tifName);
      if (i < 0)
        throw new BinanceError(
          -1115,
          tifName === 'GTD' ? 'Invalid timeInForce. GTD is not supported by this venue yet.' : 'Invalid timeInForce.',
        );
      tif = i + 1;
    } else if (price !== undefined) throw notRequired('price');
    const priceMatch = q.str('priceMatch');
    if (priceMatch !== undefined && priceMatch !== 'NONE')
      throw invalidValue('priceMatch', 'priceMatch is not supported by this venue yet.');
    q.oneOf('selfTradePreventionMode', ['NONE', 'EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH']);
    q.oneOf('workingType', ['MARK_PRICE', 'CONTRACT_PRICE']);
    q.bool('priceProtect');
    const respType = q.oneOf('newOrderRespType', ['ACK', 'RESULT']) ?? 'ACK';
    const cid = q.str('newClientOrderId');
    if (cid !== undefined && !CLIENT_ID.test(cid)) throw illegal('newClientOrderId');
    const ps =
      q.oneOf('positionSide', ['BOTH', 'LONG', 'SHORT'], () => new BinanceError(-4006, 'Position side is invalid.')) ??
      'BOTH';
    const reduceOnly = q.bool('reduceOnly');
    const translate = (mode: Mode): { positionSide: number; action: number } => {
      if (mode === 'hedge') {
        if (ps === 'BOTH') throw new BinanceError(-4061, positionSideMessage('hedge'));
        if (reduceOnly === true) throw notRequired('reduceOnly');
        const open = (ps === 'LONG') === (side === Side.BUY);
        return {
          positionSide: ps === 'LONG' ? PositionSide.LONG : PositionSide.SHORT,
          action: open ? PositionAction.OPEN : PositionAction.CLOSE,
        };
      }
      if (ps !== 'BOTH') throw new BinanceError(-4061, positionSideMessage('one_way'));
      return {
        positionSide: PositionSide.LONG,
        action: reduceOnly === true ? PositionAction.CLOSE : PositionAction.OPEN,
      };
    };
    let t: { positionSide: number; action: number };
    try {
      t = translate(s.mode);
    } catch (err) {
      // refused in the cached mode: decide again in the live one
      const live = ex.summary(s.account.id).position_mode;
      if (!(err instanceof BinanceError) || live === s.mode) throw err;
      s.mode = live;
      t = translate(live);
    }
    const { positionSide, action } = t;
    const entered = enter(
      {
        kind: 'place',
        accountId: s.account.id,
        input: {
          symbol,
          side,
          type: market ? OrderType.MARKET : OrderType.LIMIT,
          position_side: positionSide,
          position_action: action,
          qty: quantity,
          ...(market ? {} : { price, time_in_force: tif }),
          ...(s.mode === 'one_way' && reduceOnly === true ? { reduce_only: true } : {}),
          ...(cid !== undefined ? { client_order_id: cid } : {}),
        },
      },
      { side: sideName, positionMode: s.mode },
      s,
    );
    // the market time the command ran at: the order's creation time (a finished order is no longer
    // live, and reading its stored row would flush the turn's coalesced writes on every order);
    // with a replay's latency the command ran later, at the order's creation time
    const ranNow = entered instanceof Promise ? null : venue.clock.now();
    const result = await entered;
    const time =
      ranNow ??
      ex.liveOrder(s.account.id, Number(result.order_id))?.createdAt ??
      venue.trading.order(Number(result.order_id))!.createdAt;
    const m = pair.math;
    const ack = respType === 'ACK';
    const filled = ack ? m.formatQty(0) : result.filled_qty;
    const quote = ack ? '0' : result.filled_quote;
    return {
      orderId: Number(result.order_id),
      symbol,
      // ACK: the order as accepted, before any fill; RESULT: as the command left it
      // (an expired one may be a self-trade's EXPIRED_IN_MATCH, which only the record says: the
      // one read of the store on this route, and only for expired orders)
      status: ack
        ? 'NEW'
        : result.status === OrderStatus.EXPIRED
          ? statusName(ex.liveOrder(s.account.id, Number(result.order_id))!)
          : STATUS[result.status],
      clientOrderId: result.client_order_id,
      price: market ? '0' : m.formatPrice(m.price.mustToUnits(price!)),
      // a display value, as the native record's avg_price
      avgPrice: Number(filled) > 0 ? (Number(quote) / Number(filled)).toFixed(m.price.precision) : '0',
      origQty: m.formatQty(m.qty.mustToUnits(quantity)),
      executedQty: filled,
      cumQty: filled,
      cumQuote: quote,
      timeInForce: market ? 'GTC' : TIF[tif],
      type: typeName,
      reduceOnly: s.mode === 'one_way' && reduceOnly === true,
      closePosition: false,
      side: sideName,
      positionSide: ps,
      stopPrice: '0',
      workingType: 'CONTRACT_PRICE',
      priceProtect: false,
      origType: typeName,
      priceMatch: 'NONE',
      selfTradePreventionMode: 'NONE',
      goodTillDate: 0,
      updateTime: time,
    };
  };

  app.post('/fapi/v1/order', async (req) => {
    const s = signed(req, false);
    return placeOrder(s, s.q);
  });

  // Batches (Binance: up to 5 new orders, up to 10 cancels): each entry runs alone, in the
  // order sent, through the same command as a single order, and is answered in its place with
  // the order or its own {code, msg}; one entry's refusal leaves the others as they ran.
  app.post('/fapi/v1/batchOrders', async (req) => {
    const s = signed(req, false);
    const list = jsonList(s.q, 'batchOrders', BATCH_NEW_MAX);
    const entries = list.map((e) => {
      if (e === null || typeof e !== 'object' || Array.isArray(e))
        throw invalidValue('batchOrders', 'Each order is a JSON object of parameters.');
      const text = new URLSearchParams();
      for (const [k, v] of Object.entries(e as Record<string, unknown>)) {
        if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') text.set(k, String(v));
        else if (v !== null)
          throw invalidValue('batchOrders', `Parameter '${k}' of an order must be a string, number or boolean.`);
      }
      return new Params(text.toString(), '');
    });
    // one after the other: with a replay's order latency each waits for its own arrival
    const out: unknown[] = [];
    for (const q of entries) {
      try {
        out.push(await placeOrder(s, q));
      } catch (err) {
        const e = binanceErrorOf(err, { side: q.str('side'), positionMode: s.mode });
        out.push({ code: e.code, msg: e.message });
      }
    }
    return out;
  });

  app.delete('/fapi/v1/batchOrders', async (req) => {
    const s = signed(req);
    const symbol = pairOf(ctx, s.q.required('symbol')).row.symbol;
    // ccxt sends the lists' names in lower case; Binance takes either
    const idName = s.q.has('orderIdList') ? 'orderIdList' : 'orderidlist';
    const cidName = s.q.has('origClientOrderIdList') ? 'origClientOrderIdList' : 'origclientorderidlist';
    const hasIds = s.q.has(idName);
    if (!hasIds && !s.q.has(cidName)) {
      throw new BinanceError(
        -1102,
        "Param 'orderIdList' or 'origClientOrderIdList' must be sent, but both were empty/null!",
      );
    }
    const targets = hasIds
      ? jsonList(s.q, idName, BATCH_CANCEL_MAX).map((v) => {
          const id = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,16}$/.test(v) ? Number(v) : NaN;
          if (!Number.isSafeInteger(id) || id < 1) throw invalidValue(idName, 'Order ids are positive integers.');
          return { orderId: id };
        })
      : jsonList(s.q, cidName, BATCH_CANCEL_MAX).map((v) => {
          if (typeof v !== 'string' || !CLIENT_ID.test(v)) throw illegal('origClientOrderId');
          return { clientOrderId: v };
        });
    const out: unknown[] = [];
    for (const t of targets) {
      try {
        const rec = await enter({ kind: 'cancel', accountId: s.account.id, symbol, ...t }, { method: 'DELETE' });
        out.push(orderOf(s, venue.trading.order(Number(rec.id))!));
      } catch (err) {
        const e = binanceErrorOf(err, { method: 'DELETE' });
        out.push({ code: e.code, msg: e.message });
      }
    }
    return out;
  });

  // Modify (ccxt editOrder): a resting LIMIT order's price and total quantity through the
  // exchange's amend command (orders.ts amendOrder: Binance's rules, the order reordered in its
  // queue, cancelled by an amendment to a quantity not above what has filled or a post-only
  // price that would take).
  app.put('/fapi/v1/order', async (req) => {
    const s = signed(req);
    const q = s.q;
    const pair = pairOf(ctx, q.required('symbol'));
    const symbol = pair.row.symbol;
    const sideName = q.required('side');
    if (sideName !== 'BUY' && sideName !== 'SELL') throw new BinanceError(-1117, 'Invalid side.');
    const quantity = q.required('quantity');
    const priceMatch = q.str('priceMatch');
    if (priceMatch !== undefined && priceMatch !== 'NONE')
      throw invalidValue('priceMatch', 'priceMatch is not supported by this venue yet.');
    const price = q.required('price');
    q.oneOf('origType', ['LIMIT']);
    q.oneOf('positionSide', ['BOTH', 'LONG', 'SHORT'], () => new BinanceError(-4006, 'Position side is invalid.'));
    const o = findOrder(s, symbol);
    if (o.status !== OrderStatus.NEW && o.status !== OrderStatus.PARTIALLY_FILLED)
      throw new BinanceError(-2013, MSG.ORDER_NOT_EXIST);
    if ((o.side === Side.BUY ? 'BUY' : 'SELL') !== sideName)
      throw invalidValue(
        'side',
        `Order ${o.id} is a ${o.side === Side.BUY ? 'BUY' : 'SELL'}; side cannot be modified.`,
      );
    const m = pair.math;
    const p = m.price.toUnits(price);
    const n = m.qty.toUnits(quantity);
    if (p.ok && n.ok && p.value === o.priceTicks && n.value === o.qtyLots) throw new BinanceError(-5027, MSG.NO_MODIFY);
    try {
      // order entry: through the venue, so a replay's order latency applies
      await venue.submit({ kind: 'amend', accountId: s.account.id, symbol, orderId: o.id, price, qty: quantity });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      // the order finished between the look-up and the command: as Binance, it does not exist
      if (err.def.code === 1102 || err.def.code === 3019) throw new BinanceError(-2013, MSG.ORDER_NOT_EXIST);
      throw fromNative(err, { side: sideName, positionMode: s.mode });
    }
    return orderOf(s, ex.liveOrder(s.account.id, o.id)!);
  });

  app.get('/fapi/v1/order', async (req) => {
    const s = signed(req);
    const pair = pairOf(ctx, s.q.required('symbol'));
    return orderOf(s, findOrder(s, pair.row.symbol));
  });

  app.delete('/fapi/v1/order', async (req) => {
    const s = signed(req);
    const symbol = pairOf(ctx, s.q.required('symbol')).row.symbol;
    const orderId = s.q.int('orderId', 1);
    const clientOrderId = s.q.str('origClientOrderId');
    if (orderId === undefined && clientOrderId === undefined) {
      throw new BinanceError(-1102, "Param 'orderId' or 'origClientOrderId' must be sent, but both were empty/null!");
    }
    const rec = await enter(
      { kind: 'cancel', accountId: s.account.id, symbol, ...(orderId !== undefined ? { orderId } : { clientOrderId }) },
      { method: 'DELETE' },
    );
    return orderOf(s, venue.trading.order(Number(rec.id))!);
  });

  app.delete('/fapi/v1/allOpenOrders', async (req) => {
    const s = signed(req);
    const symbol = pairOf(ctx, s.q.required('symbol')).row.symbol;
    await enter({ kind: 'cancelAll', accountId: s.account.id, symbol }, { method: 'DELETE' });
    return { code: 200, msg: 'The operation of cancel all open order is done.' };
  });

  const openOrders = (s: Signed, symbol: string | undefined) =>
    ex.openOrders(s.account.id, symbol).map((r) => orderOf(s, ex.liveOrder(s.account.id, Number(r.id))!));

  app.get('/fapi/v1/openOrders', async (req) => {
    const s = signed(req);
    const symbol = s.q.str('symbol');
    return openOrders(s, symbol === undefined ? undefined : pairOf(ctx, symbol).row.symbol);
  });

  app.get('/fapi/v1/openOrder', async (req) => {
    const s = signed(req);
    const symbol = pairOf(ctx, s.q.required('symbol')).row.symbol;
    const o = findOrder(s, symbol);
    if (o.status !== OrderStatus.NEW && o.status !== OrderStatus.PARTIALLY_FILLED)
      throw new BinanceError(-2013, MSG.ORDER_NOT_EXIST);
    return orderOf(s, o);
  });

  /** Every row of a newest-first history (pages of HISTORY_PAGE) that passes `keep`, until `stop`. */
  function scan<T extends { id: number }>(
    fetch: (beforeId: number | undefined) => T[],
    keep: (r: T) => boolean,
    stop: (r: T) => boolean,
  ): T[] {
    const out: T[] = [];
    let before: number | undefined;
    for (;;) {
      const rows = fetch(before);
      for (const r of rows) {
        if (stop(r)) return out;
        if (keep(r)) out.push(r);
      }
      if (rows.length < HISTORY_PAGE) return out;
      before = rows[rows.length - 1].id;
    }
  }

  /** Binance's history window: from fromId / startTime oldest first, else the newest `limit`; answered oldest first. */
  function history<T extends { id: number; createdAt: number }>(
    q: Params,
    idName: string,
    fetch: (beforeId: number | undefined) => T[],
  ): T[] {
    const fromId = q.int(idName, 0);
    const start = q.int('startTime', 0);
    const end = q.int('endTime', 0);
    const limit = q.int('limit', 1, 1000) ?? 500;
    if (start !== undefined && end !== undefined && end - start > 7 * 86_400_000) {
      throw new BinanceError(-1127, 'More than 7 days between startTime and endTime.');
    }
    const keep = (r: T) =>
      (fromId === undefined || r.id >= fromId) &&
      (start === undefined || r.createdAt >= start) &&
      (end === undefined || r.createdAt <= end);
    if (fromId === undefined && start === undefined) {
      // the newest `limit` matching rows
      const out: T[] = [];
      let before: number | undefined;
      for (;;) {
        const rows = fetch(before);
        for (const r of rows) if (keep(r) && out.push(r) >= limit) return out.reverse();
        if (rows.length < HISTORY_PAGE) return out.reverse();
        before = rows[rows.length - 1].id;
      }
    }
    const rows = scan(
      fetch,
      keep,
      (r) => (fromId !== undefined && r.id < fromId) || (start !== undefined && r.createdAt < start),
    );
    return rows.reverse().slice(0, limit);
  }

  app.get('/fapi/v1/allOrders', async (req) => {
    const s = signed(req);
    const symbol = pairOf(ctx, s.q.required('symbol')).row.symbol;
    const rows = history<OrderState>(s.q, 'orderId', (beforeId) =>
      venue.trading.orders({ accountId: s.account.id, symbol, beforeId, limit: HISTORY_PAGE }),
    );
    return rows.map((o) => orderOf(s, o));
  });

  app.get('/fapi/v1/userTrades', async (req) => {
    const s = signed(req);
    const symbol = pairOf(ctx, s.q.required('symbol')).row.symbol;
    const math = ex.pair(symbol)!.math;
    const orderId = s.q.int('orderId', 1);
    let rows = history<TradeState>(s.q, 'fromId', (beforeId) =>
      venue.trading.trades({ accountId: s.account.id, symbol, beforeId, limit: HISTORY_PAGE }),
    );
    if (orderId !== undefined) rows = rows.filter((t) => t.orderId === orderId);
    return rows.map((t) => binanceTrade(math, t, s.mode));
  });

  // ---------------------------------------------------------------- account

  const positionsOf = (s: Signed, v2: boolean, symbol: string | undefined) => {
    const records = ex.positions(s.account.id);
    const out: Record<string, unknown>[] = [];
    const pairs = symbol === undefined ? listedPairs(ctx) : [pairOf(ctx, symbol)];
    for (const pair of pairs) {
      const setting = ex.pairSetting(s.account.id, pair.row.symbol);
      const maxNotional = maxNotionalFor(pair.row.brackets, setting.leverage);
      const mine = records.filter((p) => p.symbol === pair.row.symbol);
      const orders = ex.openOrders(s.account.id, pair.row.symbol);
      // remaining quantity x limit price of the open orders of an entry (one-way: all of the pair's)
      const figures = (side: number | null) => {
        const f = { bidNotional: 0, askNotional: 0, initialMargin: 0 };
        for (const o of orders) {
          if (side !== null && o.position_side !== side) continue;
          const n = (Number(o.qty) - Number(o.filled_qty)) * Number(o.price);
          if (o.side === Side.BUY) f.bidNotional += n;
          else f.askNotional += n;
          if (o.position_action === PositionAction.OPEN) f.initialMargin += n / o.leverage;
        }
        return f;
      };
      if (s.mode === 'one_way') {
        const p = mine[0];
        if (p !== undefined || v2 || orders.length > 0)
          out.push(binancePosition(pair, p, s.mode, PositionSide.LONG, setting, maxNotional, v2, figures(null)));
      } else {
        for (const side of [PositionSide.LONG, PositionSide.SHORT]) {
          const p = mine.find((x) => x.position_side === side);
          const f = figures(side);
          if (p !== undefined || v2 || f.bidNotional + f.askNotional > 0)
            out.push(binancePosition(pair, p, s.mode, side, setting, maxNotional, v2, f));
        }
      }
    }
    return out;
  };

  app.get('/fapi/v3/positionRisk', async (req) => {
    const s = signed(req);
    return positionsOf(s, false, s.q.str('symbol'));
  });
  app.get('/fapi/v2/positionRisk', async (req) => {
    const s = signed(req);
    return positionsOf(s, true, s.q.str('symbol'));
  });

  const maintTotal = (positions: Record<string, unknown>[]) =>
    positions.reduce((acc, p) => acc.plus(p.maintMargin as string), new Decimal(0)).toFixed(8);

  const account = (s: Signed, v2: boolean) => {
    const sum = ex.summary(s.account.id);
    const positions = positionsOf(s, v2, undefined);
    const maint = maintTotal(positions);
    const now = venue.clock.now();
    const asset = usdtAsset(sum, maint, now);
    return {
      ...(v2
        ? {
            feeTier: 0,
            canTrade: true,
            canDeposit: true,
            canWithdraw: true,
            updateTime: 0,
            multiAssetsMargin: false,
            tradeGroupId: -1,
          }
        : {}),
      totalInitialMargin: asset.initialMargin,
      totalMaintMargin: maint,
      totalWalletBalance: sum.wallet_balance,
      totalUnrealizedProfit: sum.unrealized_pnl,
      totalMarginBalance: sum.margin_balance,
      totalPositionInitialMargin: sum.position_margin,
      totalOpenOrderInitialMargin: sum.frozen_margin,
      totalCrossWalletBalance: sum.wallet_balance,
      totalCrossUnPnl: sum.unrealized_pnl,
      availableBalance: sum.available_balance,
      maxWithdrawAmount: sum.available_balance,
      assets: [asset],
      positions,
    };
  };
  app.get('/fapi/v3/account', async (req) => account(signed(req), false));
  app.get('/fapi/v2/account', async (req) => account(signed(req), true));

  const balance = (s: Signed) => {
    const sum = ex.summary(s.account.id);
    return [
      {
        accountAlias: `pd${s.account.id}`,
        asset: 'USDT',
        balance: sum.wallet_balance,
        crossWalletBalance: sum.wallet_balance,
        crossUnPnl: sum.unrealized_pnl,
        availableBalance: sum.available_balance,
        maxWithdrawAmount: sum.available_balance,
        marginAvailable: true,
        updateTime: venue.clock.now(),
      },
    ];
  };
  app.get('/fapi/v3/balance', async (req) => balance(signed(req)));
  app.get('/fapi/v2/balance', async (req) => balance(signed(req)));

  const bracketsOf = (symbol: string) => {
    const pair = pairOf(ctx, symbol);
    return {
      symbol: pair.row.symbol,
      notionalCoef: 1.0,
      brackets: pair.row.brackets.map((b) => ({
        bracket: b.tier,
        initialLeverage: b.maxLeverage,
        notionalCap: b.cap,
        notionalFloor: b.floor,
        maintMarginRatio: b.mmr,
        cum: b.cum,
      })),
    };
  };
  app.get('/fapi/v1/leverageBracket', async (req) => {
    const s = signed(req);
    const symbol = s.q.str('symbol');
    if (symbol !== undefined) return bracketsOf(symbol);
    return listedPairs(ctx).map((p) => bracketsOf(p.row.symbol));
  });

  app.post('/fapi/v1/leverage', async (req) => {
    const s = signed(req);
    const symbol = pairOf(ctx, s.q.required('symbol')).row.symbol;
    const text = s.q.required('leverage');
    const leverage = s.q.requiredInt('leverage', 1, 1000);
    const r = run({ kind: 'setLeverage', accountId: s.account.id, symbol, leverage }, { leverage: text });
    return { leverage: r.leverage, maxNotionalValue: r.max_notional, symbol: r.symbol };
  });

  app.post('/fapi/v1/marginType', async (req) => {
    const s = signed(req);
    const symbol = pairOf(ctx, s.q.required('symbol')).row.symbol;
    const type = s.q.required('marginType').toUpperCase();
    if (type !== 'ISOLATED' && type !== 'CROSSED') throw invalidValue('marginType', 'It must be ISOLATED or CROSSED.');
    const marginMode = type === 'ISOLATED' ? MarginMode.ISOLATED : MarginMode.CROSS;
    if (ex.pairSetting(s.account.id, symbol).marginMode === marginMode)
      throw new BinanceError(-4046, MSG.NO_MARGIN_CHANGE);
    run({ kind: 'setMarginMode', accountId: s.account.id, symbol, marginMode }, {});
    return { code: 200, msg: MSG.SUCCESS };
  });

  app.get('/fapi/v1/positionSide/dual', async (req) => ({ dualSidePosition: signed(req).mode === 'hedge' }));

  app.post('/fapi/v1/positionSide/dual', async (req) => {
    const s = signed(req);
    const dual = s.q.bool('dualSidePosition');
    if (dual === undefined) throw mandatory('dualSidePosition');
    const mode = dual ? 'hedge' : 'one_way';
    if (mode === s.mode) throw new BinanceError(-4059, MSG.NO_POSITION_SIDE_CHANGE);
    try {
      ex.execute({ kind: 'setPositionMode', accountId: s.account.id, mode });
    } catch (err) {
      if (err instanceof ApiError && err.def.code === 3015) {
        const orders = ex.openOrders(s.account.id).length > 0;
        throw orders
          ? new BinanceError(-4067, 'Position side cannot be changed if there exists open orders.')
          : new BinanceError(-4068, 'Position side cannot be changed if there exists position.');
      }
      throw err instanceof ApiError ? fromNative(err) : err;
    }
    ctx.auth.accounts.invalidate(s.account.apiKey);
    return { code: 200, msg: MSG.SUCCESS };
  });

  app.get('/fapi/v1/multiAssetsMargin', async (req) => {
    signed(req);
    return { multiAssetsMargin: false };
  });

  app.get('/fapi/v1/commissionRate', async (req) => {
    const s = signed(req);
    const pair = pairOf(ctx, s.q.required('symbol'));
    return {
      symbol: pair.row.symbol,
      makerCommissionRate: pair.row.makerFeeRate,
      takerCommissionRate: pair.row.takerFeeRate,
    };
  });

  // Income: REALIZED_PNL and COMMISSION per fill (tranId = trade id x 10 + kind, unique and
  // stable), FUNDING_FEE per position per settlement from the stored funding payments (tranId =
  // payment id x 10 + 3), and TRANSFER per paper deposit, withdrawal, reset or account top-up,
  // INSURANCE_CLEAR per insurance-fund cover, from the stored transfers (tranId = transfer id x
  // 10 + 4; no symbol, as Binance's transfers, so a symbol filter leaves them out).
  app.get('/fapi/v1/income', async (req) => {
    const s = signed(req);
    const q = s.q;
    const symbolText = q.str('symbol');
    const symbol = symbolText === undefined ? undefined : pairOf(ctx, symbolText).row.symbol;
    const type = q.oneOf('incomeType', [
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
    ]);
    const start = q.int('startTime', 0);
    const end = q.int('endTime', 0);
    const limit = q.int('limit', 1, 1000) ?? 100;
    q.int('page', 1);
    const wants = (t: string) => type === undefined || type === t;
    if (!['REALIZED_PNL', 'COMMISSION', 'FUNDING_FEE', 'TRANSFER', 'INSURANCE_CLEAR'].some(wants)) return [];
    const money = (units: bigint) => new Decimal(units.toString()).div(1e8).toFixed(8);
    // each stored list gives at most the first / newest `limit` of its own: all the merge below can keep
    const order = start === undefined ? 'desc' : 'asc';
    const oldestFirst = <T>(rows: T[]) => (start === undefined ? rows.reverse() : rows);
    const fundingEntries = (
      wants('FUNDING_FEE')
        ? oldestFirst(
            venue.trading.fundingPayments({
              accountId: s.account.id,
              symbol,
              startTime: start,
              endTime: end,
              limit,
              order,
            }),
          )
        : []
    ).map((f) => ({
      symbol: f.symbol,
      incomeType: 'FUNDING_FEE',
      income: money(f.amount),
      asset: 'USDT',
      info: 'FUNDING_FEE',
      time: f.time,
      tranId: f.id * 10 + 3, // trades take id * 10 + 1 / 2: never the same tranId
      tradeId: '',
    }));
    const kinds = [
      ...(wants('TRANSFER') ? [TransferKind.DEPOSIT, TransferKind.RESET, TransferKind.ACCOUNT_SET] : []),
      ...(wants('INSURANCE_CLEAR') ? [TransferKind.INSURANCE_COVER] : []),
    ];
    const transferEntries = (
      symbol === undefined && kinds.length > 0
        ? oldestFirst(
            venue.trading.transfers({ accountId: s.account.id, kinds, startTime: start, endTime: end, limit, order }),
          )
        : []
    ).map((t) => {
      const kind = t.kind === TransferKind.INSURANCE_COVER ? 'INSURANCE_CLEAR' : 'TRANSFER';
      return {
        symbol: '',
        incomeType: kind,
        income: money(t.amount),
        asset: 'USDT',
        info: kind,
        time: t.time,
        tranId: t.id * 10 + 4,
        tradeId: '',
      };
    });
    const tradeEntries: Array<(typeof fundingEntries)[number]> = [];
    if (wants('REALIZED_PNL') || wants('COMMISSION')) {
      const trades = scan<TradeState>(
        (beforeId) =>
          venue.trading.trades({
            accountId: s.account.id,
            symbol,
            startTime: start,
            endTime: end,
            beforeId,
            limit: HISTORY_PAGE,
          }),
        () => true,
        () => false,
      ).reverse();
      for (const t of trades) {
        const entry = (kind: string, k: number, units: bigint) => ({
          symbol: t.symbol,
          incomeType: kind,
          income: money(units),
          asset: 'USDT',
          info: kind === 'COMMISSION' ? 'COMMISSION' : 'REALIZED_PNL',
          time: t.createdAt,
          tranId: t.id * 10 + k,
          tradeId: String(t.id),
        });
        if (wants('REALIZED_PNL') && t.realizedPnl !== 0n) tradeEntries.push(entry('REALIZED_PNL', 1, t.realizedPnl));
        if (wants('COMMISSION') && t.fee !== 0n) tradeEntries.push(entry('COMMISSION', 2, -t.fee));
      }
    }
    // every list is oldest first: merged by time (stable: at the same ms a trade, then a
    // settlement, then a transfer)
    const out = [...tradeEntries, ...fundingEntries, ...transferEntries].sort((x, y) => x.time - y.time);
    // Binance: without startTime the most recent `limit`, with it the first `limit` from it
    return start === undefined ? out.slice(Math.max(0, out.length - limit)) : out.slice(0, limit);
  });

  // ---------------------------------------------------------------- listenKey (API key only)

  const keys = ctx.listenKeys;
  app.post('/fapi/v1/listenKey', async (req) => ({ listenKey: keys.open(accountByKey(ctx.auth, req).id) }));
  app.put('/fapi/v1/listenKey', async (req) => {
    const key = keys.keepAlive(accountByKey(ctx.auth, req).id);
    if (key === undefined) throw new BinanceError(-1125, MSG.LISTEN_KEY);
    return { listenKey: key };
  });
  app.delete('/fapi/v1/listenKey', async (req) => {
    if (!keys.close(accountByKey(ctx.auth, req).id)) throw new BinanceError(-1125, MSG.LISTEN_KEY);
    return {};
  });
}
