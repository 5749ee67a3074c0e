// Recent public trades of a pair (extension): what a screen or a bot shows before the
// `trade@{symbol}` stream has delivered anything.
import { Side } from '../../../src-shared/enums.ts';
import { Type } from 'typebox';
import { ApiError, Errors } from '../../../src-shared/errors.ts';
import type { PublicTrade } from '../../../src-shared/types.ts';
import { RECENT_TRADES_KEPT } from '../../market/recent-trades.ts';
import { moneyText } from '../../trading/pair-figures.ts';
import type { Venue } from '../../services/venue.ts';
import { envelopeSchema, ok, standardErrors } from '../envelope.ts';
import { defaulted } from '../trading-schemas.ts';
import { agree, symbolParam, type ApiInstance } from '../schemas.ts';

const publicTradeSchema = Type.Object({
  id: Type.String({ description: 'Trade ID' }),
  price: Type.String(),
  qty: Type.String(),
  quote_qty: Type.String(),
  time: Type.Integer({ description: 'Market time, ms' }),
  taker_side: Type.Unsafe<Side>({ type: 'integer', enum: [1, 2], description: '1 buy, 2 sell' }),
  is_buyer_maker: Type.Boolean(),
});

agree<typeof publicTradeSchema, PublicTrade>(true);

export default async function tradeRoutes(app: ApiInstance, opts: { venue: Venue }): Promise<void> {
  const { venue } = opts;
  app.get(
    '/fapi/v1/trades',
    {
      schema: {
        tags: ['market data'],
        summary: 'Recent trades of a pair (extension)',
        description: `Newest first; the last ${RECENT_TRADES_KEPT} trades since the service started are kept.`,
        querystring: Type.Object(
          {
            symbol: symbolParam,
            limit: defaulted(
              Type.Integer({
                minimum: 1,
                maximum: RECENT_TRADES_KEPT,
                default: 100,
                description: `default 100, max ${RECENT_TRADES_KEPT}`,
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          200: envelopeSchema(Type.Array(publicTradeSchema)),
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
          quote_qty: moneyText(m.notional(t.priceTicks, t.qtyLots)),
          time: t.time,
          // the engine's side is 1 or 2: is_buyer_maker and taker_side read it alike
          taker_side: t.takerSide === Side.SELL ? Side.SELL : Side.BUY,
          is_buyer_maker: t.takerSide === Side.SELL,
        })),
      );
    },
  );
}
