// Algo (conditional) order routes of the facade (signed), Binance's Algo Order API as ccxt 4.5
// uses it for stop, take-profit and trailing orders: place (POST algoOrder), query and cancel one
// (GET / DELETE algoOrder by algoId or clientAlgoId), the waiting ones (openAlgoOrders), the
// history (allAlgoOrders), cancel a pair's (DELETE algoOpenOrders). Each handler translates
// (translate/algo-orders.ts) and runs the exchange's conditional commands or reads its views: the
// rules, the trigger and the firing are trading/conditional.ts's.
import type { FastifyInstance } from 'fastify';
import type { ConditionalOrderRecord } from '../../../../src-shared/types.ts';
import { enter, pairOf, signedRequest, type BinanceContext, type Signed } from '../context.ts';
import { BinanceError, MSG } from '../errors.ts';
import { routeSchema } from '../schemas.ts';
import { binanceAlgoOrder, parseAlgoOrder, type AlgoShape } from '../translate/algo-orders.ts';
import { history, HISTORY_PAGE } from './history.ts';

const BOTH_EMPTY = new BinanceError(-1102, "Param 'algoId' or 'clientAlgoId' must be sent, but both were empty/null!");

export function registerAlgoOrders(app: FastifyInstance, ctx: BinanceContext): void {
  const { venue } = ctx;
  const ex = venue.exchange;

  /** Binance's answer for a conditional record (the order it placed read for its status and fills). */
  const answer = (s: Signed, r: ConditionalOrderRecord, shape: AlgoShape) => {
    const actual = r.order_id === null ? undefined : ex.liveOrder(s.account.id, Number(r.order_id));
    return binanceAlgoOrder(ex.pair(r.symbol)!.math, r, s.mode, shape, actual);
  };

  /**
   * The account's algo order named by algoId or clientAlgoId (both: they must name the same one),
   * else `missing` (-2013 for a read, -2011 for a cancel).
   */
  const findAlgo = (s: Signed, missing: BinanceError): ConditionalOrderRecord => {
    const id = s.q.int('algoId', 1);
    const cid = s.q.str('clientAlgoId');
    if (id === undefined && cid === undefined) throw BOTH_EMPTY;
    const r = ex.conditional(s.account.id, id !== undefined ? { id } : { clientOrderId: cid });
    if (r === undefined || (cid !== undefined && r.client_order_id !== cid)) throw missing;
    return r;
  };

  app.post('/fapi/v1/algoOrder', routeSchema('POST', '/fapi/v1/algoOrder'), async (req) => {
    const s = signedRequest(ctx, req);
    const symbol = pairOf(ctx, s.q.required('symbol')).row.symbol;
    const o = parseAlgoOrder(s.q, symbol, s.mode);
    const side = s.q.str('side');
    const r = await enter(
      ctx,
      { kind: 'placeConditional', accountId: s.account.id, input: o.input },
      { side, positionMode: s.mode },
      s,
    );
    return answer(s, r, 'new');
  });

  app.get('/fapi/v1/algoOrder', routeSchema('GET', '/fapi/v1/algoOrder'), async (req) => {
    const s = signedRequest(ctx, req);
    return answer(s, findAlgo(s, new BinanceError(-2013, MSG.ORDER_NOT_EXIST)), 'query');
  });

  app.delete('/fapi/v1/algoOrder', routeSchema('DELETE', '/fapi/v1/algoOrder'), async (req) => {
    const s = signedRequest(ctx, req);
    const unknown = new BinanceError(-2011, MSG.UNKNOWN_ORDER);
    const r = findAlgo(s, unknown);
    await enter(
      ctx,
      { kind: 'cancelConditional', accountId: s.account.id, orderId: Number(r.id) },
      { method: 'DELETE' },
    );
    return { algoId: Number(r.id), clientAlgoId: r.client_order_id, code: '200', msg: 'success' };
  });

  app.get('/fapi/v1/openAlgoOrders', routeSchema('GET', '/fapi/v1/openAlgoOrders'), async (req) => {
    const s = signedRequest(ctx, req);
    const text = s.q.str('symbol');
    const symbol = text === undefined ? undefined : pairOf(ctx, text).row.symbol;
    const algoId = s.q.int('algoId', 1);
    return ex
      .openConditionals(s.account.id, symbol)
      .filter((r) => algoId === undefined || Number(r.id) === algoId)
      .map((r) => answer(s, r, 'list'));
  });

  // Binance's window: from algoId / startTime oldest first, else the newest `limit`; 7 days at most,
  // the last 7 when neither startTime nor endTime is sent (and no algoId); `page` p skips the
  // (p - 1) x `limit` before it
  app.get('/fapi/v1/allAlgoOrders', routeSchema('GET', '/fapi/v1/allAlgoOrders'), async (req) => {
    const s = signedRequest(ctx, req);
    const symbol = pairOf(ctx, s.q.required('symbol')).row.symbol;
    const rows = history(s.q, {
      idName: 'algoId',
      fetch: (beforeId) =>
        ex
          .conditionalHistory({ accountId: s.account.id, symbol, beforeId, limit: HISTORY_PAGE })
          .map((r) => ({ id: Number(r.id), createdAt: r.created_at, r })),
      now: venue.clock.now(),
      page: s.q.int('page', 1, 1_000_000),
    });
    return rows.map((x) => answer(s, x.r, 'list'));
  });

  app.delete('/fapi/v1/algoOpenOrders', routeSchema('DELETE', '/fapi/v1/algoOpenOrders'), async (req) => {
    const s = signedRequest(ctx, req);
    const symbol = pairOf(ctx, s.q.required('symbol')).row.symbol;
    await enter(ctx, { kind: 'cancelAllConditionals', accountId: s.account.id, symbol }, { method: 'DELETE' });
    return { code: 200, msg: 'The operation of cancel all open order is done.' };
  });
}
