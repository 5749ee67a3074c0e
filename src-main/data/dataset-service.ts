// The dataset service (issue 15): imports Binance archive files into datasets, lists and deletes
// them, and reads their candles (at any interval of the spec the stored one nests in) and trades.
//
// Invariants:
//   - all or nothing per file: a file is checked against its .CHECKSUM, parsed and validated row
//     by row while its rows are staged; any failure removes everything staged and names the row;
//   - idempotent: a file whose content (SHA-256) is already in the dataset changes nothing; a
//     candle or event already stored from another file is kept, not duplicated; trades whose ids
//     overlap stored ones refuse the file (a trade series has one source per id);
//   - gaps (missing candles, trade-id jumps, funding times missing, long silences) are recorded
//     with the file, never filled; the between-file ones are recomputed on every import;
//   - one import at a time per service (a queue), so staged files never interleave;
//   - candles keep the archive's decimal strings; coarse candles are built by the project's
//     aggregation (market/candle-aggregate.ts) over exact integers at the dataset's decimals and
//     written back at those decimals, so they equal Binance's own coarse files field for field.

import { basename } from 'node:path';
import { formatFixed } from '../../src-shared/decimal.ts';
import {
  INTERVAL_MS,
  nests,
  nextOpenTime,
  openTimeOf,
  previousOpenTime,
  type Interval,
} from '../../src-shared/intervals.ts';
import { DEFAULT_CATALOGUE } from '../market/catalogue.ts';
import { toNewSymbol } from '../market/seed-catalogue.ts';
import { generateBrackets } from '../risk/tiers.ts';
import { resolveKey, type KeyOptions } from './archive-path.ts';
import { aggregateDatasetCandles, archiveRow, type ArchiveKline } from './dataset-candles.ts';
import { DatasetError } from './dataset-error.ts';
import type {
  ContractSpecs,
  DatasetRecord,
  DatasetStore,
  FileSummary,
  Gap,
  SpecsSource,
  StoredCandle,
} from './ports.ts';
import { FileRefused, readLines, verifiedHash } from './file-source.ts';
import { storageOf, type DatasetKey } from './kinds.ts';
import { makeDepthParser, depthData } from './depth-rows.ts';
import { makeRowParser, RowError, type CandleRow, type TradeRow } from './rows.ts';
import { BlockBuilder, decodeBlock, newColumns, type TradeColumns } from './trade-codec.ts';

export { DatasetError };

export interface ImportProgress {
  readonly file: string;
  readonly bytes: number;
  readonly rows: number;
}

export interface ImportResult {
  readonly file: string;
  readonly ok: boolean;
  /** 'imported', 'unchanged' (already there) or 'refused'. */
  readonly status: 'imported' | 'unchanged' | 'refused';
  readonly datasetId: number | null;
  readonly key: DatasetKey | null;
  /** Rows read from the file, and how many of them were new. */
  readonly rows: number;
  readonly added: number;
  readonly gaps: number;
  readonly checksum: 'verified' | 'none';
  readonly sha256: string | null;
  /** Why it was refused (with the row when a row was at fault). */
  readonly error: string | null;
  readonly errorRow: number | null;
}

export interface ImportOptions extends KeyOptions {
  /** Name to record for the file (an uploaded file's original name); default the path's base name. */
  name?: string;
  onProgress?: (p: ImportProgress) => void;
}

export type { ArchiveKline };

export interface TradeView {
  id: number;
  price: string;
  qty: string;
  /** trades: quote quantity (base quantity in cm); aggTrades: absent. */
  quote_qty?: string;
  first_trade_id?: number;
  last_trade_id?: number;
  /** ms */
  time: number;
  /** µs (the archive's spot files from 2025 on carry it; earlier ones are ms x 1000) */
  time_us: number;
  is_buyer_maker: boolean;
  is_best_match?: boolean;
}

/** Silence after which an event stream records a gap (bookTicker, bookDepth). */
const EVENT_SILENCE_MS = 10 * 60_000;
const CANDLE_BATCH = 2048;
const EVENT_BATCH = 4096;
const PROGRESS_EVERY_ROWS = 65_536;

const POW10N = Array.from({ length: 40 }, (_, i) => 10n ** BigInt(i));
const pow10 = (n: number): bigint => POW10N[n];

