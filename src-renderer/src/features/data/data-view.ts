// Pure helpers of the Data dialog: the upload address of one picked file, and the words for a
// dataset and an import result (the API's records, docs/data.md).

export interface DatasetView {
  id: number;
  market: string;
  symbol: string;
  kind: string;
  interval: string;
  first_time: number | null;
  last_time: number | null;
  rows: number;
  files: number;
  gaps: { start_time: number; end_time: number; detail: string }[];
  specs: { tick_size: string; step_size: string; source: string };
}

export interface ImportResultView {
  file: string;
  ok: boolean;
  status: 'imported' | 'unchanged' | 'refused';
  dataset_id: number | null;
  rows: number;
  added: number;
  gaps: number;
  checksum: 'verified' | 'none';
  error: string | null;
}

const MARKETS = new Set(['spot', 'um', 'cm']);

/**
 * POST address that imports one uploaded file: its archive name says symbol, kind and
 * interval; the market (which only the archive's folders say) comes from the dialog.
 */
export function uploadUrl(baseUrl: string, fileName: string, market: string): string {
  const q = new URLSearchParams({ name: fileName });
  if (MARKETS.has(market)) q.set('market', market);
  return `${baseUrl.replace(/\/+$/, '')}/api/v1/datasets/import?${q.toString()}`;
}

/** Content type of an upload, by its name (the route takes zip, CSV or bytes). */
export function uploadType(fileName: string): string {
  return /\.csv$/i.test(fileName) ? 'text/csv' : 'application/zip';
}

export function datasetTitle(d: Pick<DatasetView, 'market' | 'symbol' | 'kind' | 'interval'>): string {
  const market = d.market === 'um' ? 'USD-M' : d.market === 'cm' ? 'COIN-M' : 'Spot';
  return `${d.symbol} · ${market} · ${d.kind}${d.interval ? ` ${d.interval}` : ''}`;
}

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

export function datasetSpan(d: Pick<DatasetView, 'first_time' | 'last_time'>): string {
  if (d.first_time === null || d.last_time === null) return 'empty';
  return `${day(d.first_time)} → ${day(d.last_time)} UTC`;
}

export function resultLine(r: ImportResultView): string {
  if (!r.ok) {
    const why = r.error ?? 'unknown reason';
    // the service's message names the file too
    return `${r.file}: refused — ${why.startsWith(`${r.file}: `) ? why.slice(r.file.length + 2) : why}`;
  }
  if (r.status === 'unchanged') return `${r.file}: already imported, nothing changed`;
  const gaps = r.gaps === 0 ? 'no gaps' : `${r.gaps} gap${r.gaps === 1 ? '' : 's'}`;
  return `${r.file}: ${r.rows.toLocaleString('en-US')} rows (${r.added.toLocaleString('en-US')} new), ${gaps}, checksum ${r.checksum === 'verified' ? 'verified' : 'not given'}`;
}
