// The datasets a replay is told to read (POST /api/v1/replays `datasets`, `--replay-datasets`,
// a sweep's `--replay-datasets`): dataset ids, each fixing one replayed symbol's dataset for the
// role its kind gives (docs/replay.md "Choosing the datasets"). What the plan picks for the roles
// not pinned is plan.ts's rule. Checked here for what the ids are (RangeError naming the dataset):
// a dataset of one of the replayed symbols, of a kind a replay reads, with rows, one a role;
// plan.ts checks each against the span.
import type { ReplayData, ReplayDataset } from './ports.ts';
import type { ReplayDatasetUse } from '../../src-shared/types/replay.ts';
import { INTERVALS } from '../../src-shared/intervals.ts';

/** What a dataset gives a replayed pair (the status's `datasets[].role`). */
type DatasetRole = ReplayDatasetUse['role'];

/** The role of each kind a replay reads (bookTicker and bookDepth it does not). */
const ROLE_OF_KIND: Readonly<Record<string, DatasetRole>> = {
  depth: 'depth',
  trades: 'trades',
  aggTrades: 'trades',
  klines: 'klines',
  markPriceKlines: 'mark',
  indexPriceKlines: 'index',
  fundingRate: 'funding',
  premiumIndexKlines: 'premium',
};

/** The role a dataset of a kind a replay reads gives (main datasets: depth, trades, klines). */
export function roleOf(d: ReplayDataset): DatasetRole {
  return ROLE_OF_KIND[d.kind];
}

/** Candle intervals a replay reads (1M, a calendar month, it does not). */
const FIXED_INTERVALS: ReadonlySet<string> = new Set(INTERVALS.filter((i) => i !== '1M'));

/** A symbol's pinned datasets by role. */
export type Pins = Partial<Record<DatasetRole, ReplayDataset>>;

/** `dataset 12 (spot 15m klines of BTCUSDT)`: how a refusal names a dataset. */
export function datasetName(d: ReplayDataset): string {
  return `dataset ${d.id} (${d.market} ${d.interval === '' ? '' : `${d.interval} `}${d.kind} of ${d.symbol})`;
}

/**
 * The pinned datasets of each replayed symbol, by role (symbols with none are absent). RangeError
 * naming the dataset: an id listed twice, no dataset of that id, a dataset of another symbol, of a
 * kind a replay does not read (bookTicker, bookDepth, 1M candles), with no rows, or two datasets
 * for one role of one symbol (`trades` and `aggTrades` are one role).
 */
export function resolvePins(
  data: ReplayData,
  symbols: readonly string[],
  ids: readonly number[] | undefined,
): Map<string, Pins> {
  const out = new Map<string, Pins>();
  if (ids === undefined || ids.length === 0) return out;
  const mine = new Map<number, ReplayDataset>();
  for (const s of symbols) for (const d of data.datasets(s)) mine.set(d.id, d);
  const seen = new Set<number>();
  for (const id of ids) {
    if (seen.has(id)) throw new RangeError(`dataset ${id} is listed twice in the datasets to read`);
    seen.add(id);
    const d = mine.get(id);
    if (d === undefined) {
      const other = data.dataset?.(id) ?? null;
      throw new RangeError(
        other === null
          ? `there is no dataset ${id} of ${symbols.join(', ')} to read (GET /api/v1/datasets lists them)`
          : `${datasetName(other)} is not a dataset of the replayed ${symbols.length > 1 ? 'pairs' : 'pair'} ` +
              `(${symbols.join(', ')}): replay ${other.symbol} to read it`,
      );
    }
    const role = ROLE_OF_KIND[d.kind];
    if (role === undefined || (d.interval !== '' && !FIXED_INTERVALS.has(d.interval)))
      throw new RangeError(
        `${datasetName(d)} is not data a replay reads (it reads depth, trades, aggTrades, klines, mark, index and premium index klines of 1s to 1w, and funding rates)`,
      );
    if (d.firstTime === null || d.lastTime === null) throw new RangeError(`${datasetName(d)} has no rows to read`);
    const pins = out.get(d.symbol) ?? {};
    const taken = pins[role];
    if (taken !== undefined)
      throw new RangeError(
        `${datasetName(taken)} and ${datasetName(d)} are both pinned as ${d.symbol}'s ${role} data: pin one dataset a role`,
      );
    pins[role] = d;
    out.set(d.symbol, pins);
  }
  return out;
}
