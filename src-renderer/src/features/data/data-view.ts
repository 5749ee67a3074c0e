// Pure helpers of the Data dialog: which picked files are uploaded (each with the digest of the
// .CHECKSUM picked with it) and which not, the upload address of one, the words for a dataset and
// an import result (the API's records, docs/data.md), where the focus goes after a delete, and the
// chart items of a dataset's candles with its gaps left empty.
import {
  INTERVALS,
  INTERVAL_MS,
  isInterval,
  nests,
  nextOpenTime,
  type Interval,
} from '../../../../src-shared/intervals.ts';
import { skippedText } from '../../../../src-shared/skipped-streams.ts';
import { gapNote } from '../../../../src-shared/gap-note.ts';
import { uploadQuery, type UploadKey } from '../../../../src-shared/dataset-upload.ts';
import {
  checksumAlone,
  checksumsBeside,
  checksumTarget,
  isChecksumFile,
  isDataFile,
} from '../../../../src-shared/archive-files.ts';

/** A dataset and an import result as the API answers them (declared once in src-shared). */
import type { DatasetWire, ImportResultWire } from '../../../../src-shared/types/datasets.ts';
export type DatasetView = DatasetWire;
export type ImportResultView = ImportResultWire;

export { takesInterval, uploadType, type UploadKey } from '../../../../src-shared/dataset-upload.ts';

/** A picked data file and the `.CHECKSUM` picked with it (read as its digest), if any. */
export interface PickedUpload<F> {
  file: F;
  checksum: F | null;
}

/**
 * What a pick does, file by file (the data CLI's rule for the paths it is given, docs/data.md):
 * each .zip, .csv or .jsonl file (or .csv.gz, .jsonl.gz) is uploaded, with the `.CHECKSUM` picked along with it as its
 * `checksum`; a `.CHECKSUM` without its file and any other file are not uploaded, each said in a
 * line with the reason, so no picked file goes unmentioned.
 */
export function planPick<F extends { name: string }>(
  files: readonly F[],
): { uploads: PickedUpload<F>[]; notUploaded: string[] } {
  const beside = checksumsBeside(files.map((f) => f.name));
  const sums = new Map(files.filter((f) => beside.has(f.name)).map((f) => [checksumTarget(f.name), f]));
  const uploads: PickedUpload<F>[] = [];
  const notUploaded: string[] = [];
  for (const f of files) {
    if (isDataFile(f.name)) uploads.push({ file: f, checksum: sums.get(f.name) ?? null });
    else if (!beside.has(f.name)) {
      const why = isChecksumFile(f.name)
        ? checksumAlone(f.name)
        : "not a .zip, .csv or .jsonl file (nor a gzip'd .csv.gz, .jsonl.gz)";
      notUploaded.push(`${f.name}: not uploaded — ${why}`);
    }
  }
  return { uploads, notUploaded };
}

/** A file refused before the service answered for it (a bad .CHECKSUM, a failed upload), as the route's results are. */
export function refusedResult(file: string, error: string): ImportResultView {
  return {
    file,
    ok: false,
    status: 'refused',
    dataset_id: null,
    rows: 0,
    added: 0,
    gaps: 0,
    checksum: 'none',
    error,
    error_row: null,
    warnings: [],
    skipped: [],
  };
}

/** POST address that imports one uploaded file with what the dialog says of it. */
export function uploadUrl(baseUrl: string, fileName: string, key: UploadKey): string {
  return `${baseUrl.replace(/\/+$/, '')}/api/v1/datasets/import?${uploadQuery(fileName, key).toString()}`;
}

export function datasetTitle(d: Pick<DatasetView, 'market' | 'symbol' | 'kind' | 'interval'>): string {
  const market = d.market === 'um' ? 'USD-M' : d.market === 'cm' ? 'COIN-M' : 'Spot';
  return `${d.symbol} · ${market} · ${d.kind}${d.interval ? ` ${d.interval}` : ''}`;
}

/**
 * A span's end as precisely as it needs (the Replay dialog's rule, replay-view.ts utcTime): to
 * the minute on a whole minute, else to the second or the ms, so a recording of 30 s does not
 * read "00:00 → 00:00".
 */
function day(ms: number): string {
  const iso = new Date(ms).toISOString();
  const digits = ms % 60_000 === 0 ? 16 : ms % 1000 === 0 ? 19 : 23;
  return iso.slice(0, digits).replace('T', ' ');
}

