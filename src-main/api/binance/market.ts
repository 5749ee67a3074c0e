// Public market data of the facade (reference section 2 d.1, REST public): ping, time,
// exchangeInfo, depth, trades, aggTrades, klines, mark / index / premium klines, 24 h tickers,
// book tickers, last prices, premiumIndex, fundingRate, fundingInfo, openInterest, and the spot / COIN-M /
// sapi stubs that let default ccxt and freqtrade configurations load. Every figure comes from the native services (the engine's book, the
// recent-trades ring, the kline service, the pair state); times are the market clock, except
// serverTime, which is the wall clock signatures are checked against.
//
// fundingRate reads the stored settlement rates (trading/funding.ts); markPriceKlines,
// indexPriceKlines and premiumIndexKlines read the price candles (market/price-klines.ts, kept
// in the store across restarts).
//
// openInterest is the exchange's figure (Exchange.openInterest: the users' positions, the house
// counted as one net position); openInterestHist reads its stored 5-minute samples
// (market/open-interest-history.ts).
import { Decimal } from 'decimal.js';
import type { FastifyInstance } from 'fastify';
import { INTERVALS, nextOpenTime, openTimeOf, previousOpenTime, type Interval } from '../../../src-shared/intervals.ts';
import { MAX_PRICE_TICKS } from '../../engine/types.ts';
import { KLINES_MAX_LIMIT } from '../../market/kline-service.ts';
import { PRICE_KLINE_INTERVALS, type PriceSeries } from '../../market/price-klines.ts';
import { OPEN_INTEREST_PERIODS } from '../../market/open-interest-history.ts';
import { RECENT_TRADES_KEPT } from '../../market/recent-trades.ts';
import { fundingRateCap, nextFundingTime, FUNDING_INTEREST_RATE, FUNDING_INTERVAL_MS } from '../../risk/funding.ts';
import { formatMoney } from '../../risk/money.ts';
import { MAX_OPEN_ORDERS_PER_PAIR } from '../../trading/order-checks.ts';
import type { PairState } from '../../trading/pair-state.ts';
import { toPriceLevels } from '../ws/depth-feed.ts';
import { listedPairs, pairOf, paramsOf, type BinanceContext } from './context.ts';
import { BinanceError, invalidValue } from './errors.ts';

const BINANCE_DEPTH_LIMITS = [5, 10, 20, 50, 100, 500, 1000] as const;
const BINANCE_DEPTH_DEFAULT = 500;
/** Binance allows 1000 trades a request; the venue keeps the last RECENT_TRADES_KEPT (1000, a full page). */
const BINANCE_TRADES_MAX = 1000;
/** fundingRate: Binance's default 100, at most 1000 a request. */
const BINANCE_FUNDING_RATE_MAX = 1000;
const DAY = 86_400_000;

/** Binance's symbol status for a native one (1 trading, 2 paused, 3 delisted). */
function symbolStatus(status: number): string {
  return status === 1 ? 'TRADING' : status === 2 ? 'SETTLING' : 'CLOSE';
}

