// Recent public trades of a pair (extension): what a screen or a bot shows before the
// `trade@{symbol}` stream has delivered anything.
import type { FastifyInstance } from 'fastify';
import { ApiError, Errors } from '../../../src-shared/errors.ts';
import { RECENT_TRADES_KEPT } from '../../market/recent-trades.ts';
import { formatMoney } from '../../risk/money.ts';
import type { Venue } from '../../venue.ts';
import { envelopeSchema, ok, standardErrors } from '../envelope.ts';
import { symbolParam } from '../schemas.ts';

export default async function tradeRoutes(app: FastifyInstance, opts: { venue: Venue }): Promise<void> {
  const { venue } = opts;
  app.get<{ Querystring: { symbol: string; limit: number } }>(
    '/fapi/v1/trades',
    {
      schema: {
        tags: ['market data'],
        summary: 'Recent trades of a pair (extension)',
        description: `Newest first; the last ${RECENT_TRADES_KEPT} trades since the service started are kept.`,
        querystring: {
          type: 'object',
          additionalProperties: false,
          required: ['symbol'],
          properties: {
            symbol: symbolParam,
            limit: { type: 'integer', minimum: 1, maximum: RECENT_TRADES_KEPT, default: 100, description: `default 100, max ${RECENT_TRADES_KEPT}` },
          },
        },
        response: {
          200: envelopeSchema({
            type: 'array',
            items: {
              type: 'object',
              required: ['id', 'price', 'qty', 'quote_qty', 'time', 'taker_side', 'is_buyer_maker'],
              properties: {
                id: { type: 'string', description: 'Trade ID' },
                price: { type: 'string' },
                qty: { type: 'string' },
                quote_qty: { type: 'string' },
                time: { type: 'integer', description: 'Market time, ms' },
                taker_side: { type: 'integer', enum: [1, 2], description: '1 buy, 2 sell' },
                is_buyer_maker: { type: 'boolean' },
              },
            },
          }),
          ...standardErrors(),
        },
      },
    },
    async (req) => {
      const name = req.query.symbol.toUpperCase();
      const pair = venue.exchange.pair(name);
      if (!pair) throw new ApiError(Errors.SYMBOL_NOT_FOUND, `Unknown symbol '${name}'`);
      const m = pair.math;
      return ok(
        venue.recentTrades.newest(name, req.query.limit).map((t) => ({
          id: String(t.tradeId),
          price: m.formatPrice(t.priceTicks),
          qty: m.formatQty(t.qtyLots),
          quote_qty: formatMoney(m.notional(t.priceTicks, t.qtyLots)),
          time: t.time,
          taker_side: t.takerSide,
          is_buyer_maker: t.takerSide === 2,
        })),
      );
    },
  );
}