/** A gap of a dataset as the dialog lists it: where it is (UTC) and what is missing. */
export function gapText(g: { start_time: number; end_time: number; detail: string }): string {
  return `${day(g.start_time)} → ${day(g.end_time)} UTC: ${g.detail}`;
}

/**
 * A dataset's span as the Replay dialog and the replay service give it (docs/replay.md): a candle
 * dataset runs to its last candle's end (its close, the next candle's open), an event dataset to
 * its last event. (`last_time` is a candle dataset's last open time.)
 */
export function datasetSpan(d: Pick<DatasetView, 'first_time' | 'last_time' | 'interval'>): string {
  if (d.first_time === null || d.last_time === null) return 'empty';
  const end = isInterval(d.interval) ? nextOpenTime(d.interval, d.last_time) : d.last_time;
  return `${day(d.first_time)} → ${day(end)} UTC`;
}

/** The dialog's field for each of the import's parameters (the route's `symbol`, the command's `--symbol`). */
const FIELD_OF: Record<string, string> = { symbol: 'Symbol', kind: 'Kind', interval: 'Interval', market: 'Market' };
const field = (name: string): string => FIELD_OF[name] ?? name;
const AGAIN = 'and pick the file again';

/**
 * The service's refusals that ask for what the request or the command gives, each asked of the
 * dialog's fields instead (src-main/data: archive-path.ts resolveKey, kinds.ts keyProblem,
 * recorder-rows.ts wrongRecorderKind); then any option still named as the command writes it
 * (`--kind`) by its field.
 */
const REWRITES: ReadonlyArray<[RegExp, (m: string, ...groups: string[]) => string]> = [
  // what neither the name nor the request says: "...; give 'symbol', 'kind' with the request"
  [
    /; give (.+) with the request$/,
    (_, asked) => `; fill in ${[...asked.matchAll(/'(\w+)'/g)].map((m) => field(m[1])).join(' and ')} above ${AGAIN}`,
  ],
  // a recorder's CSV picked as another kind: "import it as kind trades (--kind, or 'kind' in a request), or without a kind (the header tells)"
  [
    /import it as kind (\w+) \(--kind, or 'kind' in a request\), or without a kind \(the header tells\)/,
    (_, kind) => `set Kind to ${kind}, or leave it on "from the name" (the header tells), ${AGAIN}`,
  ],
  // a file picked as another kind than its header's, a recorder's JSON lines as a CSV kind (rows.ts notHeader)
  [/ \(--kind, or 'kind' in a request\)/, () => `: set Kind above ${AGAIN}`],
  // a candle file without an interval: "klines needs an interval (1s, 1m, ...)"
  [
    /^(\w+) needs an interval \([^)]*\)$/,
    (_, kind) => `${kind} needs an interval: choose it in Interval above ${AGAIN}`,
  ],
  // a kind its market's archive does not have: "the spot archive has no fundingRate files"
  [/^(the \w+ archive has no \w+ files)$/, (_, what) => `${what}: change Market or Kind above ${AGAIN}`],
  // a symbol the venue cannot store: "symbol must be 2 to 40 capital letters, digits or _ (got "X")"
  [/^symbol must be (.+)$/, (_, rule) => `the symbol must be ${rule}: correct Symbol above ${AGAIN}`],
  [/--(market|symbol|kind|interval)\b/g, (_, o) => field(o)],
];

/**
 * A refusal in the dialog's words: without the file's name or path it starts with (the line
 * names the file already), what the file name does not say asked of the dialog's fields rather
 * than of "the request" or the command's options, and a digest that does not match named by the
 * .CHECKSUM picked with the file (the route says "the 'checksum' parameter").
 */
function refusal(file: string, error: string): string {
  const at = error.indexOf(`${file}: `);
  let why = at === 0 || (at > 0 && /[\\/]$/.test(error.slice(0, at))) ? error.slice(at + file.length + 2) : error;
  for (const [pattern, words] of REWRITES) why = why.replace(pattern, words);
  return why.replace("does not match the 'checksum' parameter", `does not match ${file}.CHECKSUM`);
}

/**
 * One file's result in a line; `datasetGaps`, its dataset's gaps after it, is said when the
 * file's own count is not all (`no gaps (the dataset now has 1)`: the file left a gap between it
 * and the dataset's earlier rows; `no gaps in this file (the dataset has 1, of an earlier file)`,
 * told by `gapsBefore`, the count before it), as the data CLI says it.
 */