/** One symbols[] entry of exchangeInfo (reference a.3). */
function exchangeInfoSymbol(pair: PairState): Record<string, unknown> {
  const r = pair.row;
  const ratio = new Decimal(r.marketPriceProtectRatio);
  const decimals = Math.max(4, ratio.decimalPlaces());
  const orderTypes = r.allowMarket ? ['LIMIT', 'MARKET'] : ['LIMIT'];
  return {
    symbol: r.symbol,
    pair: r.symbol,
    contractType: 'PERPETUAL',
    deliveryDate: 4133404800000,
    onboardDate: r.createdAt,
    status: symbolStatus(r.status),
    maintMarginPercent: new Decimal(r.maintenanceMarginRate).times(100).toFixed(4),
    requiredMarginPercent: new Decimal(100).div(r.maxLeverage).toFixed(4),
    baseAsset: r.baseAsset,
    quoteAsset: r.quoteAsset,
    marginAsset: r.marginAsset,
    pricePrecision: r.pricePrecision,
    quantityPrecision: r.qtyPrecision,
    baseAssetPrecision: 8,
    quotePrecision: 8,
    underlyingType: 'COIN',
    underlyingSubType: [],
    triggerProtect: '0.0500',
    liquidationFee: '0.012500',
    marketTakeBound: r.marketPriceProtectRatio,
    maxMoveOrderLimit: 10000,
    filters: [
      {
        filterType: 'PRICE_FILTER',
        minPrice: r.tickSize,
        maxPrice: pair.math.formatPrice(MAX_PRICE_TICKS),
        tickSize: r.tickSize,
      },
      { filterType: 'LOT_SIZE', minQty: r.minQty, maxQty: r.maxQty, stepSize: r.stepSize },
      { filterType: 'MARKET_LOT_SIZE', minQty: r.minQty, maxQty: r.maxQty, stepSize: r.stepSize },
      { filterType: 'MIN_NOTIONAL', notional: r.minNotional },
      // the core's per-account, per-pair open-order limit (native 3021, -2025 here)
      { filterType: 'MAX_NUM_ORDERS', limit: MAX_OPEN_ORDERS_PER_PAIR },
      {
        filterType: 'PERCENT_PRICE',
        multiplierUp: new Decimal(1).plus(ratio).toFixed(decimals),
        multiplierDown: new Decimal(1).minus(ratio).toFixed(decimals),
        multiplierDecimal: String(decimals),
      },
    ],
    orderTypes,
    timeInForce: ['GTC', 'IOC', 'FOK', 'GTX'],
  };
}

interface Ticker24 {
  open: Decimal;
  high: Decimal;
  low: Decimal;
  last: Decimal;
  volume: Decimal;
  quoteVolume: Decimal;
  count: number;
  openTime: number;
}

/** Rolling 24 h figures from the pair's 1m candles (the window's first candle opens at most 24 h before now). */
function rolling24h(ctx: BinanceContext, pair: PairState, now: number): Ticker24 {
  const rows = ctx.venue.klines.klines(pair.row.symbol, '1m', { limit: 1440 }); // newest first
  const from = now - DAY;
  const last = new Decimal(pair.math.formatPrice(pair.lastPriceTicks));
  const t: Ticker24 = {
    open: last,
    high: last,
    low: last,
    last,
    volume: new Decimal(0),
    quoteVolume: new Decimal(0),
    count: 0,
    openTime: now,
  };
  let first = true;
  for (const k of rows) {
    if (k[0] < from) break;
    const high = new Decimal(k[3]);
    const low = new Decimal(k[4]);
    if (first) {
      t.high = high;
      t.low = low;
      first = false;
    } else {
      if (high.gt(t.high)) t.high = high;
      if (low.lt(t.low)) t.low = low;
    }
    t.open = new Decimal(k[2]);
    t.openTime = k[0];
    t.volume = t.volume.plus(k[6]);
    t.quoteVolume = t.quoteVolume.plus(k[7]);
    t.count += k[8];
  }
  return t;
}

export function ticker24(ctx: BinanceContext, pair: PairState, now: number): Record<string, unknown> {
  const m = pair.math;
  const p = pair.row.pricePrecision;
  const t = rolling24h(ctx, pair, now);
  const change = t.last.minus(t.open);
  const lastTrade = ctx.venue.recentTrades.newest(pair.row.symbol, 1)[0];
  return {
    symbol: pair.row.symbol,
    priceChange: change.toFixed(p),
    priceChangePercent: t.open.isZero() ? '0.000' : change.div(t.open).times(100).toFixed(3),
    weightedAvgPrice: t.volume.isZero() ? t.last.toFixed(p) : t.quoteVolume.div(t.volume).toFixed(p),
    lastPrice: t.last.toFixed(p),
    lastQty: lastTrade ? m.formatQty(lastTrade.qtyLots) : '0',
    openPrice: t.open.toFixed(p),
    highPrice: t.high.toFixed(p),
    lowPrice: t.low.toFixed(p),
    volume: t.volume.toFixed(pair.row.qtyPrecision),
    quoteVolume: t.quoteVolume.toFixed(pair.row.quotePrecision),
    openTime: t.openTime,
    closeTime: now,
    // trade ids are venue-wide, so a pair's first id of the window is not derivable from a count
    lastId: lastTrade ? lastTrade.tradeId : -1,
    count: t.count,
  };
}

