// Order and trade history of the facade (signed): allOrders, userTrades, forceOrders and income, read from
// the trading repository's newest-first pages and answered in Binance's windows (from fromId /
// startTime oldest first, else the newest `limit`; oldest first either way), each route's time
// rule from one piece (historyWindow: the last 7 days when no time is sent; 7 days at most
// between startTime and endTime but on income) and Binance's `page` where it documents one.
//
// Income: REALIZED_PNL and COMMISSION per fill (tranId = trade id x 10 + 1 / 2), FUNDING_FEE per
// stored funding payment (payment id x 10 + 3), TRANSFER and INSURANCE_CLEAR per stored transfer
// (transfer id x 10 + 4; no symbol, as Binance's transfers, so a symbol filter leaves them out),
// and INSURANCE_CLEAR per liquidation clearance fee (negative, with its symbol; fee id x 10 + 5).
import type { FastifyInstance } from 'fastify';
import { TransferKind, type OrderState, type TradeState } from '../../../trading/ports.ts';
import { moneyText } from '../../../trading/pair-figures.ts';
import { pairOf, signedRequest, type BinanceContext } from '../context.ts';
import { INCOME_TYPES, routeSchema } from '../schemas.ts';
import { BinanceError } from '../errors.ts';
import type { Params } from '../params.ts';
import { binanceOrder, binanceTrade, fillMode, forcedOrder } from '../translate/orders.ts';

export const HISTORY_PAGE = 500;
const WEEK = 7 * 86_400_000;

/** The income types the venue produces; the others always answer []. */
const PRODUCED = ['REALIZED_PNL', 'COMMISSION', 'FUNDING_FEE', 'TRANSFER', 'INSURANCE_CLEAR'];

type Fetch<T> = (beforeId: number | undefined) => T[];

