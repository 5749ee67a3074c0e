// The pair catalogue of a replay venue: the replayed pairs only, each with its main dataset's
// specs (specs.ts replaySymbolRow) and, as its listed initial price, the first historical price
// at or after the start (a trade, else a candle's open, else the best bid of the depth snapshot the
// replay starts from).
import type { NewSymbol } from '../core/symbol.ts';
import { planSources, type SymbolSource } from './plan.ts';
import type { ReplayData } from './ports.ts';
import type { ReplayOptions } from './replay-market.ts';
import { replaySymbolRow } from './specs.ts';

export function replayCatalogue(data: ReplayData, o: ReplayOptions): NewSymbol[] {
  const sources = planSources(data, o.symbols, o.start, o.until);
  return sources.map((src, i) => replaySymbolRow(src.symbol, src.specs, initialPrice(data, src, o.start), i));
}

function first<T>(it: Iterable<T>): T | undefined {
  for (const v of it) return v;
  return undefined;
}

function initialPrice(data: ReplayData, src: SymbolSource, start: number): string {
  if (src.trades) {
    const t = first(data.trades(src.trades.id, start));
    if (t) return t.price;
  }
  if (src.klines) {
    // the last candle opened at or before the start (a week back covers every interval up to 1w)
    let pick: { open: string } | undefined;
    for (const k of data.candles(src.klines.id, start - 7 * 86_400_000, start)) pick = k;
    pick ??= first(data.candles(src.klines.id, start, Number.MAX_SAFE_INTEGER));
    if (pick) return pick.open;
  }
  if (src.depth) {
    // the book the replay starts from: the last snapshot at or before the start
    for (const ev of data.depth(
      src.depth.id,
      data.depthAnchor?.(src.depth.id, start) ?? src.depth.firstTime ?? start,
    )) {
      if (ev.bids.length > 0 && ev.asks.length > 0) {
        const bid = ev.bids.reduce((a, b) => (Number(b[0]) > Number(a[0]) ? b : a))[0];
        const ask = ev.asks.reduce((a, b) => (Number(b[0]) < Number(a[0]) ? b : a))[0];
        // the bid: a listed price on the tick grid (a mid may fall between ticks)
        return Number(bid) > 0 ? bid : ask;
      }
    }
  }
  throw new RangeError(`${src.symbol} has no price at or after the replay start`);
}
