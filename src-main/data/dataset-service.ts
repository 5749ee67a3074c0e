// The dataset service: imports Binance archive files into datasets (staging in
// dataset-staging.ts), lists and deletes them, and reads their candles (at any interval of the
// spec the stored one nests in) and trades.
//
// Invariants:
//   - all or nothing per file: a file is checked against its .CHECKSUM, then staged; any
//     failure removes everything staged and names the row;
//   - idempotent: a file whose content (SHA-256) is already in the dataset changes nothing; a
//     candle or event already stored from another file is kept, not duplicated; trades whose ids
//     overlap stored ones refuse the file (a trade series has one source per id);
//   - gaps are recorded with the file, never filled; the between-file ones are recomputed on
//     every import; one import at a time per service (a queue), so staged files never interleave;
//   - candles keep the archive's decimal strings; coarse ones are built by the project's
//     aggregation over exact integers, so they equal Binance's own coarse files field for field.

import { DatasetReader } from './dataset-reader.ts';
import { inferTickStep, specsProblem, tickAboveProblem } from './spec-inference.ts';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { formatFixed } from '../../src-shared/decimal.ts';
import {
  INTERVAL_MS,
  nests,
  nextOpenTime,
  openTimeOf,
  previousOpenTime,
  type Interval,
} from '../../src-shared/intervals.ts';
import { entryDisagreement, keyOverrides, parseArchivePath, resolveKey, type KeyOptions } from './archive-path.ts';
import { aggregateDatasetCandles, archiveRow, type ArchiveKline } from './dataset-candles.ts';
import { DatasetError } from './dataset-error.ts';
import { catalogueSpecs, inferredSpecs } from './new-dataset-specs.ts';
import { assertWritten, crossGaps, stageFile, type ImportProgress } from './dataset-staging.ts';
import type { ContractSpecs, DatasetRecord, DatasetStore, Gap } from './ports.ts';
import { FileRefused, isZip, verifiedHash, zipDamage, zipEntryName } from './file-source.ts';
import { unreadable } from './expand-paths.ts';
import type { DatasetTradeWire } from '../../src-shared/types/datasets.ts';
import { isReplayableSymbol } from '../../src-shared/replay-pick.ts';
import { recorderKindOf } from './recorder-rows.ts';
import { storageOf, type DatasetKey } from './kinds.ts';
import { RowError } from './rows.ts';
import { decodeBlock, newColumns, type TradeColumns } from './trade-codec.ts';
import type { SkippedStream } from '../../src-shared/skipped-streams.ts';

export { DatasetError };

export interface ImportResult {
  readonly file: string;
  readonly ok: boolean;
  /** 'imported', 'unchanged' (already there) or 'refused'. */
  readonly status: 'imported' | 'unchanged' | 'refused';
  /** The file's dataset; null when refused before one existed (a refused file starts none). */
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
  /** Options that overrode what the file's path says (archive-path.ts keyOverrides); what the import says of its rows. */
  readonly warnings: readonly string[];
  /** Lines of other streams the file holds, skipped, per stream (a recorder's JSON lines). */
  readonly skipped: readonly SkippedStream[];
}

export interface ImportOptions extends KeyOptions {
  /** Name to record for the file (an uploaded file's original name); default the path's base name. */
  name?: string;
  onProgress?: (p: ImportProgress) => void;
  /** Stops the file being staged (refused, nothing of it kept); the caller stops taking files. */
  signal?: AbortSignal;
}

export type { ArchiveKline };

const POW10N = Array.from({ length: 40 }, (_, i) => 10n ** BigInt(i));
const pow10 = (n: number): bigint => POW10N[n];

function unreplayableWarning(symbol: string): string {
  return (
    `${symbol} cannot be replayed: the venue names its pairs with 2 to 30 capital letters or digits ` +
    `(a COIN-M or delivery contract has a _); the data is kept in the catalogue`
  );
}

