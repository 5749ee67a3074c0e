// Which dataset a replayed pair reads, in the screen (docs/replay.md "Choosing the datasets"):
// the Replay dialog's candidates for a pair's main data (depth, trades or klines datasets; more
// than one, and the dialog offers a choice), the coverage a chosen one gives the pair, and the
// chart interval a replay's screen opens on (the candles' own interval when the pair replays
// candles coarser than the chart's: a 1m chart of a 15m replay is empty at its start).
import { INTERVAL_MS, isInterval, type Interval } from '../../../../src-shared/intervals.ts';
import { autoMain } from '../../../../src-shared/replay-pick.ts';
import type { DatasetView } from '../data/data-view.ts';
import { datasetEnd, datasetPieces, utcTime, type ReplayStatusView, type SymbolCoverage } from './replay-view.ts';

type Source = SymbolCoverage['sources'][number];

/** The kinds a pair's main data is read from, and the source each makes. */
const MAIN: Readonly<Record<string, Source>> = {
  depth: 'depth',
  trades: 'trades',
  aggTrades: 'trades',
  klines: 'klines',
};
const SOURCE_ORDER: readonly Source[] = ['depth', 'trades', 'klines'];
const MARKET_ORDER = ['um', 'spot', 'cm'];

/**
 * The datasets a pair's main data may be read from: its non-empty depth, trades, aggTrades and
 * klines datasets (candles of a fixed interval: a replay does not read 1M), the richest kind
 * first, then USD-M, spot, COIN-M, then the finest interval, then the earliest.
 */
export function mainCandidates(datasets: readonly DatasetView[], symbol: string): DatasetView[] {
  return datasets
    .filter(
      (d) =>
        d.symbol === symbol &&
        MAIN[d.kind] !== undefined &&
        d.first_time !== null &&
        d.last_time !== null &&
        d.rows > 0 &&
        (d.kind !== 'klines' || (isInterval(d.interval) && d.interval !== '1M')),
    )
    .sort(
      (a, b) =>
        SOURCE_ORDER.indexOf(MAIN[a.kind]) - SOURCE_ORDER.indexOf(MAIN[b.kind]) ||
        MARKET_ORDER.indexOf(a.market) - MARKET_ORDER.indexOf(b.market) ||
        (isInterval(a.interval) && isInterval(b.interval) ? INTERVAL_MS[a.interval] - INTERVAL_MS[b.interval] : 0) ||
        a.first_time! - b.first_time!,
    );
}

const MARKET_NAME: Readonly<Record<string, string>> = { um: 'USD-M', spot: 'Spot', cm: 'COIN-M' };

/**
 * A candidate as the dialog lists it: "Spot klines 15m · 2025-01-06 00:00 → 2025-01-13 00:00 · #2",
 * its span as `data list` and the Data dialog give it: to a candle dataset's last close, an event
 * dataset's last event (not the ms after it, the end a replay's Until takes).
 */
export function candidateLabel(d: DatasetView): string {
  const what = `${MARKET_NAME[d.market] ?? d.market} ${d.kind}${d.interval ? ` ${d.interval}` : ''}`;
  const end = isInterval(d.interval) ? datasetEnd(d) : d.last_time!;
  return `${what} · ${utcTime(d.first_time!)} → ${utcTime(end)} · #${d.id}`;
}

/**
 * The dataset the venue reads a pair's main data from when none is pinned (Automatic), for a span
 * (start, until ms; until Infinity: to the end of the data): the rule of its plan
 * (src-shared/replay-pick.ts), on the pair's candidates; null when it has none.
 */
export function automaticPick(
  datasets: readonly DatasetView[],
  symbol: string,
  start: number,
  until = Number.POSITIVE_INFINITY,
): DatasetView | null {
  const list = mainCandidates(datasets, symbol).map((d) => ({
    d,
    market: d.market,
    kind: d.kind,
    interval: d.interval,
    firstTime: d.first_time,
    lastTime: d.last_time,
  }));
  return autoMain(list, { start, until: Math.max(start, until) })?.main.d ?? null;
}

/** The Automatic option of a pair's data: the dataset the venue will read, named. */
export function automaticLabel(pick: DatasetView | null): string {
  return pick === null
    ? "Automatic (the venue's pick: the richest data covering the span)"
    : `Automatic (${candidateLabel(pick)})`;
}

/**
 * The pairs' coverage with the chosen datasets (`picks`: symbol -> dataset id): a pair with a
 * pick among its candidates covers that dataset's span alone and is made of its kind; the others
 * keep their coverage (every dataset of theirs).
 */
export function pickedCoverage(
  cov: readonly SymbolCoverage[],
  datasets: readonly DatasetView[],
  picks: Readonly<Record<string, number>>,
): SymbolCoverage[] {
  return cov.map((c) => {
    const d = mainCandidates(datasets, c.symbol).find((x) => x.id === picks[c.symbol]);
    if (d === undefined) return c;
    return {
      symbol: c.symbol,
      first: d.first_time!,
      end: datasetEnd(d),
      sources: [MAIN[d.kind]],
      pieces: datasetPieces(d),
    };
  });
}

/**
 * The chart interval a replay's screen should show `symbol` at: the interval of the klines it
 * replays when they are coarser than `current` (a finer chart has no candle before the first
 * prints, and then only the four a candle makes), else null (keep `current`).
 */
export function replayChartInterval(
  status: Pick<ReplayStatusView, 'sources' | 'datasets'>,
  symbol: string,
  current: Interval,
): Interval | null {
  if (status.sources?.[symbol] !== 'klines') return null;
  const k = status.datasets?.[symbol]?.find((d) => d.role === 'klines');
  if (k === undefined || !isInterval(k.interval)) return null;
  return INTERVAL_MS[k.interval] > INTERVAL_MS[current] ? k.interval : null;
}
