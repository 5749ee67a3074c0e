// Which datasets a replay reads for each symbol (docs/replay.md "What a replayed pair is made
// of"): the richest data there is decides the pair's source (an L2 depth dataset, else trades /
// aggTrades, else klines), beside the mark, index, premium and funding datasets when there are
// any. Of several datasets of a kind, the one covering the span asked for is read (else one with
// data within it), USD-M preferred, then the finest interval. The plan is checked against the start and until asked for
// (RangeError naming the symbol and what is wrong), and the pairs' data must overlap in time.
import type { ReplayData, ReplayDataset, ReplaySpecs } from './ports.ts';
import { dataSpecs } from './specs.ts';
import { INTERVALS } from '../../src-shared/intervals.ts';

/** Candle intervals a replay reads, finest first (the shared list). */
const INTERVAL_RANK: readonly string[] = INTERVALS;

/** ms of the fixed-length candle intervals (1M, a calendar month, is not read by a replay). */
export const INTERVAL_MS: Readonly<Record<string, number>> = {
  '1s': 1000,
  '1m': 60_000,
  '3m': 180_000,
  '5m': 300_000,
  '15m': 900_000,
  '30m': 1_800_000,
  '1h': 3_600_000,
  '2h': 7_200_000,
  '4h': 14_400_000,
  '6h': 21_600_000,
  '8h': 28_800_000,
  '12h': 43_200_000,
  '1d': 86_400_000,
  '3d': 259_200_000,
  '1w': 604_800_000,
};

export type SourceKind = 'depth' | 'trades' | 'klines';

/** What one replayed symbol is made from. */
export interface SymbolSource {
  symbol: string;
  kind: SourceKind;
  depth: ReplayDataset | null;
  trades: ReplayDataset | null;
  klines: ReplayDataset | null;
  mark: ReplayDataset | null;
  index: ReplayDataset | null;
  funding: ReplayDataset | null;
  /** premiumIndexKlines: the funding rate is derived from them when there is no fundingRate dataset. */
  premium: ReplayDataset | null;
  /** The specs the pair is listed with (from the main dataset). */
  specs: ReplaySpecs;
  /** ms after the last event of the main data. */
  end: number;
}

/** The span a replay asks for: [start, until], until = start when open-ended. */
interface Span {
  start: number;
  until: number;
}

/** ms after a dataset's last row (a candle's period, else 1 ms). */
function endOf(d: ReplayDataset): number {
  return d.lastTime! + (INTERVAL_MS[d.interval] ?? 1);
}

/** 0: the dataset covers the whole span; 1: it has data within it; 2: neither. */
function coverage(d: ReplayDataset, span: Span): number {
  if (d.firstTime! <= span.start && endOf(d) > span.until) return 0;
  return d.firstTime! <= span.until && endOf(d) > span.start ? 1 : 2;
}

/**
 * The dataset of `kind` to read: the best coverage of the span first (a dataset covering it,
 * else one with data within it), then USD-M, then the finest interval.
 */
function smallest(list: ReplayDataset[], kind: string, span: Span): ReplayDataset | null {
  const c = list.filter((d) => d.kind === kind && d.lastTime !== null && INTERVAL_MS[d.interval] !== undefined);
  c.sort(
    (a, b) =>
      coverage(a, span) - coverage(b, span) ||
      (a.market === 'um' ? 0 : 1) - (b.market === 'um' ? 0 : 1) ||
      INTERVAL_RANK.indexOf(a.interval) - INTERVAL_RANK.indexOf(b.interval),
  );
  return c[0] ?? null;
}

/** The dataset of one of `kinds` to read: the best coverage of the span, then USD-M, then the kinds' order. */
function preferUm(list: ReplayDataset[], kinds: string[], span: Span): ReplayDataset | null {
  const c = list.filter((d) => kinds.includes(d.kind) && d.lastTime !== null);
  c.sort(
    (a, b) =>
      coverage(a, span) - coverage(b, span) ||
      (a.market === 'um' ? 0 : 1) - (b.market === 'um' ? 0 : 1) ||
      kinds.indexOf(a.kind) - kinds.indexOf(b.kind),
  );
  return c[0] ?? null;
}

const iso = (t: number): string => new Date(t).toISOString();

/** One symbol's plan; RangeError when it has nothing to replay or its data misses the start. */
function planSymbol(data: ReplayData, symbol: string, start: number, until?: number): SymbolSource {
  const all = data.datasets(symbol);
  const span: Span = { start, until: Math.max(start, until ?? start) };
  const depth = preferUm(all, ['depth'], span);
  const trades = preferUm(all, ['trades', 'aggTrades'], span);
  const klines = smallest(all, 'klines', span);
  const kind: SourceKind | null = depth ? 'depth' : trades ? 'trades' : klines ? 'klines' : null;
  if (kind === null) throw new RangeError(`${symbol} has no depth, trades or klines dataset to replay`);
  const main = (depth ?? trades ?? klines)!;
  const end = kind === 'klines' ? main.lastTime! + INTERVAL_MS[main.interval] : main.lastTime! + 1;
  if (end <= start)
    throw new RangeError(`the ${main.kind} data of ${symbol} ends before the replay start (${iso(end)})`);
  if (main.firstTime! > (until ?? start) && main.firstTime! > start) {
    throw new RangeError(
      `the ${main.kind} data of ${symbol} starts at ${iso(main.firstTime!)}, after the replay start`,
    );
  }
  const specs = main.specsSource === 'inferred' ? dataSpecs(data, main, trades) : main.specs;
  return {
    symbol,
    kind,
    depth,
    trades,
    klines,
    mark: smallest(all, 'markPriceKlines', span),
    index: smallest(all, 'indexPriceKlines', span),
    funding: preferUm(all, ['fundingRate'], span),
    premium: smallest(all, 'premiumIndexKlines', span),
    specs,
    end,
  };
}

/**
 * Chooses each symbol's datasets (docs/replay.md "Market"): RangeError naming the symbol when it
 * has nothing to replay or its data does not reach past `start`.
 */
export function planSources(
  data: ReplayData,
  symbols: readonly string[],
  start: number,
  until?: number,
): SymbolSource[] {
  if (symbols.length === 0) throw new RangeError('a replay needs at least one symbol');
  if (new Set(symbols).size !== symbols.length) throw new RangeError('a replay lists each symbol once');
  const out = symbols.map((symbol) => planSymbol(data, symbol, start, until));
  // replayed together, the pairs' data must share some time (not only each touch [start, until])
  const first = (p: SymbolSource): number => (p.depth ?? p.trades ?? p.klines)!.firstTime!;
  const latestFirst = out.reduce((a, b) => (first(b) > first(a) ? b : a));
  const earliestEnd = out.reduce((a, b) => (b.end < a.end ? b : a));
  if (first(latestFirst) >= earliestEnd.end) {
    throw new RangeError(
      `the data of ${earliestEnd.symbol} (${iso(first(earliestEnd))} to ${iso(earliestEnd.end)}) and ${latestFirst.symbol} ` +
        `(${iso(first(latestFirst))} to ${iso(latestFirst.end)}) do not overlap in time`,
    );
  }
  return out;
}
