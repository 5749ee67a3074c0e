// The market's CandleStore (market/ports.ts) in memory: the same upsert-by-(symbol, interval,
// open time) and ascending, open-time-bounded reads as store/candles-repo.ts, without SQLite. A
// replay venue's candles (they end with the replay: venue.ts), and unit tests of the market services.
//
// Per (symbol, interval) one array sorted by open time; a write is a binary search and an
// insert or a replace. Stored candles are the caller's objects (Candle is read-only).
// inUnit is a plain flag: there is no other writer to wait for unless a caller says so.
import type { Interval } from '../../src-shared/intervals.ts';
import type { Candle } from '../core/candle.ts';
import type { BuiltHistory, CandleCut, CandleStore } from '../market/ports.ts';

export class MemoryCandleStore implements CandleStore {
  private readonly series = new Map<string, Candle[]>();
  /** Set by a test to stand for another caller's open unit of work. */
  inUnit = false;
  /** commitNow() calls so far. */
  commits = 0;

  private of(symbol: string, interval: Interval): Candle[] | undefined {
    return this.series.get(`${symbol}\u0000${interval}`);
  }

  tryWriteMany(symbols: readonly string[], candles: readonly Candle[], n = candles.length): boolean {
    this.writeMany(symbols, candles, n);
    return true; // nobody else holds memory
  }

  writeMany(symbols: readonly string[], candles: readonly Candle[], n = candles.length): void {
    let list: Candle[] = [];
    for (let i = 0; i < n; i++) {
      const c = candles[i];
      // a flush lists each series' candles together: one look-up a run
      if (i === 0 || symbols[i] !== symbols[i - 1] || c.interval !== candles[i - 1].interval) {
        const k = `${symbols[i]}\u0000${c.interval}`;
        let l = this.series.get(k);
        if (l === undefined) this.series.set(k, (l = []));
        list = l;
      }
      // the newest candle of the series (a write is mostly the next one): no search
      const last = list.length === 0 ? -Infinity : list[list.length - 1].openTime;
      if (c.openTime > last) {
        list.push(c);
        continue;
      }
      const at = lowerBound(list, c.openTime);
      if (at < list.length && list[at].openTime === c.openTime) list[at] = c;
      else list.splice(at, 0, c);
    }
  }

  newest(symbol: string, interval: Interval): Candle | undefined {
    const list = this.of(symbol, interval);
    return list === undefined || list.length === 0 ? undefined : list[list.length - 1];
  }

  latest(symbol: string, interval: Interval, beforeOpen: number, limit: number): Candle[] {
    const list = this.of(symbol, interval) ?? [];
    const end = lowerBound(list, beforeOpen);
    return list.slice(Math.max(0, end - limit), end);
  }

  range(symbol: string, interval: Interval, fromOpen: number, toOpen: number): Candle[] {
    const list = this.of(symbol, interval) ?? [];
    return list.slice(lowerBound(list, fromOpen), lowerBound(list, toOpen + 1));
  }

  oldestOpen(symbol: string, interval: Interval): number | undefined {
    return this.of(symbol, interval)?.[0]?.openTime;
  }

  count(symbol: string, interval: Interval): number {
    return this.of(symbol, interval)?.length ?? 0;
  }

  tryPrune(cuts: readonly CandleCut[]): boolean {
    for (const c of cuts) this.prune(c.symbol, c.interval, c.beforeOpen);
    return true;
  }

  private prune(symbol: string, interval: Interval, beforeOpen: number): number {
    const list = this.of(symbol, interval);
    if (list === undefined) return 0;
    const n = lowerBound(list, beforeOpen);
    list.splice(0, n);
    return n;
  }

  commitNow(): void {
    this.commits++;
  }

  private readonly built = new Set<string>();

  historyBuilt(): Set<string> {
    return new Set(this.built);
  }

  markHistoryBuilt(built: readonly BuiltHistory[]): void {
    for (const b of built) this.built.add(b.symbol);
  }

  deleteSymbol(symbol: string): number {
    let n = 0;
    for (const [k, list] of this.series) {
      if (!k.startsWith(`${symbol}\u0000`)) continue;
      n += list.length;
      this.series.delete(k);
    }
    return n;
  }
}

/** First index whose open time is >= t. */
function lowerBound(list: readonly Candle[], t: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid].openTime < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
