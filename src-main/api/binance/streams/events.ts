// Binance's WebSocket stream names and market event layouts (reference a.4), pure: a stream name
// parsed, and the depthUpdate, trade, aggTrade, kline, bookTicker, markPriceUpdate, 24 h ticker
// and forceOrder events built from the venue's records.
import { OrderType, Side } from '../../../../src-shared/enums.ts';
import { INTERVALS, type Interval } from '../../../../src-shared/intervals.ts';
import type { SymbolMath } from '../../../trading/pair-figures.ts';
import { bookTimeOf, type PairView } from '../../../trading/pair-state.ts';
import type { OrderState } from '../../../trading/ports.ts';
import { toPriceLevels } from '../../ws/depth-feed.ts';
import type { BookTop, PremiumIndex, Ticker24 } from '../translate/market.ts';
import { statusName } from '../translate/orders.ts';

export type Parsed =
  | { kind: 'depth'; symbol: string }
  | { kind: 'partial'; symbol: string; levels: number }
  | {
      kind: 'trade' | 'aggTrade' | 'bookTicker' | 'markPrice' | 'miniTicker' | 'ticker' | 'forceOrder';
      symbol: string;
    }
  | { kind: 'kline' | 'continuousKline'; symbol: string; interval: Interval }
  | { kind: 'allMarkPrice' | 'allMiniTicker' | 'allTicker' | 'allForceOrder' | 'allBookTicker' };

const STREAM =
  /^([a-z0-9]+)@(depth(?:5|10|20)?(?:@(?:100ms|500ms))?|trade|aggTrade|bookTicker|markPrice(?:@1s)?|miniTicker|ticker|forceOrder|kline_[0-9a-zA-Z]+)$/;

/** The continuous contract kline stream `<pair>_perpetual@continuousKline_<interval>` (the venue's contracts are perpetual). */
const CONTINUOUS = /^([a-z0-9]+)_perpetual@continuousKline_([0-9a-zA-Z]+)$/;

/** A stream name Binance serves, parsed; null for any other. */
export function parseStream(name: string): Parsed | null {
  const c = CONTINUOUS.exec(name);
  if (c !== null)
    return (INTERVALS as readonly string[]).includes(c[2]) && c[2] !== '1s'
      ? { kind: 'continuousKline', symbol: c[1].toUpperCase(), interval: c[2] as Interval }
      : null;
  if (name === '!markPrice@arr' || name === '!markPrice@arr@1s') return { kind: 'allMarkPrice' };
  if (name === '!forceOrder@arr') return { kind: 'allForceOrder' };
  if (name === '!miniTicker@arr') return { kind: 'allMiniTicker' };
  if (name === '!ticker@arr') return { kind: 'allTicker' };
  // every pair's book ticker, one event a pair as `<symbol>@bookTicker` (ccxt watchBidsAsks() with no symbols)
  if (name === '!bookTicker') return { kind: 'allBookTicker' };
  const m = STREAM.exec(name);
  if (m === null) return null;
  const symbol = m[1].toUpperCase();
  const what = m[2];
  if (what.startsWith('kline_')) {
    const iv = what.slice(6);
    return (INTERVALS as readonly string[]).includes(iv) && iv !== '1s'
      ? { kind: 'kline', symbol, interval: iv as Interval }
      : null;
  }
  if (what.startsWith('depth')) {
    const n = /^depth(5|10|20)/.exec(what);
    return n ? { kind: 'partial', symbol, levels: Number(n[1]) } : { kind: 'depth', symbol };
  }
  if (what.startsWith('markPrice')) return { kind: 'markPrice', symbol };
  return { kind: what as 'trade', symbol };
}

/**
 * A stream a timer rebuilds whole each period whether anything changed or not (mark prices, a
 * pair's tickers): two of its events of one market time are the same state, so a newer one may
 * replace one held (the latency gate's merge; the diff depth, trade and kline streams change only
 * with the market, and every one of their events counts).
 */
export function snapshotStream(name: string): boolean {
  const kind = parseStream(name)?.kind;
  return kind === 'markPrice' || kind === 'allMarkPrice' || kind === 'ticker' || kind === 'miniTicker';
}

type Levels = Parameters<typeof toPriceLevels>[1];

/** A diff or partial book event with the native ids (U, u, pu) of the changes it follows. */
export function depthEvent(
  pair: PairView,
  ids: { U: number; u: number; pu: number },
  levels: { bids: Levels; asks: Levels },
  now: number,
): Record<string, unknown> {
  return {
    e: 'depthUpdate',
    E: now,
    T: bookTimeOf(pair, now), // the book's last change (Binance's transaction time)
    s: pair.row.symbol,
    U: ids.U,
    u: ids.u,
    pu: ids.pu,
    b: toPriceLevels(pair.math, levels.bids),
    a: toPriceLevels(pair.math, levels.asks),
  };
}

