// Conditional orders (signed; perpdesk's extension, not in the spec): an order held until the mark
// or the last price reaches a trigger, then placed as POST /fapi/v1/orders places one. Place,
// cancel one, cancel all, read one, the waiting ones, the history. trading/conditional.ts has the rules.
import { Type } from 'typebox';
import { ApiError, Errors } from '../../../src-shared/errors.ts';
import type {
  ConditionalStatus,
  MarginMode,
  OrderType,
  PositionAction,
  PositionSide,
  Side,
  TimeInForce,
  TriggerDirection,
  WorkingType,
} from '../../../src-shared/enums.ts';
import type {
  ConditionalCancelAllResult,
  ConditionalHistoryQuery,
  ConditionalOrderRecord,
  ConditionalOrderRequest,
  ConditionalPage,
} from '../../../src-shared/types.ts';
import type { Venue } from '../../services/venue.ts';
import { signedQuerystring } from '../auth.ts';
import { page } from '../cursor.ts';
import { envelopeSchema, ok, standardErrors } from '../envelope.ts';
import { agree, agreeSent, intEnum, type ApiInstance } from '../schemas.ts';
import {
  accountIdOf,
  clientOrderIdField,
  cursorField,
  decimalField,
  idField,
  listedSymbol,
  orderBodyProperties,
  pageLimit,
  symbolField,
} from '../trading-schemas.ts';
import { strictJsonBody } from '../strict-input.ts';

const { qty: _qty, ...orderFields } = orderBodyProperties;

const conditionalBody = Type.Object(
  {
    ...orderFields,
    qty: Type.Optional(
      decimalField('Contract quantity, on the step, within min_qty..max_qty; absent with close_position'),
    ),
    close_position: Type.Optional(
      Type.Boolean({
        description:
          'Close the whole position when it fires (whatever it holds then), by a reduce-only market order: type 2, position_action 2, no qty, reduce_only true or absent (1001 otherwise)',
      }),
    ),
    trigger_price: Type.Optional(decimalField('Trigger price, on the tick; required unless callback_rate')),
    trigger_direction: Type.Optional(
      intEnum(
        [1, 2] as const,
        '1 fires when the watched price rises to trigger_price or above, 2 when it falls to it or below; required with trigger_price',
      ),
    ),
    working_type: Type.Optional(intEnum([1, 2] as const, 'The price watched: 1 mark price (default), 2 last price')),
    price_protect: Type.Optional(
      Type.Boolean({
        description:
          'Price protection (default false): a reached trigger is held back while the last price and the mark are more than 5 % apart (|last - mark| / mark > 0.05); it fires at the first check after they come back within it. Not for a trailing stop',
      }),
    ),
    callback_rate: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,2}(\\.[0-9])?$',
        description:
          'A trailing stop (type 2, no trigger_price): the percent, 0.1 to 10, the price must come back from its best since activation to fire it',
      }),
    ),
    activation_price: Type.Optional(
      decimalField(
        "A trailing stop's activation price (a sell's above the watched price, a buy's below); absent: it trails at once",
      ),
    ),
  },
  { additionalProperties: false },
);

agree<typeof conditionalBody, ConditionalOrderRequest>(true);

/** A string or null, typed as such (the record's type is checked against this schema below). */
const nullableString = (description: string) => Type.Unsafe<string | null>({ type: ['string', 'null'], description });
const nullableInteger = <T extends number = number>(description: string) =>
  Type.Unsafe<T | null>({ type: ['integer', 'null'], description });

