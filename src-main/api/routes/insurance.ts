// The insurance fund's balance (an extension: GET /fapi/v1/insuranceBalance): the one fund every
// pair of the venue shares, which liquidations pay their clearance fees into and which takes over
// bankrupt closes (trading/liquidation.ts). The figure is the exchange's own, read as the request
// comes, so it is the same the Binance dialect's GET /binance/fapi/v1/insuranceBalance answers;
// beside it, what the house backstop has paid for losses beyond the fund.
import { isListed } from '../../core/symbol.ts';
import { Type } from 'typebox';
import type { InsuranceBalance } from '../../../src-shared/types.ts';
import { moneyText } from '../../trading/pair-figures.ts';
import type { Venue } from '../../services/venue.ts';
import { envelopeSchema, errorEnvelopeSchema, ok } from '../envelope.ts';
import { agree, noQuery, type ApiInstance } from '../schemas.ts';

const insuranceSchema = Type.Object({
  asset: Type.String({ description: 'The asset the fund holds: USDT' }),
  balance: Type.String({
    description: 'The fund, USDT, 8 decimals (never below zero)',
  }),
  house_backstop: Type.String({
    description:
      'What the house backstop has paid, USDT, 8 decimals: losses the fund could not cover and nobody was left to deleverage',
  }),
  symbols: Type.Array(Type.String(), { description: 'The pairs the fund backs: every listed pair' }),
  time: Type.Integer({ description: 'Market time of the reading, ms' }),
});

agree<typeof insuranceSchema, InsuranceBalance>(true);

export default async function insuranceRoutes(app: ApiInstance, opts: { venue: Venue }): Promise<void> {
  const { venue } = opts;
  app.get(
    '/fapi/v1/insuranceBalance',
    {
      schema: {
        tags: ['market data'],
        summary: 'Insurance fund balance',
        description:
          'The insurance fund every pair shares: it starts at 1,000,000 USDT, receives the liquidation clearance ' +
          'fees and what bankrupt closes leave at the mark, pays for those that lose and for wallets a liquidation ' +
          'left below zero; when it cannot take a bankrupt close, opposite positions are auto-deleveraged. It never ' +
          'goes below zero: what it cannot pay and no position can take, the house backstop pays. Public.',
        querystring: noQuery,
        response: {
          200: envelopeSchema(insuranceSchema),
          400: errorEnvelopeSchema,
          414: errorEnvelopeSchema,
          429: errorEnvelopeSchema,
          500: errorEnvelopeSchema,
        },
      },
    },
    async () =>
      ok({
        asset: 'USDT',
        balance: moneyText(venue.exchange.insuranceFund()),
        house_backstop: moneyText(venue.exchange.houseBackstop()),
        symbols: [...venue.exchange.pairs.values()].filter((p) => isListed(p.row)).map((p) => p.row.symbol),
        time: venue.clock.now(),
      }),
  );
}
