// Public market data of the facade (reference section 2 d.1, REST public): ping, time,
// exchangeInfo, depth, trades, aggTrades, klines (and continuousKlines, the perpetual's),
// mark / index / premium klines, 24 h tickers,
// book tickers, last prices, premiumIndex, fundingRate, fundingInfo, openInterest, sapi
// system/status (the /futures/data statistics are in futures-data.ts), and the spot / COIN-M /
// sapi stubs that let default ccxt and freqtrade configurations load. Every figure comes from a
// service (the book, the recent-trades ring, the kline and price-kline services, the 24 h ticker,
// the pair figures, the stored funding rates); times are the market clock, except serverTime, the
// wall clock signatures are checked against.
import type { FastifyInstance } from 'fastify';
import { INTERVALS, type Interval } from '../../../../src-shared/intervals.ts';
import { KLINES_MAX_LIMIT } from '../../../market/kline-service.ts';
import { PRICE_KLINE_INTERVALS, type PriceSeries } from '../../../market/price-klines.ts';
import { RECENT_TRADES_KEPT } from '../../../market/recent-trades.ts';
import { MAX_OPEN_ORDERS_PER_PAIR } from '../../../trading/order-checks.ts';
import { fundingLimits, fundingSchedule, markText, maxPriceText } from '../../../trading/pair-figures.ts';
import type { PairView } from '../../../trading/pair-state.ts';
import { listedPairs, pairOf, paramsOf, type BinanceContext } from '../context.ts';
import { routeSchema } from '../schemas.ts';
import { BinanceError, invalidValue } from '../errors.ts';
import type { Params } from '../params.ts';
import type { ResolvedRateLimits, WindowLimit } from '../../rate-limit.ts';
import { selectKlines } from '../translate/klines.ts';
import {
  aggTradeRow,
  bookTicker,
  depthAnswer,
  exchangeInfoSymbol,
  premiumIndex,
  priceKline,
  ticker24,
  tradeRow,
} from '../translate/market.ts';

const DEPTH_LIMITS = [5, 10, 20, 50, 100, 500, 1000] as const;
const DEPTH_DEFAULT = 500;
/** Binance allows 1000 trades a request; the venue keeps the last RECENT_TRADES_KEPT (1000). */
const TRADES_MAX = 1000;
/** Binance's Old Trades Lookup: 500 a request (default 100). */
const HISTORICAL_TRADES_MAX = 500;
/** fundingRate: Binance's default 100, at most 1000 a request. */
const FUNDING_RATE_MAX = 1000;
const HOUR = 3_600_000;

const EMPTY_INFO = (serverTime: number) => ({
  timezone: 'UTC',
  serverTime,
  rateLimits: [],
  exchangeFilters: [],
  symbols: [],
});

/**
 * exchangeInfo's rateLimits: the venue's own limits (api/rate-limit.ts), in Binance's words: the
 * per-IP count of every request as REQUEST_WEIGHT (each request weighs 1 here), the per-key count
 * of signed requests as ORDERS (orders count in it, beside the other signed requests); none when off.
 */
function rateLimitsOf(limits: ResolvedRateLimits): Array<Record<string, string | number>> {
  const row = (rateLimitType: string, l: WindowLimit) =>
    l.windowMs % 60_000 === 0
      ? { rateLimitType, interval: 'MINUTE', intervalNum: l.windowMs / 60_000, limit: l.max }
      : { rateLimitType, interval: 'SECOND', intervalNum: Math.ceil(l.windowMs / 1000), limit: l.max };
  return [
    ...(limits.perIp === null ? [] : [row('REQUEST_WEIGHT', limits.perIp)]),
    ...(limits.perKey === null ? [] : [row('ORDERS', limits.perKey)]),
  ];
}

