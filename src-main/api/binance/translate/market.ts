// Market records between the venue and Binance, pure: exchangeInfo symbols, candles in Binance's
// column order, trades and aggregate trades, book tickers, premium index, the 24 h ticker, mark /
// index / premium candles. Prices and quantities are the pair's decimal strings; times are the
// market clock (reference a.2, a.3).
import { Decimal } from 'decimal.js';
import { Side, SymbolStatus } from '../../../../src-shared/enums.ts';
import type { Ticker24h } from '../../../market/ticker-24h.ts';
import type { PriceCandle } from '../../../market/price-klines.ts';
import { MAX_CONDITIONALS_PER_PAIR } from '../../../trading/conditional.ts';
import { TRIGGER_PROTECT } from '../../../trading/conditional-trigger.ts';
import { liquidationFeeRate, markText, moneyText } from '../../../trading/pair-figures.ts';
import { bookTimeOf, type PairView } from '../../../trading/pair-state.ts';
import type { TradeEvent } from '../../../trading/events.ts';
import { toPriceLevels } from '../../ws/depth-feed.ts';

/** Binance's order types, in its exchangeInfo's order (the *MARKET ones only where market orders are allowed). */
const ORDER_TYPES = [
  'LIMIT',
  'MARKET',
  'STOP',
  'STOP_MARKET',
  'TAKE_PROFIT',
  'TAKE_PROFIT_MARKET',
  'TRAILING_STOP_MARKET',
];

/** Binance's symbol status for a native one. */
function symbolStatus(status: number): string {
  return status === SymbolStatus.TRADING ? 'TRADING' : status === SymbolStatus.PAUSED ? 'SETTLING' : 'CLOSE';
}

/**
 * One symbols[] entry of exchangeInfo (reference a.3); `maxPrice` and `maxOrders` are the venue's
 * limits, `onboardDate` the pair's listing time (no market data of it is older).
 */
export function exchangeInfoSymbol(
  pair: PairView,
  limits: { maxPrice: string; maxOrders: number; onboardDate: number },
): Record<string, unknown> {
  const r = pair.row;
  const ratio = new Decimal(r.marketPriceProtectRatio);
  const decimals = Math.max(4, ratio.decimalPlaces());
  return {
    symbol: r.symbol,
    pair: r.symbol,
    contractType: 'PERPETUAL',
    deliveryDate: 4133404800000,
    onboardDate: limits.onboardDate,
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
    triggerProtect: TRIGGER_PROTECT.toFixed(4),
    // the rate the venue's liquidations charge (Binance's six decimals)
    liquidationFee: new Decimal(liquidationFeeRate()).toFixed(6),
    marketTakeBound: r.marketPriceProtectRatio,
    maxMoveOrderLimit: 10000,
    filters: [
      { filterType: 'PRICE_FILTER', minPrice: r.tickSize, maxPrice: limits.maxPrice, tickSize: r.tickSize },
      { filterType: 'LOT_SIZE', minQty: r.minQty, maxQty: r.maxQty, stepSize: r.stepSize },
      { filterType: 'MARKET_LOT_SIZE', minQty: r.minQty, maxQty: r.maxQty, stepSize: r.stepSize },
      { filterType: 'MIN_NOTIONAL', notional: r.minNotional },
      // the core's per-account, per-pair open-order limit (native 3021, -2025 here)
      { filterType: 'MAX_NUM_ORDERS', limit: limits.maxOrders },
      // the core's waiting conditional orders per account and pair (native 3027, -4045 here)
      { filterType: 'MAX_NUM_ALGO_ORDERS', limit: MAX_CONDITIONALS_PER_PAIR },
      {
        filterType: 'PERCENT_PRICE',
        multiplierUp: new Decimal(1).plus(ratio).toFixed(decimals),
        multiplierDown: new Decimal(1).minus(ratio).toFixed(decimals),
        multiplierDecimal: String(decimals),
      },
    ],
    // the conditional types are algo orders (POST /fapi/v1/algoOrder); ccxt refuses a type not listed
    orderTypes: r.allowMarket ? ORDER_TYPES : ORDER_TYPES.filter((t) => !t.includes('MARKET')),
    timeInForce: ['GTC', 'IOC', 'FOK', 'GTX'],
  };
}

