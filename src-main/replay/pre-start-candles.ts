// The candles before a replay's start (docs/replay.md "Candles"): history's, read on request from
// the pair's klines datasets (the klines service asks only when a read reaches past the venue's own
// oldest candle: market/kline-history.ts), converted to the pair's ticks, lots and quote units as
// the replay converts its source candles, and aggregated to coarser intervals by the project's rule
// (market/candle-aggregate.ts, as data/dataset-candles.ts builds a dataset's coarse candles: the
// 1h candles before the start equal Binance's own 1h file).
// Invariants
//   - Only rows of candles that end at or before the start are read: nothing at or after the start
//     comes from the data except through the replay (a row the start cuts is left out).
//   - The dataset read for (symbol, interval) is a klines dataset of the replayed market (the main
//     source's: spot or USD-M) whose interval tiles the one asked and that has rows before the
//     start: the one reaching nearest the start, then one the start does not cut, then the coarsest
//     (fewest rows to read; Binance's coarse files are the sums of its fine ones).
//   - A limit read reads at most `limit` periods of rows (holes in the data excepted, skipped by an
//     index look-up); a range read at most 1,500 periods. The newest candles before the period of
//     the start and that period's part before the start (`head`) are kept once read (they never
//     change); nothing is read before a read asks.
import {
  INTERVAL_MS,
  isInterval,
  nests,
  nextOpenTime,
  openTimeOf,
  previousOpenTime,
  type Interval,
} from '../../src-shared/intervals.ts';
import { aggregateCandles, aggregateRun, joinCandles } from '../market/candle-aggregate.ts';
import { CandleBuilder, type Candle } from '../market/candles.ts';
import { Side } from '../../src-shared/enums.ts';
import { ApiError, Errors } from '../../src-shared/errors.ts';
import type { CandleHistory } from '../market/kline-history.ts';
import { tooWide } from '../market/kline-selection.ts';
import type { SymbolMath } from '../risk/money.ts';
import { decimalUnits } from './kline-path.ts';
import type { SymbolSource } from './plan.ts';
import type { HistCandle, ReplayData, ReplayDataset } from './ports.ts';
import { offStep, roundedTextUnits } from './units.ts';

const MAX_LIMIT = 1500;
/** Most trades one read builds candles from (a day of BTCUSDT aggTrades is about 1 to 2 million). */
const MAX_TRADES = 3_000_000;

/** One (symbol, interval): the dataset read and what was read of it. */
interface Series {
  readonly symbol: string;
  readonly interval: Interval;
  readonly ds: ReplayDataset | null;
  /** Open time of the period containing the start. */
  readonly seam: number;
  /** That period's part before the start (undefined: none), once read. */
  head: Candle | undefined;
  headRead: boolean;
  /** The newest closed candles before the seam, ascending, and whether they reach the data's first row. */
  tail: Candle[];
  tailDone: boolean;
}

export interface PreStartCandlesOptions {
  data: ReplayData;
  /** The replay's start (ms, as replayStart moved it). */
  start: number;
  sources: readonly SymbolSource[];
  /** The pair's ticks and lots (its SymbolMath). */
  math: (symbol: string) => SymbolMath;
}

export class PreStartCandles implements CandleHistory {
  readonly start: number;
  private readonly data: ReplayData;
  private readonly math: (symbol: string) => SymbolMath;
  /** Per replayed symbol, its klines datasets of the main source's market with rows before the start. */
  private readonly candidates = new Map<string, ReplayDataset[]>();
  /** Per replayed symbol, the trades dataset its replay reads, when it has trades before the start. */
  private readonly trades = new Map<string, ReplayDataset>();
  private readonly series = new Map<string, Series>();

