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
export function automaticLabel(pick: DatasetView | null, until?: number): string {
  return pick === null
    ? "Automatic (the venue's pick: the richest data covering the span)"
    : `Automatic (${optionLabel(pick, until)})`;
}

/**
 * A depth dataset that cannot build the pair's book over a span ending at `until`: it holds no
 * order book snapshot at or before the end of the span played (until, or its own end), as the
 * venue's plan checks (docs/replay.md "The historical book"): its diffs alone, refused on Start
 * (1001). False for the other kinds.
 */
function booklessDepth(d: DatasetView, until = Number.POSITIVE_INFINITY): boolean {
  if (d.kind !== 'depth' || d.last_time === null) return false;
  const end = Math.min(until, d.last_time + 1);
  return d.first_snapshot_time === null || d.first_snapshot_time > end;
}

/** A candidate as the select lists it: a depth dataset without a book snapshot says so. */
export function optionLabel(d: DatasetView, until?: number): string {
  return booklessDepth(d, until) ? `${candidateLabel(d)} · no book snapshot, refused` : candidateLabel(d);
}

/**
 * Why the data a pair would read (the chosen dataset, else Automatic's) is refused on Start, when
 * it is a depth dataset without a book snapshot, naming the candidate to choose instead (of its
 * market first); null when it can be replayed.
 */
export function booklessNote(
  datasets: readonly DatasetView[],
  symbol: string,
  picks: Readonly<Record<string, number>>,
  start: number,
  until = Number.POSITIVE_INFINITY,
): string | null {
  const candidates = mainCandidates(datasets, symbol);
  const chosen = candidates.find((d) => d.id === picks[symbol]);
  const d = chosen ?? automaticPick(datasets, symbol, start, until);
  if (d === null || !booklessDepth(d, until)) return null;
  const others = candidates.filter((x) => !booklessDepth(x, until) && x.kind !== 'depth');
  const instead = others.find((x) => x.market === d.market) ?? others[0];
  const which = chosen === undefined ? `Automatic reads ${symbol} from` : `${symbol} is set to`;
  const end = utcTime(Math.min(until, d.last_time!));
  return (
    `${which} ${MARKET_NAME[d.market] ?? d.market} depth #${d.id}, which holds no order book snapshot up to ` +
    `${end}: its diffs alone cannot build the book, so the venue refuses it. ` +
    (instead === undefined
      ? 'Import a REST snapshot of the book into it (Data), or trades or klines of the pair.'
      : `Choose ${candidateLabel(instead)} in ${symbol} data instead.`)
  );
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
