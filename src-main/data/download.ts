// Fetching files from Binance's public market-data archive (data.binance.vision by default; the
// base URL is an option, which is how the tests serve a local copy).
//
// Invariants:
//   - files land in the archive's own layout under `dir` (data/spot/..., data/futures/um/...),
//     so an import of that folder reads symbol, market, kind and interval from the paths;
//   - a file counts as had only when its zip matches its .CHECKSUM; a mismatch deletes it and
//     fails that file; a file already had is never fetched again (resume after an interruption);
//     a partial download (.part) continues with an HTTP Range request where the server allows;
//   - at most `concurrency` requests at once; a dropped connection is retried (3 attempts);
//   - a 404 says the file does not exist upstream; being offline (no connection at all) is said
//     once, clearly, and stops the run.

import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { INTERVALS, isInterval } from '../../src-shared/intervals.ts';
import { parseChecksum, sha256File } from './file-source.ts';
import { CANDLE_KINDS, isKind, isMarket, type Kind, type Market } from '../../src-shared/dataset-kinds.ts';
import { keyProblem } from './kinds.ts';

/** The HTTP statuses a download tells apart (the whole file, the rest of a .part, none upstream). */
const HTTP_OK = 200;
const HTTP_PARTIAL_CONTENT = 206;
const HTTP_NOT_FOUND = 404;

export const DEFAULT_BASE_URL = 'https://data.binance.vision';

export interface KindSpec {
  readonly kind: Kind;
  readonly interval: string;
}

export interface DownloadPlanItem {
  /** Path below the base URL and below the download folder: data/futures/um/daily/... .zip */
  readonly path: string;
  readonly kind: Kind;
  readonly period: 'daily' | 'monthly';
  readonly date: string;
}

/** Parses "klines:1m,aggTrades,fundingRate,markPriceKlines:1m". Throws Error naming the bad part. */
export function parseKinds(text: string): KindSpec[] {
  const out: KindSpec[] = [];
  for (const part of text.split(',')) {
    const [kind, interval = '', extra] = part.trim().split(':');
    if (extra !== undefined || !isKind(kind))
      throw new Error(`--kinds: '${part}' is not KIND or KIND:INTERVAL (kinds: klines, markPriceKlines, ...)`);
    if (CANDLE_KINDS.has(kind) && interval === '')
      throw new Error(`--kinds: ${kind} needs an interval, e.g. ${kind}:1m`);
    if (CANDLE_KINDS.has(kind) && !isInterval(interval))
      throw new Error(`--kinds: ${kind}:${interval}: the interval must be one of ${INTERVALS.join(', ')}`);
    if (!CANDLE_KINDS.has(kind) && interval !== '') throw new Error(`--kinds: ${kind} has no interval`);
    out.push({ kind, interval });
  }
  return out;
}

const DAY = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function parseDate(s: string, what: string): number {
  const t = DATE.test(s) ? Date.parse(`${s}T00:00:00Z`) : Number.NaN;
  if (Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== s)
    throw new Error(`${what} must be a date YYYY-MM-DD (got '${s}')`);
  return t;
}

const iso = (t: number): string => new Date(t).toISOString().slice(0, 10);

/**
 * The files covering [from, to] (dates, inclusive): whole calendar months inside the range as
 * one monthly file each, the rest day by day; fundingRate exists only monthly, so every month
 * the range touches.
 */
export function planDownload(o: {
  symbol: string;
  market: string;
  kinds: readonly KindSpec[];
  from: string;
  to: string;
}): DownloadPlanItem[] {
  const from = parseDate(o.from, '--from');
  const to = parseDate(o.to, '--to');
  if (to < from) throw new Error('--to is before --from');
  if (!isMarket(o.market)) throw new Error(`--market must be spot, um or cm (got '${o.market}')`);
  const market: Market = o.market;
  const out: DownloadPlanItem[] = [];
  for (const k of o.kinds) {
    const problem = keyProblem({ market, symbol: o.symbol, kind: k.kind, interval: k.interval });
    if (problem !== null) throw new Error(problem);
    const base = `data/${market === 'spot' ? 'spot' : `futures/${market}`}`;
    const file = (period: 'daily' | 'monthly', date: string): DownloadPlanItem => {
      const stem = CANDLE_KINDS.has(k.kind) ? k.interval : k.kind;
      const folder = CANDLE_KINDS.has(k.kind) ? `${k.kind}/${o.symbol}/${k.interval}` : `${k.kind}/${o.symbol}`;
      return { path: `${base}/${period}/${folder}/${o.symbol}-${stem}-${date}.zip`, kind: k.kind, period, date };
    };
    let t = from;
    while (t <= to) {
      const d = new Date(t);
      const monthStart = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
      const nextMonth = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
      const month = iso(monthStart).slice(0, 7);
      if (k.kind === 'fundingRate' || (t === monthStart && nextMonth - DAY <= to)) {
        out.push(file('monthly', month));
        t = nextMonth;
      } else {
        out.push(file('daily', iso(t)));
        t += DAY;
      }
    }
  }
  return out;
}

interface DownloadProgress {
  readonly filesDone: number;
  readonly filesTotal: number;
  readonly bytes: number;
  /** bytes per second since the start */
  readonly rate: number;
  /** seconds left, estimated from the files still to come; null before the first file is done */
  readonly etaSeconds: number | null;
}

export interface DownloadResult {
  readonly path: string;
  /** downloaded, present (had already, checksum good), missing (404 upstream), failed */
  readonly status: 'downloaded' | 'present' | 'missing' | 'failed';
  readonly file: string;
  readonly bytes: number;
  readonly error: string | null;
}

