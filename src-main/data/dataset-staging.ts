// Staging one archive file into a dataset: rows parsed and validated one by one, written in
// batches while the file's dataset_files row is 'staging' (the store makes them visible in one
// step), and the gaps found inside the file and between the dataset's files. All or nothing: the
// first bad row throws, naming it, and the caller removes everything staged.
import { nextOpenTime, type Interval } from '../../src-shared/intervals.ts';
import type { DatasetStore, FileSummary, Gap, StagedCount, StoredCandle } from './ports.ts';
import { readLines } from './file-source.ts';
import { storageOf, type DatasetKey } from './kinds.ts';
import { makeDepthParser, depthData } from './depth-rows.ts';
import { makeTradesParser } from './recorder-rows.ts';
import { makeRecordingParser, readsRecording } from './recording-lines.ts';
import { skippedList, type SkippedStream } from '../../src-shared/skipped-streams.ts';
import { makeRowParser, RowError, type CandleRow, type RowParser, type RowSink, type TradeRow } from './rows.ts';
import { BlockBuilder } from './trade-codec.ts';
import { count } from './count-words.ts';

/** The row parser of a kind: a recorder's trade stream or JSON lines (its events) beside the archive's CSV. */
function rowParserOf(key: DatasetKey, sink: RowSink): RowParser {
  const csv = key.kind === 'trades' ? makeTradesParser : makeRowParser;
  return readsRecording(key.kind) ? makeRecordingParser(key, sink, csv) : csv(key, sink);
}

/** Silence after which an event stream records a gap (bookTicker, bookDepth). */
const EVENT_SILENCE_MS = 10 * 60_000;
const CANDLE_BATCH = 2048;
const EVENT_BATCH = 4096;
const PROGRESS_EVERY_ROWS = 65_536;

export interface ImportProgress {
  readonly file: string;
  readonly bytes: number;
  readonly rows: number;
}

/** One file to stage: where it is, the name recorded for it, its dataset and its dataset_files row. */
export interface StagedFile {
  path: string;
  file: string;
  key: DatasetKey;
  datasetId: number;
  fileId: number;
  onProgress?: (p: ImportProgress) => void;
  /** Aborted (a Ctrl-C of `npm run data`): staging stops at the next chunk, refusing the file. */
  signal?: AbortSignal;
}

export interface StagedResult {
  /** Rows read from the file. */
  read: number;
  /** Gaps found inside the file (for candles, reported here and found again over the series). */
  fileGaps: number;
  summary: FileSummary;
  /** Lines of other streams skipped, per stream (a recorder's JSON lines). */
  skipped: readonly SkippedStream[];
  /** What the import says of the file's rows (rows.ts RowParser.warnings). */
  warnings: readonly string[];
}

/**
 * Parses, validates and stages one archive file's rows (in batches) into its dataset, reporting
 * progress; throws (RowError naming the row, or Error) on the first fault, leaving the caller to
 * abort the file. Returns the rows read, the gaps found inside the file and the file's summary.
 */