export function registerMarketData(app: FastifyInstance, ctx: BinanceContext, limits: ResolvedRateLimits): void {
  const rateLimits = rateLimitsOf(limits);
  const { venue } = ctx;
  const wall = ctx.auth.now;
  /** One pair's record when `symbol` is sent, else every listed pair's. */
  const oneOrAll = <T>(q: Params, f: (p: PairView, now: number) => T): T | T[] => {
    const now = venue.clock.now();
    const symbol = q.str('symbol');
    return symbol !== undefined ? f(pairOf(ctx, symbol), now) : listedPairs(ctx).map((p) => f(p, now));
  };

  app.get('/fapi/v1/ping', routeSchema('GET', '/fapi/v1/ping'), async () => ({}));
  app.get('/fapi/v1/time', routeSchema('GET', '/fapi/v1/time'), async () => ({ serverTime: wall() }));

  // onboardDate: Binance's listing time, before which it has no market data. The catalogue's
  // createdAt is the venue's first start, while a first start's simulated history (or a replay's)
  // goes back before it: the pair's oldest 1m candle or funding settlement when earlier. Kept once
  // the pair has a candle, so it never moves (a 1m retention deleting old candles does not change it).
  const onboard = new Map<string, number>();
  const onboardDate = (p: PairView): number => {
    const symbol = p.row.symbol;
    const known = onboard.get(symbol);
    if (known !== undefined) return known;
    const candle = venue.klines.oldestOpen(symbol, '1m');
    const [funding] = venue.trading.fundingRates({ symbol, limit: 1, order: 'asc' });
    const t = Math.min(p.row.createdAt, candle ?? Infinity, funding?.time ?? Infinity);
    if (candle !== undefined) onboard.set(symbol, t);
    return t;
  };

  app.get('/fapi/v1/exchangeInfo', routeSchema('GET', '/fapi/v1/exchangeInfo'), async () => ({
    timezone: 'UTC',
    serverTime: wall(),
    futuresType: 'U_MARGINED',
    rateLimits,
    exchangeFilters: [],
    assets: [{ asset: 'USDT', marginAvailable: true, autoAssetExchange: '0' }],
    symbols: listedPairs(ctx).map((p) =>
      exchangeInfoSymbol(p, {
        maxPrice: maxPriceText(p),
        maxOrders: MAX_OPEN_ORDERS_PER_PAIR,
        onboardDate: onboardDate(p),
      }),
    ),
  }));

  app.get('/fapi/v1/depth', routeSchema('GET', '/fapi/v1/depth'), async (req) => {
    const q = paramsOf(req);
    const pair = pairOf(ctx, q.required('symbol'));
    const limit = q.int('limit') ?? DEPTH_DEFAULT;
    if (!(DEPTH_LIMITS as readonly number[]).includes(limit))
      throw invalidValue('limit', `Valid limits: ${DEPTH_LIMITS.join(', ')}.`);
    return depthAnswer(pair, limit, venue.clock.now());
  });

  /** The pair's recent trades, oldest first. */
  const recent = (symbol: string, limit: number) =>
    venue.recentTrades.newest(symbol, Math.min(limit, RECENT_TRADES_KEPT)).reverse();

  app.get('/fapi/v1/trades', routeSchema('GET', '/fapi/v1/trades'), async (req) => {
    const q = paramsOf(req);
    const pair = pairOf(ctx, q.required('symbol'));
    const limit = q.int('limit', 1, TRADES_MAX) ?? 500;
    return recent(pair.row.symbol, limit).map((t) => tradeRow(pair, t));
  });

  // Binance's Old Trades Lookup (python-binance futures_historical_trades): from `fromId` the first
  // `limit`, else the newest, among the trades the venue keeps; the API key it asks for is not needed
  app.get('/fapi/v1/historicalTrades', routeSchema('GET', '/fapi/v1/historicalTrades'), async (req) => {
    const q = paramsOf(req);
    const pair = pairOf(ctx, q.required('symbol'));
    const limit = q.int('limit', 1, HISTORICAL_TRADES_MAX) ?? 100;
    const fromId = q.int('fromId', 0);
    if (fromId === undefined) return recent(pair.row.symbol, limit).map((t) => tradeRow(pair, t));
    const rows = recent(pair.row.symbol, RECENT_TRADES_KEPT).filter((t) => t.tradeId >= fromId);
    return rows.slice(0, limit).map((t) => tradeRow(pair, t));
  });

  app.get('/fapi/v1/aggTrades', routeSchema('GET', '/fapi/v1/aggTrades'), async (req) => {
    const q = paramsOf(req);
    const pair = pairOf(ctx, q.required('symbol'));
    const limit = q.int('limit', 1, TRADES_MAX) ?? 500;
    const fromId = q.int('fromId', 0);
    const { start, end } = q.timeWindow();
    if (start !== undefined && end !== undefined && end - start > HOUR)
      throw new BinanceError(-1127, 'More than 1 hours between startTime and endTime.');
    let rows = recent(pair.row.symbol, RECENT_TRADES_KEPT).filter(
      (t) =>
        (fromId === undefined || t.tradeId >= fromId) &&
        (start === undefined || t.time >= start) &&
        (end === undefined || t.time <= end),
    );
    rows = fromId !== undefined || start !== undefined ? rows.slice(0, limit) : rows.slice(-limit);
    return rows.map((t) => aggTradeRow(pair, t));
  });

  /** A pair's candles: klines (`symbol`), or the perpetual's continuous contract (`pair`, contractType PERPETUAL). */
  const klinesOf = (q: ReturnType<typeof paramsOf>, who: 'symbol' | 'pair') => {
    const pair = pairOf(ctx, q.required(who));
    const interval = q.required('interval');
    if (!(INTERVALS as readonly string[]).includes(interval) || interval === '1s')
      throw new BinanceError(-1120, 'Invalid interval.');
    const limit = q.int('limit', 1, KLINES_MAX_LIMIT) ?? 500;
    const { start, end } = q.timeWindow();
    const svc = venue.klines;
    return selectKlines((query) => svc.klines(pair.row.symbol, interval as Interval, query), {
      interval: interval as Interval,
      start,
      end,
      limit,
      oldest:
        start === undefined && end === undefined ? undefined : svc.oldestOpen(pair.row.symbol, interval as Interval),
    });
  };
  app.get('/fapi/v1/klines', routeSchema('GET', '/fapi/v1/klines'), async (req) => klinesOf(paramsOf(req), 'symbol'));
  app.get('/fapi/v1/continuousKlines', routeSchema('GET', '/fapi/v1/continuousKlines'), async (req) =>
    klinesOf(paramsOf(req), 'pair'),
  );

  // Mark / index / premium candles: the venue's price candles (market/price-klines.ts).
  const priceRoute = (path: string, series: PriceSeries, symbolParam: 'symbol' | 'pair') => {
    app.get(path, routeSchema('GET', path), async (req) => {
      const q = paramsOf(req);
      const pair = pairOf(ctx, q.required(symbolParam));
      const interval = q.required('interval');
      if (!(PRICE_KLINE_INTERVALS as readonly string[]).includes(interval))
        throw new BinanceError(-1120, 'Invalid interval.');
      const limit = q.int('limit', 1, KLINES_MAX_LIMIT) ?? 500;
      const { start, end } = q.timeWindow();
      return venue.priceKlines
        .candles(pair.row.symbol, series, interval as Interval, { startTime: start, endTime: end, limit })
        .map(priceKline);
    });
  };
  priceRoute('/fapi/v1/markPriceKlines', 'mark', 'symbol');
  priceRoute('/fapi/v1/indexPriceKlines', 'index', 'pair');
  priceRoute('/fapi/v1/premiumIndexKlines', 'premium', 'symbol');

  app.get('/fapi/v1/ticker/24hr', routeSchema('GET', '/fapi/v1/ticker/24hr'), async (req) =>
    oneOrAll(paramsOf(req), (p, now) => ticker24(ctx.tickers.ticker(p, now))),
  );
  app.get('/fapi/v1/ticker/bookTicker', routeSchema('GET', '/fapi/v1/ticker/bookTicker'), async (req) =>
    oneOrAll(paramsOf(req), bookTicker),
  );
  for (const path of ['/fapi/v1/ticker/price', '/fapi/v2/ticker/price']) {
    app.get(path, routeSchema('GET', path), async (req) =>
      oneOrAll(paramsOf(req), (p, now) => ({
        symbol: p.row.symbol,
        price: p.math.formatPrice(p.lastPriceTicks),
        time: now,
      })),
    );
  }
  app.get('/fapi/v1/premiumIndex', routeSchema('GET', '/fapi/v1/premiumIndex'), async (req) =>
    oneOrAll(paramsOf(req), (p, now) => premiumIndex(p, fundingSchedule(p), now)),
  );

  // The rate of each settlement as the venue stored it; startTime counts forward, otherwise the
  // newest `limit`; oldest first either way.
  app.get('/fapi/v1/fundingRate', routeSchema('GET', '/fapi/v1/fundingRate'), async (req) => {
    const q = paramsOf(req);
    const symbolText = q.str('symbol');
    const pair = symbolText === undefined ? undefined : pairOf(ctx, symbolText);
    const limit = q.int('limit', 1, FUNDING_RATE_MAX) ?? 100;
    const { start, end } = q.timeWindow();
    const order = start === undefined ? 'desc' : 'asc';
    const rows = venue.trading.fundingRates({ symbol: pair?.row.symbol, startTime: start, endTime: end, limit, order });
    if (start === undefined) rows.reverse();
    // markPrice: the mark the payments were computed from, 8 decimals as every mark here (not
    // rounded to the tick)
    return rows.map((r) => ({
      symbol: r.symbol,
      fundingTime: r.time,
      fundingRate: r.rate.toFixed(8),
      markPrice: markText(r.mark),
    }));
  });

  app.get('/fapi/v1/fundingInfo', routeSchema('GET', '/fapi/v1/fundingInfo'), async () =>
    listedPairs(ctx).map((p) => {
      const f = fundingLimits(p);
      return {
        symbol: p.row.symbol,
        adjustedFundingRateCap: f.cap.toFixed(8),
        adjustedFundingRateFloor: (-f.cap).toFixed(8),
        fundingIntervalHours: f.intervalHours,
        disclaimer: false,
      };
    }),
  );

  app.get('/fapi/v1/openInterest', routeSchema('GET', '/fapi/v1/openInterest'), async (req) => {
    const pair = pairOf(ctx, paramsOf(req).required('symbol'));
    const oi = venue.exchange.openInterest(pair.row.symbol);
    return { openInterest: pair.math.formatQty(oi.lots), symbol: pair.row.symbol, time: venue.clock.now() };
  });

  // Stubs: a futures-only venue has no spot or COIN-M markets and no sapi currencies; ccxt.binance
  // (freqtrade's class) asks for both margin lists when it has credentials.
  app.get('/api/v3/exchangeInfo', routeSchema('GET', '/api/v3/exchangeInfo'), async () => EMPTY_INFO(wall()));
  app.get('/dapi/v1/exchangeInfo', routeSchema('GET', '/dapi/v1/exchangeInfo'), async () => EMPTY_INFO(wall()));
  app.get('/sapi/v1/capital/config/getall', routeSchema('GET', '/sapi/v1/capital/config/getall'), async () => []);
  app.get('/sapi/v1/margin/allPairs', routeSchema('GET', '/sapi/v1/margin/allPairs'), async () => []);
  app.get('/sapi/v1/margin/isolated/allPairs', routeSchema('GET', '/sapi/v1/margin/isolated/allPairs'), async () => []);
  // ccxt's fetchStatus (binanceusdm too) asks the sapi base, unsigned. The venue has no maintenance
  // state: a service that answers is up, Binance's status 0 "normal" (1 "system_maintenance" is never sent).
  app.get('/sapi/v1/system/status', routeSchema('GET', '/sapi/v1/system/status'), async () => ({
    status: 0,
    msg: 'normal',
  }));
}
