// A pair's rolling 24-hour ticker: open, high, low, last, base and quote volume and trade count
// over the 1m candles that opened within the last 24 h of market time, in exact decimals, with the
// last trade. The Binance facade's ticker/24hr and its ticker streams read it; any surface that
// shows 24 h figures can ask it instead of rebuilding them from coarser candles.
//
// Invariants: read-only over the kline service and the recent-trades ring; with no candle in the
// window every price is the last price and the volumes are zero.
import { Decimal } from 'decimal.js';
import type { PairView } from '../trading/pair-state.ts';
import type { KlineService } from './kline-service.ts';
import type { RecentTrades } from './recent-trades.ts';

const DAY = 86_400_000;
const MINUTES_A_DAY = 1440;

/** Prices at the pair's price precision, volumes at its quantity / quote precision. */
export interface Ticker24h {
  symbol: string;
  open: string;
  high: string;
  low: string;
  last: string;
  change: string;
  /** Percent, 3 decimals. */
  changePercent: string;
  weightedAverage: string;
  volume: string;
  quoteVolume: string;
  /** The last trade's quantity ('0' without one) and id (-1 without one). */
  lastQty: string;
  lastTradeId: number;
  openTime: number;
  closeTime: number;
  trades: number;
}

export class Ticker24hService {
  private readonly klines: KlineService;
  private readonly recent: RecentTrades;

  constructor(klines: KlineService, recent: RecentTrades) {
    this.klines = klines;
    this.recent = recent;
  }

  ticker(pair: PairView, now: number): Ticker24h {
    const r = pair.row;
    const last = new Decimal(pair.math.formatPrice(pair.lastPriceTicks));
    let open = last;
    let high = last;
    let low = last;
    let volume = new Decimal(0);
    let quote = new Decimal(0);
    let trades = 0;
    let openTime = now;
    let first = true;
    // newest first: the walk stops at the first candle older than the window
    for (const k of this.klines.klines(r.symbol, '1m', { limit: MINUTES_A_DAY })) {
      if (k[0] < now - DAY) break;
      const h = new Decimal(k[3]);
      const l = new Decimal(k[4]);
      if (first || h.gt(high)) high = h;
      if (first || l.lt(low)) low = l;
      first = false;
      open = new Decimal(k[2]);
      openTime = k[0];
      volume = volume.plus(k[6]);
      quote = quote.plus(k[7]);
      trades += k[8];
    }
    const p = r.pricePrecision;
    const change = last.minus(open);
    const lastTrade = this.recent.newest(r.symbol, 1)[0];
    return {
      symbol: r.symbol,
      open: open.toFixed(p),
      high: high.toFixed(p),
      low: low.toFixed(p),
      last: last.toFixed(p),
      change: change.toFixed(p),
      changePercent: open.isZero() ? '0.000' : change.div(open).times(100).toFixed(3),
      weightedAverage: volume.isZero() ? last.toFixed(p) : quote.div(volume).toFixed(p),
      volume: volume.toFixed(r.qtyPrecision),
      quoteVolume: quote.toFixed(r.quotePrecision),
      lastQty: lastTrade ? pair.math.formatQty(lastTrade.qtyLots) : '0',
      lastTradeId: lastTrade ? lastTrade.tradeId : -1,
      openTime,
      closeTime: now,
      trades,
    };
  }
}
