// The market streams' timed work, each stream at its update speed (reference d.1, Binance's):
// the diff and partial depth streams every 100 ms (`@100ms`), 250 ms (no suffix) or 500 ms
// (`@500ms`), each speed from its own native DepthWindow per symbol, so an event merges every
// change of its interval and U / u / pu are the native update ids with pu the u of the previous
// event on that stream; book tickers (`@bookTicker`, every pair's on `!bookTicker`) and current
// candles every 100 ms; every second the `@1s`
// mark prices and the all-market tickers `!ticker@arr` / `!miniTicker@arr` (only the pairs whose
// ticker changed since that stream's last event, none when none did), every second second a pair's
// `@ticker` / `@miniTicker` (Binance USD-M: 2000 ms and 2 s; the arrays 1000 ms), every third
// second the plain `@markPrice` and `!markPrice@arr`, and each pair's latest liquidation not yet
// pushed (`@forceOrder`, `!forceOrder@arr`). Only streams someone is subscribed to are built.
import { INTERVALS, type Interval } from '../../../../src-shared/intervals.ts';
import type { KlineTuple } from '../../../market/candles.ts';
import { RECENT_TRADES_KEPT } from '../../../market/recent-trades.ts';
import type { PairView } from '../../../trading/pair-state.ts';
import { fundingSchedule } from '../../../trading/pair-figures.ts';
import { DepthWindow } from '../../ws/depth-feed.ts';
import { listedPairs, type BinanceContext } from '../context.ts';
import { bookTicker, premiumIndex, ticker24 } from '../translate/market.ts';
import { KlineTradeIds } from './kline-trade-ids.ts';
import {
  bookTickerEvent,
  continuousKlineEvent,
  depthEvent,
  forceOrderEvent,
  klineEvent,
  markPriceEvent,
  tickerEvents,
  tradeEvents,
} from './events.ts';

/** Every pair's book ticker (Binance's All Book Tickers Stream): the pair's `@bookTicker` events, on one stream. */
const ALL_BOOK_TICKERS = '!bookTicker';

/** A depth stream's update speed in ms, and the suffix that names it (none: 250 ms). */
type DepthSpeed = 100 | 250 | 500;
const SUFFIX: Record<DepthSpeed, string> = { 100: '@100ms', 250: '', 500: '@500ms' };

/** The update speed of a depth stream `name` (diff or partial). */
export function depthSpeed(name: string): DepthSpeed {
  return name.endsWith('@100ms') ? 100 : name.endsWith('@500ms') ? 500 : 250;
}

/** The hub's side: who is subscribed, and how an event goes out (now, or held for a latency). */
export interface MarketSink {
  subscribed(name: string): boolean;
  push(name: string, data: unknown): void;
}

export class MarketFeed {
  private readonly ctx: BinanceContext;
  private readonly sink: MarketSink;
  /** Per symbol, a depth window per update speed followed. */
  private readonly windows = new Map<string, Map<DepthSpeed, DepthWindow>>();
  private readonly dirtyKlines = new Set<string>();
  private readonly lastTop = new Map<string, string>();
  /** Seconds ticked: the 2 s streams go out on every second one, the 3 s streams on every third. */
  private seconds = 0;
  /** Per pair, what the last `!miniTicker@arr` / `!ticker@arr` event held of it (changedOnly). */
  private readonly lastMiniArr = new Map<string, string>();
  private readonly lastTickArr = new Map<string, string>();
  /** The first / last trade ids of the candles of symbols with a kline stream. */
  private readonly tradeIds = new KlineTradeIds();
  /** Per pair, the forceOrder event of its latest liquidation not yet pushed. */
  private readonly liquidations = new Map<string, unknown>();

  constructor(ctx: BinanceContext, sink: MarketSink) {
    this.ctx = ctx;
    this.sink = sink;
  }

  /** What these remember stopped following the book (no listener any more). */
  reset(): void {
    this.windows.clear();
    this.lastTop.clear();
    this.dirtyKlines.clear();
    this.tradeIds.clear();
    this.lastMiniArr.clear();
    this.lastTickArr.clear();
    this.liquidations.clear();
  }

  /**
   * A position was liquidated (the account event, once committed): its close order's forceOrder
   * event, kept as the pair's latest until the next second's push (Binance's snapshot: at most the
   * latest liquidation of a pair each 1000 ms).
   */
  onLiquidation(accountId: number, note: { symbol: string; order_id: string; time: number }): void {
    const s = note.symbol.toLowerCase();
    if (!this.sink.subscribed(`${s}@forceOrder`) && !this.sink.subscribed('!forceOrder@arr')) return;
    const { venue } = this.ctx;
    const o = venue.trading.order(Number(note.order_id));
    if (o === undefined) return;
    // its last fill: the newest of the account's fills on the pair that are the order's (the
    // liquidation's command filled it last)
    const last = venue.trading.trades({ accountId, symbol: o.symbol, limit: 1 }).find((t) => t.orderId === o.id);
    const m = venue.exchange.pair(o.symbol)!.math;
    this.liquidations.set(o.symbol, forceOrderEvent(m, o, last?.qtyLots ?? 0, note.time, venue.clock.now()));
  }