export function bookTicker(pair: PairState, time: number): Record<string, unknown> {
  const v = pair.book.depth(1);
  const m = pair.math;
  const bid = v.bids[0];
  const ask = v.asks[0];
  return {
    symbol: pair.row.symbol,
    bidPrice: bid ? m.formatPrice(bid[0]) : '0',
    bidQty: bid ? m.formatQty(bid[1]) : '0',
    askPrice: ask ? m.formatPrice(ask[0]) : '0',
    askQty: ask ? m.formatQty(ask[1]) : '0',
    time,
    lastUpdateId: v.updateId,
  };
}

export function premiumIndex(pair: PairState, now: number): Record<string, unknown> {
  const p = pair.row.pricePrecision;
  return {
    symbol: pair.row.symbol,
    markPrice: pair.markPrice.toFixed(p),
    indexPrice: pair.indexPrice.toFixed(p),
    estimatedSettlePrice: pair.indexPrice.toFixed(p),
    lastFundingRate: pair.fundingRate.toFixed(8),
    interestRate: FUNDING_INTEREST_RATE.toFixed(8),
    nextFundingTime: pair.nextFundingTime > 0 ? pair.nextFundingTime : nextFundingTime(now),
    time: pair.priceTime || now,
  };
}

/** Native candle tuple -> Binance's column order (reference a.2 fetchOHLCV). */
function binanceKline(k: readonly unknown[]): unknown[] {
  return [k[0], k[2], k[3], k[4], k[5], k[6], k[1], k[7], k[8], k[9], k[10], '0'];
}

/** `n` periods of `interval` after aligned open time `t` (1M has no fixed length). */
function periodsAfter(interval: Interval, t: number, n: number): number {
  for (let i = 0; i < n; i++) t = nextOpenTime(interval, t);
  return t;
}

function periodsBefore(interval: Interval, t: number, n: number): number {
  for (let i = 0; i < n; i++) t = previousOpenTime(interval, t);
  return t;
}

/**
 * Binance's candle selection, oldest first: startTime (+ limit) counts forward from startTime,
 * endTime alone counts back from it, neither is the latest `limit`.
 */
function klines(
  ctx: BinanceContext,
  symbol: string,
  interval: Interval,
  start: number | undefined,
  end: number | undefined,
  limit: number,
): unknown[][] {
  const svc = ctx.venue.klines;
  let rows;
  if (start === undefined && end === undefined) rows = svc.klines(symbol, interval, { limit }).reverse();
  else if (start !== undefined) {
    const from = openTimeOf(interval, start);
    const lastOpen = periodsAfter(interval, from, limit - 1);
    const to = end === undefined ? lastOpen + 1 : Math.min(end, lastOpen + 1);
    rows = to < from ? [] : svc.klines(symbol, interval, { startTime: from, endTime: to }).reverse();
    rows = rows.filter((k) => k[0] >= start).slice(0, limit);
  } else {
    const hi = openTimeOf(interval, end!);
    rows = svc.klines(symbol, interval, { startTime: periodsBefore(interval, hi, limit - 1), endTime: end! }).reverse();
    rows = rows.slice(Math.max(0, rows.length - limit));
  }
  return rows.map(binanceKline);
}

