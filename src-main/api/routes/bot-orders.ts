// Bot routes: placement (the spec's POST /fapi/v1/bot/orders), cancel and cached open orders.
// Callers must be on the IP whitelist (403 / 2101 otherwise, checked before anything is
// parsed into a command). Bot orders belong to the house account: no margin, never stored;
// only their fills against users reach the users' ledgers.
import { Type } from 'typebox';
import type { OrderStatus } from '../../../src-shared/enums.ts';
import type { BotCancelResult } from '../../../src-shared/types.ts';
import type { Venue } from '../../services/venue.ts';
import { answer, envelopeSchema, ok, standardErrors } from '../envelope.ts';
import { agree, intEnum, noQuery, type ApiInstance } from '../schemas.ts';
import {
  botOrderBodySchema,
  idField,
  listedSymbol,
  orderRecordRef,
  placementResultRef,
  symbolField,
} from '../trading-schemas.ts';
import { strictJsonBody } from '../strict-input.ts';

const botCancelSchema = Type.Object({
  order_id: Type.String({ description: 'Order ID' }),
  status: intEnum([4] as const satisfies readonly OrderStatus[], '4=CANCELED'),
});

agree<typeof botCancelSchema, BotCancelResult>(true);

export default async function botOrderRoutes(app: ApiInstance, opts: { venue: Venue }): Promise<void> {
  const { venue } = opts;
  const ex = venue.exchange;
  const errors = standardErrors(403);

  app.post(
    '/fapi/v1/bot/orders',
    {
      config: { auth: 'bot' },
      preValidation: strictJsonBody(botOrderBodySchema),
      schema: {
        tags: ['bot'],
        summary: 'Bot order placement (IP whitelist)',
        description:
          'Sends the order straight to the matching engine: no margin frozen, nothing written to the database. ' +
          'Checked by the order rules that need no account, with the signed route codes (tick, step, min/max qty, ' +
          "price band, leverage within the pair's maximum 3013, min notional of an opening order 3007). " +
          'need_cache (default false) keeps the order in the in-memory order cache, so that GET ' +
          '/fapi/v1/bot/openOrders lists it; an order can be cancelled by id either way while it rests. Same ' +
          'answer as POST /fapi/v1/orders. Callers not on the whitelist get 403 / 2101.',
        querystring: noQuery,
        body: botOrderBodySchema,
        response: { 200: envelopeSchema(placementResultRef), ...errors },
      },
    },
    (req, reply) => {
      const body = req.body;
      body.symbol = body.symbol.toUpperCase();
      return answer(reply, venue.submit({ kind: 'placeBot', input: body }));
    },
  );

  app.delete(
    '/fapi/v1/bot/order',
    {
      config: { auth: 'bot' },
      schema: {
        tags: ['bot'],
        summary: 'Cancel a resting bot order (IP whitelist)',
        description: 'Cached or not. 1102 when no bot order with this id rests on the pair.',
        querystring: Type.Object(
          { symbol: symbolField, order_id: idField('Order ID') },
          { additionalProperties: false },
        ),
        response: {
          200: envelopeSchema(botCancelSchema),
          ...errors,
        },
      },
    },
    async (req) =>
      ok(
        await venue.submit({
          kind: 'cancelBot',
          symbol: listedSymbol(venue, req.query.symbol),
          orderId: req.query.order_id,
        }),
      ),
  );

  app.get(
    '/fapi/v1/bot/openOrders',
    {
      config: { auth: 'bot' },
      schema: {
        tags: ['bot'],
        summary: 'Cached bot orders still open (IP whitelist)',
        description: 'Bot orders placed with need_cache true that still rest, oldest first; `symbol` filters.',
        querystring: Type.Object({ symbol: Type.Optional(symbolField) }, { additionalProperties: false }),
        response: { 200: envelopeSchema(Type.Array(orderRecordRef)), ...errors },
      },
    },
    async (req) => ok(ex.botOrders(req.query.symbol === undefined ? undefined : listedSymbol(venue, req.query.symbol))),
  );
}