export class OfflineError extends Error {
  constructor(base: string, cause: string) {
    super(`cannot reach ${base} (${cause}): offline, or the archive's address is wrong (--base-url)`);
    this.name = 'OfflineError';
  }
}

export interface DownloadOptions {
  readonly baseUrl?: string;
  readonly dir: string;
  readonly concurrency?: number;
  readonly onProgress?: (p: DownloadProgress) => void;
  /** ms between progress reports (default 1000) */
  readonly progressEveryMs?: number;
  readonly fetch?: typeof fetch;
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function causeCode(err: unknown): string | undefined {
  const c = (err as { cause?: { code?: string } }).cause;
  return c?.code ?? (err as { code?: string }).code;
}

/** Fetches the planned files (see the invariants above). Throws OfflineError when nothing is reachable. */
export async function download(plan: readonly DownloadPlanItem[], o: DownloadOptions): Promise<DownloadResult[]> {
  const base = (o.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const doFetch = o.fetch ?? fetch;
  const started = Date.now();
  let bytes = 0;
  let done = 0;
  let offline: OfflineError | null = null;
  const results: DownloadResult[] = new Array(plan.length);
  const report = (): void =>
    o.onProgress?.({
      filesDone: done,
      filesTotal: plan.length,
      bytes,
      rate: bytes / Math.max(0.001, (Date.now() - started) / 1000),
      etaSeconds: done === 0 ? null : (((Date.now() - started) / 1000) * (plan.length - done)) / done,
    });
  const timer = setInterval(report, o.progressEveryMs ?? 1000);
  timer.unref();

  const get = async (url: string, init?: RequestInit): Promise<Response> => {
    try {
      return await doFetch(url, init);
    } catch (err) {
      const code = causeCode(err);
      if (code !== undefined && NETWORK_CODES.has(code)) throw new OfflineError(base, code);
      throw err;
    }
  };

  const one = async (item: DownloadPlanItem): Promise<DownloadResult> => {
    const target = join(o.dir, item.path);
    const name = item.path.slice(item.path.lastIndexOf('/') + 1);
    const url = `${base}/${item.path}`;
    mkdirSync(dirname(target), { recursive: true });
    // the checksum first: it is small, says whether the file exists, and decides "already had"
    const sumRes = await get(`${url}.CHECKSUM`);
    if (sumRes.status === HTTP_NOT_FOUND) {
      await sumRes.body?.cancel();
      return {
        path: target,
        file: name,
        status: 'missing',
        bytes: 0,
        error: `${name} does not exist upstream (${url})`,
      };
    }
    if (!sumRes.ok) {
      await sumRes.body?.cancel();
      return { path: target, file: name, status: 'failed', bytes: 0, error: `${url}.CHECKSUM: HTTP ${sumRes.status}` };
    }
    const sumText = await sumRes.text();
    const want = parseChecksum(sumText);
    if (want === null)
      return {
        path: target,
        file: name,
        status: 'failed',
        bytes: 0,
        error: `${name}.CHECKSUM holds no SHA-256 digest`,
      };
    writeFileSync(`${target}.CHECKSUM`, sumText);
    if (existsSync(target) && (await sha256File(target)) === want)
      return { path: target, file: name, status: 'present', bytes: 0, error: null };
    const part = `${target}.part`;
    let got = 0;
    let lastError = '';
    for (let attempt = 1; attempt <= 3; attempt++) {
      const have = existsSync(part) ? statSync(part).size : 0;
      const res = await get(url, have > 0 ? { headers: { range: `bytes=${have}-` } } : undefined);
      if (res.status === HTTP_NOT_FOUND) {
        await res.body?.cancel();
        return {
          path: target,
          file: name,
          status: 'missing',
          bytes: got,
          error: `${name} does not exist upstream (${url})`,
        };
      }
      if (res.status !== HTTP_OK && res.status !== HTTP_PARTIAL_CONTENT) {
        await res.body?.cancel();
        lastError = `HTTP ${res.status}`;
        continue;
      }
      const append = res.status === HTTP_PARTIAL_CONTENT && have > 0;
      try {
        const body = Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>);
        body.on('data', (c: Buffer) => {
          got += c.length;
          bytes += c.length;
        });
        await pipeline(body, createWriteStream(part, { flags: append ? 'a' : 'w' }));
      } catch (err) {
        lastError = `the connection dropped: ${(err as Error).message}`;
        continue; // the .part keeps what came; the next attempt asks for the rest
      }
      const h = await sha256File(part);
      if (h !== want) {
        rmSync(part, { force: true });
        return {
          path: target,
          file: name,
          status: 'failed',
          bytes: got,
          error: `${name} does not match its .CHECKSUM (SHA-256 ${h}, expected ${want}); deleted`,
        };
      }
      renameSync(part, target);
      return { path: target, file: name, status: 'downloaded', bytes: got, error: null };
    }
    return {
      path: target,
      file: name,
      status: 'failed',
      bytes: got,
      error: `${name}: ${lastError} (3 attempts; run again to resume)`,
    };
  };

  let next = 0;
  const worker = async (): Promise<void> => {
    while (offline === null && next < plan.length) {
      const i = next++;
      try {
        results[i] = await one(plan[i]);
      } catch (err) {
        if (err instanceof OfflineError) {
          offline = err;
          return;
        }
        const name = plan[i].path.slice(plan[i].path.lastIndexOf('/') + 1);
        results[i] = {
          path: join(o.dir, plan[i].path),
          file: name,
          status: 'failed',
          bytes: 0,
          error: `${name}: ${(err as Error).message}`,
        };
      }
      done++;
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency ?? 4, 16)) }, worker));
  } finally {
    clearInterval(timer);
  }
  report();
  if (offline !== null) throw offline;
  return results;
}