  /** The trade ids of the pair's candles followed (a kline stream of it opens), when they are not. */
  followKlines(pair: PairView): void {
    const symbol = pair.row.symbol;
    if (this.tradeIds.followed(symbol)) return;
    const { klines, recentTrades } = this.ctx.venue;
    this.tradeIds.follow(
      symbol,
      (iv) => klines.currentKline(symbol, iv),
      recentTrades.newest(symbol, RECENT_TRADES_KEPT),
    );
  }

  /** A kline event of `symbol`'s candle `k`, with its first and last trade ids. */
  private kline(symbol: string, iv: Interval, k: KlineTuple, now: number): unknown {
    return klineEvent(symbol, iv, k, now, this.tradeIds.ids(symbol, iv, k[0] as number, k[8] as number));
  }

  /** Whether a kline stream of `symbol` and `iv` is followed: `<s>@kline_<iv>` or its perpetual's continuous one. */
  private klinesWanted(s: string, iv: Interval): boolean {
    return this.sink.subscribed(`${s}@kline_${iv}`) || this.sink.subscribed(`${s}_perpetual@continuousKline_${iv}`);
  }

  /** The candle `k` on both kline streams of `symbol` and `iv` (the continuous one in its own layout). */
  private pushKline(symbol: string, iv: Interval, k: KlineTuple, now: number): void {
    const s = symbol.toLowerCase();
    const ev = this.kline(symbol, iv, k, now);
    this.sink.push(`${s}@kline_${iv}`, ev);
    const continuous = `${s}_perpetual@continuousKline_${iv}`;
    if (this.sink.subscribed(continuous)) this.sink.push(continuous, continuousKlineEvent(ev));
  }

  /** A depth window of `speed` for the pair from the book's id now, when it has none. */
  follow(pair: PairView, speed: DepthSpeed): void {
    let bySpeed = this.windows.get(pair.row.symbol);
    if (bySpeed === undefined) this.windows.set(pair.row.symbol, (bySpeed = new Map()));
    if (bySpeed.has(speed)) return;
    const w = new DepthWindow();
    w.start(pair.book.depth(0).updateId);
    bySpeed.set(speed, w);
  }

  /** One level change of the book: into each window of its symbol. */
  onLevel(e: { symbol: string; updateId: number; side: number; priceTicks: number; totalLots: number }): void {
    const bySpeed = this.windows.get(e.symbol);
    if (bySpeed === undefined) return;
    for (const w of bySpeed.values()) w.add(e.updateId, e.side, e.priceTicks, e.totalLots);
  }

  onTrade(t: {
    symbol: string;
    tradeId: number;
    priceTicks: number;
    qtyLots: number;
    takerSide: number;
    time: number;
  }) {
    this.tradeIds.trade(t.symbol, t);
    const s = t.symbol.toLowerCase();
    const trade = `${s}@trade`;
    const agg = `${s}@aggTrade`;
    if (!this.sink.subscribed(trade) && !this.sink.subscribed(agg)) return;
    const e = tradeEvents(this.ctx.venue.exchange.pair(t.symbol)!, t);
    this.sink.push(trade, e.trade);
    this.sink.push(agg, e.agg);
  }

  /**
   * A change of the symbol's candles; `closed` lists the candles this change closed (ascending per
   * interval). Only an interval with candles among them sends their final forms (x true), each once,
   * oldest first: the 1 s candle closes every second, and the other intervals' last closed candles
   * must not go out again with it; a jump of the clock closes several of one interval at once.
   */
  onCandle(symbol: string, closed: readonly { readonly interval: string; readonly openTime: number }[]): void {
    this.dirtyKlines.add(symbol);
    if (closed.length === 0) return;
    const s = symbol.toLowerCase();
    for (const iv of INTERVALS) {
      if (!this.klinesWanted(s, iv)) continue;
      const first = closed.find((c) => c.interval === iv);
      if (first === undefined) continue;
      // the candles that just closed, final, then the new current one on the next tick
      const now = this.ctx.venue.clock.now();
      for (const k of this.ctx.venue.klines.closedKlines(symbol, iv, first.openTime))
        this.pushKline(symbol, iv, k, now);
    }
  }

