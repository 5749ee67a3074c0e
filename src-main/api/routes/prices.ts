// Price records: index, mark and last price with the funding rate, per pair.
import { SymbolStatus } from '../../../src-shared/enums.ts';
import { Type } from 'typebox';
import { ApiError, Errors } from '../../../src-shared/errors.ts';
import { PRICE_RECORD_FIELDS, type PriceRecord } from '../../../src-shared/types.ts';
import { nextFundingTime } from '../../risk/funding.ts';
import type { PairView } from '../../trading/pair-state.ts';
import type { Venue } from '../../services/venue.ts';
import { envelopeSchema, errorEnvelopeSchema, ok } from '../envelope.ts';
import { agree, noQuery, type ApiInstance } from '../schemas.ts';

const priceRecordSchema = Type.Object({
  symbol: Type.String({ description: 'Trading pair' }),
  index_price: Type.String({ description: 'Index price (weighted average across the synthetic venues)' }),
  mark_price: Type.String({ description: 'Mark price, used for unrealized PnL and liquidation' }),
  last_price: Type.String({ description: 'Latest trade price' }),
  funding_rate: Type.String({ description: 'Current funding rate, 6 decimals; positive means longs pay shorts' }),
  next_funding_time: Type.Integer({
    description: 'Next funding settlement (00:00, 08:00, 16:00 UTC of market time), ms',
  }),
  price_precision: Type.Integer({ description: 'Price precision' }),
  qty_precision: Type.Integer({ description: 'Quantity precision' }),
  timestamp: Type.Integer({ description: 'Market time of the price data, ms (of the response for complete_price)' }),
});

agree<typeof priceRecordSchema, PriceRecord>(true);
if (Object.keys(priceRecordSchema.properties).join() !== PRICE_RECORD_FIELDS.join())
  throw new Error('price record schema: not the spec field order');

function record(pair: PairView, timestamp: number, now: number): PriceRecord {
  const m = pair.math;
  const p = m.price.precision;
  return {
    symbol: pair.row.symbol,
    index_price: pair.indexPrice.toFixed(p),
    mark_price: pair.markPrice.toFixed(p),
    last_price: m.formatPrice(pair.lastPriceTicks),
    funding_rate: pair.fundingRate.toFixed(6),
    next_funding_time: pair.nextFundingTime > 0 ? pair.nextFundingTime : nextFundingTime(now),
    price_precision: pair.row.pricePrecision,
    qty_precision: pair.row.qtyPrecision,
    timestamp,
  };
}

export default async function priceRoutes(app: ApiInstance, opts: { venue: Venue }): Promise<void> {
  const { venue } = opts;
  const listed = () => [...venue.exchange.pairs.values()].filter((p) => p.row.status !== SymbolStatus.DELISTED);

  app.get(
    '/fapi/v1/prices',
    {
      schema: {
        tags: ['market data'],
        summary: 'Price records of every listed pair',
        description: "`timestamp` is the market time of each pair's last price update. Delisted pairs are left out.",
        querystring: noQuery,
        response: {
          200: envelopeSchema(Type.Array(priceRecordSchema)),
          400: errorEnvelopeSchema,
          500: errorEnvelopeSchema,
        },
      },
    },
    async () => {
      const now = venue.clock.now();
      return ok(listed().map((p) => record(p, p.priceTime || now, now)));
    },
  );

  app.get(
    '/fapi/v1/complete_price',
    {
      config: { errorStyle: 'price' },
      schema: {
        tags: ['market data'],
        summary: 'Price record of one pair',
        description:
          'Errors: 7000 invalid parameter (HTTP 400), 7001 trading pair not found (404), 7002 internal error (500).',
        querystring: Type.Object(
          { symbol: Type.String({ pattern: '^[A-Za-z0-9]{2,30}$', description: 'Trading pair' }) },
          { additionalProperties: false },
        ),
        response: {
          200: envelopeSchema(priceRecordSchema),
          400: errorEnvelopeSchema,
          404: errorEnvelopeSchema,
          500: errorEnvelopeSchema,
        },
      },
    },
    async (req) => {
      const name = req.query.symbol.toUpperCase();
      const pair = venue.exchange.pair(name);
      if (!pair || pair.row.status === SymbolStatus.DELISTED)
        throw new ApiError(Errors.PRICE_PAIR_NOT_FOUND, `Trading pair '${name}' not found`);
      const now = venue.clock.now();
      return ok(record(pair, now, now));
    },
  );
}
