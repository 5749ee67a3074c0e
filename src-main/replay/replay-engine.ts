// The replay's event loop (docs/replay.md "Market"): the historical streams of every replayed
// symbol opened at the start and merged in time order (merge.ts), each applied to the venue's
// exchange by its symbol (symbol-replay.ts).
//
// Per symbol, one source of liquidity and prints, the richest the data has (plan.ts):
//   'depth'   an L2 dataset: the historical book (book-mirror.ts); prints from a trades /
//             aggTrades dataset when there is one.
//   'trades'  trades / aggTrades only: a synthetic book around the last print (synthetic-book.ts).
//   'klines'  candles only: four prints a candle (kline-path.ts) and the synthetic book.
// Mark / index: the close of markPriceKlines / indexPriceKlines candles at their close time while
// they have candles; otherwise mark = the last print (symbol-replay.ts), index = mark. Funding:
// funding-stream.ts.
// Invariants: events are applied in (time, stream rank) order: prices, then trades, then depth,
// then funding; the clock is set to each event's time before it is applied.
import { Side } from '../../src-shared/enums.ts';
import type { VirtualClock } from '../core/clock.ts';
import type { MarketSymbolView } from '../market/market-source.ts';
import type { Exchange } from '../trading/exchange.ts';
import { addFundingStreams } from './funding-stream.ts';
import { klinePath, type PathPrint } from './kline-path.ts';
import { RANK_DEPTH, RANK_GRID, RANK_PRICES, RANK_TRADE, StreamMerge, type Stream } from './merge.ts';
import type { QueueModel } from './models/queue-model.ts';
import { INTERVAL_MS, lastCandle, startTrade, type SourceKind, type SymbolSource } from './plan.ts';
import type { HistCandle, HistDepth, HistTrade, ReplayData, ReplayDataset } from './ports.ts';
import { iter, iteratorStream, TradeBlockStream } from './streams.ts';
import { SymbolReplay, type CandleColumns } from './symbol-replay.ts';
import type { BookMirror } from './book-mirror.ts';
import type { ReplayDatasetUse } from '../../src-shared/types/replay.ts';

/** The datasets a pair may read, in the status's order: its market's source first, then prices and funding. */
const DATASET_ROLES = ['depth', 'trades', 'klines', 'mark', 'index', 'funding', 'premium'] as const;

export interface ReplayEngineOptions {
  exchange: Exchange;
  data: ReplayData;
  sources: SymbolSource[];
  start: number;
  until: number;
  queueModel: QueueModel;
  /**
   * The venue's group commit: committed before the clock moves on from a time whose events wrote
   * to users' accounts, so their account events go out at the market time they happened.
   */
  commit?: ReplayCommit;
}

/** What the engine needs of the venue's group commit (store/group-commit.ts). */
export interface ReplayCommit {
  readonly pending: boolean;
  commitNow(): void;
}

export class ReplayEngine {
  /** Market time of the history applied. */
  time: number;
  /** Events the merge applied (historical ones and the derived marks due: events). */
  private applied = 0;
  /** Events of every() streams applied. */
  private gridEvents = 0;
  readonly symbols = new Map<string, SymbolReplay>();
  private readonly opts: ReplayEngineOptions;
  private readonly merge = new StreamMerge();
  private clock: VirtualClock | null = null;
  /** merge.run's clock move (one closure for the replay's life: nothing allocated per run). */
  private readonly moveTo = (t: number): void => {
    if (this.opts.commit?.pending) this.opts.commit.commitNow();
    this.clock!.advance(t - this.time);
    this.time = t;
  };

  constructor(opts: ReplayEngineOptions) {
    this.opts = opts;
    this.time = opts.start;
    for (const s of opts.sources) {
      const sym = new SymbolReplay(opts.exchange, s, opts.queueModel, this.merge);
      this.symbols.set(s.symbol, sym);
      // (idle while the mark comes from data: a mark dataset may begin or end within the span)
      this.merge.add(sym.markDue);
    }
  }

  /** Historical events applied (a derived mark sent once its second is up is none). */
  get events(): number {
    let derived = this.gridEvents;
    for (const s of this.symbols.values()) derived += s.marksDue;
    return this.applied - derived;
  }

