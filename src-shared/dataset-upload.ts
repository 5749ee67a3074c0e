// One file uploaded to `POST /api/v1/datasets/import` as its raw body (docs/data.md): the content
// type its name calls for and the query that names it. The Data dialog and the SDK's
// `datasets.upload` both write uploads with these, so they send the same request.
import { CANDLE_KINDS, isKind } from './dataset-kinds.ts';

/** Content type of an upload, by its name (the route takes zip, CSV or bytes: a recorder's .jsonl, a gzip'd file). */
export function uploadType(fileName: string): string {
  return /\.csv$/i.test(fileName)
    ? 'text/csv'
    : /\.(jsonl|gz)$/i.test(fileName)
      ? 'application/octet-stream'
      : 'application/zip';
}

/** An interval applies to the candle kinds only; an empty kind leaves it to the file name. */
export function takesInterval(kind: string): boolean {
  return kind === '' || (isKind(kind) && CANDLE_KINDS.has(kind));
}

/**
 * What is said of an uploaded file beside its name: the market (which only the archive's folders
 * say), and the symbol, kind and interval for files whose names do not say them (a recorder's
 * `trade_stream.csv`, a renamed CSV); empty ones are left to the file name. `checksum` is its
 * SHA-256 (its `.CHECKSUM`), verified when given.
 */
export interface UploadKey {
  market?: string;
  symbol?: string;
  kind?: string;
  interval?: string;
  checksum?: string;
}

/** The import route's query for one uploaded file (`name=...&market=...`, empty parts left out). */
export function uploadQuery(fileName: string, key: UploadKey): URLSearchParams {
  const q = new URLSearchParams({ name: fileName });
  if (key.checksum) q.set('checksum', key.checksum);
  // Sent as given (one the service does not know is refused 1001, naming the markets), never
  // dropped: left out, the service said the file's name did not say its market.
  if (key.market !== undefined && key.market !== '') q.set('market', key.market);
  const symbol = key.symbol?.trim().toUpperCase() ?? '';
  if (symbol !== '') q.set('symbol', symbol);
  if (key.kind) q.set('kind', key.kind);
  if (key.interval && takesInterval(key.kind ?? '')) q.set('interval', key.interval);
  return q;
}
