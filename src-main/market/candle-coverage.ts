// What history has candles for, in a replay of candles (docs/replay.md "Candles"): the venue builds
// every interval's candles from the prints, and its builder gives a period without a trade a flat
// candle (the live rule); history leaves out a period its source has no candle for (Binance's
// outages: data.md "a period with no stored candle at all is absent"), and the source's candle
// keeps its recorded close_time when that is not its period's end (the outage hour's). The replay
// tells this, per symbol, of each source candle at its open time (never ahead of the clock); the
// klines service (kline-service.ts) asks it before serving or keeping a candle.
//
// Invariants: a candle that traded (your own trades, in a period history does not have) is always
// shown; a candle with no trade is shown when its period, up to its end or up to now, meets a
// source candle's [open time, close_time]; symbols the replay never told of (trades and L2
// replays, the live venue) are not filtered.
import type { Interval } from '../../src-shared/intervals.ts';
import type { Candle } from '../core/candle.ts';

interface SymbolCoverage {
  readonly interval: Interval;
  /** Market ms spans [from, to) holding source candles, ascending and disjoint (adjacent candles merged). */
  readonly from: number[];
  readonly to: number[];
  /** Source candles whose recorded close time is not their period's end: open time -> close time and count. */
  readonly closes: Map<number, { closeTime: number; trades: number | undefined }>;
}

export class CandleCoverage {
  private readonly symbols = new Map<string, SymbolCoverage>();

  /**
   * A source candle of `symbol` (interval `interval`, `periodMs` long) opened: history has a market
   * from `openTime` to its recorded `closeTime`. Calls come in open-time order per symbol.
   */
  add(
    symbol: string,
    interval: Interval,
    periodMs: number,
    candle: { openTime: number; closeTime: number; trades?: number },
  ): void {
    let s = this.symbols.get(symbol);
    if (s === undefined) {
      s = { interval, from: [], to: [], closes: new Map() };
      this.symbols.set(symbol, s);
    }
    const { openTime, closeTime } = candle;
    const end = Math.min(openTime + periodMs, Math.max(openTime, closeTime) + 1);
    if (end !== openTime + periodMs) s.closes.set(openTime, { closeTime, trades: candle.trades });
    const n = s.from.length;
    if (n > 0 && openTime <= s.to[n - 1]) {
      if (end > s.to[n - 1]) s.to[n - 1] = end;
    } else {
      s.from.push(openTime);
      s.to.push(end);
    }
  }

  /**
   * Whether candle `c` of `symbol` is shown, its period taken up to `end` (exclusive: the period's
   * end for a closed candle, just after now for the current one): it traded, or that part of its
   * period meets a source candle.
   */
  shows(symbol: string, c: Candle, end: number): boolean {
    if (c.trades > 0) return true;
    const s = this.symbols.get(symbol);
    if (s === undefined) return true;
    // the last span starting before `end` (mostly the newest one)
    let k = s.from.length - 1;
    if (k >= 0 && s.from[k] >= end) {
      let lo = 0;
      let hi = k;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (s.from[mid] < end) lo = mid + 1;
        else hi = mid;
      }
      k = lo - 1;
    }
    return k >= 0 && s.to[k] > c.openTime;
  }

  /**
   * A closed candle as it is kept: a candle of the source's interval whose source candle recorded
   * another close time gets it while it is history's alone (its trade count the source's; a
   * candle your trades changed runs to its period's end, as the live venue's).
   */
  closed(symbol: string, c: Candle): Candle {
    const s = this.symbols.get(symbol);
    if (s === undefined || s.closes.size === 0 || c.interval !== s.interval) return c;
    const r = s.closes.get(c.openTime);
    if (r === undefined) return c;
    s.closes.delete(c.openTime);
    return r.trades === undefined || r.trades === c.trades ? { ...c, closeTime: r.closeTime } : c;
  }
}