  constructor(o: PreStartCandlesOptions) {
    this.start = o.start;
    this.data = o.data;
    this.math = o.math;
    for (const src of o.sources) {
      const main = src.depth ?? src.trades ?? src.klines;
      const list = o.data
        .datasets(src.symbol)
        .filter(
          (d) =>
            d.kind === 'klines' &&
            d.market === main?.market &&
            isInterval(d.interval) &&
            d.firstTime !== null &&
            d.lastTime !== null &&
            d.firstTime + INTERVAL_MS[d.interval] <= o.start,
        );
      this.candidates.set(src.symbol, list);
      if (src.trades && src.trades.firstTime !== null && src.trades.firstTime < o.start)
        this.trades.set(src.symbol, src.trades);
    }
  }

  latest(symbol: string, interval: Interval, before: number, limit: number): Candle[] {
    const s = this.seriesOf(symbol, interval);
    if (s.ds === null) return [];
    const head = before > s.seam ? this.head(s) : undefined;
    const n = Math.min(MAX_LIMIT, limit) - (head === undefined ? 0 : 1);
    let closed: Candle[];
    if (n <= 0) closed = [];
    else if (before < s.seam) closed = this.newest(s, before, n);
    else {
      if (s.tail.length < n && !s.tailDone) {
        s.tail = this.newest(s, s.seam, n);
        s.tailDone = s.tail.length < n;
      }
      closed = s.tail.slice(Math.max(0, s.tail.length - n));
    }
    return head === undefined ? closed : [...closed, head];
  }

  range(symbol: string, interval: Interval, from: number, to: number): Candle[] {
    const s = this.seriesOf(symbol, interval);
    const ds = s.ds;
    if (ds === null) return [];
    let lo = openTimeOf(interval, Math.max(from, ds.firstTime!));
    if (lo < from) lo = nextOpenTime(interval, lo);
    const hi = openTimeOf(interval, Math.min(to, ds.lastTime!, s.seam - 1));
    const out = lo <= hi ? this.read(s, lo, hi, MAX_LIMIT) : [];
    if (from <= s.seam && s.seam <= to) {
      const head = this.head(s);
      if (head !== undefined) out.push(head);
    }
    return out;
  }

  oldestOpen(symbol: string, interval: Interval): number | undefined {
    const ds = this.seriesOf(symbol, interval).ds;
    return ds === null ? undefined : openTimeOf(interval, ds.firstTime!);
  }

  join(symbol: string, c: Candle): Candle {
    if (c.openTime >= this.start) return c;
    const s = this.seriesOf(symbol, c.interval);
    if (c.openTime !== s.seam) return c;
    const head = this.head(s);
    return head === undefined || c === head ? c : joinCandles(head, c);
  }

  private seriesOf(symbol: string, interval: Interval): Series {
    const key = `${symbol}\u0000${interval}`;
    let s = this.series.get(key);
    if (s === undefined) {
      // klines whose interval tiles the one asked, else the replay's own trades (any interval)
      const ds = this.choose(this.candidates.get(symbol) ?? [], interval) ?? this.trades.get(symbol) ?? null;
      const seam = openTimeOf(interval, this.start);
      s = { symbol, interval, ds, seam, head: undefined, headRead: false, tail: [], tailDone: false };
      this.series.set(key, s);
    }
    return s;
  }

  /** The dataset (symbol, interval) is read from (the file's header), null when none has rows before the start. */
  private choose(list: readonly ReplayDataset[], interval: Interval): ReplayDataset | null {
    const start = this.start;
    const reach = (d: ReplayDataset): number => Math.min(start, d.lastTime! + INTERVAL_MS[d.interval as Interval]);
    const cut = (d: ReplayDataset): number => (openTimeOf(d.interval as Interval, start) === start ? 0 : 1);
    const fits = list.filter((d) => nests(d.interval as Interval, interval));
    fits.sort(
      (a, b) =>
        reach(b) - reach(a) ||
        cut(a) - cut(b) ||
        INTERVAL_MS[b.interval as Interval] - INTERVAL_MS[a.interval as Interval],
    );
    return fits[0] ?? null;
  }