/** Every row of a newest-first history (pages of HISTORY_PAGE) that passes `keep`, until `stop`. */
function scan<T extends { id: number }>(fetch: Fetch<T>, keep: (r: T) => boolean, stop: (r: T) => boolean): T[] {
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

/** A history route's time window, both bounds inclusive (undefined: open on that side). */
interface HistoryWindow<Bound = number | undefined> {
  start: Bound;
  end: Bound;
  /** startTime was sent: the first `limit` from it; else the newest `limit` up to `end`. */
  fromStart: boolean;
}

/**
 * Binance's window of a history route, one rule for all of them: neither startTime nor endTime
 * sent is the last 7 days up to `now` (market time); `capped` routes (allOrders, userTrades,
 * allAlgoOrders, forceOrders) take at most 7 days between the two (-1127) and reach 7 days from
 * the one sent alone; the others (income) are open on the side not sent. -1023 for a reversed
 * window (Params.timeWindow).
 */
function historyWindow(q: Params, now: number, capped: true): HistoryWindow<number>;
function historyWindow(q: Params, now: number, capped: false): HistoryWindow;
function historyWindow(q: Params, now: number, capped: boolean): HistoryWindow {
  const { start, end } = q.timeWindow();
  if (start === undefined && end === undefined) return { start: now - WEEK, end: now, fromStart: false };
  if (!capped) return { start, end, fromStart: start !== undefined };
  if (start !== undefined && end !== undefined && end - start > WEEK)
    throw new BinanceError(-1127, 'More than 7 days between startTime and endTime.');
  return {
    start: start ?? Math.max(0, end! - WEEK),
    end: end ?? Math.min(start! + WEEK, Number.MAX_SAFE_INTEGER),
    fromStart: start !== undefined,
  };
}

/**
 * Rows `page` (1 = the first) of `limit` among `rows`, counted in the window's direction: from
 * the oldest when it counts forward, else from the newest; `rows` and the answer oldest first.
 */
function pageOf<T>(rows: T[], w: { forward: boolean; limit: number; page: number }): T[] {
  const skip = (w.page - 1) * w.limit;
  if (w.forward) return rows.slice(skip, skip + w.limit);
  const to = rows.length - skip;
  return to <= 0 ? [] : rows.slice(Math.max(0, to - w.limit), to);
}

/**
 * Rows of one order only (userTrades' orderId): `keep` picks them, and none is older than `since`
 * (the order's creation), where the scan stops.
 */
interface OnlyOf<T> {
  keep: (r: T) => boolean;
  since: number;
}

/** What a history route reads: its rows (newest first, by pages), and how Binance lets it be asked. */
export interface HistorySource<T> {
  /** The parameter of the first id (orderId, fromId, algoId): from it, that id included. */
  idName: string;
  fetch: Fetch<T>;
  /** Market now, for the window when neither startTime nor endTime is sent. */
  now: number;
  /** `limit` counts only these rows (userTrades' orderId), as Binance does. */
  only?: OnlyOf<T>;
  /** The first id refuses startTime / endTime beside it (userTrades' fromId, -1128). */
  idAlone?: boolean;
  /** Binance's `page`, where the route documents one (allAlgoOrders): 1, the default, is the first `limit`. */
  page?: number;
}

/**
 * Binance's history window: from the first id (fromId / orderId / algoId) or startTime the first
 * `limit`, oldest first, else the newest `limit`; answered oldest first. With the first id or a
 * named order (`only`) and no startTime / endTime no window applies (the id or the order is
 * where the rows start); otherwise historyWindow's (the last 7 days when neither is sent).
 */
export function history<T extends { id: number; createdAt: number }>(q: Params, src: HistorySource<T>): T[] {
  const { fetch, only } = src;
  const fromId = q.int(src.idName, 0);
  const timed = q.has('startTime') || q.has('endTime');
  if (src.idAlone === true && fromId !== undefined && timed)
    throw new BinanceError(
      -1128,
      `Combination of optional parameters invalid. ${src.idName} cannot be sent with startTime or endTime.`,
    );
  const anchored = (fromId !== undefined || only !== undefined) && !timed;
  const { start, end, fromStart } = anchored
    ? { start: undefined, end: undefined, fromStart: false }
    : historyWindow(q, src.now, true);
  const limit = q.int('limit', 1, 1000) ?? 500;
  const page = src.page ?? 1;
  const keep = (r: T) =>
    (fromId === undefined || r.id >= fromId) &&
    (start === undefined || r.createdAt >= start) &&
    (end === undefined || r.createdAt <= end) &&
    (only === undefined || only.keep(r));
  const stop = (r: T) =>
    (fromId !== undefined && r.id < fromId) ||
    (start !== undefined && r.createdAt < start) ||
    (only !== undefined && r.createdAt < only.since);
  const forward = fromId !== undefined || fromStart;
  if (!forward) {
    // the newest `limit` x `page` matching rows
    const wanted = limit * page;
    const out: T[] = [];
    let before: number | undefined;
    for (;;) {
      const rows = fetch(before);
      for (const r of rows) {
        if (stop(r)) return pageOf(out.reverse(), { forward, limit, page });
        if (keep(r) && out.push(r) >= wanted) return pageOf(out.reverse(), { forward, limit, page });
      }
      if (rows.length < HISTORY_PAGE) return pageOf(out.reverse(), { forward, limit, page });
      before = rows[rows.length - 1].id;
    }
  }
  return pageOf(scan(fetch, keep, stop).reverse(), { forward, limit, page });
}

interface IncomeEntry {
  symbol: string;
  incomeType: string;
  income: string;
  asset: 'USDT';
  info: string;
  time: number;
  tranId: number;
  tradeId: string;
}

export function registerHistory(app: FastifyInstance, ctx: BinanceContext): void {
  const { venue } = ctx;

  app.get('/fapi/v1/allOrders', routeSchema('GET', '/fapi/v1/allOrders'), async (req) => {
    const s = signedRequest(ctx, req);
    const pair = pairOf(ctx, s.q.required('symbol'));
    const symbol = pair.row.symbol;
    const rows = history<OrderState>(s.q, {
      idName: 'orderId',
      fetch: (beforeId) => venue.trading.orders({ accountId: s.account.id, symbol, beforeId, limit: HISTORY_PAGE }),
      now: venue.clock.now(),
    });
    return rows.map((o) => binanceOrder(pair.math, o, s.mode));
  });

  app.get('/fapi/v1/userTrades', routeSchema('GET', '/fapi/v1/userTrades'), async (req) => {
    const s = signedRequest(ctx, req);
    const pair = pairOf(ctx, s.q.required('symbol'));
    const symbol = pair.row.symbol;
    // orderId: that order's fills, counted by `limit` among themselves (not the newest `limit` of
    // all fills narrowed to the order's, which left out the fills of an older order)
    const orderId = s.q.int('orderId', 1);
    const order = orderId === undefined ? undefined : venue.trading.order(orderId);
    if (orderId !== undefined && (order === undefined || order.accountId !== s.account.id || order.symbol !== symbol))
      return [];
    const only = order && { keep: (t: TradeState) => t.orderId === order.id, since: order.createdAt };
    // fromId with startTime / endTime is refused, as Binance documents ("cannot be sent with")
    const rows = history<TradeState>(s.q, {
      idName: 'fromId',
      fetch: (beforeId) => venue.trading.trades({ accountId: s.account.id, symbol, beforeId, limit: HISTORY_PAGE }),
      now: venue.clock.now(),
      only,
      idAlone: true,
    });
    // each fill in the mode its order was placed in (one order's fills read it once)
    const orders = new Map<number, OrderState | undefined>();
    const orderOf = (id: number) => {
      if (!orders.has(id)) orders.set(id, venue.trading.order(id));
      return orders.get(id);
    };
    return rows.map((t) => binanceTrade(pair.math, t, fillMode(t, orderOf(t.orderId), s.mode)));
  });

  // forceOrders: the account's liquidation and ADL close orders (told apart by their client ids,
  // so across a restart too), in Binance's window (historyWindow, capped: at most 7 days, the last 7
  // when neither bound is sent); from startTime oldest first, else the newest `limit`; answered
  // oldest first
  app.get('/fapi/v1/forceOrders', routeSchema('GET', '/fapi/v1/forceOrders'), async (req) => {
    const s = signedRequest(ctx, req);
    const q = s.q;
    const symbolText = q.str('symbol');
    const symbol = symbolText === undefined ? undefined : pairOf(ctx, symbolText).row.symbol;
    const type = q.oneOf('autoCloseType', ['LIQUIDATION', 'ADL'] as const);
    const w = historyWindow(q, venue.clock.now(), true);
    const limit = q.int('limit', 1, 100) ?? 50;
    const kind = type === undefined ? undefined : type === 'ADL' ? 'adl' : 'liquidation';
    const order = w.fromStart ? 'asc' : 'desc';
    const rows = venue.trading.forcedOrders({
      accountId: s.account.id,
      kind,
      symbol,
      startTime: w.start,
      endTime: w.end,
      order,
      limit,
    });
    if (order === 'desc') rows.reverse();
    return rows.map((o) => forcedOrder(venue.exchange.pair(o.symbol)!.math, o, s.mode));
  });

  app.get('/fapi/v1/income', routeSchema('GET', '/fapi/v1/income'), async (req) => {
    const s = signedRequest(ctx, req);
    const q = s.q;
    const symbolText = q.str('symbol');
    const symbol = symbolText === undefined ? undefined : pairOf(ctx, symbolText).row.symbol;
    const type = q.oneOf('incomeType', INCOME_TYPES);
    // Binance's window (historyWindow): the last 7 days when neither bound is sent, else open on
    // the side not sent (no cap between the two); `page` p skips the (p - 1) x `limit` before it
    const { start: startTime, end: endTime, fromStart } = historyWindow(q, venue.clock.now(), false);
    const limit = q.int('limit', 1, 1000) ?? 100;
    const page = q.int('page', 1, 1_000_000) ?? 1;
    const wants = (t: string) => type === undefined || type === t;
    if (!PRODUCED.some(wants)) return [];
    const accountId = s.account.id;
    // each stored list gives at most the first / newest `limit` x `page` of its own: all the merge
    // below can keep
    const order = fromStart ? 'asc' : 'desc';
    const oldestFirst = <T>(rows: T[]) => (fromStart ? rows : rows.reverse());
    const window = { accountId, startTime, endTime, limit: limit * page, order } as const;
    // in Binance's field order, whatever order the caller named them in
    const entry = (e: Omit<IncomeEntry, 'asset' | 'info'> & { info?: string }): IncomeEntry => ({
      symbol: e.symbol,
      incomeType: e.incomeType,
      income: e.income,
      asset: 'USDT',
      info: e.info ?? e.incomeType,
      time: e.time,
      tranId: e.tranId,
      tradeId: e.tradeId,
    });
    const funding = wants('FUNDING_FEE') ? oldestFirst(venue.trading.fundingPayments({ ...window, symbol })) : [];
    const fundingEntries = funding.map((f) =>
      entry({
        symbol: f.symbol,
        incomeType: 'FUNDING_FEE',
        income: moneyText(f.amount),
        time: f.time,
        tranId: f.id * 10 + 3,
        tradeId: '',
      }),
    );
    const kinds = [
      ...(wants('TRANSFER') ? [TransferKind.DEPOSIT, TransferKind.RESET, TransferKind.ACCOUNT_SET] : []),
      ...(wants('INSURANCE_CLEAR') ? [TransferKind.INSURANCE_COVER] : []),
    ];
    const transfers =
      symbol === undefined && kinds.length > 0 ? oldestFirst(venue.trading.transfers({ ...window, kinds })) : [];
    const transferEntries = transfers.map((t) =>
      entry({
        symbol: '',
        incomeType: t.kind === TransferKind.INSURANCE_COVER ? 'INSURANCE_CLEAR' : 'TRANSFER',
        income: moneyText(t.amount),
        time: t.time,
        tranId: t.id * 10 + 4,
        tradeId: '',
      }),
    );
    const clearance = wants('INSURANCE_CLEAR') ? oldestFirst(venue.trading.liquidationFees({ ...window, symbol })) : [];
    const clearanceEntries = clearance.map((f) =>
      entry({
        symbol: f.symbol,
        incomeType: 'INSURANCE_CLEAR',
        income: moneyText(-f.fee),
        time: f.time,
        tranId: f.id * 10 + 5,
        tradeId: '',
      }),
    );
    const tradeEntries: IncomeEntry[] = [];
    if (wants('REALIZED_PNL') || wants('COMMISSION')) {
      const fetch = (beforeId: number | undefined) =>
        venue.trading.trades({ accountId, symbol, startTime, endTime, beforeId, limit: HISTORY_PAGE });
      for (const t of scan<TradeState>(
        fetch,
        () => true,
        () => false,
      ).reverse()) {
        const base = { symbol: t.symbol, time: t.createdAt, tradeId: String(t.id) };
        if (wants('REALIZED_PNL') && t.realizedPnl !== 0n)
          tradeEntries.push(
            entry({ ...base, incomeType: 'REALIZED_PNL', income: moneyText(t.realizedPnl), tranId: t.id * 10 + 1 }),
          );
        if (wants('COMMISSION') && t.fee !== 0n)
          tradeEntries.push(
            entry({ ...base, incomeType: 'COMMISSION', income: moneyText(-t.fee), tranId: t.id * 10 + 2 }),
          );
      }
    }
    // every list is oldest first: merged by time (stable: at the same ms a trade, a settlement, a
    // clearance fee, a transfer)
    const out = [...tradeEntries, ...fundingEntries, ...clearanceEntries, ...transferEntries].sort(
      (x, y) => x.time - y.time,
    );
    // Binance: without startTime the most recent `limit`, with it the first `limit` from it
    return pageOf(out, { forward: fromStart, limit, page });
  });
}