const EMPTY_INFO = (serverTime: number) => ({
  timezone: 'UTC',
  serverTime,
  rateLimits: [],
  exchangeFilters: [],
  symbols: [],
});

export function registerMarket(app: FastifyInstance, ctx: BinanceContext): void {
  const { venue } = ctx;
  const wall = ctx.auth.now;

  app.get('/fapi/v1/ping', async () => ({}));
  app.get('/fapi/v1/time', async () => ({ serverTime: wall() }));

  app.get('/fapi/v1/exchangeInfo', async () => ({
    timezone: 'UTC',
    serverTime: wall(),
    futuresType: 'U_MARGINED',
    rateLimits: [
      { rateLimitType: 'REQUEST_WEIGHT', interval: 'SECOND', intervalNum: 10, limit: 6000 },
      { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: 3000 },
    ],
    exchangeFilters: [],
    assets: [{ asset: 'USDT', marginAvailable: true, autoAssetExchange: '0' }],
    symbols: listedPairs(ctx).map(exchangeInfoSymbol),
  }));

  app.get('/fapi/v1/depth', async (req) => {
    const q = paramsOf(req);
    const pair = pairOf(ctx, q.required('symbol'));
    const limit = q.int('limit') ?? BINANCE_DEPTH_DEFAULT;
    if (!(BINANCE_DEPTH_LIMITS as readonly number[]).includes(limit)) {
      throw invalidValue('limit', `Valid limits: ${BINANCE_DEPTH_LIMITS.join(', ')}.`);
    }
    const v = pair.book.depth(limit);
    const now = venue.clock.now();
    return {
      lastUpdateId: v.updateId,
      E: now,
      T: now,
      bids: toPriceLevels(pair.math, v.bids),
      asks: toPriceLevels(pair.math, v.asks),
    };
  });

  const recent = (symbol: string, limit: number) =>
    venue.recentTrades.newest(symbol, Math.min(limit, RECENT_TRADES_KEPT)).reverse();

  app.get('/fapi/v1/trades', async (req) => {
    const q = paramsOf(req);
    const pair = pairOf(ctx, q.required('symbol'));
    const limit = q.int('limit', 1, BINANCE_TRADES_MAX) ?? 500;
    const m = pair.math;
    return recent(pair.row.symbol, limit).map((t) => ({
      id: t.tradeId,
      price: m.formatPrice(t.priceTicks),
      qty: m.formatQty(t.qtyLots),
      quoteQty: formatMoney(m.notional(t.priceTicks, t.qtyLots)),
      time: t.time,
      isBuyerMaker: t.takerSide === 2,
    }));
  });

  // Each trade is its own aggregate: the venue does not group a taker's fills at one price.
  app.get('/fapi/v1/aggTrades', async (req) => {
    const q = paramsOf(req);
    const pair = pairOf(ctx, q.required('symbol'));
    const limit = q.int('limit', 1, BINANCE_TRADES_MAX) ?? 500;
    const fromId = q.int('fromId', 0);
    const start = q.int('startTime', 0);
    const end = q.int('endTime', 0);
    if (start !== undefined && end !== undefined && end - start > 3_600_000) {
      throw new BinanceError(-1127, 'More than 1 hours between startTime and endTime.');
    }
    const m = pair.math;
    let rows = recent(pair.row.symbol, RECENT_TRADES_KEPT);
    if (fromId !== undefined) rows = rows.filter((t) => t.tradeId >= fromId);
    if (start !== undefined) rows = rows.filter((t) => t.time >= start);
    if (end !== undefined) rows = rows.filter((t) => t.time <= end);
    rows =
      fromId !== undefined || start !== undefined ? rows.slice(0, limit) : rows.slice(Math.max(0, rows.length - limit));
    return rows.map((t) => ({
      a: t.tradeId,
      p: m.formatPrice(t.priceTicks),
      q: m.formatQty(t.qtyLots),
      f: t.tradeId,
      l: t.tradeId,
      T: t.time,
      m: t.takerSide === 2,
    }));
  });

  app.get('/fapi/v1/klines', async (req) => {
    const q = paramsOf(req);
    const pair = pairOf(ctx, q.required('symbol'));
    const interval = q.required('interval');
    if (!(INTERVALS as readonly string[]).includes(interval) || interval === '1s')
      throw new BinanceError(-1120, 'Invalid interval.');
    const limit = q.int('limit', 1, KLINES_MAX_LIMIT) ?? 500;
    const start = q.int('startTime', 0);
    const end = q.int('endTime', 0);
    if (start !== undefined && end !== undefined && start > end)
      throw new BinanceError(-1023, 'Start time is greater than end time.');
    return klines(ctx, pair.row.symbol, interval as Interval, start, end, limit);
  });

  // Mark / index / premium candles: the venue's in-memory window (market/price-klines.ts).
  // Binance's row: [openTime, open, high, low, close, "0", closeTime, "0", updates, "0", "0", "0"].
  const priceRoute = (path: string, series: PriceSeries, symbolParam: 'symbol' | 'pair') => {
    app.get(path, async (req) => {
      const q = paramsOf(req);
      const pair = pairOf(ctx, q.required(symbolParam));
      const interval = q.required('interval');
      if (!(PRICE_KLINE_INTERVALS as readonly string[]).includes(interval))
        throw new BinanceError(-1120, 'Invalid interval.');
      const limit = q.int('limit', 1, KLINES_MAX_LIMIT) ?? 500;
      const start = q.int('startTime', 0);
      const end = q.int('endTime', 0);
      if (start !== undefined && end !== undefined && start > end)
        throw new BinanceError(-1023, 'Start time is greater than end time.');
      const dp = series === 'premium' ? 8 : pair.row.pricePrecision;
      return venue.priceKlines
        .candles(pair.row.symbol, series, interval as Interval, { startTime: start, endTime: end, limit })
        .map((c) => [
          c.openTime,
          c.open.toFixed(dp),
          c.high.toFixed(dp),
          c.low.toFixed(dp),
          c.close.toFixed(dp),
          '0',
          c.closeTime,
          '0',
          c.count,
          '0',
          '0',
          '0',
        ]);
    });
  };
  priceRoute('/fapi/v1/markPriceKlines', 'mark', 'symbol');
  priceRoute('/fapi/v1/indexPriceKlines', 'index', 'pair');
  priceRoute('/fapi/v1/premiumIndexKlines', 'premium', 'symbol');

  app.get('/fapi/v1/ticker/24hr', async (req) => {
    const q = paramsOf(req);
    const now = venue.clock.now();
    const symbol = q.str('symbol');
    if (symbol !== undefined) return ticker24(ctx, pairOf(ctx, symbol), now);
    return listedPairs(ctx).map((p) => ticker24(ctx, p, now));
  });

  app.get('/fapi/v1/ticker/bookTicker', async (req) => {
    const q = paramsOf(req);
    const now = venue.clock.now();
    const symbol = q.str('symbol');
    if (symbol !== undefined) return bookTicker(pairOf(ctx, symbol), now);
    return listedPairs(ctx).map((p) => bookTicker(p, now));
  });

  const price = (p: PairState, now: number) => ({
    symbol: p.row.symbol,
    price: p.math.formatPrice(p.lastPriceTicks),
    time: now,
  });
  for (const path of ['/fapi/v1/ticker/price', '/fapi/v2/ticker/price']) {
    app.get(path, async (req) => {
      const q = paramsOf(req);
      const now = venue.clock.now();
      const symbol = q.str('symbol');
      if (symbol !== undefined) return price(pairOf(ctx, symbol), now);
      return listedPairs(ctx).map((p) => price(p, now));
    });
  }

  app.get('/fapi/v1/premiumIndex', async (req) => {
    const q = paramsOf(req);
    const now = venue.clock.now();
    const symbol = q.str('symbol');
    if (symbol !== undefined) return premiumIndex(pairOf(ctx, symbol), now);
    return listedPairs(ctx).map((p) => premiumIndex(p, now));
  });

  // The rate of each settlement, as the venue stored it (trading/funding.ts); Binance's window:
  // startTime counts forward, otherwise the newest `limit`; oldest first either way.
  app.get('/fapi/v1/fundingRate', async (req) => {
    const q = paramsOf(req);
    const symbolText = q.str('symbol');
    const pair = symbolText === undefined ? undefined : pairOf(ctx, symbolText);
    const limit = q.int('limit', 1, BINANCE_FUNDING_RATE_MAX) ?? 100;
    const start = q.int('startTime', 0);
    const end = q.int('endTime', 0);
    if (start !== undefined && end !== undefined && start > end)
      throw new BinanceError(-1023, 'Start time is greater than end time.');
    const rows = venue.trading.fundingRates({
      symbol: pair?.row.symbol,
      startTime: start,
      endTime: end,
      limit,
      order: start === undefined ? 'desc' : 'asc',
    });
    if (start === undefined) rows.reverse();
    return rows.map((r) => {
      const p = venue.exchange.pair(r.symbol);
      return {
        symbol: r.symbol,
        fundingTime: r.time,
        fundingRate: r.rate.toFixed(8),
        markPrice: p === undefined ? String(r.mark) : r.mark.toFixed(p.row.pricePrecision),
      };
    });
  });

  app.get('/fapi/v1/fundingInfo', async () =>
    listedPairs(ctx).map((p) => ({
      symbol: p.row.symbol,
      adjustedFundingRateCap: fundingRateCap(p.row.brackets).toFixed(8),
      adjustedFundingRateFloor: (-fundingRateCap(p.row.brackets)).toFixed(8),
      fundingIntervalHours: FUNDING_INTERVAL_MS / 3_600_000,
      disclaimer: false,
    })),
  );

  app.get('/fapi/v1/openInterest', async (req) => {
    const q = paramsOf(req);
    const pair = pairOf(ctx, q.required('symbol'));
    const oi = venue.exchange.openInterest(pair.row.symbol);
    return { openInterest: pair.math.formatQty(oi.lots), symbol: pair.row.symbol, time: venue.clock.now() };
  });

  app.get('/futures/data/openInterestHist', async (req) => {
    const q = paramsOf(req);
    const pair = pairOf(ctx, q.required('symbol'));
    const periodName = q.required('period');
    const period = OPEN_INTEREST_PERIODS[periodName];
    if (period === undefined)
      throw invalidValue('period', `It must be one of ${Object.keys(OPEN_INTEREST_PERIODS).join(', ')}.`);
    const limit = q.int('limit', 1, 500) ?? 30;
    const startTime = q.int('startTime', 0);
    const endTime = q.int('endTime', 0);
    if (startTime !== undefined && endTime !== undefined && startTime > endTime)
      throw new BinanceError(-1023, 'Start time is greater than end time.');
    const m = pair.math;
    return venue.openInterestHistory.samples(pair.row.symbol, period, { startTime, endTime, limit }).map((r) => ({
      symbol: r.symbol,
      sumOpenInterest: m.formatQty(r.lots),
      sumOpenInterestValue: r.value.toFixed(8),
      timestamp: r.time,
    }));
  });

  // Stubs: a futures-only venue has no spot or COIN-M markets and no sapi currencies.
  app.get('/api/v3/exchangeInfo', async () => EMPTY_INFO(wall()));
  app.get('/dapi/v1/exchangeInfo', async () => EMPTY_INFO(wall()));
  app.get('/sapi/v1/capital/config/getall', async () => []);
  app.get('/sapi/v1/margin/allPairs', async () => []);
  // ccxt.binance (freqtrade's class) asks for both margin lists when it has credentials
  app.get('/sapi/v1/margin/isolated/allPairs', async () => []);
}
