// Price records (index, mark and last price with the funding rate, per pair) and the rolling
// 24 h ticker (an extension: GET /api/v1/ticker/24h). The 24 h figures are the market's ticker
// service's (market/ticker-24h.ts), the same the Binance dialect answers, so every surface (bots,
// the screen, Binance clients) shows one set of exact decimal figures.
import { isListed } from '../../core/symbol.ts';
import { Type } from 'typebox';
import { ApiError, Errors } from '../../../src-shared/errors.ts';
import { PRICE_RECORD_FIELDS, type PriceRecord, type Ticker24hRecord } from '../../../src-shared/types.ts';
import { Ticker24hService, type Ticker24h } from '../../market/ticker-24h.ts';
import { fundingSchedule, markText } from '../../trading/pair-figures.ts';
import type { PairView } from '../../trading/pair-state.ts';
import type { Venue } from '../../services/venue.ts';
import { envelopeSchema, errorEnvelopeSchema, ok, standardErrors } from '../envelope.ts';
import { agree, noQuery, type ApiInstance } from '../schemas.ts';

const priceRecordSchema = Type.Object({
  symbol: Type.String({ description: 'Trading pair' }),
  index_price: Type.String({ description: 'Index price (weighted average across the synthetic venues)' }),
  mark_price: Type.String({ description: 'Mark price, used for unrealized PnL and liquidation' }),
  last_price: Type.String({ description: 'Latest trade price' }),
  funding_rate: Type.String({ description: 'Current funding rate, 6 decimals; positive means longs pay shorts' }),
  next_funding_time: Type.Integer({
    description:
      'Next funding settlement (00:00, 08:00, 16:00 UTC of market time), ms; 0 for a paused pair, which settles no funding',
  }),
  price_precision: Type.Integer({ description: 'Price precision' }),
  qty_precision: Type.Integer({ description: 'Quantity precision' }),
  timestamp: Type.Integer({ description: 'Market time of the price data, ms (of the response for complete_price)' }),
});

agree<typeof priceRecordSchema, PriceRecord>(true);
if (Object.keys(priceRecordSchema.properties).join() !== PRICE_RECORD_FIELDS.join())
  throw new Error('price record schema: not the spec field order');

const ticker24hSchema = Type.Object({
  symbol: Type.String({ description: 'Trading pair' }),
  open_price: Type.String({ description: 'Open of the oldest 1-minute candle of the window (last_price without one)' }),
  high_price: Type.String({ description: 'Highest trade price of the window' }),
  low_price: Type.String({ description: 'Lowest trade price of the window' }),
  last_price: Type.String({ description: 'Latest trade price' }),
  price_change: Type.String({ description: 'last_price - open_price, at the price precision' }),
  price_change_percent: Type.String({ description: 'price_change as a percent of open_price, 3 decimals' }),
  weighted_avg_price: Type.String({ description: 'quote_volume / volume (last_price with no volume)' }),
  volume: Type.String({ description: 'Traded quantity of the window, base asset' }),
  quote_volume: Type.String({ description: 'Traded value of the window, USDT' }),
  trade_count: Type.Integer({ description: 'Trades of the window' }),
  open_time: Type.Integer({ description: "Market time of the window's first candle, ms (close_time with none)" }),
  close_time: Type.Integer({ description: 'Market time of the answer, ms' }),
});
agree<typeof ticker24hSchema, Ticker24hRecord>(true);

function tickerRecord(t: Ticker24h): Ticker24hRecord {
  return {
    symbol: t.symbol,
    open_price: t.open,
    high_price: t.high,
    low_price: t.low,
    last_price: t.last,
    price_change: t.change,
    price_change_percent: t.changePercent,
    weighted_avg_price: t.weightedAverage,
    volume: t.volume,
    quote_volume: t.quoteVolume,
    trade_count: t.trades,
    open_time: t.openTime,
    close_time: t.closeTime,
  };
}