/** A result's fields before its file is read: no dataset, no rows. */
function noRows(file: string, warnings: string[]) {
  return {
    file,
    datasetId: null,
    key: null,
    rows: 0,
    added: 0,
    gaps: 0,
    checksum: 'none' as const,
    sha256: null,
    errorRow: null,
    warnings,
    skipped: [],
  };
}

export class DatasetService {
  /** The store (the replay reads the datasets through it: replay/dataset-replay-data.ts). */
  readonly store: DatasetStore;
  private readonly now: () => number;
  private queue: Promise<unknown> = Promise.resolve();
  private readBy: (d: DatasetRecord) => string | null = () => null;
  /** Aborted by stop() (the service closing): the file being staged is refused, no other is read. */
  private readonly stopping = new AbortController();
  /** The file being staged now (one at a time, the queue) and its dataset, which delete leaves alone. */
  private importing: { datasetId: number; file: string } | null = null;

  /** Where uploaded files are copied for their import (the data folder's `uploads`), or null: the OS temp folder. */
  private readonly uploadDir: string | null;

  constructor(store: DatasetStore, opts: { now?: () => number; uploadDir?: string } = {}) {
    this.store = store;
    this.now = opts.now ?? Date.now;
    // A previous process stopped in the middle of a file: its staged rows go.
    store.abortStaging();
    // ... and its uploads' copies (a killed service's stayed for good in the OS temp folder).
    this.uploadDir = opts.uploadDir ?? null;
    if (this.uploadDir !== null) rmSync(this.uploadDir, { recursive: true, force: true });
  }