export async function stageFile(store: DatasetStore, f: StagedFile): Promise<StagedResult> {
  const { path, file, key, datasetId, fileId, onProgress, signal } = f;
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
  // rows stored already from another file with other figures (the stored ones are kept): said
  let differ = 0;
  let firstDifferUs: number | null = null;
  /** Counts a staged batch; `us`: µs in one of its keys (candles' are ms). */
  const took = (c: StagedCount, us: number): void => {
    added += c.added;
    if (c.differ > 0 && differ === 0 && c.firstDiffer !== null) firstDifferUs = c.firstDiffer * us;
    differ += c.differ;
  };

  // candles
  let candles: StoredCandle[] = [];
  let prevOpen: number | null = null;
  const flushCandles = (): void => {
    if (candles.length > 0) took(store.stageCandles(datasetId, fileId, candles), 1000);
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
    if (events.length > 0) took(store.stageEvents(datasetId, fileId, events), 1);
    events = [];
  };

  const interval = key.interval as Interval;
  const parser =
    key.kind === 'depth'
      ? null
      : rowParserOf(key, {
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
    if (signal?.aborted === true)
      throw new Error(`interrupted (${String(signal.reason)}); nothing of this file was imported`);
    for (let i = 0; i < lines.length; i++) reader.line(lines[i], ++lineNo);
    if (onProgress !== undefined && reader.rows >= nextReport) {
      nextReport = reader.rows + PROGRESS_EVERY_ROWS;
      onProgress({ file, bytes, rows: reader.rows });
    }
  }
  depth?.end();
  const skipped = reader.skipped ?? [];
  if (reader.rows === 0) {
    const others = [...(reader.otherSymbols ?? [])];
    const lines = skipped.reduce((n, s) => n + s.lines, 0);
    // the whole file's fault, no row's: none is named (the last line's number, past an empty file's end, was)
    throw new RowError(
      null,
      others.length > 0
        ? `the file has no rows of ${key.symbol} (it has ${others.join(', ')})`
        : lines > 0
          ? `the file has no ${key.kind} rows of ${key.symbol}: its ${count(lines, 'line')} ${lines === 1 ? 'is' : 'are'} of other streams: ${skippedList(skipped)}`
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
    skipped,
    warnings: [...(reader.warnings ?? []), ...(differ > 0 ? [differWarning(differ, firstDifferUs!)] : [])],
    summary: {
      rows: added,
      read: reader.rows,
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

/**
 * Waits until what an import wrote is committed; throws when a commit of the store failed since
 * `failedBefore` (a full disk, the write lock held by another program): the rows of that commit
 * are not stored, so the file must not be said imported.
 */
export async function assertWritten(store: DatasetStore, failedBefore: number): Promise<void> {
  const s = await store.settled();
  if (s.failures <= failedBefore) return;
  const e = s.last ?? { file: 'the database', reason: 'a commit failed', advice: '' };
  // its advice ends "then restart perpdesk": an import needs no restart, the file is imported again
  const advice = e.advice.replace(/, then restart perpdesk.*$/, '');
  throw new Error(
    `a write to ${e.file} failed: ${e.reason}; nothing of this file was imported: ` +
      `${advice === '' ? 'import it again' : `${advice.charAt(0).toLowerCase()}${advice.slice(1)}, then import it again`}`,
  );
}

/** Gaps between the dataset's files (and, for candles, anywhere in the stored series). */
export function crossGaps(store: DatasetStore, datasetId: number, key: DatasetKey): Omit<Gap, 'fileId'>[] {
  const out: Omit<Gap, 'fileId'>[] = [];
  const storage = storageOf(key.kind);
  if (storage === 'candles') {
    const interval = key.interval as Interval;
    const times = store.candleTimes(datasetId);
    for (let i = 1; i < times.length; i++) {
      const expected = nextOpenTime(interval, times[i - 1]);
      if (times[i] !== expected) out.push(candleGap(interval, expected, times[i]));
    }
    return out;
  }
  const files = store.files(datasetId);
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
    } else if (
      b.firstTime - a.lastTime >
      (key.kind === 'fundingRate' ? fundingHoursAt(store, datasetId, a.lastKey) * 3_600_000 + 60_000 : EVENT_SILENCE_MS)
    ) {
      out.push({
        start: a.lastTime + 1,
        end: b.firstTime,
        detail: `no ${key.kind} data for ${formatSpan(b.firstTime - a.lastTime)} between ${a.name} and ${b.name}`,
      });
    }
  }
  return out;
}

/**
 * The funding interval (hours) of the stored funding row at `timeUs` (a file's last): the next
 * settlement is due that many hours on, as inside a file (a 4 h or 1 h pair's missing settlement
 * between two monthly files was measured against 8 h and not found). 8 when it cannot be read.
 */
function fundingHoursAt(store: DatasetStore, datasetId: number, timeUs: number): number {
  for (const e of store.events(datasetId, timeUs)) {
    const hours = Number(e.data.slice(0, e.data.indexOf(',')));
    return Number.isSafeInteger(hours) && hours > 0 ? hours : 8;
  }
  return 8;
}

/**
 * The import's word on rows an earlier file stored with other figures (a re-downloaded, corrected
 * day over the first copy): the stored ones are kept, which the import said nothing of.
 */
function differWarning(n: number, firstUs: number): string {
  return (
    `${count(n, 'row')} of this file ${n === 1 ? 'differs' : 'differ'} from the ${n === 1 ? 'one' : 'ones'} an earlier file stored ` +
    `(the first at ${new Date(Math.floor(firstUs / 1000)).toISOString()}); the stored ${n === 1 ? 'one was' : 'ones were'} kept, ` +
    "not this file's: to take its figures, delete the dataset and import this file before the others"
  );
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
  return count(Math.round(ms / 60_000), 'minute');
}
