// Prices and 24 h statistics per symbol: the price records (index, mark, last, funding) and the
// venue's rolling 24 h ticker (GET /api/v1/ticker/24h, the market's ticker service), kept as the
// API answers it: the screen shows its high, low and volume as those exact decimal texts and
// never rebuilds them from candles; its change, of the last price shown against the day's open. Written by ticker-feed.ts and the trade feed; read
// by the top bar and the symbol picker.
import { createStore } from 'zustand/vanilla';
import type { PriceRecord, Ticker24hRecord } from '../../../../src-shared/types.ts';

export interface Ticker {
  symbol: string;
  last: number;
  /**
   * Market time of `last`, ms (0: not known): a price record's or push's time, or the trade's. A
   * record older than the trades the pair on screen has shown leaves `last` as they set it, and
   * the price alerts set after this time are not checked against it (alerts-feed.ts).
   */
  lastAt: number;
  mark: number;
  index: number;
  fundingRate: number;
  /** Market time of the next funding settlement, ms. */
  nextFundingTime: number;
  /** The venue's 24 h ticker as last answered; null until the first answer. */
  day: Ticker24hRecord | null;
}

/** The price push of `price@{symbol}`: index, mark, last, funding rate, next funding time. */
export interface PricePush {
  /** Market time the push was built at, ms. */
  E: number;
  s: string;
  i: string;
  m: string;
  l: string;
  r: string;
  T: number;
}

/**
 * A pair's trades in one update of the trade channel, as the price alerts read them: each trade
 * that went above every one before it (`highs`) and below (`lows`), in time order (alert-rules.ts
 * TradedPath: the first trade at or past a level is one of them).
 */
interface TradedRange {
  symbol: string;
  /** Market time of the update's newest trade, ms. */
  at: number;
  highs: readonly number[];
  lows: readonly number[];
}

export interface TickerState {
  tickers: Record<string, Ticker>;
  /**
   * The trades of the last update of the trade channel (a new object each update; null before the
   * first): what the price alerts check, so a level a trade reached inside an update whose last
   * trade came back counts, as the candle's high or low shows it, at that trade's price.
   */
  traded: TradedRange | null;
  actions: {
    applyPrices(records: readonly PriceRecord[]): void;
    applyPricePush(p: PricePush): void;
    /**
     * The latest trade price of a symbol (from the trade channel), and its update's trades
     * (TradedRange: `at`, the newest trade's market time).
     */
    applyLast(symbol: string, price: number, trades?: Omit<TradedRange, 'symbol'>): void;
    /** The venue's 24 h tickers (GET /api/v1/ticker/24h), one record per pair. */
    applyDay(records: readonly Ticker24hRecord[]): void;
  };
}

function blank(symbol: string): Ticker {
  return {
    symbol,
    last: NaN,
    lastAt: 0,
    mark: NaN,
    index: NaN,
    fundingRate: NaN,
    nextFundingTime: 0,
    day: null,
  };
}

export function createTickerStore() {
  return createStore<TickerState>()((set, get) => {
    const patch = (symbol: string, change: Partial<Ticker>): void => {
      const cur = get().tickers[symbol] ?? blank(symbol);
      set({ tickers: { ...get().tickers, [symbol]: { ...cur, ...change } } });
    };
    /**
     * Whether a price record or push of market time `at` may set the pair's last price: not when
     * it is older than the trade the last price is from (a poll answer asked before trades the
     * screen has since shown). Only the pair whose trades come is held so (a venue restarted on an
     * earlier clock: its trades set the time back).
     */
    const newer = (symbol: string, cur: Ticker, at: number): boolean =>
      get().traded?.symbol !== symbol || !(at < cur.lastAt);
    return {
      tickers: {},
      traded: null,
      actions: {
        applyPrices(records) {
          const next = { ...get().tickers };
          for (const r of records) {
            const cur = next[r.symbol] ?? blank(r.symbol);
            const last = Number(r.last_price);
            const take = last > 0 && newer(r.symbol, cur, r.timestamp);
            next[r.symbol] = {
              ...cur,
              last: take ? last : cur.last,
              lastAt: take ? r.timestamp : cur.lastAt,
              mark: Number(r.mark_price),
              index: Number(r.index_price),
              fundingRate: Number(r.funding_rate),
              nextFundingTime: r.next_funding_time,
            };
          }
          set({ tickers: next });
        },
        applyPricePush(p) {
          const last = Number(p.l);
          const cur = get().tickers[p.s] ?? blank(p.s);
          const take = last > 0 && newer(p.s, cur, p.E);
          patch(p.s, {
            mark: Number(p.m),
            index: Number(p.i),
            last: take ? last : cur.last,
            lastAt: take ? p.E : cur.lastAt,
            fundingRate: Number(p.r),
            nextFundingTime: p.T,
          });
        },
        applyLast(symbol, price, trades) {
          if (trades !== undefined) set({ traded: { symbol, ...trades } });
          const cur = get().tickers[symbol];
          const at = trades?.at ?? cur?.lastAt ?? 0;
          if (cur?.last === price && cur.lastAt === at) return;
          patch(symbol, { last: price, lastAt: at });
        },
        applyDay(records) {
          const next = { ...get().tickers };
          for (const r of records) next[r.symbol] = { ...(next[r.symbol] ?? blank(r.symbol)), day: r };
          set({ tickers: next });
        },
      },
    };
  });
}