  /** Per symbol, the datasets it reads and what each gives (the status's `datasets`). */
  datasets(): Record<string, ReplayDatasetUse[]> {
    const out: Record<string, ReplayDatasetUse[]> = {};
    for (const [k, s] of this.symbols) {
      const src = s.src;
      const uses: ReplayDatasetUse[] = [];
      for (const role of DATASET_ROLES) {
        const d = src[role];
        if (d) uses.push({ role, id: d.id, market: d.market, kind: d.kind, interval: d.interval });
      }
      out[k] = uses;
    }
    return out;
  }

  sources(): Record<string, SourceKind> {
    const out: Record<string, SourceKind> = {};
    for (const [k, s] of this.symbols) out[k] = s.src.kind;
    return out;
  }

  /**
   * The depth state of a replayed symbol (tests, status): the last update id applied (-1 waiting
   * for a snapshot), gaps met, and diffs after which the book's id stood above the recording's.
   */
  depthState(symbol: string): { lastUpdateId: number; gaps: number; idOverruns: number } {
    const s = this.symbols.get(symbol);
    if (!s) throw new RangeError(`${symbol} is not replayed`);
    return { lastUpdateId: s.lastUpdateId, gaps: s.gaps, idOverruns: s.idOverruns };
  }

  /** Per replayed symbol, the breaks met in its depth stream: how many, and the times of the first ones. */
  gaps(): Record<string, { count: number; times: number[] }> {
    const out: Record<string, { count: number; times: number[] }> = {};
    for (const [k, s] of this.symbols) out[k] = { count: s.gaps, times: [...s.gapTimes] };
    return out;
  }

