// The market streams' timed work: every 100 ms the depth diffs (from the native DepthWindow per
// symbol, so U / u / pu are the native update ids and pu is the u of the previous event on the
// stream), partial books, book tickers and current candles; every second the mark prices and
// 24 h tickers. Only streams someone is subscribed to are built.
import { INTERVALS } from '../../../../src-shared/intervals.ts';
import type { PairView } from '../../../trading/pair-state.ts';
import { fundingSchedule } from '../../../trading/pair-figures.ts';
import { DepthWindow } from '../../ws/depth-feed.ts';
import { listedPairs, type BinanceContext } from '../context.ts';
import { bookTicker, premiumIndex, ticker24 } from '../translate/market.ts';
import { bookTickerEvent, depthEvent, klineEvent, markPriceEvent, tickerEvents, tradeEvents } from './events.ts';

const DIFF_SUFFIXES = ['@depth', '@depth@100ms', '@depth@250ms', '@depth@500ms'];
const PARTIAL_SUFFIXES = ['', '@100ms', '@250ms', '@500ms'];

/** The hub's side: who is subscribed, and how an event goes out (now, or held for a latency). */
export interface MarketSink {
  subscribed(name: string): boolean;
  push(name: string, data: unknown): void;
}

export class MarketFeed {
  private readonly ctx: BinanceContext;
  private readonly sink: MarketSink;
  readonly windows = new Map<string, DepthWindow>();
  private readonly dirtyKlines = new Set<string>();
  private readonly lastTop = new Map<string, string>();

  constructor(ctx: BinanceContext, sink: MarketSink) {
    this.ctx = ctx;
    this.sink = sink;
  }

  /** What these remember stopped following the book (no listener any more). */
  reset(): void {
    this.windows.clear();
    this.lastTop.clear();
    this.dirtyKlines.clear();
  }

  /** A depth window for `symbol` from the book's id now, when it has none. */
  follow(pair: PairView): void {
    if (this.windows.has(pair.row.symbol)) return;
    const w = new DepthWindow();
    w.start(pair.book.depth(0).updateId);
    this.windows.set(pair.row.symbol, w);
  }

  onTrade(t: {
    symbol: string;
    tradeId: number;
    priceTicks: number;
    qtyLots: number;
    takerSide: number;
    time: number;
  }) {
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
      const name = `${s}@kline_${iv}`;
      if (!this.sink.subscribed(name)) continue;
      const first = closed.find((c) => c.interval === iv);
      if (first === undefined) continue;
      // the candles that just closed, final, then the new current one on the next tick
      const now = this.ctx.venue.clock.now();
      for (const k of this.ctx.venue.klines.closedKlines(symbol, iv, first.openTime))
        this.sink.push(name, klineEvent(symbol, iv, k, now));
    }
  }

  tick100(now: number): void {
    for (const [symbol, w] of this.windows) {
      const pair = this.ctx.venue.exchange.pair(symbol)!;
      const take = w.take(pair.book.updateId);
      if (take === null) continue;
      const s = symbol.toLowerCase();
      const ids = { U: take.first, u: take.u, pu: take.pu }; // U: its first change's id, as Binance's
      const diff = depthEvent(pair, ids, take, now);
      for (const suffix of DIFF_SUFFIXES) this.sink.push(s + suffix, diff);
      for (const n of [5, 10, 20]) {
        for (const suffix of PARTIAL_SUFFIXES) {
          const name = `${s}@depth${n}${suffix}`;
          if (this.sink.subscribed(name)) this.sink.push(name, depthEvent(pair, ids, pair.book.depth(n), now));
        }
      }
      const bt = `${s}@bookTicker`;
      if (this.sink.subscribed(bt)) {
        const t = bookTicker(pair, now);
        const top = `${t.bidPrice}|${t.bidQty}|${t.askPrice}|${t.askQty}`;
        if (this.lastTop.get(symbol) !== top) {
          this.lastTop.set(symbol, top);
          this.sink.push(bt, bookTickerEvent(t, now));
        }
      }
    }
    for (const symbol of this.dirtyKlines) {
      const s = symbol.toLowerCase();
      for (const iv of INTERVALS) {
        const name = `${s}@kline_${iv}`;
        if (!this.sink.subscribed(name)) continue;
        const k = this.ctx.venue.klines.currentKline(symbol, iv);
        if (k) this.sink.push(name, klineEvent(symbol, iv, k, now));
      }
    }
    this.dirtyKlines.clear();
  }

  tick1000(now: number): void {
    const sub = (n: string) => this.sink.subscribed(n);
    const markArr: unknown[] = [];
    const miniArr: unknown[] = [];
    const tickArr: unknown[] = [];
    const wantMarkArr = sub('!markPrice@arr') || sub('!markPrice@arr@1s');
    const wantMini = sub('!miniTicker@arr');
    const wantTick = sub('!ticker@arr');
    for (const pair of listedPairs(this.ctx)) {
      const s = pair.row.symbol.toLowerCase();
      const mp = `${s}@markPrice`;
      if (wantMarkArr || sub(mp) || sub(mp + '@1s')) {
        const ev = markPriceEvent(premiumIndex(pair, fundingSchedule(pair, now), now), now);
        this.sink.push(mp, ev);
        this.sink.push(mp + '@1s', ev);
        markArr.push(ev);
      }
      const mini = `${s}@miniTicker`;
      const full = `${s}@ticker`;
      if (wantMini || wantTick || sub(mini) || sub(full)) {
        const t = tickerEvents(ticker24(this.ctx.tickers.ticker(pair, now)), now);
        this.sink.push(mini, t.mini);
        this.sink.push(full, t.full);
        miniArr.push(t.mini);
        tickArr.push(t.full);
      }
    }
    if (wantMarkArr) {
      this.sink.push('!markPrice@arr', markArr);
      this.sink.push('!markPrice@arr@1s', markArr);
    }
    if (wantMini) this.sink.push('!miniTicker@arr', miniArr);
    if (wantTick) this.sink.push('!ticker@arr', tickArr);
  }
}