/**
 * The 24 h change of the last price the screen shows (`t.last`) against the day's open, as the
 * ticker writes it (the open's decimals; percent of the open, 3 decimals, no sign on a zero): the
 * ticker's own texts while its last price is the one shown. The last price moves with every trade
 * and price push, the ticker is asked every 2 s: the change was the answer's, so a last price up
 * from 101.0 to 102.0 stood beside "+1.000%" until the next answer.
 */
function dayChange(t: Ticker | undefined): { change: string; percent: string } | null {
  const day = t?.day;
  if (!t || !day) return null;
  if (!(t.last > 0) || t.last === Number(day.last_price))
    return { change: day.price_change, percent: day.price_change_percent };
  const p = day.open_price.split('.')[1]?.length ?? 0;
  const unit = 10 ** p;
  // in units of the last decimal: no binary fraction in the difference
  const open = Math.round(Number(day.open_price) * unit);
  const diff = Math.round(t.last * unit) - open;
  const percent = open === 0 ? '0.000' : ((diff / open) * 100).toFixed(3);
  return { change: (diff / unit).toFixed(p), percent: /^-0\.0+$/.test(percent) ? percent.slice(1) : percent };
}

/** 24 h change as a ratio (the percent shown / 100), NaN until the ticker is known; for sorting and colour. */
export function change24(t: Ticker | undefined): number {
  const c = dayChange(t);
  return c ? Number(c.percent) / 100 : NaN;
}

/** USDT turnover over 24 h, NaN until the ticker is known. */
export function quoteVolume24(t: Ticker | undefined): number {
  return t?.day ? Number(t.day.quote_volume) : NaN;
}

/** A decimal text with thousands separators, its digits as they are ("-12345.6" -> "-12,345.6"). */
export function grouped(text: string): string {
  const m = /^(-?)(\d+)(\.\d+)?$/.exec(text);
  if (m === null) return text;
  return m[1] + m[2].replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (m[3] ?? '');
}

/** A decimal text grouped, with a '+' before a positive value (a zero or negative one as it is). */
function signed(text: string): string {
  const g = grouped(text);
  return text.startsWith('-') || /^[0.]*$/.test(text) ? g : `+${g}`;
}

/**
 * The 24 h change as the screen writes it: the change of the last price shown (dayChange: the
 * ticker's price change and percent exactly, while its last price is the one shown), grouped
 * ("+1,500.0", "+0.521%"); '—' for both until the ticker is known.
 */
export function change24Text(t: Ticker | undefined): { price: string; percent: string } {
  const c = dayChange(t);
  if (!c) return { price: '—', percent: '—' };
  return { price: signed(c.change), percent: `${signed(c.percent)}%` };
}

/**
 * The funding rate of a pair that settles funding, NaN ("—") for one that settles none (paused or
 * delisted: next_funding_time 0) or is not known yet: the top bar's and the pair picker's.
 */
export function fundingRate(t: Ticker | undefined): number {
  return t !== undefined && t.nextFundingTime > 0 ? t.fundingRate : NaN;
}

/**
 * The mark, index and funding the top bar shows: NaN ("—") where the venue has none. A delisted
 * pair has no mark or index (GET /fapi/v1/complete_price answers 7001, the picker shows "—"),
 * though its price record still carries its last ones; a pair with no next settlement (paused or
 * delisted: next_funding_time 0) settles no funding, so it has no rate (nor countdown).
 */
export function venueFigures(
  t: Ticker | undefined,
  delisted: boolean,
): { mark: number; index: number; fundingRate: number; nextFundingTime: number } {
  const settles = t !== undefined && t.nextFundingTime > 0;
  return {
    mark: delisted || t === undefined ? NaN : t.mark,
    index: delisted || t === undefined ? NaN : t.index,
    fundingRate: fundingRate(t),
    nextFundingTime: settles ? t.nextFundingTime : 0,
  };
}