/** Native candle tuple [open, close, o, h, l, c, v, q, n, V, Q] -> Binance's column order (reference a.2). */
export function binanceKline(k: readonly unknown[]): unknown[] {
  return [k[0], k[2], k[3], k[4], k[5], k[6], k[1], k[7], k[8], k[9], k[10], '0'];
}

/**
 * A mark / index / premium candle: [openTime, o, h, l, c, "0", closeTime, "0", updates, "0", "0", "0"],
 * each figure to 8 decimals as Binance sends them: the marks and indexes as they were published
 * (premiumIndex, positionRisk and fundingRate give the same figures), not rounded to the tick.
 */
export function priceKline(c: PriceCandle): unknown[] {
  const f = markText;
  return [c.openTime, f(c.open), f(c.high), f(c.low), f(c.close), '0', c.closeTime, '0', c.count, '0', '0', '0'];
}

export function tradeRow(pair: PairView, t: TradeEvent): Record<string, unknown> {
  const m = pair.math;
  return {
    id: t.tradeId,
    price: m.formatPrice(t.priceTicks),
    qty: m.formatQty(t.qtyLots),
    quoteQty: moneyText(m.notional(t.priceTicks, t.qtyLots)),
    time: t.time,
    isBuyerMaker: t.takerSide === Side.SELL,
  };
}

/** Each trade is its own aggregate: the venue does not group a taker's fills at one price. */
export function aggTradeRow(pair: PairView, t: TradeEvent): Record<string, unknown> {
  const m = pair.math;
  return {
    a: t.tradeId,
    p: m.formatPrice(t.priceTicks),
    q: m.formatQty(t.qtyLots),
    f: t.tradeId,
    l: t.tradeId,
    T: t.time,
    m: t.takerSide === Side.SELL,
  };
}

export interface BookTop {
  symbol: string;
  bidPrice: string;
  bidQty: string;
  askPrice: string;
  askQty: string;
  time: number;
  lastUpdateId: number;
}

/** The pair's best bid and ask; `time` is when the book last changed (Binance's transaction time). */
export function bookTicker(pair: PairView, now: number): BookTop {
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
    time: bookTimeOf(pair, now),
    lastUpdateId: v.updateId,
  };
}

export function depthAnswer(pair: PairView, limit: number, now: number): Record<string, unknown> {
  const v = pair.book.depth(limit);
  return {
    lastUpdateId: v.updateId,
    E: now, // the answer's time
    T: bookTimeOf(pair, now), // the book's last change (Binance's transaction time)
    bids: toPriceLevels(pair.math, v.bids),
    asks: toPriceLevels(pair.math, v.asks),
  };
}

export interface PremiumIndex {
  symbol: string;
  markPrice: string;
  indexPrice: string;
  estimatedSettlePrice: string;
  lastFundingRate: string;
  interestRate: string;
  nextFundingTime: number;
  time: number;
}

export function premiumIndex(
  pair: PairView,
  schedule: { interestRate: number; nextFundingTime: number },
  now: number,
): PremiumIndex {
  return {
    symbol: pair.row.symbol,
    markPrice: markText(pair.markPrice),
    indexPrice: markText(pair.indexPrice),
    estimatedSettlePrice: markText(pair.indexPrice),
    lastFundingRate: pair.fundingRate.toFixed(8),
    interestRate: schedule.interestRate.toFixed(8),
    nextFundingTime: schedule.nextFundingTime,
    time: pair.priceTime || now,
  };
}

export interface Ticker24 {
  symbol: string;
  priceChange: string;
  priceChangePercent: string;
  weightedAvgPrice: string;
  lastPrice: string;
  lastQty: string;
  openPrice: string;
  highPrice: string;
  lowPrice: string;
  volume: string;
  quoteVolume: string;
  openTime: number;
  closeTime: number;
  lastId: number;
  count: number;
}

/** The 24 h ticker in Binance's names (trade ids are venue-wide, so no firstId). */
export function ticker24(t: Ticker24h): Ticker24 {
  return {
    symbol: t.symbol,
    priceChange: t.change,
    priceChangePercent: t.changePercent,
    weightedAvgPrice: t.weightedAverage,
    lastPrice: t.last,
    lastQty: t.lastQty,
    openPrice: t.open,
    highPrice: t.high,
    lowPrice: t.low,
    volume: t.volume,
    quoteVolume: t.quoteVolume,
    openTime: t.openTime,
    closeTime: t.closeTime,
    lastId: t.lastTradeId,
    count: t.trades,
  };
}
