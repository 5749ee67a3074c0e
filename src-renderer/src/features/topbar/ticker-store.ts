// Prices and 24 h statistics per symbol: the price records (index, mark, last, funding) and the
// last 24 h of 15-minute candles (open, high, low, volume). Written by ticker-feed.ts and the
// trade feed; read by the top bar and the symbol picker.
import { createStore } from 'zustand/vanilla';
import type { Candle, PriceRecord } from '../../../../src-shared/types.ts';

export interface Ticker {
  symbol: string;
  last: number;
  mark: number;
  index: number;
  fundingRate: number;
  /** Market time of the next funding settlement, ms. */
  nextFundingTime: number;
  /** Price 24 h ago (open of the oldest candle of the window); NaN until known. */
  open24: number;
  high24: number;
  low24: number;
  /** Base-asset volume over 24 h. */
  volume24: number;
  /** USDT turnover over 24 h. */
  quoteVolume24: number;
}

/** The price push of `price@{symbol}`: index, mark, last, funding rate, next funding time. */
export interface PricePush {
  s: string;
  i: string;
  m: string;
  l: string;
  r: string;
  T: number;
}

export interface TickerState {
  tickers: Record<string, Ticker>;
  actions: {
    applyPrices(records: readonly PriceRecord[]): void;
    applyPricePush(p: PricePush): void;
    /** The latest trade price of a symbol (from the trade channel). */
    applyLast(symbol: string, price: number): void;
    /** 15-minute candles of the last 24 h, newest first. */
    applyStats(symbol: string, candles: readonly Candle[]): void;
  };
}

function blank(symbol: string): Ticker {
  return {
    symbol,
    last: NaN,
    mark: NaN,
    index: NaN,
    fundingRate: NaN,
    nextFundingTime: 0,
    open24: NaN,
    high24: NaN,
    low24: NaN,
    volume24: NaN,
    quoteVolume24: NaN,
  };
}

/** Candles per 24 h at 15 minutes. */
export const STATS_CANDLES = 96;

export function createTickerStore() {
  return createStore<TickerState>()((set, get) => {
    const patch = (symbol: string, change: Partial<Ticker>): void => {
      const cur = get().tickers[symbol] ?? blank(symbol);
      set({ tickers: { ...get().tickers, [symbol]: { ...cur, ...change } } });
    };
    return {
      tickers: {},
      actions: {
        applyPrices(records) {
          const next = { ...get().tickers };
          for (const r of records) {
            const cur = next[r.symbol] ?? blank(r.symbol);
            const last = Number(r.last_price);
            next[r.symbol] = {
              ...cur,
              last: last > 0 ? last : cur.last,
              mark: Number(r.mark_price),
              index: Number(r.index_price),
              fundingRate: Number(r.funding_rate),
              nextFundingTime: r.next_funding_time,
              high24: last > 0 && last > cur.high24 ? last : cur.high24,
              low24: last > 0 && last < cur.low24 ? last : cur.low24,
            };
          }
          set({ tickers: next });
        },
        applyPricePush(p) {
          const last = Number(p.l);
          const cur = get().tickers[p.s] ?? blank(p.s);
          patch(p.s, {
            mark: Number(p.m),
            index: Number(p.i),
            last: last > 0 ? last : cur.last,
            fundingRate: Number(p.r),
            nextFundingTime: p.T,
          });
        },
        applyLast(symbol, price) {
          const cur = get().tickers[symbol] ?? blank(symbol);
          if (cur.last === price) return;
          patch(symbol, {
            last: price,
            high24: !(price <= cur.high24) ? price : cur.high24,
            low24: !(price >= cur.low24) ? price : cur.low24,
          });
        },
        applyStats(symbol, candles) {
          const window = candles.slice(0, STATS_CANDLES);
          if (window.length === 0) return;
          let high = -Infinity;
          let low = Infinity;
          let vol = 0;
          let quote = 0;
          for (const c of window) {
            const h = Number(c[3]);
            const l = Number(c[4]);
            if (Number(c[8]) > 0 || Number(c[6]) > 0) {
              if (h > high) high = h;
              if (l < low) low = l;
            }
            vol += Number(c[6]);
            quote += Number(c[7]);
          }
          const oldest = window[window.length - 1];
          const newest = window[0];
          const cur = get().tickers[symbol];
          const last = cur && cur.last > 0 ? cur.last : Number(newest[5]);
          patch(symbol, {
            open24: Number(oldest[2]),
            high24: Number.isFinite(high) ? Math.max(high, last) : last,
            low24: Number.isFinite(low) ? Math.min(low, last) : last,
            volume24: vol,
            quoteVolume24: quote,
            last,
          });
        },
      },
    };
  });
}

/** 24 h change as a ratio, NaN until both prices are known. */
export function change24(t: Ticker | undefined): number {
  if (!t || !(t.open24 > 0) || !(t.last > 0)) return NaN;
  return (t.last - t.open24) / t.open24;
}