  /** A new folder of its own for one uploaded file's copy; the caller removes it once imported. */
  uploadFolder(): string {
    const root = this.uploadDir ?? tmpdir();
    mkdirSync(root, { recursive: true });
    return mkdtempSync(join(root, 'perpdesk-upload-'));
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

  /**
   * Deletes a dataset, unless `readBy` (setReaders) names a running replay that reads it: its
   * rows go in the connection the replay's readers iterate, and the replay would go on without
   * them, ending early as if its history had.
   */
  delete(id: number): void {
    const d = this.get(id);
    // its staged rows would go with it and the import, ending, would find its file gone
    if (this.importing?.datasetId === id)
      throw new DatasetError(
        'in_use',
        `Dataset ${id} (${d.symbol}) cannot be deleted while ${this.importing.file} is being imported into it; ` +
          `delete it once the import has ended`,
      );
    const reader = this.readBy(d);
    if (reader !== null) {
      // (the whole pair is held: a replay may read any of its pair's datasets, one covering a later span too)
      throw new DatasetError(
        'in_use',
        `Dataset ${id} (${d.symbol}) cannot be deleted while ${reader} runs: a replay may read any dataset of ` +
          `its pairs; close the replay first`,
      );
    }
    if (!this.store.delete(id)) throw new DatasetError('not_found', `No dataset with id ${id}`);
  }

  /** Who reads a dataset now (a running replay), or null: asked before each delete. */
  setReaders(readBy: (d: DatasetRecord) => string | null): void {
    this.readBy = readBy;
  }

  /** Replaces a dataset's contract specs (the record then says 'edited'). */
  editSpecs(id: number, specs: ContractSpecs): DatasetRecord {
    const d = this.get(id);
    const first = this.firstPrice(d);
    const problem =
      specsProblem(specs.tickSize, specs.stepSize) ??
      (first === null ? null : tickAboveProblem(first, specs.tickSize, "the dataset's first price"));
    if (problem !== null) throw new DatasetError('invalid', problem);
    this.store.setSpecs(id, specs, 'edited', this.now());
    return this.get(id);
  }

  /** Imports files one after the other (never two at once); each result says how its file went. */
  importFiles(paths: readonly string[], opts: ImportOptions = {}): Promise<ImportResult[]> {
    const stopped = this.stopping.signal;
    const signal = opts.signal === undefined ? stopped : AbortSignal.any([opts.signal, stopped]);
    const run = async (): Promise<ImportResult[]> => {
      const out: ImportResult[] = [];
      for (const p of paths) {
        if (stopped.aborted) out.push(this.notRead(p, opts, String(stopped.reason)));
        else out.push(await this.importOne(p, { ...opts, signal }));
      }
      return out;
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Stops importing before the store closes: the file being staged is refused at its next chunk
   * (its staged rows and the dataset it started removed, as for a bad row), the files after it
   * are not read. Resolves once the import under way has ended.
   */
  async stop(reason = 'the service is closing'): Promise<void> {
    this.stopping.abort(reason);
    await this.queue;
  }

  /** A file not read because the service stopped first. */
  private notRead(path: string, opts: ImportOptions, why: string): ImportResult {
    const file = opts.name ?? basename(path);
    return {
      ...noRows(file, []),
      ok: false,
      status: 'refused',
      error: `${file}: not read (${why}); nothing of this file was imported`,
    };
  }

  private async importOne(path: string, opts: ImportOptions): Promise<ImportResult> {
    const file = opts.name ?? basename(path);
    const base = noRows(file, keyOverrides(opts.name ?? path, opts));
    let key: DatasetKey;
    // no rows to read: a zip's .CHECKSUM named alone, a link to nowhere (expand-paths.ts)
    const unread = unreadable(path, file, opts.name !== undefined);
    if (unread !== null) return { ...base, warnings: [], ok: false, status: 'refused', error: `${file}: ${unread}` };
    // A file whose name and folders do not say its kind may be a recording's (its header says).
    let keyOpts: KeyOptions = opts;
    if (
      opts.kind === undefined &&
      opts.interval === undefined &&
      parseArchivePath(opts.name ?? path).kind === undefined
    ) {
      const kind = await recorderKindOf(path);
      if (kind !== undefined) keyOpts = { ...opts, kind };
    }
    try {
      key = resolveKey(opts.name ?? path, keyOpts);
    } catch (err) {
      // An uploaded file's folders are unknown: its name alone, then the real path.
      try {
        key = resolveKey(path, keyOpts);
      } catch {
        return { ...base, ok: false, status: 'refused', error: (err as Error).message };
      }
    }
    if (!isReplayableSymbol(key.symbol)) base.warnings.push(unreplayableWarning(key.symbol));
    let hash: { sha256: string; checked: boolean };
    try {
      hash = await verifiedHash(path);
    } catch (err) {
      const msg = err instanceof FileRefused ? err.message : `${file}: ${(err as Error).message}`;
      return { ...base, key, ok: false, status: 'refused', error: msg };
    }
    const checksum = hash.checked ? ('verified' as const) : ('none' as const);
    const failedBefore = (await this.store.settled()).failures; // one more later: this file's writes lost
    // a zip's CSV named as another pair's (or kind's, interval's) file: a renamed zip
    if (isZip(path)) {
      let said: ReturnType<typeof entryDisagreement>;
      try {
        said = entryDisagreement(file, await zipEntryName(path), key, opts);
      } catch (err) {
        return {
          ...base,
          key,
          ok: false,
          status: 'refused',
          checksum,
          sha256: hash.sha256,
          error: (err as Error).message,
        };
      }
      if (said.refusal !== null)
        return { ...base, key, ok: false, status: 'refused', checksum, sha256: hash.sha256, error: said.refusal };
      base.warnings.push(...said.warnings);
    }
    const now = this.now();
    const known = catalogueSpecs(key);
    const existing = this.store.find(key);
    const ds = existing ?? this.store.ensure(key, known ?? inferredSpecs(8, 0), known ? 'catalogue' : 'inferred', now);
    const done = this.store.doneFile(ds.id, hash.sha256);
    if (done !== undefined) {
      return {
        ...base,
        key,
        datasetId: ds.id,
        ok: true,
        status: 'unchanged',
        // the file's own rows (its rows new to the dataset for a file imported before they were recorded)
        rows: done.read ?? done.rows,
        checksum,
        sha256: hash.sha256,
        error: null,
      };
    }
    const fileId = this.store.beginFile(ds.id, file, hash.sha256, now);
    this.importing = { datasetId: ds.id, file };
    try {
      const summary = await stageFile(this.store, {
        path,
        file,
        key,
        datasetId: ds.id,
        fileId,
        onProgress: opts.onProgress,
        signal: opts.signal,
      });
      await assertWritten(this.store, failedBefore); // a batch of staged rows lost: the file is not whole
      this.store.commitFile(ds.id, fileId, summary.summary, () => crossGaps(this.store, ds.id, key), this.now());
      await assertWritten(this.store, failedBefore); // its commit lost: the file is still staged
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
        skipped: summary.skipped,
        warnings: [...base.warnings, ...summary.warnings],
        checksum,
        sha256: hash.sha256,
        error: null,
      };
    } catch (err) {
      this.store.abortFile(fileId);
      // a dataset this file would have started goes with it: a refused file leaves no trace
      const created = existing === undefined && this.store.files(ds.id).length === 0 && this.store.delete(ds.id);
      // a zip's row that does not parse may be the zip's damage (a deflated entry inflates to garbage): said so
      const damage = err instanceof RowError && isZip(path) ? await zipDamage(path) : null;
      const row = err instanceof RowError && damage === null ? err.row : null;
      const text = damage ?? (err as Error).message;
      const msg =
        err instanceof RowError
          ? `${damage === null ? `${file}: ` : ''}${text}; nothing of this file was imported`
          : text.startsWith(file)
            ? text
            : `${file}: ${text}`;
      return {
        ...base,
        key,
        datasetId: created ? null : ds.id,
        ok: false,
        status: 'refused',
        checksum,
        sha256: hash.sha256,
        error: msg,
        errorRow: row,
      };
    } finally {
      this.importing = null;
    }
  }

  /** A dataset with no known specs gets the tick and step the spec inference rule reads from its data. */
  private refreshInferredSpecs(id: number): void {
    const d = this.get(id);
    if (d.specsSource !== 'inferred') return;
    if (d.kind === 'fundingRate') return; // no price or quantity to read: the placeholder stays
    const want = inferTickStep(new DatasetReader(this.store), [d]);
    if (want.tickSize !== d.specs.tickSize || want.stepSize !== d.specs.stepSize)
      this.store.setSpecs(id, { ...want, tiers: d.specs.tiers }, 'inferred', this.now());
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
      // candles opening in [startTime, endTime], as /fapi/v1/klines: one that opened before an
      // unaligned startTime is not in it (the dataset's first candle, at its first time, is)
      from = openTimeOf(interval, Math.max(q.startTime, d.firstTime));
      if (from < q.startTime) from = nextOpenTime(interval, from);
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

  /**
   * The first traded price a dataset holds (its first candle's open, its first trade's price), or
   * null for the kinds without one read so (depth, bookTicker, funding, mark / index / premium
   * candles): a replay checks those pairs' ticks against its price at the start.
   */
  private firstPrice(d: DatasetRecord): string | null {
    if (d.kind === 'klines')
      return this.store.candles(d.id, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 1, false)[0]?.values[0] ?? null;
    if (storageOf(d.kind) === 'trades') return this.trades(d.id, { limit: 1 })[0]?.price ?? null;
    return null;
  }

  /** Up to `limit` trades at or after `startTime` (ms; default the first), ascending. */
  trades(id: number, q: { startTime?: number; limit: number }): DatasetTradeWire[] {
    const d = this.get(id);
    const fromUs = (q.startTime ?? Number.MIN_SAFE_INTEGER / 1000) * 1000;
    const out: DatasetTradeWire[] = [];
    for (const c of this.tradeBlocks(id, fromUs)) {
      const pm = pow10(d.priceDp - c.priceDp);
      const qm = pow10(d.qtyDp - c.qtyDp);
      const am = pow10(d.quoteDp - c.auxDp);
      for (let i = 0; i < c.count && out.length < q.limit; i++) {
        if (c.timeUs[i] < fromUs) continue;
        const f = c.flags[i];
        const t: DatasetTradeWire = {
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