const conditionalRecordSchema = Type.Object({
  id: Type.String({ description: 'Conditional order id (from the order id sequence)' }),
  client_order_id: Type.String(),
  symbol: Type.String(),
  side: intEnum([1, 2] as const satisfies readonly Side[], '1 buy, 2 sell'),
  position_side: intEnum([1, 2] as const satisfies readonly PositionSide[], '1 long, 2 short'),
  position_action: intEnum([1, 2] as const satisfies readonly PositionAction[], '1 open, 2 close (reduce-only)'),
  type: intEnum([1, 2] as const satisfies readonly OrderType[], 'Of the order it places: 1 limit, 2 market'),
  price: Type.String({ description: 'Limit price (zero at the pair precision, e.g. "0.0", for a market order)' }),
  qty: nullableString('Quantity; null with close_position'),
  close_position: Type.Boolean(),
  reduce_only: Type.Boolean(),
  time_in_force: intEnum([1, 2, 3, 4] as const satisfies readonly TimeInForce[], '1 GTC, 2 IOC, 3 FOK, 4 GTX'),
  leverage: nullableInteger("null: the account's leverage on the pair when it fires"),
  margin_mode: nullableInteger<MarginMode>("null: the account's margin mode on the pair when it fires"),
  trigger_price: Type.String(),
  trigger_direction: intEnum([1, 2] as const satisfies readonly TriggerDirection[], '1 rises to, 2 falls to'),
  working_type: intEnum([1, 2] as const satisfies readonly WorkingType[], '1 mark price, 2 last price'),
  price_protect: Type.Boolean({ description: 'Held back while the last price and the mark are more than 5 % apart' }),
  callback_rate: nullableString("A trailing stop's percent; null for a plain trigger"),
  activation_price: nullableString("A trailing stop's activation price; null when none"),
  peak_price: nullableString("A trailing stop's best price since it activated (trigger_price follows it); null before"),
  status: intEnum(
    [1, 2, 3, 4] as const satisfies readonly ConditionalStatus[],
    '1 waiting, 2 triggered (order_id placed), 3 cancelled, 4 refused when it fired',
  ),
  order_id: nullableString('The order it placed; null before and when refused'),
  reject_code: nullableInteger('Status 4: the code the order route would have answered'),
  reject_reason: nullableString('Status 4: the message the order route would have answered'),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
  triggered_at: nullableInteger('When it fired (null while waiting or cancelled)'),
  user_id: Type.String(),
});
agree<typeof conditionalRecordSchema, ConditionalOrderRecord>(true);

const signedErrors = () => standardErrors(401);

/** One conditional order named by exactly one of its ids: 1002 for neither, 1001 for both. */
function oneRef(
  id: number | undefined,
  clientOrderId: string | undefined,
  where: 'query parameter' | 'body field' = 'query parameter',
): { id: number } | { clientOrderId: string } {
  if (id !== undefined && clientOrderId === undefined) return { id };
  if (clientOrderId !== undefined && id === undefined) return { clientOrderId };
  if (id === undefined)
    throw new ApiError(Errors.MISSING_PARAMETER, `Missing required ${where}: one of 'id' or 'client_order_id'`);
  const plural = where === 'query parameter' ? 'query parameters' : 'body fields';
  throw new ApiError(Errors.INVALID_PARAMETER, `Invalid ${plural}: give 'id' or 'client_order_id', not both`);
}

const amendBody = Type.Object(
  {
    symbol: Type.Optional(symbolField),
    id: Type.Optional(idField('Conditional order id (give this or client_order_id)')),
    client_order_id: Type.Optional(clientOrderIdField),
    trigger_price: Type.Optional(decimalField('New trigger price, on the tick')),
    price: Type.Optional(decimalField("A stop-limit's new limit price, on the tick")),
    qty: Type.Optional(decimalField('New quantity, on the step (not for a close_position stop)')),
  },
  { additionalProperties: false },
);

const historyQuery = signedQuerystring({
  symbol: symbolField,
  status: Type.Optional(intEnum([1, 2, 3, 4] as const, '1 waiting, 2 triggered, 3 cancelled, 4 refused')),
  cursor: cursorField,
  limit: pageLimit(100, 500),
});
const historyPageSchema = Type.Object({
  has_more: Type.Boolean(),
  next_cursor: Type.String(),
  items: Type.Array(conditionalRecordSchema),
});
agreeSent<typeof historyQuery, ConditionalHistoryQuery>(true);
agree<typeof historyPageSchema, ConditionalPage>(true);

const cancelAllSchema = Type.Object({
  symbol: Type.Union([Type.String(), Type.Null()], { description: 'The pair, null for every pair' }),
  cancelled: Type.Integer({ description: 'How many conditional orders were cancelled' }),
});

agree<typeof cancelAllSchema, ConditionalCancelAllResult>(true);

