// Signed order routes (DESIGN section 4 extensions plus the spec's openOrders and myTrades):
// place, modify, cancel one, cancel all, one order, open orders, order history, trade history.
//
// Handlers stay thin: the schema validates shapes, the exchange applies business rules and
// state changes (throwing ApiError), TradingRepo answers history. The user is always the
// signed account; no route takes a user id from its input.
import { Type } from 'typebox';
import { ApiError, Errors } from '../../../src-shared/errors.ts';
import type { AllOrdersQuery, CancelAllResult, OrdersPage } from '../../../src-shared/types.ts';
import type { Venue } from '../../services/venue.ts';
import { orderRecord, tradeRecord } from '../records.ts';
import { signedQuerystring } from '../auth.ts';
import { page } from '../cursor.ts';
import { answer, envelopeSchema, ok, standardErrors } from '../envelope.ts';
import { agree, agreeSent, type ApiInstance } from '../schemas.ts';
import {
  accountIdOf,
  amendBodySchema,
  checkTimeRange,
  clientOrderIdField,
  cursorField,
  cursorPageSchema,
  idField,
  listedSymbol,
  orderBodySchema,
  orderRecordRef,
  orderStatusField,
  pageLimit,
  placementResultRef,
  sideField,
  symbolField,
  timeField,
  tradeRecordRef,
} from '../trading-schemas.ts';
import { strictJsonBody } from '../strict-input.ts';

const signedErrors = () => standardErrors(401);
/** The query naming one order of a pair (GET and DELETE /fapi/v1/order): order_id or client_order_id. */
const oneOrderQuery = signedQuerystring(
  { symbol: symbolField, order_id: idField('Order ID'), client_order_id: clientOrderIdField },
  ['symbol'],
);

const allOrdersQuery = signedQuerystring({
  symbol: symbolField,
  status: orderStatusField,
  cursor: cursorField,
  limit: pageLimit(100, 500),
});
const ordersPageSchema = cursorPageSchema(orderRecordRef);

agreeSent<typeof allOrdersQuery, AllOrdersQuery>(true);
agree<typeof ordersPageSchema, OrdersPage>(true);

const cancelAllSchema = Type.Object({
  symbol: Type.String({ description: 'Trading pair' }),
  cancelled: Type.Integer({ description: 'How many orders were cancelled' }),
});

agree<typeof cancelAllSchema, CancelAllResult>(true);