function record(pair: PairView, timestamp: number): PriceRecord {
  const m = pair.math;
  return {
    symbol: pair.row.symbol,
    index_price: markText(pair.indexPrice),
    mark_price: markText(pair.markPrice),
    last_price: m.formatPrice(pair.lastPriceTicks),
    funding_rate: pair.fundingRate.toFixed(6),
    next_funding_time: fundingSchedule(pair).nextFundingTime,
    price_precision: pair.row.pricePrecision,
    qty_precision: pair.row.qtyPrecision,
    timestamp,
  };
}

export default async function priceRoutes(app: ApiInstance, opts: { venue: Venue }): Promise<void> {
  const { venue } = opts;
  const listed = () => [...venue.exchange.pairs.values()].filter((p) => isListed(p.row));

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
          414: errorEnvelopeSchema,
          429: errorEnvelopeSchema,
          500: errorEnvelopeSchema,
        },
      },
    },
    async () => {
      const now = venue.clock.now();
      return ok(listed().map((p) => record(p, p.priceTime || now)));
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
          'Errors: 7000 invalid parameter (HTTP 400; a URL over 8192 characters is 7000 with HTTP 414), 7001 trading ' +
          'pair not found (404), 7002 internal error (500); over the rate limit, 4290 (HTTP 429), as every route.',
        querystring: Type.Object(
          { symbol: Type.String({ pattern: '^[A-Za-z0-9]{2,30}$', description: 'Trading pair' }) },
          { additionalProperties: false },
        ),
        response: {
          200: envelopeSchema(priceRecordSchema),
          400: errorEnvelopeSchema,
          404: errorEnvelopeSchema,
          414: errorEnvelopeSchema,
          429: errorEnvelopeSchema,
          500: errorEnvelopeSchema,
        },
      },
    },
    async (req) => {
      const name = req.query.symbol.toUpperCase();
      const pair = venue.exchange.pair(name);
      if (!pair || !isListed(pair.row))
        throw new ApiError(Errors.PRICE_PAIR_NOT_FOUND, `Trading pair '${name}' not found`);
      const now = venue.clock.now();
      return ok(record(pair, now));
    },
  );

  const tickers = new Ticker24hService(venue.klines, venue.recentTrades);
  app.get(
    '/api/v1/ticker/24h',
    {
      schema: {
        tags: ['market data'],
        summary: 'Rolling 24 h ticker of every listed pair, or of the pairs named (extension)',
        description:
          "Open, high, low, last, change, volumes and trade count over the 1-minute candles that opened in the last 24 h of market time (the window ends at the answer's market time, not at a candle boundary), in exact decimals. " +
          'The same figures as the Binance-compatible GET /binance/fapi/v1/ticker/24hr. Without `symbols`, delisted pairs are left out; an unknown name is error 1101.',
        querystring: Type.Object(
          {
            symbols: Type.Optional(
              Type.String({
                pattern: '^[A-Za-z0-9]{2,30}(,[A-Za-z0-9]{2,30})*$',
                description: 'Comma-separated trading pairs (any case); default every listed pair',
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: { 200: envelopeSchema(Type.Array(ticker24hSchema)), ...standardErrors() },
      },
    },
    async (req) => {
      const now = venue.clock.now();
      const { symbols } = req.query;
      let pairs: PairView[];
      if (symbols === undefined) pairs = listed();
      else {
        const wanted = [...new Set(symbols.split(',').map((s) => s.toUpperCase()))];
        const unknown = wanted.filter((s) => venue.exchange.pair(s) === undefined);
        if (unknown.length > 0) throw new ApiError(Errors.SYMBOL_NOT_FOUND, `Unknown symbol(s): ${unknown.join(', ')}`);
        pairs = wanted.map((s) => venue.exchange.pair(s)!);
      }
      return ok(pairs.map((p) => tickerRecord(tickers.ticker(p, now))));
    },
  );
}
