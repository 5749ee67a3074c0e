// Fetching files from Binance's public market-data archive (data.binance.vision by default; the
// base URL is an option, which is how the tests serve a local copy).
//
// Invariants:
//   - files land in the archive's own layout under `dir` (data/spot/..., data/futures/um/...),
//     so an import of that folder reads symbol, market, kind and interval from the paths;
//   - a file counts as had only when its zip matches its .CHECKSUM; a mismatch deletes it and
//     fails that file; a file already had is never fetched again (resume after an interruption);
//     a partial download (.part) continues with an HTTP Range request where the server allows;
//     each run writes its own part file (download-part.ts): two runs into one folder do not mix;
//   - at most `concurrency` requests at once; a dropped connection is retried (3 attempts), and so
//     is a server that sends nothing for `idleTimeoutMs` (an answer or the next bytes; 30 s): the
//     request is given up on, said as `no data from HOST for 30 s`, both for a zip and its .CHECKSUM;
//   - a file whose day or month has not ended (today's daily zip, this month's fundingRate) is not
//     asked for: `unpublished`, which is not a failure;
//   - a 404 says the file does not exist upstream (a .CHECKSUM's 404 beside a zip that exists says
//     the .CHECKSUM is missing); being offline (no connection at all) is said once and stops the run.

import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { INTERVALS, isInterval } from '../../src-shared/intervals.ts';
import { noDigest, parseChecksum } from '../../src-shared/archive-files.ts';
import { sha256File } from './file-source.ts';
import { CANDLE_KINDS, isKind, isMarket, type Kind, type Market } from '../../src-shared/dataset-kinds.ts';
import { keyProblem } from './kinds.ts';
import { beginRun, partFile } from './download-part.ts';

/** The HTTP statuses a download tells apart (the whole file, the rest of a .part, none upstream). */
const HTTP_OK = 200;
const HTTP_PARTIAL_CONTENT = 206;
const HTTP_NOT_FOUND = 404;
/** A Range from the file's end or past it (a part as long as the file, or longer). */
const HTTP_RANGE_NOT_SATISFIABLE = 416;

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
  /**
   * The first day (YYYY-MM-DD, UTC) the archive can have the file: the day after the day, the
   * first of the next month. A file due after today is not asked for (status `unpublished`).
   */
  readonly due: string;
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
 * Days after a month's end before its monthly file is asked for: the archive publishes a day's
 * file the next day, a month's in the first days of the next month; until then its days go as
 * daily files (a monthly file asked for too early is a 404, and the days there are never fetched).
 */
const MONTHLY_PUBLISHED_AFTER_DAYS = 7;

/**
 * The files covering [from, to] (dates, inclusive, neither after `today`): whole calendar months
 * inside the range as one monthly file each once it is published (MONTHLY_PUBLISHED_AFTER_DAYS),
 * the rest day by day; fundingRate exists only monthly, so every month the range touches. A whole
 * month some of whose daily files `has` (the download folder holds them: an earlier run fetched,
 * and imported, those days) goes day by day too: its monthly file would overlap them, which a
 * trades dataset refuses whole ("trade ids ... overlap trades already imported"), and the days
 * had are not fetched again.
 */
