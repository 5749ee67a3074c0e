// Order-book depth snapshot: GET /fapi/v1/depth (spec: Endpoints, Events).
//
// The snapshot is read synchronously from the engine's book, so it is one consistent state:
// `id` is the book's update id after the last level change it includes, the same id space as
// `U`/`u` of `depth_update@{symbol}`; a client joins the two with the spec's rules (first
// event with U <= id+1 <= u). `id` is sent only with `with_id=true`, as the spec words it.
import { Type } from 'typebox';
import { ApiError, Errors } from '../../../src-shared/errors.ts';
import type { Venue } from '../../services/venue.ts';
import { envelopeSchema, ok, standardErrors } from '../envelope.ts';
import { symbolParam, type ApiInstance } from '../schemas.ts';
import { defaulted } from '../trading-schemas.ts';
import { toPriceLevels } from '../ws/depth-feed.ts';

/** The documented `limit` values (levels per side). */
const DEPTH_LIMITS = [5, 10, 20, 50, 100, 500, 1000] as const;
const DEFAULT_DEPTH_LIMIT = 100;

const levelsSchema = Type.Array(
  Type.Unsafe<[string, string]>({ type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 2 }),
  {
    description: '[price, quantity] decimal-string pairs, best first',
  },
);

export default async function depthRoutes(app: ApiInstance, opts: { venue: Venue }): Promise<void> {
  const { venue } = opts;
  app.get(
    '/fapi/v1/depth',
    {
      schema: {
        tags: ['market data'],
        summary: 'Order-book depth snapshot',
        description:
          'The best `limit` price levels per side, best first (bids highest first, asks lowest first). ' +
          'With `with_id=true` the snapshot carries `id`, the update id after the last book change it includes; ' +
          'without it (or with `with_id=false`) there is no `id` field. Join it to the `depth_update@{symbol}` ' +
          "WebSocket channel by the spec's rules: apply the first event with U <= id+1 <= u, then each next event " +
          'has U = previous u + 1. Unknown symbol: 1101. A limit outside the listed values: 1001.',
        querystring: Type.Object(
          {
            symbol: symbolParam,
            with_id: Type.Optional(Type.Boolean({ description: 'true: include the update id `id`' })),
            limit: defaulted(
              Type.Unsafe<(typeof DEPTH_LIMITS)[number]>({
                type: 'integer',
                enum: [...DEPTH_LIMITS],
                default: DEFAULT_DEPTH_LIMIT,
                description: `Levels per side: one of ${DEPTH_LIMITS.join(', ')} (default ${DEFAULT_DEPTH_LIMIT})`,
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          200: envelopeSchema(
            Type.Object({
              bids: levelsSchema,
              asks: levelsSchema,
              id: Type.Optional(
                Type.Integer({ description: 'Update id after the last change included (only with with_id=true)' }),
              ),
            }),
          ),
          ...standardErrors(),
        },
      },
    },
    async (req) => {
      const { with_id: withId, limit } = req.query;
      const symbol = req.query.symbol.toUpperCase();
      const pair = venue.exchange.pairs.get(symbol);
      if (!pair) throw new ApiError(Errors.SYMBOL_NOT_FOUND, `Unknown symbol '${symbol}'`);
      const view = pair.book.depth(limit);
      const bids = toPriceLevels(pair.math, view.bids);
      const asks = toPriceLevels(pair.math, view.asks);
      return ok(withId === true ? { bids, asks, id: view.updateId } : { bids, asks });
    },
  );
}