export default async function conditionalOrderRoutes(app: ApiInstance, opts: { venue: Venue }): Promise<void> {
  const { venue } = opts;
  const ex = venue.exchange;
  const refQuery = { id: idField('Conditional order id'), client_order_id: clientOrderIdField };

  app.post(
    '/fapi/v1/conditional/order',
    {
      config: { auth: 'signed' },
      preValidation: strictJsonBody(conditionalBody),
      schema: {
        tags: ['trading'],
        summary: 'Place a conditional order: stop, take-profit, stop that closes the position (signed; extension)',
        description:
          'The body is an order of POST /fapi/v1/orders plus its trigger. The venue holds it, freezing nothing, ' +
          'until the watched price (working_type 1 mark, the default, checked at every mark; 2 last price, checked ' +
          'only on trades: after every command that traded, against the highest and lowest price traded) reaches ' +
          'trigger_price in trigger_direction (1 rises to it or above, 2 falls to it or below); then it places the ' +
          'order as POST /fapi/v1/orders would, with every check of that route (the price band, margin, the position ' +
          'a reduce-only order reduces): accepted, the record is status 2 with order_id; refused, status 4 with the ' +
          "route's reject_code and reject_reason. close_position (type 2, no qty) closes the whole position it holds " +
          'then. A position its order closes is recorded with close_type 3 (stop loss) for a stop (a sell falling ' +
          'to its trigger, a buy rising to it) or a trailing stop, 2 (take profit) for a take-profit (a sell rising ' +
          'to it, a buy falling to it). Checked now as its order would be but for the price band, margin and position (3001-3017), and: ' +
          '3026 when the watched price is already at or past the trigger (it would fire at once), 3027 beyond 10 ' +
          'waiting on the pair, 3011 for a client_order_id a waiting one of yours uses. Answers the record (status 1).',
        querystring: signedQuerystring(),
        body: conditionalBody,
        response: { 200: envelopeSchema(conditionalRecordSchema), ...signedErrors() },
      },
    },
    async (req) => {
      const input = { ...req.body, symbol: req.body.symbol.toUpperCase() };
      return ok(await venue.submit({ kind: 'placeConditional', accountId: accountIdOf(req), input }));
    },
  );

  app.delete(
    '/fapi/v1/conditional/order',
    {
      config: { auth: 'signed' },
      schema: {
        tags: ['trading'],
        summary: 'Cancel a waiting conditional order (signed; extension)',
        description:
          'Give exactly one of id and client_order_id. Answers the record (status 3). One of yours that is no ' +
          'longer waiting (named by id) is 3019; an unknown one, or one of another user, 1102.',
        querystring: signedQuerystring({ symbol: symbolField, ...refQuery }),
        response: { 200: envelopeSchema(conditionalRecordSchema), ...signedErrors() },
      },
    },
    async (req) => {
      const r = oneRef(req.query.id, req.query.client_order_id);
      const symbol = req.query.symbol === undefined ? undefined : listedSymbol(venue, req.query.symbol);
      const target = 'id' in r ? { orderId: r.id } : { clientOrderId: r.clientOrderId };
      return ok(await venue.submit({ kind: 'cancelConditional', accountId: accountIdOf(req), symbol, ...target }));
    },
  );

  app.put(
    '/fapi/v1/conditional/order',
    {
      config: { auth: 'signed' },
      preValidation: strictJsonBody(amendBody),
      schema: {
        tags: ['trading'],
        summary: 'Modify a waiting conditional order: trigger, limit price, qty (signed; extension)',
        description:
          'Give exactly one of id and client_order_id and at least one of trigger_price, price (a stop-limit) and ' +
          'qty (not a close_position stop). It keeps its id, client id, trigger direction and working type, and is ' +
          'checked as a new one would be: all or nothing. 3026 when the new trigger is already reached in its ' +
          'direction; the same values as it has, or a trailing stop, 1001; one no longer waiting 3019, an unknown ' +
          'one 1102. Answers the record as modified (Binance has no modify for its algo orders: this saves the ' +
          'cancel and place, and the moment between them when no stop waits).',
        querystring: signedQuerystring(),
        body: amendBody,
        response: { 200: envelopeSchema(conditionalRecordSchema), ...signedErrors() },
      },
    },
    async (req) => {
      const { id, client_order_id: cid, symbol: sym, ...change } = req.body;
      const r = oneRef(id, cid, 'body field');
      const symbol = sym === undefined ? undefined : listedSymbol(venue, sym);
      const target = 'id' in r ? { orderId: r.id } : { clientOrderId: r.clientOrderId };
      return ok(
        await venue.submit({ kind: 'amendConditional', accountId: accountIdOf(req), symbol, ...target, ...change }),
      );
    },
  );

  app.get(
    '/fapi/v1/conditional/order',
    {
      config: { auth: 'signed' },
      schema: {
        tags: ['trading'],
        summary: 'One conditional order, any status (signed; extension)',
        description:
          'Give exactly one of id and client_order_id (a client id names your waiting one, else the newest with it). ' +
          '1102 when you have none such.',
        querystring: signedQuerystring({ symbol: symbolField, ...refQuery }),
        response: { 200: envelopeSchema(conditionalRecordSchema), ...signedErrors() },
      },
    },
    async (req) => {
      const r = oneRef(req.query.id, req.query.client_order_id);
      const symbol = req.query.symbol === undefined ? undefined : listedSymbol(venue, req.query.symbol);
      const rec = ex.conditional(accountIdOf(req), { ...r, symbol });
      if (rec === undefined) {
        const which = 'id' in r ? `id ${r.id}` : `client_order_id '${r.clientOrderId}'`;
        // the pair named, when the request narrowed to one: the order may be on another
        const on = symbol === undefined ? '' : ` on ${symbol}`;
        throw new ApiError(Errors.ORDER_NOT_FOUND, `No conditional order of yours${on} has ${which}`);
      }
      return ok(rec);
    },
  );

  app.delete(
    '/fapi/v1/conditional/allOpenOrders',
    {
      config: { auth: 'signed' },
      schema: {
        tags: ['trading'],
        summary: 'Cancel every waiting conditional order (signed; extension)',
        description: 'On `symbol` when given, else on every pair. Answers how many were cancelled.',
        querystring: signedQuerystring({ symbol: symbolField }),
        response: {
          200: envelopeSchema(cancelAllSchema),
          ...signedErrors(),
        },
      },
    },
    async (req) => {
      const symbol = req.query.symbol === undefined ? undefined : listedSymbol(venue, req.query.symbol);
      const cancelled = await venue.submit({ kind: 'cancelAllConditionals', accountId: accountIdOf(req), symbol });
      return ok({ symbol: symbol ?? null, cancelled });
    },
  );

  app.get(
    '/fapi/v1/conditional/openOrders',
    {
      config: { auth: 'signed' },
      schema: {
        tags: ['trading'],
        summary: 'Waiting conditional orders (signed; extension)',
        description: 'Your conditional orders waiting for their trigger (status 1), oldest first; `symbol` filters.',
        querystring: signedQuerystring({ symbol: symbolField }),
        response: { 200: envelopeSchema(Type.Array(conditionalRecordSchema)), ...signedErrors() },
      },
    },
    async (req) => {
      const symbol = req.query.symbol === undefined ? undefined : listedSymbol(venue, req.query.symbol);
      return ok(ex.openConditionals(accountIdOf(req), symbol));
    },
  );

  app.get(
    '/fapi/v1/conditional/allOrders',
    {
      config: { auth: 'signed' },
      schema: {
        tags: ['trading'],
        summary: 'Conditional order history (signed; extension)',
        description:
          'All your conditional orders, every status, newest first, paged like allOrders: pass next_cursor back ' +
          '(with the same filters) until has_more is false.',
        querystring: historyQuery,
        response: {
          200: envelopeSchema(historyPageSchema),
          ...signedErrors(),
        },
      },
    },
    async (req) => {
      const { status, limit } = req.query;
      const symbol = req.query.symbol === undefined ? undefined : listedSymbol(venue, req.query.symbol);
      const accountId = accountIdOf(req);
      const p = page('conditionals', req.query, limit, (beforeId, n) =>
        ex
          .conditionalHistory({ accountId, symbol, status, beforeId, limit: n })
          .map((rec: ConditionalOrderRecord) => ({ id: Number(rec.id), rec })),
      );
      return ok({ has_more: p.hasMore, next_cursor: p.nextCursor, items: p.rows.map((r) => r.rec) });
    },
  );
}