  /** The part before the start of the period containing it: its rows that end by the start, aggregated. */
  private head(s: Series): Candle | undefined {
    if (!s.headRead) {
      s.headRead = true;
      if (s.ds !== null && s.seam < this.start) {
        if (isTrades(s.ds)) s.head = this.fromTrades(s, s.seam, this.start - 1).last;
        else {
          const fine = this.rows(s, s.seam, this.start - 1);
          if (fine.length > 0) s.head = aggregateCandles(s.interval, fine);
        }
      }
    }
    return s.head;
  }

  /**
   * The newest `n` closed candles opening before `before` (at most the seam), ascending: windows of
   * the periods still wanted, read back from there; an empty window jumps to the last row before it
   * (the data's index), so a hole in the data costs one look-up.
   */
  private newest(s: Series, before: number, n: number): Candle[] {
    const ds = s.ds!;
    const iv = s.interval;
    const first = openTimeOf(iv, ds.firstTime!);
    let hi = openTimeOf(iv, Math.min(before - 1, ds.lastTime!));
    const parts: Candle[][] = [];
    let count = 0;
    while (count < n && hi >= first) {
      let lo = back(iv, hi, n - count - 1);
      if (lo < first) lo = first;
      const got = this.read(s, lo, hi, n - count);
      parts.unshift(got);
      count += got.length;
      const lastAt = this.lastBefore(ds);
      if (got.length > 0 || lastAt === undefined) hi = previousOpenTime(iv, lo);
      else {
        const last = lastAt(lo - 1);
        if (last === null) break;
        hi = openTimeOf(iv, last);
      }
    }
    const all = parts.flat();
    return all.slice(Math.max(0, all.length - n));
  }

  /** The time of the dataset's last row at or before a time (its trade's, its candle's open), if the data port can say. */
  private lastBefore(ds: ReplayDataset): ((t: number) => number | null) | undefined {
    const data = this.data;
    if (isTrades(ds)) {
      const lastTrade = data.lastTrade;
      return lastTrade && ((t: number) => lastTrade.call(data, ds.id, t)?.time ?? null);
    }
    const lastCandle = data.lastCandle;
    return lastCandle && ((t: number) => lastCandle.call(data, ds.id, t)?.openTime ?? null);
  }

  /** The candles of the periods opening in [lo, hi] (aligned; at most `max` periods, else 6000) from the rows ending by the start. */
  private read(s: Series, lo: number, hi: number, max: number): Candle[] {
    const iv = s.interval;
    if (iv !== '1M' && (hi - lo) / INTERVAL_MS[iv] >= max) throw tooWide(iv);
    const fine = this.rows(s, lo, nextOpenTime(iv, hi) - 1);
    return s.ds!.interval === iv || isTrades(s.ds!) ? fine : aggregateRun(iv, fine);
  }

  /**
   * Candles of the series' interval from the trades dataset's trades in [from, to] before the start,
   * built as the venue builds its own (market/candles.ts: a period without a trade between two is
   * a flat candle carrying the close; the window's first candle is its first trade's): `closed`
   * the periods that ended by the start, `last` the one still open at the start (the seam's part).
   * At most MAX_TRADES trades a read (else a 1001 saying to ask fewer or finer candles).
   */
  private fromTrades(s: Series, from: number, to: number): { closed: Candle[]; last: Candle | undefined } {
    const iv = s.interval;
    const m = this.math(s.symbol);
    const closed: Candle[] = [];
    const b = new CandleBuilder({ intervals: [iv], onClose: (c) => void closed.push(c) });
    const end = Math.min(to, this.start - 1);
    let n = 0;
    if (end >= from) {
      for (const t of this.data.trades(s.ds!.id, from)) {
        if (t.time > end) break;
        if (++n > MAX_TRADES) throw tooManyTrades(iv);
        const price = m.price.toUnits(t.price);
        const qty = m.qty.toUnits(t.qty);
        const ticks = price.ok ? price.value : offStep(roundedTextUnits(t.price, m.price), t.price, m.tickValue);
        const lots = qty.ok ? qty.value : offStep(roundedTextUnits(t.qty, m.qty), t.qty, m.lotValue);
        if (ticks > 0 && lots > 0) b.trade(t.time, ticks, lots, t.buyerMaker ? Side.SELL : Side.BUY, t.trades ?? 1);
      }
    }
    if (n > 0) b.advanceTo(Math.min(nextOpenTime(iv, openTimeOf(iv, end)), this.start));
    return { closed, last: b.current(iv) };
  }

