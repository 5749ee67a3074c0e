// The pair catalogue of a replay venue: the replayed pairs only, each with its main dataset's
// specs (specs.ts replaySymbolRow) and, as its listed initial price (the mark, index and last
// price before the first event), the last historical price at or before the start: the last
// trade, else the last candle opened by then (its close once it has closed, else its open), else
// the best bid of the depth snapshot the replay starts from (whose mid then becomes the mark and
// index as the book is built: symbol-replay.ts). Never a later one: a replay shows nothing from
// after its clock (docs/replay.md, No look-ahead).
import type { NewSymbol } from '../core/symbol.ts';
import { planSources, type SymbolSource } from './plan.ts';
import type { HistCandle, HistTrade, ReplayData } from './ports.ts';
import type { ReplayOptions } from './replay-market.ts';
import { replaySymbolRow } from './specs.ts';

export function replayCatalogue(data: ReplayData, o: ReplayOptions): NewSymbol[] {
  const sources = planSources(data, o.symbols, o.start, o.until);
  return sources.map((src, i) => replaySymbolRow(src.symbol, src.specs, initialPrice(data, src, o.start), i));
}

const WEEK = 7 * 86_400_000;

/** The last candle opened at or before `at`: the port's look-up, else a week back (every interval up to 1w). */
function lastCandle(data: ReplayData, id: number, at: number): HistCandle | null {
  if (data.lastCandle) return data.lastCandle(id, at);
  let pick: HistCandle | null = null;
  for (const k of data.candles(id, at - WEEK, at)) pick = k;
  return pick;
}

/**
 * The last trade of the pair's trades at or before the start (an index look-up), null when there
 * is none: the price the pair starts with, also for its mark and index (symbol-replay.ts: then the
 * L2 snapshot the book starts from does not replace them with its mid).
 */
export function startTrade(data: ReplayData, src: SymbolSource, start: number): HistTrade | null {
  return src.trades ? (data.lastTrade?.(src.trades.id, start) ?? null) : null;
}

function initialPrice(data: ReplayData, src: SymbolSource, start: number): string {
  const t = startTrade(data, src, start);
  if (t !== null) return t.price;
  if (src.klines) {
    const k = lastCandle(data, src.klines.id, start);
    if (k !== null) return start > k.closeTime ? k.close : k.open;
  }
  if (src.depth) {
    // the book the replay starts from: the last snapshot at or before the start
    for (const ev of data.depth(
      src.depth.id,
      data.depthAnchor?.(src.depth.id, start) ?? src.depth.firstTime ?? start,
    )) {
      if (ev.time > start) break;
      if (ev.bids.length > 0 && ev.asks.length > 0) {
        const bid = ev.bids.reduce((a, b) => (Number(b[0]) > Number(a[0]) ? b : a))[0];
        const ask = ev.asks.reduce((a, b) => (Number(b[0]) < Number(a[0]) ? b : a))[0];
        // the bid: a listed price on the tick grid (a mid may fall between ticks)
        return Number(bid) > 0 ? bid : ask;
      }
    }
  }
  throw new RangeError(`${src.symbol} has no price at or before the replay start`);
}