export default async function orderRoutes(app: ApiInstance, opts: { venue: Venue }): Promise<void> {
  const { venue } = opts;
  const ex = venue.exchange;

  app.post(
    '/fapi/v1/orders',
    {
      config: { auth: 'signed' },
      preValidation: strictJsonBody(orderBodySchema),
      schema: {
        tags: ['trading'],
        summary: 'Place an order (signed; extension)',
        description:
          'General order placement: validated, margined (initial margin + taker fee frozen) and stored before the ' +
          'answer. The body has the fields of POST /fapi/v1/bot/orders except need_cache. Hedge mode (default): ' +
          'open long = buy/long/open, close long = sell/long/close, open short = sell/short/open, close short = ' +
          'buy/short/close; a close is reduce-only. One-way mode: position_side 1; position_action 2 is reduce-only; ' +
          'a plain order against the net position is margined and held to the leverage cap only for the part ' +
          'beyond the position (orders resting against it take it first, oldest first), so a plain close needs no margin. ' +
          'Rejections: 3001-3021 (see the error registry). leverage / margin_mode, when given, change the pair ' +
          'setting first (as POST /fapi/v1/leverage and /fapi/v1/marginType would). Values must have their JSON ' +
          'types: "side": "1" is refused (1001).',
        querystring: signedQuerystring(),
        body: orderBodySchema,
        response: { 200: envelopeSchema(placementResultRef), ...signedErrors() },
      },
    },
    (req, reply) => {
      const body = req.body;
      body.symbol = body.symbol.toUpperCase();
      return answer(reply, venue.submit({ kind: 'place', accountId: accountIdOf(req), input: body }));
    },
  );

  app.put(
    '/fapi/v1/order',
    {
      config: { auth: 'signed' },
      preValidation: strictJsonBody(amendBodySchema),
      schema: {
        tags: ['trading'],
        summary: 'Modify a resting limit order: new price and total quantity (signed; extension)',
        description:
          "Binance's modify: give exactly one of order_id and client_order_id, the new price and the new total " +
          'quantity (what has filled included). The order keeps its id, side, time in force and client id, goes to ' +
          'the back of the queue at its price, and its margin follows the new price and quantity (3009 when the ' +
          'account cannot hold it; nothing changes then). A price that crosses the book trades at once, as a new ' +
          'order would; a quantity not above what has filled cancels the order, and so does a new price that would ' +
          'take for a post-only (GTX) order. Answers the order record as the modification left it (status 1 or 2 ' +
          'resting, 3 filled, 4 cancelled). The same price and quantity is 1001 (nothing to modify), so is a market ' +
          'order; an order of yours that is no longer open is 3019; an unknown order, or one of another user, is 1102.',
        querystring: signedQuerystring(),
        body: amendBodySchema,
        response: { 200: envelopeSchema(orderRecordRef), ...signedErrors() },
      },
    },
    async (req) => {
      const { order_id: orderId, client_order_id: clientOrderId, price, qty } = req.body;
      const ref = oneOrderRef(orderId, clientOrderId, 'body field');
      const symbol = listedSymbol(venue, req.body.symbol);
      return ok(await venue.submit({ kind: 'amend', accountId: accountIdOf(req), symbol, ...ref, price, qty }));
    },
  );

  app.delete(
    '/fapi/v1/order',
    {
      config: { auth: 'signed' },
      schema: {
        tags: ['trading'],
        summary: 'Cancel one open order (signed; extension)',
        description:
          'Give exactly one of order_id and client_order_id. Answers the cancelled order (status 4). An order of ' +
          'yours that is no longer open is 3019 (named by either id); an unknown order, or one of another user, is 1102.',
        querystring: oneOrderQuery,
        response: { 200: envelopeSchema(orderRecordRef), ...signedErrors() },
      },
    },
    async (req) => {
      const ref = oneOrderRef(req.query.order_id, req.query.client_order_id, 'query parameter');
      const symbol = listedSymbol(venue, req.query.symbol);
      return ok(await venue.submit({ kind: 'cancel', accountId: accountIdOf(req), symbol, ...ref }));
    },
  );

  app.delete(
    '/fapi/v1/allOpenOrders',
    {
      config: { auth: 'signed' },
      schema: {
        tags: ['trading'],
        summary: 'Cancel all open orders on a pair (signed; extension)',
        querystring: signedQuerystring({ symbol: symbolField }, ['symbol']),
        response: {
          200: envelopeSchema(cancelAllSchema),
          ...signedErrors(),
        },
      },
    },
    async (req) => {
      const symbol = listedSymbol(venue, req.query.symbol);
      return ok({ symbol, cancelled: await venue.submit({ kind: 'cancelAll', accountId: accountIdOf(req), symbol }) });
    },
  );

  app.get(
    '/fapi/v1/openOrders',
    {
      config: { auth: 'signed' },
      schema: {
        tags: ['trading'],
        summary: 'Open orders (signed)',
        description: 'Your open orders (status 1 or 2), oldest first; `symbol` filters.',
        querystring: signedQuerystring({ symbol: symbolField }),
        response: { 200: envelopeSchema(Type.Array(orderRecordRef)), ...signedErrors() },
      },
    },
    async (req) => {
      const symbol = req.query.symbol === undefined ? undefined : listedSymbol(venue, req.query.symbol);
      return ok(ex.openOrders(accountIdOf(req), symbol));
    },
  );

  app.get(
    '/fapi/v1/order',
    {
      config: { auth: 'signed' },
      schema: {
        tags: ['trading'],
        summary: 'One order, any status (signed; extension)',
        description:
          'Give exactly one of order_id and client_order_id: the order as it stands (open, filled, cancelled or ' +
          'expired), the record allOrders lists. A client id names your open order with it, else the newest with it on ' +
          "the pair: after a placement whose answer was lost (a dropped connection, the venue's restart) this says " +
          'whether it was taken and what it did. An unknown order, one of another user or of another pair is 1102.',
        querystring: oneOrderQuery,
        response: { 200: envelopeSchema(orderRecordRef), ...signedErrors() },
      },
    },
    async (req) => {
      const ref = oneOrderRef(req.query.order_id, req.query.client_order_id, 'query parameter');
      const symbol = listedSymbol(venue, req.query.symbol);
      const accountId = accountIdOf(req);
      const o =
        'orderId' in ref
          ? ex.liveOrder(accountId, ref.orderId)
          : ex.liveOrderByClientId(accountId, ref.clientOrderId, symbol);
      if (o === undefined || o.symbol !== symbol) {
        const which = 'orderId' in ref ? `order_id ${ref.orderId}` : `client_order_id '${ref.clientOrderId}'`;
        throw new ApiError(Errors.ORDER_NOT_FOUND, `No order of yours on ${symbol} has ${which}`);
      }
      return ok(orderRecord(ex.pair(symbol)!.math, o));
    },
  );

  app.get(
    '/fapi/v1/allOrders',
    {
      config: { auth: 'signed' },
      schema: {
        tags: ['trading'],
        summary: 'Order history (signed; extension)',
        description:
          'All your orders, every status, newest first, paged like myTrades: pass next_cursor back (with the same ' +
          'filters) until has_more is false; next_cursor is "" on the last page.',
        querystring: allOrdersQuery,
        response: { 200: envelopeSchema(ordersPageSchema), ...signedErrors() },
      },
    },
    async (req) => {
      const { status, limit } = req.query;
      const symbol = req.query.symbol === undefined ? undefined : listedSymbol(venue, req.query.symbol);
      const accountId = accountIdOf(req);
      const p = page('orders', req.query, limit, (beforeId, n) =>
        venue.trading.orders({ accountId, symbol, status, beforeId, limit: n }),
      );
      return ok({
        has_more: p.hasMore,
        next_cursor: p.nextCursor,
        items: p.rows.map((o) => orderRecord(ex.pair(o.symbol)!.math, o)),
      });
    },
  );

  app.get(
    '/fapi/v1/myTrades',
    {
      config: { auth: 'signed' },
      schema: {
        tags: ['trading'],
        summary: 'Trade records (signed)',
        description:
          'Your fills, newest first. Filters: symbol, side, start_time / end_time (inclusive, ms, market clock). ' +
          'Cursor paging: pass next_cursor back with the same filters until has_more is false; next_cursor is "" ' +
          'on the last page. A cursor that is not a next_cursor of this list is 1001.',
        querystring: signedQuerystring({
          symbol: symbolField,
          side: sideField,
          start_time: timeField('From this time, ms (inclusive)'),
          end_time: timeField('Up to this time, ms (inclusive)'),
          cursor: cursorField,
          limit: pageLimit(100, 500),
        }),
        response: { 200: envelopeSchema(cursorPageSchema(tradeRecordRef)), ...signedErrors() },
      },
    },
    async (req) => {
      const { side, start_time: startTime, end_time: endTime, limit } = req.query;
      checkTimeRange(startTime, endTime, ['start_time', 'end_time']);
      const symbol = req.query.symbol === undefined ? undefined : listedSymbol(venue, req.query.symbol);
      const accountId = accountIdOf(req);
      const p = page('trades', req.query, limit, (beforeId, n) =>
        venue.trading.trades({ accountId, symbol, side, startTime, endTime, beforeId, limit: n }),
      );
      return ok({
        has_more: p.hasMore,
        next_cursor: p.nextCursor,
        items: p.rows.map((t) => tradeRecord(ex.pair(t.symbol)!.math, t)),
      });
    },
  );
}

/** An order named by exactly one of its ids: 1002 for neither, 1001 for both. */
function oneOrderRef(
  orderId: number | undefined,
  clientOrderId: string | undefined,
  where: 'query parameter' | 'body field',
): { orderId: number } | { clientOrderId: string } {
  if (orderId !== undefined && clientOrderId === undefined) return { orderId };
  if (clientOrderId !== undefined && orderId === undefined) return { clientOrderId };
  if (orderId === undefined)
    throw new ApiError(Errors.MISSING_PARAMETER, `Missing required ${where}: one of 'order_id' or 'client_order_id'`);
  const plural = where === 'query parameter' ? 'query parameters' : 'body fields';
  throw new ApiError(Errors.INVALID_PARAMETER, `Invalid ${plural}: give 'order_id' or 'client_order_id', not both`);
}