export function resultLine(r: ImportResultView, datasetGaps?: number, gapsBefore?: number): string {
  if (!r.ok) return `${r.file}: refused — ${refusal(r.file, r.error ?? 'unknown reason')}`;
  if (r.status === 'unchanged') return `${r.file}: already imported, nothing changed`;
  const all = gapNote(r.gaps, gapsBefore, datasetGaps);
  const gaps = `${r.gaps === 0 ? 'no gaps' : `${r.gaps} gap${r.gaps === 1 ? '' : 's'}`}${all}`;
  const checksum = r.checksum === 'verified' ? 'verified' : 'not given';
  // options that overrode what the file's name says (the service's warnings, naming the route's
  // 'symbol'), said after with the dialog's field
  const warnings = (r.warnings ?? []).map((w) =>
    w.replace(/'(market|symbol|kind|interval)'/g, (_, o: string) => field(o)),
  );
  const warned = warnings.length > 0 ? `; ${warnings.join('; ')}` : '';
  // a recorder's JSON lines: the lines of the streams the file holds that its kind does not read
  const skipped = skippedText(r.skipped ?? []);
  const rows = `${r.rows.toLocaleString('en-US')} row${r.rows === 1 ? '' : 's'}`;
  return `${r.file}: ${rows} (${r.added.toLocaleString('en-US')} new), ${gaps}, checksum ${checksum}${warned}${skipped === '' ? '' : `; skipped ${skipped}`}`;
}

/**
 * The dataset whose Delete button takes the focus after dataset `deleted` was deleted (or its
 * delete refused): itself while it is still listed, else the one after it in the list as it was,
 * else the one before; null when none is left (the focus then goes to the file picker).
 */
export function focusAfterDelete(before: readonly number[], deleted: number, after: readonly number[]): number | null {
  if (after.includes(deleted)) return deleted;
  const at = before.indexOf(deleted);
  const left = (ids: readonly number[]) => ids.find((id) => after.includes(id)) ?? null;
  return left(before.slice(at + 1)) ?? left([...before.slice(0, Math.max(0, at))].reverse());
}

/** One row of /api/v1/datasets/{id}/klines (the /fapi/v1/klines layout). */
export type KlineRow = [
  number,
  number,
  string,
  string,
  string,
  string,
  string,
  string,
  number,
  string,
  string,
  boolean,
];

export interface ChartBar {
  /** seconds (UTC), as lightweight-charts takes them */
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

/** A missing period: a time with no bar, drawn as empty space. */
export interface ChartHole {
  time: number;
}

/** At most this many empty slots are drawn for one gap (a missing year of 1m stays drawable). */
export const MAX_HOLE_SLOTS = 2000;

/**
 * Ascending chart items from the route's newest-first rows: the bars, and between two bars
 * that are not consecutive periods of `interval`, one empty slot per missing period (up to
 * MAX_HOLE_SLOTS), so an outage shows as a hole in the chart instead of bars closing ranks.
 */
export function chartItems(
  rows: readonly KlineRow[],
  interval: Interval,
): { items: (ChartBar | ChartHole)[]; holes: number } {
  const asc = [...rows].sort((a, b) => a[0] - b[0]);
  const items: (ChartBar | ChartHole)[] = [];
  let holes = 0;
  for (let i = 0; i < asc.length; i++) {
    const r = asc[i];
    if (i > 0) {
      let n = 0;
      for (
        let t = nextOpenTime(interval, asc[i - 1][0]);
        t < r[0] && n < MAX_HOLE_SLOTS;
        t = nextOpenTime(interval, t), n++
      )
        items.push({ time: t / 1000 });
      if (n > 0) holes++;
    }
    items.push({ time: r[0] / 1000, open: Number(r[2]), high: Number(r[3]), low: Number(r[4]), close: Number(r[5]) });
  }
  return { items, holes };
}

/** The intervals a dataset of `fine` candles can be read at: its own and every coarser one it tiles. */
export function readableIntervals(fine: string): Interval[] {
  if (!isInterval(fine)) return [];
  return INTERVALS.filter((i) => INTERVAL_MS[i] >= INTERVAL_MS[fine] && nests(fine, i));
}
