// What a Binance archive file is, read from its path: the archive's layout is
//   .../{spot | futures/um | futures/cm}/{daily | monthly}/KIND/SYMBOL[/INTERVAL]/SYMBOL-[KIND|INTERVAL]-DATE.zip
// with DATE YYYY-MM-DD (daily) or YYYY-MM (monthly). A file outside that layout still tells its
// symbol, kind or interval through its name (SYMBOL-1m-2025-01-06.csv); options fill in the rest.
// Options always win over the path, so a misnamed file can be imported as what it really is.

import { isInterval } from '../../src-shared/intervals.ts';
import { CANDLE_KINDS, isKind, isMarket, type Kind, type Market } from '../../src-shared/dataset-kinds.ts';
import { givenSymbol, keyProblem, type DatasetKey } from './kinds.ts';
import { JSON_LINES_KINDS } from './rows.ts';

export interface PathInfo {
  market?: Market;
  symbol?: string;
  kind?: Kind;
  interval?: string;
  period?: 'daily' | 'monthly';
  /** YYYY-MM-DD or YYYY-MM from the file name. */
  date?: string;
}

export interface KeyOptions {
  symbol?: string;
  market?: string;
  kind?: string;
  interval?: string;
  /**
   * Who gives the options, so that a refusal names them as that caller writes them: the data CLI
   * (`--market`, the default) or the import route (its `market` field or query parameter).
   */
  via?: 'cli' | 'api';
}

const NAME = /^([A-Z0-9_]+)-([A-Za-z0-9]+)-(\d{4}-\d{2}(?:-\d{2})?)\.(?:zip|csv(?:\.gz)?)$/;

/** Everything the path tells (nothing is guessed: a part it does not show stays undefined). */
export function parseArchivePath(path: string): PathInfo {
  const parts = path.split(/[\\/]+/).filter((p) => p !== '');
  const info: PathInfo = {};
  const file = parts[parts.length - 1] ?? '';
  const m = NAME.exec(file);
  if (m !== null) {
    info.symbol = m[1];
    info.date = m[3];
    if (isKind(m[2])) info.kind = m[2];
    else if (isInterval(m[2])) info.interval = m[2];
  }
  // Folder layout: the last 'spot' or 'futures/um|cm' segment anchors it.
  for (let i = parts.length - 2; i >= 0; i--) {
    let market: Market | undefined;
    let next = i + 1;
    if (parts[i] === 'spot') market = 'spot';
    else if (parts[i] === 'futures' && isMarket(parts[i + 1]) && parts[i + 1] !== 'spot') {
      market = parts[i + 1] as Market;
      next = i + 2;
    }
    if (market === undefined) continue;
    const period = parts[next];
    const kind = parts[next + 1];
    if ((period !== 'daily' && period !== 'monthly') || !isKind(kind)) continue;
    info.market = market;
    info.period = period;
    info.kind = kind;
    const symbol = parts[next + 2];
    if (symbol !== undefined && next + 2 < parts.length - 1) info.symbol = symbol;
    if (CANDLE_KINDS.has(kind) && next + 3 < parts.length - 1 && isInterval(parts[next + 3]))
      info.interval = parts[next + 3];
    break;
  }
  // A klines-style name without a kind folder: SYMBOL-1m-DATE is a candle file.
  if (info.kind === undefined && info.interval !== undefined) info.kind = 'klines';
  return info;
}

/**
 * What the options set against what the file's path says (`--market um` on a spot/ folder,
 * `--symbol ETHUSDT` on BTCUSDT-1m-....zip): the options win, and each such choice is said.
 */
export function keyOverrides(path: string, opts: KeyOptions = {}): string[] {
  const info = parseArchivePath(path);
  const out: string[] = [];
  const name = (o: 'market' | 'symbol' | 'kind' | 'interval'): string => (opts.via === 'api' ? `'${o}'` : `--${o}`);
  for (const o of ['market', 'symbol', 'kind', 'interval'] as const) {
    const given = o === 'symbol' && opts.symbol !== undefined ? givenSymbol(opts.symbol) : opts[o];
    const said = info[o];
    if (given !== undefined && said !== undefined && given !== said)
      out.push(`the path says ${o} ${said}; ${name(o)} ${given} was taken`);
  }
  return out;
}

