// Wire types of the real-data routes (docs/data.md): a dataset, one file's import result, the
// answers of import and delete.
// Declared once here; the route (api/routes/datasets.ts) checks its TypeBox schemas against them
// at compile time, and the screen's Data and Replay dialogs read them.

import type { Market } from '../dataset-kinds.ts';
import type { SkippedStream } from '../skipped-streams.ts';

export type DatasetMarket = Market;

export interface DatasetGap {
  /** First missing ms (for candles, the first missing open time). */
  start_time: number;
  /** The next ms that has data. */
  end_time: number;
  detail: string;
}

export interface DatasetSpecs {
  tick_size: string;
  step_size: string;
  tiers: { cap: number | null; max_leverage: number; mmr: number }[];
  source: 'catalogue' | 'inferred' | 'edited';
}

export interface DatasetWire {
  id: number;
  market: DatasetMarket;
  symbol: string;
  /** The archive folder the files came from (klines, aggTrades, trades, bookDepth, ...). */
  kind: string;
  /** Candle interval of the candle kinds, '' for the others. */
  interval: string;
  first_time: number | null;
  last_time: number | null;
  rows: number;
  files: number;
  gaps: DatasetGap[];
  specs: DatasetSpecs;
  /**
   * depth: ms of its first order book snapshot, null when it holds none (its diffs alone cannot
   * build a book: a replay refuses it as the pair's source); null for the other kinds.
   */
  first_snapshot_time: number | null;
}

export interface ImportResultWire {
  file: string;
  ok: boolean;
  status: 'imported' | 'unchanged' | 'refused';
  dataset_id: number | null;
  rows: number;
  added: number;
  gaps: number;
  checksum: 'verified' | 'none';
  error: string | null;
  error_row: number | null;
  /** What the request's options set against what the file's path says (they win): each said. */
  warnings: string[];
  /** Lines of other streams the file holds (a recorder's JSON lines), skipped: one count per stream. */
  skipped: SkippedStream[];
}

/** Answer of `DELETE /api/v1/datasets/{id}`: the deleted dataset's id. */
export interface DatasetDeleted {
  id: number;
}

/** Answer of `POST /api/v1/datasets/import`: one result per file, in the order they were imported. */
export interface DatasetImportResults {
  results: ImportResultWire[];
}

/** One trade of a trade dataset (`GET /api/v1/datasets/{id}/trades`), aggTrades or trades. */
export interface DatasetTradeWire {
  /** Trade id (aggregate trade id for aggTrades). */
  id: number;
  price: string;
  qty: string;
  /** trades only: quote quantity (base quantity for cm). */
  quote_qty?: string;
  /** aggTrades only. */
  first_trade_id?: number;
  last_trade_id?: number;
  /** ms */
  time: number;
  /** µs (ms x 1000 where the file had ms). */
  time_us: number;
  is_buyer_maker: boolean;
  /** spot files only. */
  is_best_match?: boolean;
}