  /** Per replayed symbol, the diffs after which the book's id stood above the recording's u (depthState's idOverruns). */
  idOverruns(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [k, s] of this.symbols) out[k] = s.idOverruns;
    return out;
  }

  /** Detaches the mirrors (and their meters) from the exchange's events (the replay is closed). */
  dispose(): void {
    for (const s of this.symbols.values()) s.dispose();
  }

  /**
   * The venue's candles: a klines replay brings them to its source's columns candle by candle,
   * a replay of trades counts each print as the trades it stands for.
   */
  setCandles(candles: CandleColumns): void {
    for (const s of this.symbols.values()) s.candles = candles;
  }

  /** The mirror of a replayed symbol (its historical levels and stats). */
  mirror(symbol: string): BookMirror {
    const s = this.symbols.get(symbol);
    if (!s) throw new RangeError(`${symbol} is not replayed`);
    return s.mirror;
  }

  /**
   * Opens the streams at the start. Depth is read from the last snapshot at or before the start
   * (the data's index, depthAnchor; the dataset's first event when there is none) so the book at
   * the start is the historical one (that snapshot plus its diffs), applied with the clock at the
   * start; everything else starts at the start.
   */
  prime(clock: VirtualClock): void {
    this.clock = clock;
    const { data, start, until, exchange } = this.opts;
    for (const s of this.symbols.values()) {
      const src = s.src;
      if (src.depth) {
        s.startsAtTrade = startTrade(data, src, start) !== null;
        const from = data.depthAnchor?.(src.depth.id, start) ?? src.depth.firstTime ?? start;
        const st = iteratorStream(
          RANK_DEPTH,
          iter(data.depth(src.depth.id, from)),
          (ev: HistDepth) => s.depth(ev),
          (ev) => ev.time,
        );
        // the history before the start builds the book only
        while (st.time < start) st.apply();
        this.merge.add(st);
      }
      this.addPrints(s, src);
      this.quoteAtStart(s, src);
      const closes = (ds: ReplayDataset, apply: (c: HistCandle) => void): void => {
        const iv = INTERVAL_MS[ds.interval];
        const it = iter(data.candles(ds.id, start - iv, until));
        this.merge.add(iteratorStream(RANK_PRICES, it, apply, (c) => Math.max(start, c.closeTime)));
      };
      // mark and index from their candles while there are some; before a dataset's first candle
      // and after its last the mark comes from the prints, the index is the mark (docs/replay.md)
      const mark = src.mark;
      if (mark) {
        closes(mark, (c) => {
          s.derivedPrices = c.openTime === mark.lastTime;
          const px = Number(c.close);
          exchange.execute({ kind: 'prices', symbol: src.symbol, mark: px, index: s.indexFromData ? undefined : px });
        });
      }
      const index = src.index;
      if (index) {
        closes(index, (c) => {
          s.indexFromData = c.openTime !== index.lastTime;
          exchange.execute({ kind: 'prices', symbol: src.symbol, index: Number(c.close) });
        });
      }
      addFundingStreams({
        ex: exchange,
        data,
        merge: this.merge,
        pair: s.pair,
        funding: src.funding,
        premium: src.premium,
        start,
        until,
      });
    }
    clock.advance(Math.max(0, start - clock.now()));
  }

  /**
   * A book from the start for a pair without L2 data (until 2026-12-07 it had none until its first
   * print after the start, up to a whole candle of a klines replay started inside one, and a market
   * order before it expired unfilled): the synthetic book around the trade the pair starts at, of
   * its size and side; for candles around the price the pair starts at (the last candle opened by
   * then: its open, or its close once it closed), each level of a path print's size in the last
   * candle closed before the start (an eighth of its volume: four prints, a buy and a sell part
   * each; the candle still open is not read ahead), no book when none closed with volume.
   */
  private quoteAtStart(s: SymbolReplay, src: SymbolSource): void {
    if (s.synthetic === null) return;
    const { data, start } = this.opts;
    const t = startTrade(data, src, start);
    if (t !== null) {
      s.quoteAtStart(t.buyerMaker ? Side.SELL : Side.BUY, s.ticks(t.price), s.lots(t.qty), start);
      return;
    }
    if (src.kind !== 'klines' || !src.klines) return;
    const k = lastCandle(data, src.klines.id, start);
    if (k === null) return;
    const closed = k.closeTime < start ? k : lastCandle(data, src.klines.id, k.openTime - 1);
    if (closed === null) return;
    const price = s.ticks(start > k.closeTime ? k.close : k.open);
    s.quoteAtStart(Side.BUY, price, Math.round(s.lots(closed.volume) / 8), start);
  }

  /** The prints' stream of a symbol: its trades, or its candles' path. */
  private addPrints(s: SymbolReplay, src: SymbolSource): void {
    const { data, start, until } = this.opts;
    if (src.trades && data.tradeBlocks) {
      this.merge.add(new TradeBlockStream(iter(data.tradeBlocks(src.trades.id, start)), s));
    } else if (src.trades) {
      const it = iter(data.trades(src.trades.id, start));
      this.merge.add(
        iteratorStream(
          RANK_TRADE,
          it,
          (t: HistTrade) => s.histTrade(t),
          (t) => t.time,
        ),
      );
    } else if (src.kind === 'klines') {
      const iv = INTERVAL_MS[src.klines!.interval];
      const it = iter(data.candles(src.klines!.id, Math.ceil(start / iv) * iv, until));
      this.merge.add(
        iteratorStream(
          RANK_TRADE,
          klinePath(s, iv, it),
          (p: PathPrint) => s.pathPrint(p),
          (p) => p.time,
        ),
      );
    }
  }

  /** Applies every event with time <= target, the clock at each event's time; ends with time = target. */
  runTo(target: number, clock: VirtualClock): void {
    const end = Math.min(target, this.opts.until);
    if (end < this.time) return;
    this.clock = clock;
    this.applied += this.merge.run(end, this.time, this.moveTo);
    if (this.opts.commit?.pending) this.opts.commit.commitNow();
    if (end > this.time) {
      clock.advance(end - this.time);
      this.time = end;
    }
  }

  /**
   * Calls `fn(t)` at every market time t = start + k x ms (k >= 1) the replay reaches, after
   * every event of that time and its commit: the same times whether the clock plays, steps or
   * seeks. Not counted as historical events.
   */
  every(ms: number, fn: (t: number) => void): void {
    if (!(Number.isInteger(ms) && ms > 0)) throw new RangeError('every takes a positive integer ms');
    const commit = this.opts.commit;
    const st: Stream = {
      time: this.opts.start + ms,
      rank: RANK_GRID,
      apply: () => {
        const t = st.time;
        st.time += ms;
        this.gridEvents++;
        if (commit?.pending) commit.commitNow();
        fn(t);
      },
    };
    this.merge.add(st);
  }

  view(): MarketSymbolView[] {
    const out: MarketSymbolView[] = [];
    for (const s of this.symbols.values()) {
      out.push({
        symbol: s.src.symbol,
        volatility: 0,
        current_volatility: 0,
        jumps_per_day: 0,
        taker_rate: 0,
        taker_median_notional: 0,
        maker_levels: s.pair.book.levelCount(1) + s.pair.book.levelCount(2),
        maker_depth_notional: 0,
        index_price: s.pair.indexPrice,
        mark_price: s.pair.markPrice,
        funding_rate: s.pair.fundingRate,
        venues: [],
      });
    }
    return out;
  }
}
