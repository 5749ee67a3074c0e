// The venue's local data routes as the REST client's `datasets` and `sweeps` members: the
// imported datasets (docs/data.md: the catalogue, candles, trades, import, delete, specs) and
// the sweep results (docs/sweeps.md). Reading is public; import, delete and specs answer
// callers on this machine only (403 / 2102 otherwise).
import type { Kind, Market } from '../dataset-kinds.ts';
import type { Interval } from '../intervals.ts';
import type { Candle } from '../types.ts';
import type { DatasetDeleted, DatasetImportResults, DatasetTradeWire, DatasetWire } from '../types/datasets.ts';
import type { SweepExampleWire, SweepJobWire, SweepSummaryWire, SweepWire } from '../types/sweeps.ts';
import { uploadQuery, uploadType, type UploadKey } from '../dataset-upload.ts';
import { unwrap, unwrapBare } from './rest-answer.ts';
import type { RawExchange, RequestOptions } from './rest-request.ts';
import type { KlinesOptions } from './rest-routes.ts';

/** The client's one HTTP path (RestClient.request). */
type Send = (method: string, path: string, options?: RequestOptions) => Promise<RawExchange>;

/** Body of `POST /api/v1/datasets/import`: files or folders on the service's machine. */
export interface DatasetImportRequest {
  /** Files (.zip, .csv, .jsonl; .csv.gz, .jsonl.gz) or folders of them. */
  paths: string[];
  /** What the file names and folders do not say (they win where they do). */
  symbol?: string;
  market?: Market;
  kind?: Kind;
  interval?: Interval;
}

const HTTP_OK = 200;

export class DatasetRoutes {
  private readonly send: Send;

  constructor(send: Send) {
    this.send = send;
  }

  private async call<T>(method: string, path: string, options?: RequestOptions): Promise<T> {
    return unwrap<T>(await this.send(method, path, options));
  }

  /** Every imported dataset (`GET /api/v1/datasets`). */
  list(): Promise<DatasetWire[]> {
    return this.call('GET', '/api/v1/datasets');
  }

  /** One dataset (`GET /api/v1/datasets/{id}`). */
  get(id: number): Promise<DatasetWire> {
    return this.call('GET', `/api/v1/datasets/${id}`);
  }

  /** Deletes a dataset with all its rows (`DELETE /api/v1/datasets/{id}`, loopback). */
  delete(id: number): Promise<DatasetDeleted> {
    return this.call('DELETE', `/api/v1/datasets/${id}`);
  }

  /** Sets a dataset's tick and step size (`PUT /api/v1/datasets/{id}/specs`, loopback). */
  setSpecs(id: number, specs: { tick_size: string; step_size: string }): Promise<DatasetWire> {
    return this.call('PUT', `/api/v1/datasets/${id}/specs`, { body: specs });
  }

  /** A candle dataset's candles, newest first, as `klines()` (`GET /api/v1/datasets/{id}/klines`). */
  async klines(id: number, interval: string, opts: KlinesOptions = {}): Promise<Candle[]> {
    // all that is given is sent: a limit with a range is the route's refusal, not dropped
    const query = { interval, start_time: opts.startTime, end_time: opts.endTime, limit: opts.limit };
    return unwrapBare<Candle[]>(await this.send('GET', `/api/v1/datasets/${id}/klines`, { query }), Array.isArray);
  }

  /** A trade dataset's trades from `start_time` on, in time order (`GET /api/v1/datasets/{id}/trades`). */
  trades(id: number, query: { start_time?: number; limit?: number } = {}): Promise<DatasetTradeWire[]> {
    return this.call('GET', `/api/v1/datasets/${id}/trades`, { query: { ...query } });
  }

  /** Imports archive files or folders on the service's machine (`POST /api/v1/datasets/import`, loopback); no time-out. */
  import(req: DatasetImportRequest): Promise<DatasetImportResults> {
    return this.call('POST', '/api/v1/datasets/import', { body: req, timeoutMs: 0 });
  }

  /**
   * Uploads one file and imports it (`POST /api/v1/datasets/import` with the file as the body,
   * loopback): `name` is its archive name (`BTCUSDT-1m-2025-01-06.zip`; .zip, .csv or a
   * recorder's .jsonl), which says what it holds as a path would; `key` what the name does not
   * say, and its SHA-256 to verify. For a file the service can read itself, `import` is cheaper.
   * No time-out: a large file takes long to send and import.
   */
  upload(name: string, bytes: Uint8Array | Blob, key: UploadKey = {}): Promise<DatasetImportResults> {
    const query = Object.fromEntries(uploadQuery(name, key));
    return this.call('POST', '/api/v1/datasets/import', {
      query,
      upload: { bytes, type: uploadType(name) },
      timeoutMs: 0,
    });
  }
}

export class SweepRoutes {
  private readonly send: Send;

  constructor(send: Send) {
    this.send = send;
  }

  private async call<T>(path: string): Promise<T> {
    return unwrap<T>(await this.send('GET', path));
  }

  /** The sweeps of the service's data folder, newest first (`GET /api/v1/sweeps`). */
  list(): Promise<SweepSummaryWire[]> {
    return this.call('/api/v1/sweeps');
  }

  /** One sweep with its jobs and parameter sets (`GET /api/v1/sweeps/{id}`). */
  get(id: string): Promise<SweepWire> {
    return this.call(`/api/v1/sweeps/${encodeURIComponent(id)}`);
  }

  /** One sweep as CSV, a row per job (`GET /api/v1/sweeps/{id}?format=csv`). */
  async csv(id: string): Promise<string> {
    const x = await this.send('GET', `/api/v1/sweeps/${encodeURIComponent(id)}`, { query: { format: 'csv' } });
    if (x.status === HTTP_OK && x.json === undefined) return x.text;
    return unwrap<never>(x);
  }

  /** One job's result, equity curve and last output lines (`GET /api/v1/sweeps/{id}/jobs/{index}`). */
  job(id: string, index: number): Promise<SweepJobWire> {
    return this.call(`/api/v1/sweeps/${encodeURIComponent(id)}/jobs/${index}`);
  }

  /** The first sweep to run on this data folder, as commands (`GET /api/v1/sweep-example`). */
  example(): Promise<SweepExampleWire> {
    return this.call('/api/v1/sweep-example');
  }
}