  /** The depth streams of `speed` (and, at 100 ms, the book tickers): each window's changes since its last take. */
  tickDepth(speed: DepthSpeed, now: number): void {
    const suffix = SUFFIX[speed];
    for (const [symbol, bySpeed] of this.windows) {
      const w = bySpeed.get(speed);
      if (w === undefined) continue;
      const pair = this.ctx.venue.exchange.pair(symbol)!;
      const take = w.take(pair.book.updateId);
      if (take === null) continue;
      const s = symbol.toLowerCase();
      const ids = { U: take.first, u: take.u, pu: take.pu }; // U: its first change's id, as Binance's
      this.sink.push(`${s}@depth${suffix}`, depthEvent(pair, ids, take, now));
      for (const n of [5, 10, 20]) {
        const name = `${s}@depth${n}${suffix}`;
        if (this.sink.subscribed(name)) this.sink.push(name, depthEvent(pair, ids, pair.book.depth(n), now));
      }
      const bt = `${s}@bookTicker`;
      if (speed === 100 && (this.sink.subscribed(bt) || this.sink.subscribed(ALL_BOOK_TICKERS))) {
        const t = bookTicker(pair, now);
        const top = `${t.bidPrice}|${t.bidQty}|${t.askPrice}|${t.askQty}`;
        if (this.lastTop.get(symbol) !== top) {
          this.lastTop.set(symbol, top);
          const ev = bookTickerEvent(t, now);
          this.sink.push(bt, ev);
          this.sink.push(ALL_BOOK_TICKERS, ev);
        }
      }
    }
  }

  tick100(now: number): void {
    this.tickDepth(100, now);
    for (const symbol of this.dirtyKlines) {
      const s = symbol.toLowerCase();
      for (const iv of INTERVALS) {
        if (!this.klinesWanted(s, iv)) continue;
        const k = this.ctx.venue.klines.currentKline(symbol, iv);
        if (k) this.pushKline(symbol, iv, k, now);
      }
    }
    this.dirtyKlines.clear();
  }

  tick1000(now: number): void {
    for (const [symbol, ev] of this.liquidations) {
      const e = { ...(ev as { E: number }), E: now };
      this.sink.push(`${symbol.toLowerCase()}@forceOrder`, e);
      this.sink.push('!forceOrder@arr', e);
    }
    this.liquidations.clear();
    const sub = (n: string) => this.sink.subscribed(n);
    const second = this.seconds++;
    const slow = second % 3 === 0; // the 3 s streams' turn
    const even = second % 2 === 0; // the 2 s streams' turn
    const markArr: unknown[] = [];
    const miniArr: unknown[] = [];
    const tickArr: unknown[] = [];
    const wantMarkArr = sub('!markPrice@arr@1s') || (slow && sub('!markPrice@arr'));
    const wantMini = sub('!miniTicker@arr');
    const wantTick = sub('!ticker@arr');
    for (const pair of listedPairs(this.ctx)) {
      const s = pair.row.symbol.toLowerCase();
      const mp = `${s}@markPrice`;
      if (wantMarkArr || sub(mp + '@1s') || (slow && sub(mp))) {
        const ev = markPriceEvent(premiumIndex(pair, fundingSchedule(pair), now), now);
        if (slow) this.sink.push(mp, ev);
        this.sink.push(mp + '@1s', ev);
        markArr.push(ev);
      }
      const mini = `${s}@miniTicker`;
      const full = `${s}@ticker`;
      if (wantMini || wantTick || (even && (sub(mini) || sub(full)))) {
        const t = tickerEvents(ticker24(this.ctx.tickers.ticker(pair, now)), now);
        if (even) {
          this.sink.push(mini, t.mini);
          this.sink.push(full, t.full);
        }
        if (wantMini && changed(this.lastMiniArr, pair.row.symbol, t.mini, MINI_FIELDS)) miniArr.push(t.mini);
        if (wantTick && changed(this.lastTickArr, pair.row.symbol, t.full, FULL_FIELDS)) tickArr.push(t.full);
      }
    }
    if (wantMarkArr) {
      if (slow) this.sink.push('!markPrice@arr', markArr);
      this.sink.push('!markPrice@arr@1s', markArr);
    }
    if (miniArr.length > 0) this.sink.push('!miniTicker@arr', miniArr);
    if (tickArr.length > 0) this.sink.push('!ticker@arr', tickArr);
  }
}

/** The ticker fields whose change puts a pair in the all-market arrays (not E, nor the window's O / C, which move every second). */
const MINI_FIELDS = ['c', 'o', 'h', 'l', 'v', 'q'] as const;
const FULL_FIELDS = [...MINI_FIELDS, 'Q', 'L', 'n'] as const;

/** Whether the pair's ticker `ev` differs in `fields` from what `last` holds of it; `last` then holds `ev`. */
function changed(
  last: Map<string, string>,
  symbol: string,
  ev: Record<string, unknown>,
  fields: readonly string[],
): boolean {
  const key = fields.map((f) => String(ev[f])).join('|');
  if (last.get(symbol) === key) return false;
  last.set(symbol, key);
  return true;
}