  /** The dataset's rows opening in [from, to] that end by the start, in the pair's units (trades: built into candles). */
  private rows(s: Series, from: number, to: number): Candle[] {
    const ds = s.ds!;
    if (isTrades(ds)) return this.fromTrades(s, from, to).closed;
    const fine = ds.interval as Interval;
    const m = this.math(s.symbol);
    const unit = m.price.stepUnits * m.qty.stepUnits;
    const decimals = m.price.stepDecimals + m.qty.stepDecimals;
    const ticks = (t: string): number => {
      const r = m.price.toUnits(t);
      return r.ok ? r.value : offStep(roundedTextUnits(t, m.price), t, m.tickValue);
    };
    const lots = (t: string): number => {
      const r = m.qty.toUnits(t);
      return r.ok ? r.value : offStep(roundedTextUnits(t, m.qty), t, m.lotValue);
    };
    const out: Candle[] = [];
    const last = Math.min(to, this.start - INTERVAL_MS[fine]);
    if (last < from) return out;
    for (const h of this.data.candles(ds.id, from, last)) {
      if (nextOpenTime(fine, h.openTime) > this.start) break;
      out.push(candleOf(h, fine, { ticks, lots, quote: (t) => decimalUnits(t, decimals, unit) }));
    }
    return out;
  }
}

/** A dataset row in the pair's units; its recorded close time kept when it is not its period's end. */
function candleOf(
  h: HistCandle,
  interval: Interval,
  u: { ticks(t: string): number; lots(t: string): number; quote(t: string): bigint },
): Candle {
  const volume = u.lots(h.volume);
  const c: Candle = {
    interval,
    openTime: h.openTime,
    open: u.ticks(h.open),
    high: u.ticks(h.high),
    low: u.ticks(h.low),
    close: u.ticks(h.close),
    volume,
    quoteVolume: h.quoteVolume === undefined ? 0n : u.quote(h.quoteVolume),
    trades: h.trades ?? (volume > 0 ? 1 : 0),
    takerBuyVolume: u.lots(h.takerBuyVolume),
    takerBuyQuoteVolume: h.takerBuyQuoteVolume === undefined ? 0n : u.quote(h.takerBuyQuoteVolume),
  };
  return h.closeTime === nextOpenTime(interval, h.openTime) - 1 ? c : { ...c, closeTime: h.closeTime };
}

/** A trades or aggTrades dataset: candles before the start are built from its trades. */
function isTrades(d: ReplayDataset): boolean {
  return d.kind === 'trades' || d.kind === 'aggTrades';
}

function tooManyTrades(interval: Interval): ApiError {
  return new ApiError(
    Errors.KLINES_INVALID_PARAMETER,
    `These ${interval} candles before the replay's start would be built from more than ${MAX_TRADES.toLocaleString('en-US')} ` +
      'trades; ask for fewer or finer candles (a smaller limit or range), or import klines of the pair',
  );
}

/** The open time k periods before aligned open time t. */
function back(interval: Interval, t: number, k: number): number {
  if (interval !== '1M') return t - k * INTERVAL_MS[interval];
  let s = t;
  for (let i = 0; i < k; i++) s = previousOpenTime('1M', s);
  return s;
}