/** The built-in catalogue's specs: it lists USD-M perpetuals, so only `um` datasets use it. */
function catalogueSpecs(key: DatasetKey): ContractSpecs | undefined {
  if (key.market !== 'um') return undefined;
  const e = DEFAULT_CATALOGUE.find((c) => c.symbol === key.symbol);
  if (e === undefined) return undefined;
  const s = toNewSymbol(e, 0);
  return { tickSize: s.tickSize, stepSize: s.stepSize, tiers: tiersOf(s.brackets) };
}

function tiersOf(brackets: readonly { cap: number; maxLeverage: number; mmr: number }[]): ContractSpecs['tiers'] {
  return brackets.map((b) => ({ cap: Number.isFinite(b.cap) ? b.cap : null, maxLeverage: b.maxLeverage, mmr: b.mmr }));
}

/** Specs read from the data: one tick and one lot at the most decimals seen; generic tiers. */
function inferredSpecs(priceDp: number, qtyDp: number): ContractSpecs {
  const step = (dp: number): string => (dp === 0 ? '1' : `0.${'0'.repeat(dp - 1)}1`);
  return { tickSize: step(priceDp), stepSize: step(qtyDp), tiers: tiersOf(generateBrackets(20, 10_000)) };
}

export class DatasetService {
  /** The store (the replay reads the datasets through it: replay/dataset-replay-data.ts). */
  readonly store: DatasetStore;
  private readonly now: () => number;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(store: DatasetStore, opts: { now?: () => number } = {}) {
    this.store = store;
    this.now = opts.now ?? Date.now;
    // A previous process stopped in the middle of a file: its staged rows go.
    store.abortStaging();
  }

  list(): DatasetRecord[] {
    return this.store.list();
  }

  get(id: number): DatasetRecord {
    const d = this.store.get(id);
    if (d === undefined) throw new DatasetError('not_found', `No dataset with id ${id}`);
    return d;
  }

  gaps(id: number): Gap[] {
    this.get(id);
    return this.store.gaps(id);
  }

  delete(id: number): void {
    if (!this.store.delete(id)) throw new DatasetError('not_found', `No dataset with id ${id}`);
  }

  /** Replaces a dataset's contract specs (the record then says 'edited'). */
  editSpecs(id: number, specs: ContractSpecs): DatasetRecord {
    this.get(id);
    this.store.setSpecs(id, specs, 'edited', this.now());
    return this.get(id);
  }