export function planDownload(o: {
  symbol: string;
  market: string;
  kinds: readonly KindSpec[];
  from: string;
  to: string;
  /** now, ms (default the clock): dates after its UTC day are refused */
  today?: number;
  /** Whether a file of the plan (its path) is had already (default: none is). */
  has?: (path: string) => boolean;
}): DownloadPlanItem[] {
  const from = parseDate(o.from, '--from');
  const to = parseDate(o.to, '--to');
  const today = Math.floor((o.today ?? Date.now()) / DAY) * DAY;
  for (const [t, what] of [
    [from, `--from ${o.from}`],
    [to, `--to ${o.to}`],
  ] as const)
    if (t > today)
      throw new Error(`${what} is in the future (today is ${iso(today)}, UTC): the archive has no files for it`);
  if (to < from) throw new Error('--to is before --from');
  if (!isMarket(o.market)) throw new Error(`--market must be spot, um or cm (got '${o.market}')`);
  const market: Market = o.market;
  const out: DownloadPlanItem[] = [];
  for (const k of o.kinds) {
    const problem = keyProblem({ market, symbol: o.symbol, kind: k.kind, interval: k.interval });
    if (problem !== null) throw new Error(problem);
    const base = `data/${market === 'spot' ? 'spot' : `futures/${market}`}`;
    const file = (period: 'daily' | 'monthly', date: string, due: number): DownloadPlanItem => {
      const stem = CANDLE_KINDS.has(k.kind) ? k.interval : k.kind;
      const folder = CANDLE_KINDS.has(k.kind) ? `${k.kind}/${o.symbol}/${k.interval}` : `${k.kind}/${o.symbol}`;
      const path = `${base}/${period}/${folder}/${o.symbol}-${stem}-${date}.zip`;
      return { path, kind: k.kind, period, date, due: iso(due) };
    };
    let t = from;
    while (t <= to) {
      const d = new Date(t);
      const monthStart = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
      const nextMonth = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
      const month = iso(monthStart).slice(0, 7);
      const published = nextMonth + MONTHLY_PUBLISHED_AFTER_DAYS * DAY <= today;
      const daysHad = (): boolean => {
        for (let day = monthStart; day < nextMonth; day += DAY)
          if (o.has?.(file('daily', iso(day), 0).path)) return true;
        return false;
      };
      if (k.kind === 'fundingRate' || (t === monthStart && nextMonth - DAY <= to && published && !daysHad())) {
        out.push(file('monthly', month, nextMonth));
        t = nextMonth;
      } else {
        out.push(file('daily', iso(t), t + DAY));
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
  /**
   * seconds left, estimated from the files still to come; null before the first file is done,
   * and while nothing comes (`idleSeconds`)
   */
  readonly etaSeconds: number | null;
  /**
   * whole seconds since the last byte came (or since the start) once that is over the options'
   * `stalledAfterMs` with files still to come: an ETA then would only climb; null otherwise
   */
  readonly idleSeconds: number | null;
}

export interface DownloadResult {
  readonly path: string;
  /**
   * downloaded, present (had already, checksum good), missing (404 upstream), failed, or
   * unpublished (its day or month has not ended, so the archive cannot have it: not asked for)
   */
  readonly status: 'downloaded' | 'present' | 'missing' | 'failed' | 'unpublished';
  readonly file: string;
  readonly bytes: number;
  readonly error: string | null;
}

/** The result of the file at `path`, named `file`, from its status, error and bytes fetched. */
const resultOf =
  (path: string, file: string) =>
  (status: DownloadResult['status'], error: string | null, bytes = 0): DownloadResult => ({
    path,
    file,
    status,
    bytes,
    error,
  });

export class OfflineError extends Error {
  constructor(base: string, cause: string) {
    super(`cannot reach ${base} (${cause}): offline, or the archive's address is wrong (--base-url)`);
    this.name = 'OfflineError';
  }
}

/** How long a request may go without a byte (its answer, or the next bytes of its body) by default. */
const DEFAULT_IDLE_TIMEOUT_MS = 30_000;
/** Tries of one file's .CHECKSUM and zip before it is given up on (the .part is kept for the next run). */
const ATTEMPTS = 3;

/** A server that sent nothing for the idle timeout: its request is given up on. */
class StalledError extends Error {
  constructor(host: string, ms: number) {
    super(`no data from ${host} for ${ms / 1000} s`);
    this.name = 'StalledError';
  }
}

/** What went wrong with a request that had started, in words: a stall as such, else the dropped connection. */
function failure(err: unknown): string {
  return err instanceof StalledError ? err.message : `the connection dropped: ${(err as Error).message}`;
}

/** An answer whose body is read chunk by chunk, each read bounded by the idle timeout. */
interface Reply {
  readonly res: Response;
  chunks(): AsyncGenerator<Uint8Array, void, undefined>;
  text(): Promise<string>;
  cancel(): Promise<void>;
}

export interface DownloadOptions {
  readonly baseUrl?: string;
  /** ms a request may go without a byte before it is given up on (default DEFAULT_IDLE_TIMEOUT_MS) */
  readonly idleTimeoutMs?: number;
  readonly dir: string;
  readonly concurrency?: number;
  readonly onProgress?: (p: DownloadProgress) => void;
  /** ms between progress reports (default 1000) */
  readonly progressEveryMs?: number;
  /** ms without a byte after which progress gives `idleSeconds` instead of an ETA (default 5000) */
  readonly stalledAfterMs?: number;
  readonly fetch?: typeof fetch;
  /** now, ms (default the clock): a file due after its UTC day is `unpublished`, not asked for */
  readonly today?: number;
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
  const today = Math.floor((o.today ?? started) / DAY) * DAY;
  let bytes = 0;
  let lastByteAt = started;
  let done = 0;
  let offline: OfflineError | null = null;
  const results: DownloadResult[] = new Array(plan.length);
  const report = (): void => {
    const now = Date.now();
    const idle = now - lastByteAt;
    const idleSeconds = done < plan.length && idle > (o.stalledAfterMs ?? 5000) ? Math.floor(idle / 1000) : null;
    o.onProgress?.({
      filesDone: done,
      filesTotal: plan.length,
      bytes,
      rate: bytes / Math.max(0.001, (now - started) / 1000),
      etaSeconds: done === 0 || idleSeconds !== null ? null : (((now - started) / 1000) * (plan.length - done)) / done,
      idleSeconds,
    });
  };
  const timer = setInterval(report, o.progressEveryMs ?? 1000);
  timer.unref();
  const run = beginRun();

  const idleMs = o.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const host = URL.canParse(base) ? new URL(base).host : base;
  /** The request, given up on (StalledError) when its answer or its body's next bytes take more than idleMs. */
  const get = async (url: string, init?: RequestInit): Promise<Reply> => {
    const ctl = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const arm = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => ctl.abort(new StalledError(host, idleMs)), idleMs);
    };
    arm();
    let res: Response;
    try {
      res = await doFetch(url, { ...init, signal: ctl.signal });
    } catch (err) {
      const code = causeCode(err);
      if (code !== undefined && NETWORK_CODES.has(code)) throw new OfflineError(base, code);
      throw err;
    } finally {
      clearTimeout(timer);
    }
    async function* chunks(): AsyncGenerator<Uint8Array, void, undefined> {
      const reader = res.body?.getReader();
      if (reader === undefined) return;
      try {
        for (;;) {
          arm();
          const { done, value } = await reader.read();
          clearTimeout(timer); // the time the bytes take to be written is not the server's
          if (done) return;
          yield value;
        }
      } finally {
        clearTimeout(timer);
        reader.releaseLock();
      }
    }
    return {
      res,
      chunks,
      async text() {
        const parts: Uint8Array[] = [];
        for await (const c of chunks()) parts.push(c);
        return Buffer.concat(parts).toString('utf8');
      },
      async cancel() {
        await res.body?.cancel();
      },
    };
  };

  /** The file's .CHECKSUM text, or the result that ends the file (missing upstream, or failed). */
  const checksumOf = async (url: string, target: string, name: string): Promise<string | DownloadResult> => {
    const end = resultOf(target, name);
    let lastError = '';
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      try {
        const reply = await get(`${url}.CHECKSUM`);
        if (reply.res.status === HTTP_NOT_FOUND) {
          await reply.cancel();
          return end('missing', await checksumMissing(url, name));
        }
        if (!reply.res.ok) {
          await reply.cancel();
          lastError = `HTTP ${reply.res.status}`;
          continue;
        }
        return await reply.text();
      } catch (err) {
        if (err instanceof OfflineError) throw err;
        lastError = failure(err);
      }
    }
    return end('failed', `${name}: its .CHECKSUM could not be had: ${lastError} (${ATTEMPTS} attempts)`);
  };

  /**
   * Why a file whose .CHECKSUM is a 404 is missing: the zip too (asked with a HEAD), or only its
   * .CHECKSUM, without which the zip cannot be verified and is not fetched.
   */
  const checksumMissing = async (url: string, name: string): Promise<string> => {
    let zipThere = false;
    try {
      const head = await get(url, { method: 'HEAD' });
      await head.cancel();
      zipThere = head.res.ok;
    } catch (err) {
      if (err instanceof OfflineError) throw err;
    }
    return zipThere
      ? `${name}.CHECKSUM does not exist upstream (${url}.CHECKSUM), though ${name} does: without it the zip ` +
          'cannot be verified, so it was not fetched; run again later (the archive may not have published it yet)'
      : `${name} does not exist upstream (${url})`;
  };

  const one = async (item: DownloadPlanItem): Promise<DownloadResult> => {
    const target = join(o.dir, item.path);
    const name = item.path.slice(item.path.lastIndexOf('/') + 1);
    const url = `${base}/${item.path}`;
    const result = resultOf(target, name);
    if (item.due > iso(today))
      return result(
        'unpublished',
        `${name}: not published yet (the archive has a ${item.period === 'daily' ? "day's" : "month's"} file once it has ended: from ${item.due}, UTC)`,
      );
    mkdirSync(dirname(target), { recursive: true });
    // the checksum first: it is small, says whether the file exists, and decides "already had"
    const sumText = await checksumOf(url, target, name);
    if (typeof sumText !== 'string') return sumText;
    const want = parseChecksum(sumText);
    if (want === null)
      return result(
        'failed',
        `${noDigest(`${name}.CHECKSUM`)} (the server answered something else for it): check --base-url is the ` +
          "archive's address (or a mirror of its layout), then run again",
      );
    // whole or not at all: another run may be reading it (importing the zip) as this one writes it
    writeFileSync(`${target}.CHECKSUM.${run.tag}`, sumText);
    renameSync(`${target}.CHECKSUM.${run.tag}`, `${target}.CHECKSUM`);
    if (existsSync(target) && (await sha256File(target)) === want) return result('present', null);
    const part = partFile(target, run.tag);
    // a part that is the whole file (a run stopped after its last byte, before verifying it)
    if (existsSync(part) && (await sha256File(part)) === want) {
      renameSync(part, target);
      return result('downloaded', null);
    }
    let got = 0;
    let lastError = '';
    let restarted = false;
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const have = existsSync(part) ? statSync(part).size : 0;
      try {
        const reply = await get(url, have > 0 ? { headers: { range: `bytes=${have}-` } } : undefined);
        const res = reply.res;
        if (res.status === HTTP_NOT_FOUND) {
          await reply.cancel();
          return result('missing', `${name} does not exist upstream (${url})`, got);
        }
        if (res.status === HTTP_RANGE_NOT_SATISFIABLE && have > 0 && !restarted) {
          // the part is not shorter than the file upstream (the file was published again, other
          // bytes): it is dropped and the whole file asked for, in an attempt not counted
          await reply.cancel();
          rmSync(part, { force: true });
          restarted = true;
          attempt--;
          continue;
        }
        if (res.status !== HTTP_OK && res.status !== HTTP_PARTIAL_CONTENT) {
          await reply.cancel();
          lastError = `HTTP ${res.status}`;
          continue;
        }
        const append = res.status === HTTP_PARTIAL_CONTENT && have > 0;
        const counted = async function* (): AsyncGenerator<Uint8Array, void, undefined> {
          for await (const c of reply.chunks()) {
            got += c.length;
            bytes += c.length;
            lastByteAt = Date.now();
            yield c;
          }
        };
        await pipeline(counted, createWriteStream(part, { flags: append ? 'a' : 'w' }));
      } catch (err) {
        if (err instanceof OfflineError) throw err;
        lastError = failure(err);
        continue; // the .part keeps what came; the next attempt asks for the rest
      }
      const h = await sha256File(part);
      if (h !== want) {
        rmSync(part, { force: true });
        return result(
          'failed',
          `${name} does not match its .CHECKSUM (SHA-256 ${h}, expected ${want}); deleted: run again to fetch it ` +
            'anew (if it fails again the same way, check --base-url is the archive or a true mirror of it)',
          got,
        );
      }
      renameSync(part, target);
      return result('downloaded', null, got);
    }
    return result('failed', `${name}: ${lastError} (${ATTEMPTS} attempts; run again to resume)`, got);
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
        results[i] = resultOf(join(o.dir, plan[i].path), name)('failed', `${name}: ${(err as Error).message}`);
      }
      done++;
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency ?? 4, 16)) }, worker));
  } finally {
    clearInterval(timer);
    run.end();
  }
  report();
  if (offline !== null) throw offline;
  return results;
}
