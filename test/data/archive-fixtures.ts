// Builds files in the Binance archive's own layout for tests: zips of one CSV named like the
// archive's, under spot/ or futures/{um,cm}/{daily,monthly}/KIND/SYMBOL[/INTERVAL]/, each with
// its .CHECKSUM ("<sha256>  <name>"), written with fflate (a maintained zip library).
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { strToU8, zipSync } from 'fflate';

export const FIXTURES = fileURLToPath(new URL('../fixtures/binance', import.meta.url));
export const KLINES_HEADER =
  'open_time,open,high,low,close,volume,close_time,quote_volume,count,taker_buy_volume,taker_buy_quote_volume,ignore';

export function tempDir(prefix = 'perpdesk-data-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

/** The rows (header dropped) of a fixture kline CSV. */
export function fixtureRows(name: string): string[] {
  const lines = readFileSync(path.join(FIXTURES, 'klines', name), 'utf8')
    .trim()
    .split(/\r?\n/);
  if (lines[0] === KLINES_HEADER) lines.shift();
  return lines;
}

export const sha256 = (b: Uint8Array | string): string => createHash('sha256').update(b).digest('hex');

export interface ArchiveFile {
  zip: string;
  csvName: string;
}

/**
 * Writes `<root>/<market path>/<period>/<kind>/<symbol>[/<interval>]/<name>.zip` (+ .CHECKSUM
 * unless `checksum` is false, or a wrong one when it is 'bad'). `stem` is the part between the
 * symbol and the date: the interval for candle kinds, the kind otherwise.
 */
export function writeArchiveZip(
  root: string,
  o: {
    market: 'spot' | 'um' | 'cm';
    period?: 'daily' | 'monthly';
    kind: string;
    symbol: string;
    interval?: string;
    date: string;
    csv: string;
    checksum?: boolean | 'bad';
  },
): ArchiveFile {
  const marketDir = o.market === 'spot' ? ['spot'] : ['futures', o.market];
  const dir = path.join(root, ...marketDir, o.period ?? 'daily', o.kind, o.symbol, ...(o.interval ? [o.interval] : []));
  mkdirSync(dir, { recursive: true });
  const stem = `${o.symbol}-${o.interval ?? o.kind}-${o.date}`;
  const zipped = zipSync({ [`${stem}.csv`]: strToU8(o.csv) }, { level: 6, mtime: new Date('2025-01-01T00:00:00Z') });
  const zip = path.join(dir, `${stem}.zip`);
  writeFileSync(zip, zipped);
  if (o.checksum !== false) {
    const digest = o.checksum === 'bad' ? sha256('not this file') : sha256(zipped);
    writeFileSync(`${zip}.CHECKSUM`, `${digest}  ${stem}.zip\n`);
  }
  return { zip, csvName: `${stem}.csv` };
}

/** Rows grouped by UTC day of their open time (first column, ms). */
export function byDay(rows: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const r of rows) {
    const day = new Date(Number(r.slice(0, r.indexOf(',')))).toISOString().slice(0, 10);
    let list = out.get(day);
    if (list === undefined) out.set(day, (list = []));
    list.push(r);
  }
  return out;
}

/**
 * The fixture's three days of spot BTCUSDT 1m klines (2021-05-16..18) as daily archive zips under
 * `root`; `checksum(date)` says each day's checksum file (default: a right one), and a day it
 * answers null for is left out.
 */
export function writeBtcusdtDays(
  root: string,
  checksum: (date: string) => boolean | 'bad' | null = () => true,
): string {
  for (const [date, rows] of byDay(fixtureRows('binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv'))) {
    const c = checksum(date);
    if (c === null) continue;
    writeArchiveZip(root, {
      market: 'spot',
      kind: 'klines',
      symbol: 'BTCUSDT',
      interval: '1m',
      date,
      csv: rows.join('\n'),
      checksum: c,
    });
  }
  return root;
}