  /** Imports files one after the other (never two at once); each result says how its file went. */
  importFiles(paths: readonly string[], opts: ImportOptions = {}): Promise<ImportResult[]> {
    const run = async (): Promise<ImportResult[]> => {
      const out: ImportResult[] = [];
      for (const p of paths) out.push(await this.importOne(p, opts));
      return out;
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async importOne(path: string, opts: ImportOptions): Promise<ImportResult> {
    const file = opts.name ?? basename(path);
    const base = {
      file,
      datasetId: null,
      key: null,
      rows: 0,
      added: 0,
      gaps: 0,
      checksum: 'none' as const,
      sha256: null,
      errorRow: null,
    };
    let key: DatasetKey;
    try {
      key = resolveKey(opts.name ?? path, opts);
    } catch (err) {
      // An uploaded file's folders are unknown: its name alone, then the real path.
      try {
        key = resolveKey(path, opts);
      } catch {
        return { ...base, ok: false, status: 'refused', error: (err as Error).message };
      }
    }
    let hash: { sha256: string; checked: boolean };
    try {
      hash = await verifiedHash(path);
    } catch (err) {
      const msg = err instanceof FileRefused ? err.message : `${file}: ${(err as Error).message}`;
      return { ...base, key, ok: false, status: 'refused', error: msg };
    }
    const checksum = hash.checked ? ('verified' as const) : ('none' as const);
    const now = this.now();
    const known = catalogueSpecs(key);
    const ds =
      this.store.find(key) ??
      this.store.ensure(key, known ?? inferredSpecs(8, 8), known ? 'catalogue' : 'inferred', now);
    const done = this.store.doneFile(ds.id, hash.sha256);
    if (done !== undefined) {
      return {
        ...base,
        key,
        datasetId: ds.id,
        ok: true,
        status: 'unchanged',
        rows: done.rows,
        checksum,
        sha256: hash.sha256,
        error: null,
      };
    }
    const fileId = this.store.beginFile(ds.id, file, hash.sha256, now);
    try {
      const summary = await this.stage(path, file, key, ds.id, fileId, opts.onProgress);
      this.store.commitFile(ds.id, fileId, summary.summary, () => this.crossGaps(ds.id, key), this.now());
      this.refreshInferredSpecs(ds.id);
      return {
        ...base,
        key,
        datasetId: ds.id,
        ok: true,
        status: 'imported',
        rows: summary.read,
        added: summary.summary.rows,
        gaps: summary.fileGaps,
        checksum,
        sha256: hash.sha256,
        error: null,
      };
    } catch (err) {
      this.store.abortFile(fileId);
      const row = err instanceof RowError ? err.row : null;
      const text = (err as Error).message;
      const msg =
        err instanceof RowError
          ? `${file}: ${text}; nothing of this file was imported`
          : text.startsWith(file)
            ? text
            : `${file}: ${text}`;
      return {
        ...base,
        key,
        datasetId: ds.id,
        ok: false,
        status: 'refused',
        checksum,
        sha256: hash.sha256,
        error: msg,
        errorRow: row,
      };
    }
  }

  private refreshInferredSpecs(id: number): void {
    const d = this.get(id);
    if (d.specsSource !== 'inferred' || storageOf(d.kind) === 'events') return;
    const want = inferredSpecs(d.priceDp, d.qtyDp);
    if (want.tickSize !== d.specs.tickSize || want.stepSize !== d.specs.stepSize)
      this.store.setSpecs(id, want, 'inferred', this.now());
  }

  private async stage(
    path: string,
    file: string,
    key: DatasetKey,
    datasetId: number,
    fileId: number,
    onProgress?: (p: ImportProgress) => void,
  ): Promise<{ read: number; fileGaps: number; summary: FileSummary }> {
    const storage = storageOf(key.kind);
    const gaps: Omit<Gap, 'fileId'>[] = [];
    let added = 0;
    let firstKey: number | null = null;
    let lastKey: number | null = null;
    let firstTime: number | null = null;
    let lastTime: number | null = null;
    let priceDp = 0;
    let qtyDp = 0;
    let quoteDp = 0;
    const store = this.store;

    // candles
    let candles: StoredCandle[] = [];
    let prevOpen: number | null = null;
    const flushCandles = (): void => {
      if (candles.length > 0) added += store.stageCandles(datasetId, fileId, candles);
      candles = [];
    };
    // trades
    const builder = new BlockBuilder(key.kind === 'aggTrades');
    let prevTrade: { id: number; timeUs: number } | null = null;
    let firstTrade: { id: number; timeUs: number } | null = null;
    const flushBlock = (): void => {
      if (builder.count === 0) return;
      const r = builder.range();
      const clash = store.tradeOverlap(datasetId, r.firstId, r.lastId);
      if (clash !== undefined) {
        throw new Error(
          `trade ids ${r.firstId}..${r.lastId} overlap trades already imported from ${clash}; nothing of this file was imported`,
        );
      }
      store.stageTradeBlock(datasetId, fileId, r, builder.encode());
      added += r.count;
    };
    // events
    let events: { time: number; seq: number; data: string }[] = [];
    let prevEventTime = Number.NEGATIVE_INFINITY;
    let seq = 0;
    let fundingHours = 0;
    const flushEvents = (): void => {
      if (events.length > 0) added += store.stageEvents(datasetId, fileId, events);
      events = [];
    };

    const interval = key.interval as Interval;
    const parser =
      key.kind === 'depth'
        ? null
        : makeRowParser(key, {
            candle(row: CandleRow) {
              if (prevOpen !== null) {
                const expected = nextOpenTime(interval, prevOpen);
                if (row.openTime !== expected) gaps.push(candleGap(interval, expected, row.openTime));
              }
              prevOpen = row.openTime;
              if (row.priceDp > priceDp) priceDp = row.priceDp;
              if (row.qtyDp > qtyDp) qtyDp = row.qtyDp;
              if (row.quoteDp > quoteDp) quoteDp = row.quoteDp;
              firstKey ??= row.openTime;
              lastKey = row.openTime;
              candles.push({ openTime: row.openTime, closeTime: row.closeTime, values: row.values, count: row.count });
              if (candles.length >= CANDLE_BATCH) flushCandles();
            },
            trade(row: TradeRow) {
              if (prevTrade !== null) {
                // Ids count every trade (aggregate) of the series: a jump is data missing from the file.
                if (row.id !== prevTrade.id + 1) gaps.push(tradeGap(key.kind, prevTrade, row));
              }
              prevTrade = { id: row.id, timeUs: row.timeUs };
              firstTrade ??= prevTrade;
              if (row.priceDp > priceDp) priceDp = row.priceDp;
              if (row.qtyDp > qtyDp) qtyDp = row.qtyDp;
              if (row.auxDp > quoteDp) quoteDp = row.auxDp;
              firstKey ??= row.id;
              lastKey = row.id;
              firstTime ??= Math.floor(row.timeUs / 1000);
              lastTime = Math.floor(row.timeUs / 1000);
              builder.add(row);
              if (builder.full) flushBlock();
            },
            event(timeUs: number, data: string) {
              seq = timeUs === prevEventTime ? seq + 1 : 0;
              const ms = Math.floor(timeUs / 1000);
              if (prevEventTime !== Number.NEGATIVE_INFINITY) {
                const prevMs = Math.floor(prevEventTime / 1000);
                const limit = key.kind === 'fundingRate' ? fundingHours * 3_600_000 + 60_000 : EVENT_SILENCE_MS;
                if (ms - prevMs > limit)
                  gaps.push({
                    start: prevMs + 1,
                    end: ms,
                    detail: `no ${key.kind} data for ${formatSpan(ms - prevMs)}`,
                  });
              }
              if (key.kind === 'fundingRate') fundingHours = Number(data.slice(0, data.indexOf(',')));
              prevEventTime = timeUs;
              firstKey ??= timeUs;
              lastKey = timeUs;
              firstTime ??= ms;
              lastTime = ms;
              events.push({ time: timeUs, seq, data });
              if (events.length >= EVENT_BATCH) flushEvents();
            },
          });

    let lastDepthMs = 0;
    const depth =
      key.kind === 'depth'
        ? makeDepthParser(key.symbol, {
            depth(ev) {
              const ms = Math.floor(ev.timeUs / 1000);
              firstKey ??= ev.timeUs;
              lastKey = ev.timeUs;
              firstTime ??= ms;
              lastTime = ms;
              if (ev.kind === 'diff') lastDepthMs = ms;
              // one row per event: the update id keeps snapshots and diffs of one ms apart
              events.push({ time: ev.timeUs, seq: ev.u * 2 + (ev.kind === 'diff' ? 1 : 0), data: depthData(ev) });
              if (events.length >= EVENT_BATCH) flushEvents();
            },
            brokenStream(prevU, ev) {
              const ms = Math.floor(ev.timeUs / 1000);
              const why = ev.pu >= 0 ? `pu ${ev.pu}` : `U ${ev.U}`;
              gaps.push({
                start: lastDepthMs + 1,
                end: Math.max(ms, lastDepthMs + 1),
                detail: `diff-depth stream broken: ${why} after u ${prevU} (events lost; resync from a snapshot)`,
              });
            },
          })
        : null;
    const reader = (depth ?? parser)!;

    let bytes = 0;
    let lineNo = 0;
    let nextReport = PROGRESS_EVERY_ROWS;
    for await (const lines of readLines(path, (n) => (bytes += n))) {
      for (let i = 0; i < lines.length; i++) reader.line(lines[i], ++lineNo);
      if (onProgress !== undefined && reader.rows >= nextReport) {
        nextReport = reader.rows + PROGRESS_EVERY_ROWS;
        onProgress({ file, bytes, rows: reader.rows });
      }
    }
    depth?.end();
    if (reader.rows === 0) {
      const others = depth === null ? [] : [...depth.otherSymbols];
      throw new RowError(
        Math.max(1, lineNo),
        others.length > 0
          ? `the file has no rows of ${key.symbol} (it has ${others.join(', ')})`
          : 'the file has no data rows',
      );
    }
    flushCandles();
    flushBlock();
    flushEvents();
    onProgress?.({ file, bytes, rows: reader.rows });
    if (storage === 'candles') {
      firstTime = firstKey;
      lastTime = lastKey;
    }
    // (assigned in the row callbacks, which the compiler's narrowing does not follow)
    const first = firstTrade as { timeUs: number } | null;
    const last = prevTrade as { timeUs: number } | null;
    if (storage === 'trades' && firstKey !== null && lastKey !== null && first !== null && last !== null) {
      // the stored series is read in id order as time order: this file must fit between its neighbours
      const n = store.tradeNeighbours(datasetId, firstKey, lastKey);
      const lastUs = last.timeUs;
      if (n.beforeUs !== null && first.timeUs < n.beforeUs) {
        throw new Error(
          `its first trade (id ${firstKey}) is earlier than stored trades with lower ids; nothing of this file was imported`,
        );
      }
      if (n.afterUs !== null && lastUs > n.afterUs) {
        throw new Error(
          `its last trade (id ${lastKey}) is later than stored trades with higher ids; nothing of this file was imported`,
        );
      }
    }
    return {
      read: reader.rows,
      // Candle gaps are all found over the stored series (crossGaps), so a later file that fills
      // one removes it; the file's own count is still reported.
      fileGaps: gaps.length,
      summary: {
        rows: added,
        firstKey,
        lastKey,
        firstTime,
        lastTime,
        priceDp,
        qtyDp,
        quoteDp,
        gaps: storage === 'candles' ? [] : gaps,
      },
    };
  }

  /** Gaps between the dataset's files (and, for candles, anywhere in the stored series). */
  private crossGaps(datasetId: number, key: DatasetKey): Omit<Gap, 'fileId'>[] {
    const out: Omit<Gap, 'fileId'>[] = [];
    const storage = storageOf(key.kind);
    if (storage === 'candles') {
      const interval = key.interval as Interval;
      const times = this.store.candleTimes(datasetId);
      for (let i = 1; i < times.length; i++) {
        const expected = nextOpenTime(interval, times[i - 1]);
        if (times[i] !== expected) out.push(candleGap(interval, expected, times[i]));
      }
      return out;
    }
    const files = this.store.files(datasetId);
    for (let i = 1; i < files.length; i++) {
      const a = files[i - 1];
      const b = files[i];
      if (a.lastKey === null || b.firstKey === null || a.lastTime === null || b.firstTime === null) continue;
      if (storage === 'trades') {
        if (b.firstKey !== a.lastKey + 1) {
          out.push({
            start: a.lastTime + 1,
            end: b.firstTime,
            detail: `${key.kind} ids ${a.lastKey + 1}..${b.firstKey - 1} missing between ${a.name} and ${b.name}`,
          });
        }
      } else if (b.firstTime - a.lastTime > (key.kind === 'fundingRate' ? 8 * 3_600_000 + 60_000 : EVENT_SILENCE_MS)) {
        out.push({
          start: a.lastTime + 1,
          end: b.firstTime,
          detail: `no ${key.kind} data for ${formatSpan(b.firstTime - a.lastTime)} between ${a.name} and ${b.name}`,
        });
      }
    }
    return out;
  }

  // ---- reading ------------------------------------------------------------------------------

  /**
   * Candles of a candle dataset at `interval` (the stored one or any coarser one it nests in),
   * ascending, in the archive's 12-column layout. Range mode: every candle whose open time lies
   * in [startTime, endTime]; otherwise the newest `limit`. Coarse periods without any stored
   * candle (an outage) are absent: a gap stays a gap.
   */
  klines(
    id: number,
    interval: Interval,
    q: { startTime?: number; endTime?: number; limit: number; refuseWider?: boolean },
  ): ArchiveKline[] {
    const d = this.get(id);
    if (storageOf(d.kind) !== 'candles')
      throw new DatasetError('invalid', `Dataset ${id} holds ${d.kind}, not candles`);
    const fine = d.interval as Interval;
    if (d.firstTime === null || d.lastTime === null) return [];
    if (q.startTime !== undefined && q.refuseWider === true) {
      // decided before reading: the range cut to the data's span, in periods of the interval
      const span = Math.min(q.endTime ?? d.lastTime, d.lastTime) - Math.max(q.startTime, d.firstTime);
      if (span / INTERVAL_MS[interval] >= q.limit) {
        throw new DatasetError(
          'invalid',
          `The range holds more than ${q.limit} ${interval} candles of this dataset; narrow it`,
        );
      }
    }
    if (interval === fine) {
      const from = q.startTime ?? Number.MIN_SAFE_INTEGER;
      const to = q.endTime ?? Number.MAX_SAFE_INTEGER;
      return this.store.candles(id, from, to, q.limit, q.startTime === undefined).map(archiveRow);
    }
    if (!nests(fine, interval) || INTERVAL_MS[interval] < INTERVAL_MS[fine]) {
      throw new DatasetError(
        'invalid',
        `${interval} candles cannot be built from this dataset's ${fine} candles (choose an interval its candles tile)`,
      );
    }
    let from: number;
    let to: number;
    if (q.startTime !== undefined) {
      from = openTimeOf(interval, Math.max(q.startTime, d.firstTime));
      to = nextOpenTime(interval, openTimeOf(interval, Math.min(q.endTime ?? d.lastTime, d.lastTime))) - 1;
      if (q.startTime > d.lastTime) return [];
    } else {
      to = nextOpenTime(interval, openTimeOf(interval, d.lastTime)) - 1;
      from = openTimeOf(interval, d.lastTime);
      for (let i = 1; i < q.limit && from > d.firstTime; i++) from = previousOpenTime(interval, from);
    }
    const rows = this.store.candles(id, from, to, Number.MAX_SAFE_INTEGER, false);
    const out = aggregateDatasetCandles(d, fine, interval, rows);
    if (q.startTime !== undefined)
      return out.filter((r) => r[0] >= openTimeOf(interval, q.startTime!)).slice(0, q.limit);
    return out.slice(-q.limit);
  }

  /** Decoded trade blocks of a trade dataset from `fromUs` on, ascending (blocks may start earlier). */
  *tradeBlocks(id: number, fromUs = Number.MIN_SAFE_INTEGER): Generator<TradeColumns, void, undefined> {
    const d = this.get(id);
    if (storageOf(d.kind) !== 'trades') throw new DatasetError('invalid', `Dataset ${id} holds ${d.kind}, not trades`);
    const cols = newColumns();
    for (const bytes of this.store.tradeBlocks(id, fromUs)) yield decodeBlock(bytes, cols);
  }

  /** Up to `limit` trades at or after `startTime` (ms; default the first), ascending. */
  trades(id: number, q: { startTime?: number; limit: number }): TradeView[] {
    const d = this.get(id);
    const fromUs = (q.startTime ?? Number.MIN_SAFE_INTEGER / 1000) * 1000;
    const out: TradeView[] = [];
    for (const c of this.tradeBlocks(id, fromUs)) {
      const pm = pow10(d.priceDp - c.priceDp);
      const qm = pow10(d.qtyDp - c.qtyDp);
      const am = pow10(d.quoteDp - c.auxDp);
      for (let i = 0; i < c.count && out.length < q.limit; i++) {
        if (c.timeUs[i] < fromUs) continue;
        const f = c.flags[i];
        const t: TradeView = {
          id: c.id[i],
          price: formatFixed(BigInt(c.price[i]) * pm, d.priceDp),
          qty: formatFixed(BigInt(c.qty[i]) * qm, d.qtyDp),
          time: Math.floor(c.timeUs[i] / 1000),
          time_us: c.timeUs[i],
          is_buyer_maker: (f & 1) === 1,
        };
        if (c.agg) {
          t.first_trade_id = c.aux[i];
          t.last_trade_id = c.last[i];
        } else t.quote_qty = formatFixed(BigInt(c.aux[i]) * am, d.quoteDp);
        if ((f & 4) !== 0) t.is_best_match = (f & 2) === 2;
        out.push(t);
      }
      if (out.length >= q.limit) break;
    }
    return out;
  }
}

function candleGap(interval: Interval, expected: number, actual: number): Omit<Gap, 'fileId'> {
  let n = 0;
  for (let t = expected; t < actual && n < 1_000_000; t = nextOpenTime(interval, t)) n++;
  return { start: expected, end: actual, detail: `${n} ${interval} candle${n === 1 ? '' : 's'} missing` };
}

function tradeGap(kind: string, prev: { id: number; timeUs: number }, row: TradeRow): Omit<Gap, 'fileId'> {
  const prevMs = Math.floor(prev.timeUs / 1000);
  const ms = Math.floor(row.timeUs / 1000);
  return {
    start: prevMs + 1,
    end: Math.max(ms, prevMs + 1),
    detail: `${kind} ids ${prev.id + 1}..${row.id - 1} missing`,
  };
}

function formatSpan(ms: number): string {
  if (ms >= 86_400_000) return `${(ms / 86_400_000).toFixed(1)} days`;
  if (ms >= 3_600_000) return `${(ms / 3_600_000).toFixed(1)} hours`;
  return `${Math.round(ms / 60_000)} minutes`;
}