export function tradeEvents(
  pair: PairView,
  t: { tradeId: number; priceTicks: number; qtyLots: number; takerSide: number; time: number },
): { trade: Record<string, unknown>; agg: Record<string, unknown> } {
  const s = pair.row.symbol;
  const p = pair.math.formatPrice(t.priceTicks);
  const q = pair.math.formatQty(t.qtyLots);
  const m = t.takerSide === Side.SELL;
  const id = t.tradeId;
  return {
    trade: { e: 'trade', E: t.time, T: t.time, s, t: id, p, q, X: 'MARKET', m },
    agg: { e: 'aggTrade', E: t.time, s, a: id, p, q, f: id, l: id, T: t.time, m },
  };
}

export function bookTickerEvent(t: BookTop, now: number): Record<string, unknown> {
  return {
    e: 'bookTicker',
    u: t.lastUpdateId,
    E: now,
    T: t.time, // the book's last change
    s: t.symbol,
    b: t.bidPrice,
    B: t.bidQty,
    a: t.askPrice,
    A: t.askQty,
  };
}

export function markPriceEvent(pi: PremiumIndex, now: number): Record<string, unknown> {
  return {
    e: 'markPriceUpdate',
    E: now,
    s: pi.symbol,
    p: pi.markPrice,
    i: pi.indexPrice,
    P: pi.estimatedSettlePrice,
    r: pi.lastFundingRate,
    T: pi.nextFundingTime,
  };
}

export function tickerEvents(
  t: Ticker24,
  now: number,
): { mini: Record<string, unknown>; full: Record<string, unknown> } {
  const mini = {
    e: '24hrMiniTicker',
    E: now,
    s: t.symbol,
    c: t.lastPrice,
    o: t.openPrice,
    h: t.highPrice,
    l: t.lowPrice,
    v: t.volume,
    q: t.quoteVolume,
  };
  const full = {
    ...mini,
    e: '24hrTicker',
    p: t.priceChange,
    P: t.priceChangePercent,
    w: t.weightedAvgPrice,
    Q: t.lastQty,
    O: t.openTime,
    C: t.closeTime,
    L: t.lastId,
    n: t.count,
  };
  return { mini, full };
}

/**
 * A native candle tuple [open, close, o, h, l, c, v, q, n, V, Q, closed] as a kline event, `ids`
 * its first and last trade ids (-1: none or not known).
 */
/**
 * A kline event as the continuous contract kline stream sends it (Binance's `continuous_kline`:
 * the pair `ps` and contract type `ct` instead of the symbol, the candle without `s`).
 */
export function continuousKlineEvent(kline: unknown): unknown {
  const { E, s, k } = kline as { E: number; s: string; k: Record<string, unknown> };
  const { s: _symbol, ...candle } = k;
  return { e: 'continuous_kline', E, ps: s, ct: 'PERPETUAL', k: candle };
}

export function klineEvent(
  symbol: string,
  interval: string,
  k: readonly unknown[],
  now: number,
  ids: { f: number; L: number },
): unknown {
  return {
    e: 'kline',
    E: now,
    s: symbol,
    k: {
      t: k[0],
      T: k[1],
      s: symbol,
      i: interval,
      f: ids.f,
      L: ids.L,
      o: k[2],
      c: k[5],
      h: k[3],
      l: k[4],
      v: k[6],
      n: k[8],
      x: k[11],
      q: k[7],
      V: k[9],
      Q: k[10],
      B: '0',
    },
  };
}

/**
 * A liquidation as Binance's `<symbol>@forceOrder` / `!forceOrder@arr` push it: the liquidation's
 * close order `o` as a LIMIT IOC at the bankruptcy price (its price, as forceOrders and the user
 * stream show it; 0 for the rare market close of a bankruptcy price not above 0), its figures as
 * the liquidation left them, `l` its last fill's quantity (`lastLots`), `T` the liquidation's time.
 */
export function forceOrderEvent(
  m: SymbolMath,
  o: Readonly<OrderState>,
  lastLots: number,
  time: number,
  now: number,
): Record<string, unknown> {
  return {
    e: 'forceOrder',
    E: now,
    o: {
      s: o.symbol,
      S: o.side === Side.BUY ? 'BUY' : 'SELL',
      o: 'LIMIT',
      f: 'IOC',
      q: m.formatQty(o.qtyLots),
      p: o.type === OrderType.MARKET ? '0' : m.formatPrice(o.priceTicks),
      ap: m.averagePrice(o.filledQuote, o.filledLots),
      X: statusName(o),
      l: m.formatQty(lastLots),
      z: m.formatQty(o.filledLots),
      T: time,
    },
  };
}
