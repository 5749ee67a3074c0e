// The dataset service's port: what it needs from storage (store/datasets-repo.ts implements it
// on SQLite). A file's rows are staged under a file id and become visible all at once by
// commitFile(); abortFile() removes them. Every method is synchronous and each one is atomic.

import type { DatasetKey } from './kinds.ts';

export type SpecsSource = 'catalogue' | 'inferred' | 'edited';

/** Contract specs of a dataset's symbol (decimal strings as in the symbol config). */
export interface ContractSpecs {
  readonly tickSize: string;
  readonly stepSize: string;
  /** Maintenance tiers: notional cap (USDT, null = no cap), max leverage, maintenance margin rate. */
  readonly tiers: readonly { readonly cap: number | null; readonly maxLeverage: number; readonly mmr: number }[];
}

export interface Gap {
  /** First missing ms (for candles: the first missing open time). */
  readonly start: number;
  /** The next ms that has data. */
  readonly end: number;
  readonly detail: string;
  /** The file it was found in, null when it lies between files. */
  readonly fileId: number | null;
}

export interface DatasetRecord extends DatasetKey {
  readonly id: number;
  /** ms of the first and last row (candles: open times), null while empty. */
  readonly firstTime: number | null;
  readonly lastTime: number | null;
  readonly rows: number;
  readonly files: number;
  /** Most decimals seen: candles price/volume/quote volume; trades price/qty/quote qty; else 0. */
  readonly priceDp: number;
  readonly qtyDp: number;
  readonly quoteDp: number;
  readonly specs: ContractSpecs;
  readonly specsSource: SpecsSource;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** What staging a batch of candles or events did. */
export interface StagedCount {
  /** Rows new to the dataset. */
  added: number;
  /** Rows already stored (from another file) with other figures: the stored ones are kept. */
  differ: number;
  /** The key of the first of them (a candle's open time, ms; an event's time, µs), null when none. */
  firstDiffer: number | null;
}

export interface StoredCandle {
  readonly openTime: number;
  readonly closeTime: number;
  /** open, high, low, close, volume, quote_volume, taker_buy_volume, taker_buy_quote_volume. */
  readonly values: readonly string[];
  readonly count: number;
}

export interface FileSummary {
  /** The rows that were new to the dataset (its total is their sum). */
  readonly rows: number;
  /** The file's own data rows (null: imported before this was recorded). */
  readonly read: number | null;
  /** Candles: open times; trades: ids; events: times (µs). */
  readonly firstKey: number | null;
  readonly lastKey: number | null;
  /** ms. */
  readonly firstTime: number | null;
  readonly lastTime: number | null;
  readonly priceDp: number;
  readonly qtyDp: number;
  readonly quoteDp: number;
  /** Gaps inside the file. */
  readonly gaps: readonly Omit<Gap, 'fileId'>[];
}

export interface FileRecord extends FileSummary {
  readonly id: number;
  readonly name: string;
  readonly sha256: string;
  readonly importedAt: number;
}

export interface TradeBlockMeta {
  readonly firstId: number;
  readonly lastId: number;
  readonly firstTimeUs: number;
  readonly lastTimeUs: number;
  readonly count: number;
}

/** A commit that failed: the database file, why in plain words, and what to do about it. */
export interface WriteFailure {
  file: string;
  reason: string;
  advice: string;
}

export interface DatasetStore {
  list(): DatasetRecord[];
  get(id: number): DatasetRecord | undefined;
  find(key: DatasetKey): DatasetRecord | undefined;
  /** The dataset of `key`, created with `specs` when missing. */
  ensure(key: DatasetKey, specs: ContractSpecs, source: SpecsSource, now: number): DatasetRecord;
  setSpecs(id: number, specs: ContractSpecs, source: SpecsSource, now: number): void;
  /** Deletes a dataset and everything in it; false when there was none. */
  delete(id: number): boolean;

  /** The committed file of this content, if any (re-importing it changes nothing). */
  doneFile(datasetId: number, sha256: string): FileRecord | undefined;
  files(datasetId: number): FileRecord[];
  beginFile(datasetId: number, name: string, sha256: string, now: number): number;
  /**
   * Candles of a staged file; a candle whose open time is already stored is skipped (the stored one
   * kept). Returns how many were new, and how many of the skipped differ from the stored ones.
   */
  stageCandles(datasetId: number, fileId: number, rows: readonly StoredCandle[]): StagedCount;
  stageTradeBlock(datasetId: number, fileId: number, meta: TradeBlockMeta, data: Uint8Array): void;
  /** Events (time µs, seq, data); an already stored (time, seq) is skipped (the stored one kept), as stageCandles. */
  stageEvents(
    datasetId: number,
    fileId: number,
    rows: readonly { time: number; seq: number; data: string }[],
  ): StagedCount;
  /**
   * Times (µs) of the committed trades next to ids [firstId, lastId]: the last trade before
   * firstId and the first after lastId (null where there is none).
   */
  tradeNeighbours(
    datasetId: number,
    firstId: number,
    lastId: number,
  ): { beforeUs: number | null; afterUs: number | null };
  /** A committed trade block of this dataset overlapping ids [firstId, lastId], if any: its file name. */
  tradeOverlap(datasetId: number, firstId: number, lastId: number): string | undefined;
  /**
   * Makes a staged file's rows visible, records its summary, and replaces the dataset's
   * between-file gaps with `crossGaps(record)` computed after the commit, all in one transaction.
   */
  commitFile(
    datasetId: number,
    fileId: number,
    summary: FileSummary,
    crossGaps: () => Omit<Gap, 'fileId'>[],
    now: number,
  ): void;
  abortFile(fileId: number): void;
  /**
   * Waits until everything written so far has been committed, then says how many commits of this
   * store have failed so far (their writes rolled back, as a full disk makes them) and the last
   * one: an import compares the count with the one it began with, as a failed commit takes rows
   * it staged or its commitFile with it.
   */
  settled(): Promise<{ failures: number; last: WriteFailure | null }>;
  /**
   * Removes every staged (never committed) file's rows, and every dataset left without a file
   * (one such a file had started): a crash in the middle of an import leaves nothing.
   */
  abortStaging(): number;

  gaps(datasetId: number): Gap[];
  /** Committed candles with openTime in [from, to], ascending, at most `limit` (from the end when `newest`). */
  candles(datasetId: number, from: number, to: number, limit: number, newest: boolean): StoredCandle[];
  /** Open times of every committed candle, ascending. */
  candleTimes(datasetId: number): number[];
  /** Committed trade blocks whose last trade is at or after `fromUs`, ascending by id. */
  tradeBlocks(datasetId: number, fromUs: number): Iterable<Uint8Array>;
  /** The committed trade block holding the last trade at or before `atUs`, undefined when none is. */
  lastTradeBlock(datasetId: number, atUs: number): Uint8Array | undefined;
  /** Committed events (time µs, stored data) at or after `fromUs`, ascending by (time, seq). */
  events(datasetId: number, fromUs: number): Iterable<{ time: number; data: string }>;
  /** Time (µs) of the last committed depth snapshot event at or before `atUs`, null when there is none. */
  lastSnapshotTime(datasetId: number, atUs: number): number | null;
  /** Time (µs) of the first committed depth snapshot event, null when there is none. */
  firstSnapshotTime(datasetId: number): number | null;
}
export type { DatasetKey } from './kinds.ts';
