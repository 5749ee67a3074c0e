// GET /fapi/v1/insuranceBalance, Binance's "Query Insurance Fund Balance Snapshot" (public, weight
// 1): the fund's balance per margin asset with the pairs it backs. With `symbol`, the one group
// that backs the pair, {symbols, assets}; without, every group, an array of them. The venue has one
// fund for every pair, in USDT, so there is one group: every listed pair and one asset, its
// marginBalance the exchange's fund as the request comes (the figure the native
// GET /fapi/v1/insuranceBalance answers) and updateTime that reading's market time.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { moneyText } from '../../../trading/pair-figures.ts';
import { listedPairs, pairOf, paramsOf, type BinanceContext } from '../context.ts';
import { PATTERNS, routeSchema } from '../schemas.ts';

const PATH = '/fapi/v1/insuranceBalance';

export function registerInsuranceBalance(app: FastifyInstance, ctx: BinanceContext): void {
  const base = routeSchema('GET', PATH).schema;
  const querystring = Type.Object(
    { symbol: Type.Optional(Type.String({ pattern: PATTERNS.symbol, description: 'Pair, e.g. BTCUSDT (any case)' })) },
    { additionalProperties: true },
  );
  app.get(PATH, { schema: { ...base, querystring } }, async (req) => {
    const symbol = paramsOf(req).str('symbol');
    if (symbol !== undefined) pairOf(ctx, symbol); // -1121 for a pair the venue does not list
    const group = {
      symbols: listedPairs(ctx).map((p) => p.row.symbol),
      assets: [
        {
          asset: 'USDT',
          marginBalance: moneyText(ctx.venue.exchange.insuranceFund()),
          updateTime: ctx.venue.clock.now(),
        },
      ],
    };
    return symbol !== undefined ? group : [group];
  });
}