/**
 * The dataset a file belongs to: options over the path. Throws Error with a message naming
 * what is missing or wrong, and which option supplies it.
 */
export function resolveKey(path: string, opts: KeyOptions = {}): DatasetKey {
  const info = parseArchivePath(path);
  // --interval alone means a candle file of the klines kind.
  const kind = opts.kind ?? info.kind ?? (opts.interval !== undefined ? 'klines' : undefined);
  const k = {
    market: opts.market ?? info.market,
    symbol: opts.symbol === undefined ? info.symbol : givenSymbol(opts.symbol),
    kind,
    interval: opts.interval ?? (kind !== undefined && CANDLE_KINDS.has(kind as Kind) ? info.interval : undefined) ?? '',
  };
  const missing: string[] = [];
  if (k.market === undefined) missing.push('market');
  if (k.symbol === undefined) missing.push('symbol');
  if (k.kind === undefined) missing.push('kind');
  if (missing.length > 0) {
    const api = opts.via === 'api';
    // a recorder's JSON lines: the kinds that read them
    const jsonLines =
      missing.includes('kind') && /\.jsonl(\.gz)?$/i.test(path)
        ? ` (a recorder's JSON lines: ${JSON_LINES_KINDS})`
        : '';
    const give = missing.map((m) => (api ? `'${m}'` : `--${m}`) + (m === 'market' ? ' (spot, um or cm)' : ''));
    throw new Error(
      `${path}: the file name and folders do not say its ${missing.join(', ')}${jsonLines}; give ${give.join(', ')}` +
        (api ? ' with the request' : ''),
    );
  }
  const problem = keyProblem(k);
  if (problem !== null) throw new Error(`${path}: ${problem}`);
  return k as DatasetKey;
}

/**
 * What a zip's one CSV says against the dataset the zip goes to. The archive names the CSV in a
 * zip as the zip (BTCUSDT-1m-2021-05-16.zip holds BTCUSDT-1m-2021-05-16.csv), so a symbol, kind
 * or interval its name says otherwise is a renamed zip: another pair's (or kind's) data, which
 * would be stored under the zip's name. That refuses the file, unless an option set the field
 * (options win, so a misnamed file can be imported as what it is): then it is a warning, as
 * keyOverrides says one. A CSV named otherwise (data.csv) says nothing.
 */
export function entryDisagreement(
  zip: string,
  entry: string,
  key: DatasetKey,
  opts: KeyOptions = {},
): { refusal: string | null; warnings: string[] } {
  const inner = entry.split(/[\\/]+/).pop() ?? entry;
  const m = NAME.exec(inner);
  const out = { refusal: null as string | null, warnings: [] as string[] };
  if (m === null) return out;
  const candles = CANDLE_KINDS.has(key.kind as Kind);
  const said: { field: 'symbol' | 'kind' | 'interval'; says: string; taken: string }[] = [
    { field: 'symbol', says: m[1], taken: key.symbol },
  ];
  if (isKind(m[2])) said.push({ field: 'kind', says: m[2], taken: key.kind });
  else if (isInterval(m[2]))
    said.push(
      candles
        ? { field: 'interval', says: m[2], taken: key.interval }
        : { field: 'kind', says: `${m[2]} candles`, taken: key.kind },
    );
  const api = opts.via === 'api';
  const name = (o: string): string => (api ? `'${o}'` : `--${o}`);
  for (const s of said) {
    if (s.says === s.taken) continue;
    if (opts[s.field] !== undefined) {
      out.warnings.push(
        `the zip holds ${inner}, which says ${s.field} ${s.says}; ${name(s.field)} ${s.taken} was taken`,
      );
      continue;
    }
    out.refusal ??=
      `${zip} holds ${inner}, a file of ${s.field} ${s.says}, not ${s.taken} as the zip's path says (a renamed ` +
      `zip, or another ${s.field === 'symbol' ? "pair's" : `${s.field}'s`} data); nothing of this file was imported; ` +
      `give ${name(s.field)} ${api ? 'with the request' : 'to import it as either'}`;
  }
  return out;
}
