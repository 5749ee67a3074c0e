// A pair's rolling 24-hour ticker: open, high, low, last, base and quote volume and trade count
// over the 1m candles that opened within the last 24 h of market time, in exact decimals, with the
// last trade. The Binance facade's ticker/24hr and its ticker streams read it; any surface that
// shows 24 h figures can ask it instead of rebuilding them from coarser candles.
//
// Invariants: read-only over the kline service and the recent-trades ring; with no candle in the
// window every price is the last price and the volumes are zero. The window's first candle is the
// first 1-minute candle that opened at or after now - 24 h; a candle without a trade opens at the
// price then (the previous close), so `open` is the price 24 h ago to the minute.
import { Decimal } from 'decimal.js';
import type { PairView } from '../trading/pair-state.ts';
import type { KlineTuple } from './candles.ts';
import type { KlineService } from './kline-service.ts';
import type { RecentTrades } from './recent-trades.ts';

const DAY = 86_400_000;
const MINUTES_A_DAY = 1440;
/** Where 1m candles do not reach back a day, the intervals the window's rest is read from, finest first. */
const COARSER = ['5m', '15m', '1h'] as const;

/** A decimal text that rounds to zero without its sign: a fall of 0.0004 % reads 0.000, not -0.000. */
function unsignedZero(text: string): string {
  return /^-0\.?0*$/.test(text) ? text.slice(1) : text;
}

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

/** A sum of decimal texts kept as an integer of units at the most decimals seen (exact). */
class ScaledSum {
  private units = 0n;
  private decimals = 0;

  add(text: string): void {
    const dot = text.indexOf('.');
    const d = dot < 0 ? 0 : text.length - dot - 1;
    let v = BigInt(dot < 0 ? text : text.slice(0, dot) + text.slice(dot + 1));
    if (d > this.decimals) {
      this.units *= 10n ** BigInt(d - this.decimals);
      this.decimals = d;
    } else if (d < this.decimals) v *= 10n ** BigInt(this.decimals - d);
    this.units += v;
  }

  value(): Decimal {
    return new Decimal(this.units.toString()).div(new Decimal(10).pow(this.decimals));
  }
}

/** What the walk over the window's candles found, newest candle first. */
class CandleWindow {
  /** Texts of the candles ('' without a candle). */
  open = '';
  high = '';
  low = '';
  private highN = -Infinity;
  private lowN = Infinity;
  readonly volume = new ScaledSum();
  readonly quote = new ScaledSum();
  trades = 0;
  openTime: number;

  constructor(now: number) {
    this.openTime = now;
  }

  /** Adds a candle older than every one added before: per candle only number comparisons and integer sums. */
  add(k: KlineTuple): void {
    const h = Number(k[3]);
    const l = Number(k[4]);
    if (h > this.highN) {
      this.highN = h;
      this.high = k[3];
    }
    if (l < this.lowN) {
      this.lowN = l;
      this.low = k[4];
    }
    this.open = k[2];
    this.openTime = k[0];
    this.volume.add(k[6]);
    this.quote.add(k[7]);
    this.trades += k[8];
  }
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
    const w = new CandleWindow(now);
    // newest first: the walk stops at the first candle older than the window
    for (const k of this.klines.klines(r.symbol, '1m', { limit: MINUTES_A_DAY })) {
      if (k[0] < now - DAY) break;
      w.add(k);
    }
    // the 1m candles do not reach 24 h back (a replay of coarser candles, before its start only
    // history's 15m ones): the rest of the window from the finest coarser candles that ended
    // before the first 1m one (a replay's pre-start candles; a young venue has none)
    if (w.openTime > now - DAY + 60_000) {
      const firstOpen = w.openTime;
      for (const iv of COARSER) {
        const older = this.klines.klines(r.symbol, iv, { startTime: now - DAY, endTime: firstOpen - 1 });
        const whole = older.filter((k) => k[1] < firstOpen);
        if (whole.length === 0) continue;
        for (const k of whole) w.add(k);
        break;
      }
    }
    return this.answer(pair, now, last, w);
  }

  private answer(pair: PairView, now: number, last: Decimal, w: CandleWindow): Ticker24h {
    const r = pair.row;
    const open = w.open === '' ? last : new Decimal(w.open);
    const high = w.high === '' ? last : new Decimal(w.high);
    const low = w.low === '' ? last : new Decimal(w.low);
    const volume = w.volume.value();
    const quote = w.quote.value();
    const { trades, openTime } = w;
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
      changePercent: open.isZero() ? '0.000' : unsignedZero(change.div(open).times(100).toFixed(3)),
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
