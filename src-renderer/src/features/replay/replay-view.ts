// Pure helpers of the replay screens (docs/replay.md): which symbols a replay can
// run on and over which span (from GET /api/v1/datasets), the Replay dialog's checks and the
// POST /api/v1/replays body they give, the speed presets and steps of the replay controls,
// the banner's words, and the session report's figures and equity curve.
// Times are ms UTC everywhere; the dialog's fields are UTC too ("2021-05-16 00:00"), never the
// browser's time zone, because the datasets are in UTC and so is the banner.
import { isInterval, nextOpenTime } from '../../../../src-shared/intervals.ts';
import { isReplayableSymbol } from '../../../../src-shared/replay-pick.ts';
import type { DatasetView } from '../data/data-view.ts';
import type { ReplayAccountReport, ReplayState } from '../../../../src-shared/types.ts';

/** GET /api/v1/replay (and the `replay` WebSocket channel): the replay venue's state. */
export type ReplayStatusView = ReplayState;

/**
 * The time-out of one of the screen's REST requests on the venue it shows (undefined: the client's,
 * DEFAULT_TIMEOUT_MS). On a replay a change (an order, a cancel, an amendment, TP/SL, a stop) is
 * answered when the replay's clock gets to it: with order or response latency a paused replay holds
 * it until it moves on, and 60 s of latency at 1x take a minute of wall time. So it waits as long as
 * it takes (the connection state says when the service is gone); a time-out told the trader "Not
 * sent: the service cannot be reached" of an order that the replay placed and filled later. Reads
 * are answered at once.
 */
export function replayRequestTimeout(mode: 'unknown' | 'live' | 'replay', method: string): number | undefined {
  return mode === 'replay' && method.toUpperCase() !== 'GET' ? 0 : undefined;
}

type QueueModel = 'pessimistic' | 'probabilistic';

/** Dataset kinds a replay can be driven by, best first (the market's source per symbol). */
const DRIVERS: Readonly<Record<string, 'depth' | 'trades' | 'klines'>> = {
  depth: 'depth',
  aggTrades: 'trades',
  trades: 'trades',
  klines: 'klines',
};

export interface SymbolCoverage {
  symbol: string;
  /** First covered ms (inclusive). */
  first: number;
  /** End of the data, ms (exclusive): the last candle's close, or the last event's time + 1. */
  end: number;
  /** What the replay will be made of, best first, e.g. ['trades', 'klines']. */
  sources: Array<'depth' | 'trades' | 'klines'>;
  /** The spans its datasets cover, in time order, overlapping ones joined: more than one when the data has a hole. */
  pieces: Array<{ first: number; end: number }>;
}

/** ms after a dataset's data: its last candle's close, or its last event's time + 1. */
export function datasetEnd(d: Pick<DatasetView, 'last_time' | 'interval'>): number {
  const last = d.last_time as number;
  if (isInterval(d.interval)) return nextOpenTime(d.interval, last);
  return last + 1;
}

/**
 * The spans a dataset's data covers: first_time to its end, cut at each of its gaps (GET
 * /api/v1/datasets `gaps`: from the first missing ms to the next ms with data), so a hole inside
 * one dataset (two files years apart) is a hole of the coverage as one between two datasets is.
 */
export function datasetPieces(
  d: Pick<DatasetView, 'first_time' | 'last_time' | 'interval' | 'gaps'>,
): Array<{ first: number; end: number }> {
  const out: Array<{ first: number; end: number }> = [];
  const end = datasetEnd(d);
  let first = d.first_time as number;
  for (const g of [...d.gaps].sort((a, b) => a.start_time - b.start_time)) {
    if (g.start_time <= first || g.end_time <= g.start_time || g.end_time >= end) continue;
    out.push({ first, end: g.start_time });
    first = g.end_time;
  }
  out.push({ first, end });
  return out;
}

/**
 * The symbols a replay can run on: those with at least one non-empty depth, trades or klines
 * dataset (USD-M first if a symbol has several markets, as the replayed venue is a perpetual
 * one; another market is still usable). The span is the union of those datasets' spans. A symbol
 * the venue cannot name a pair (a COIN-M or delivery contract, `BTCUSD_PERP`) is not offered.
 */
export function replayableSymbols(datasets: readonly DatasetView[]): SymbolCoverage[] {
  const by = new Map<string, SymbolCoverage>();
  for (const d of datasets) {
    const source = DRIVERS[d.kind];
    if (
      source === undefined ||
      !isReplayableSymbol(d.symbol) ||
      d.first_time === null ||
      d.last_time === null ||
      d.rows === 0
    )
      continue;
    const c = by.get(d.symbol);
    const end = datasetEnd(d);
    if (c === undefined) {
      by.set(d.symbol, {
        symbol: d.symbol,
        first: d.first_time,
        end,
        sources: [source],
        pieces: datasetPieces(d),
      });
    } else {
      c.first = Math.min(c.first, d.first_time);
      c.end = Math.max(c.end, end);
      if (!c.sources.includes(source)) c.sources.push(source);
      c.pieces.push(...datasetPieces(d));
    }
  }
  const order = ['depth', 'trades', 'klines'];
  for (const c of by.values()) {
    c.sources.sort((a, b) => order.indexOf(a) - order.indexOf(b));
    c.pieces = joinSpans(c.pieces);
  }
  return [...by.values()].sort((a, b) => a.symbol.localeCompare(b.symbol));
}

/** Spans in time order, those that overlap or touch joined into one. */
function joinSpans(spans: ReadonlyArray<{ first: number; end: number }>): Array<{ first: number; end: number }> {
  const out: Array<{ first: number; end: number }> = [];
  for (const p of [...spans].sort((a, b) => a.first - b.first)) {
    const last = out[out.length - 1];
    if (last !== undefined && p.first <= last.end) last.end = Math.max(last.end, p.end);
    else out.push({ ...p });
  }
  return out;
}

/**
 * The hole of a picked symbol's data a start falls in, if any: the replay would then wait there,
 * each pair at its last price before the hole, until the data resumes (docs/replay.md).
 */
export function startInHole(
  cov: readonly SymbolCoverage[],
  symbols: readonly string[],
  start: number,
): { symbol: string; from: number; to: number } | null {
  for (const s of symbols) {
    const c = cov.find((x) => x.symbol === s);
    if (c === undefined) continue;
    for (let i = 1; i < c.pieces.length; i++)
      if (start >= c.pieces[i - 1].end && start < c.pieces[i].first)
        return { symbol: s, from: c.pieces[i - 1].end, to: c.pieces[i].first };
  }
  return null;
}

/**
 * The banner's tooltip of the replayed symbols: what each is made of, dataset by dataset
 * ("BTCUSDT: klines spot 1m #1, mark um 1m #2"), one line a symbol.
 */
export function datasetsTitle(status: Pick<ReplayStatusView, 'symbols' | 'datasets'>): string {
  return status.symbols
    .map((sym) => {
      const uses = status.datasets?.[sym] ?? [];
      const parts = uses.map((d) => `${d.role} ${d.market}${d.interval ? ' ' + d.interval : ''} #${d.id}`);
      return parts.length === 0 ? sym : `${sym}: ${parts.join(', ')}`;
    })
    .join('\n');
}

/** "2021-05-16 00:00" (UTC, minutes) for the dialog's fields and spans. */
export function utcMinute(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

/**
 * A UTC time as precisely as it needs: "2021-05-16 00:00" on a whole minute, "2025-04-14
 * 00:00:23" on a whole second, else to the ms ("2025-04-14 00:00:00.061"): a span's ends shown to
 * the minute would make a recording of 24 s read "00:00 to 00:00".
 */
export function utcTime(ms: number): string {
  const iso = new Date(ms).toISOString();
  if (ms % 60_000 === 0) return utcMinute(ms);
  return (ms % 1000 === 0 ? iso.slice(0, 19) : iso.slice(0, 23)).replace('T', ' ');
}

/**
 * A running replay's start and clock as the dialog lists them, as precisely as the coverage
 * shows a span's ends (utcTime): two replays of a recording started seconds apart read apart.
 */
export function runningWhen(s: Pick<ReplayStatusView, 'start' | 'time'>): { from: string; at: string } {
  return { from: utcTime(s.start), at: utcTime(s.time) };
}

/**
 * Where a running replay stands, for the dialog's list: "history failed" (faulted for good),
 * "finished" (its history played to the end), "paused", or "" while it plays.
 */
export function runningState(s: Pick<ReplayStatusView, 'finished' | 'paused' | 'fault'>): string {
  if (s.fault !== null) return 'history failed';
  if (s.finished) return 'finished';
  return s.paused ? 'paused' : '';
}

/**
 * "BTCUSDT from 2021-05-16 00:00" (the start as runningWhen gives it): what tells the running
 * replays apart in the dialog's list and its buttons' names; a repeat gets its place (#2).
 */
export function runningNames(
  list: ReadonlyArray<{ id: string | number; status: Pick<ReplayStatusView, 'symbols' | 'start' | 'time'> | null }>,
): string[] {
  const names = list.map((r) =>
    r.status ? `${r.status.symbols.join(' · ')} from ${runningWhen(r.status).from}` : `#${r.id}`,
  );
  return names.map((n, i) => (names.indexOf(n) === names.lastIndexOf(n) ? n : `${n} (#${i + 1})`));
}

/** 00:00 UTC of the day of `ms`. */
function utcDayStart(ms: number): number {
  return Math.floor(ms / 86_400_000) * 86_400_000;
}

/** "2021-05-16 00:00:00" (UTC, seconds): the banner's historical time. */
export function utcSecond(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * A UTC time typed as "YYYY-MM-DD HH:MM[:SS[.mmm]]" (or with a "T", or a bare date = 00:00, an
 * optional trailing "Z"/"UTC"); null when it is not one. To the ms, as the service takes it.
 */
export function parseUtc(text: string): number | null {
  const m = /^\s*(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?\s*(?:Z|UTC)?\s*$/i.exec(
    text,
  );
  if (!m) return null;
  const [y, mo, d, h = '0', mi = '0', s = '0', frac = ''] = m.slice(1);
  const ms = Number(frac.padEnd(3, '0'));
  const t = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms);
  const back = new Date(t);
  // Date.UTC rolls 2021-02-30 over to March and month 13 over to the next January (and reads
  // years 0000-0099 as 1900-1999): a date or time that does not exist is refused
  if (
    back.getUTCFullYear() !== Number(y) ||
    back.getUTCMonth() !== Number(mo) - 1 ||
    back.getUTCDate() !== Number(d) ||
    back.getUTCHours() !== Number(h) ||
    back.getUTCMinutes() !== Number(mi) ||
    Number(s) > 59
  )
    return null;
  return t;
}

export interface ReplayForm {
  symbols: string[];
  start: string;
  end: string;
  speed: string;
  balance: string;
  queueModel: QueueModel;
  /** Order entry latency, ms of history ('' or absent: 0). */
  orderLatency?: string;
  /** WebSocket market-data latency, ms of history ('' or absent: 0). */
  dataLatency?: string;
  /** Order response latency, ms of history ('' or absent: 0). */
  responseLatency?: string;
  /** The dataset chosen for a pair's main data (symbol -> id; absent: the venue's pick). */
  datasets?: Record<string, number>;
}

export interface ReplayRequest {
  symbols: string[];
  start: number;
  until: number;
  speed: number;
  balance: string;
  queue_model: QueueModel;
  order_latency?: number;
  data_latency?: number;
  response_latency?: number;
  /** The chosen datasets of the picked pairs (POST /api/v1/replays `datasets`). */
  datasets?: number[];
}

/** Largest order entry or market-data latency of a replay, ms (the API's bound). */
const MAX_REPLAY_LATENCY_MS = 60_000;

/** A latency field: '' is 0; else an integer of ms from 0 to MAX_REPLAY_LATENCY_MS, or null. */
function latencyMs(text: string | undefined): number | null {
  const t = (text ?? '').trim();
  if (t === '') return 0;
  if (!/^\d{1,6}$/.test(t) || Number(t) > MAX_REPLAY_LATENCY_MS) return null;
  return Number(t);
}

const MIN_REPLAY_SPEED = 0.1;
const MAX_REPLAY_SPEED = 10_000;

/** The span all `symbols` cover together, or null when they do not overlap. */
export function commonSpan(
  cov: readonly SymbolCoverage[],
  symbols: readonly string[],
): { first: number; end: number } | null {
  let first = -Infinity;
  let end = Infinity;
  for (const s of symbols) {
    const c = cov.find((x) => x.symbol === s);
    if (!c) return null;
    first = Math.max(first, c.first);
    end = Math.min(end, c.end);
  }
  return symbols.length > 0 && first < end ? { first, end } : null;
}

/**
 * Checks the dialog's fields against the stored data; either the request body of
 * POST /api/v1/replays or one message per field at fault (keys: symbols, start, end, speed,
 * balance), each saying what is wrong and what would be right.
 */
export function checkReplayForm(
  form: ReplayForm,
  cov: readonly SymbolCoverage[],
): { ok: true; request: ReplayRequest } | { ok: false; errors: Partial<Record<keyof ReplayForm, string>> } {
  const errors: Partial<Record<keyof ReplayForm, string>> = {};
  const span = commonSpan(cov, form.symbols);
  if (form.symbols.length === 0) errors.symbols = 'Pick at least one symbol.';
  else if (span === null)
    errors.symbols = `The data of ${form.symbols.join(' and ')} do not overlap in time: pick symbols with a common span.`;
  const start = parseUtc(form.start);
  const end = form.end.trim() === '' ? null : parseUtc(form.end);
  // the service's rule (replay.md, "A start just before the data"): a start earlier on the UTC
  // day of the data's first event starts at that event; earlier days are refused
  const earliest = span ? utcDayStart(span.first) : -Infinity;
  if (start === null) errors.start = 'Start must be a UTC time like 2021-05-16 00:00.';
  else if (span && (start < earliest || start >= span.end)) {
    const snap = earliest < span.first ? ` (a start before its first event, ${utcTime(span.first)}, starts there)` : '';
    errors.start = `Start is outside the data: it must be from ${utcMinute(earliest)} to before ${utcTime(span.end)} UTC${snap}.`;
  }
  // where the replay starts: the first event when the start is before it on its day
  const from = start !== null && span && start >= earliest && start < span.first ? span.first : start;
  if (form.end.trim() !== '' && end === null)
    errors.end = 'End must be a UTC time like 2021-05-17 00:00, or empty for the end of the data.';
  else if (end !== null && from !== null && end <= from)
    errors.end =
      start !== null && from > start
        ? `End must be after the start (the replay starts at the data's first event, ${utcTime(from)} UTC).`
        : 'End must be after the start.';
  else if (end !== null && span && end > span.end)
    errors.end = `End is past the data: the data end at ${utcTime(span.end)} UTC.`;
  const speed = Number(form.speed);
  if (form.speed.trim() === '' || !Number.isFinite(speed) || speed < MIN_REPLAY_SPEED || speed > MAX_REPLAY_SPEED)
    errors.speed = `Speed must be a number from ${MIN_REPLAY_SPEED} to ${MAX_REPLAY_SPEED.toLocaleString('en-US')}.`;
  const balance = form.balance.trim();
  if (!/^\d+(\.\d+)?$/.test(balance) || Number(balance) <= 0)
    errors.balance = 'Starting balance must be a positive amount of USDT, e.g. 10000.';
  const orderLatency = latencyMs(form.orderLatency);
  const dataLatency = latencyMs(form.dataLatency);
  const responseLatency = latencyMs(form.responseLatency);
  const latencyRule = `a whole number of ms from 0 to ${MAX_REPLAY_LATENCY_MS.toLocaleString('en-US')}, e.g. 50 (empty: none).`;
  if (orderLatency === null) errors.orderLatency = `Order latency must be ${latencyRule}`;
  if (dataLatency === null) errors.dataLatency = `Market-data latency must be ${latencyRule}`;
  if (responseLatency === null) errors.responseLatency = `Response latency must be ${latencyRule}`;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const pins = form.symbols.map((s) => form.datasets?.[s]).filter((id): id is number => id !== undefined);
  return {
    ok: true,
    request: {
      symbols: [...form.symbols],
      start: start!,
      until: end ?? span!.end,
      speed,
      balance,
      queue_model: form.queueModel,
      ...(orderLatency! > 0 ? { order_latency: orderLatency! } : {}),
      ...(dataLatency! > 0 ? { data_latency: dataLatency! } : {}),
      ...(responseLatency! > 0 ? { response_latency: responseLatency! } : {}),
      ...(pins.length > 0 ? { datasets: pins } : {}),
    },
  };
}

/** Speed presets of the replay controls (the `-` / `+` keys move along them). */
export const SPEED_PRESETS = [1, 2, 5, 10, 30, 60, 100, 300, 1000] as const;

/**
 * The next preset above (dir 1) or below (dir -1) `speed`; the same speed past either end (a
 * replay opened at 0.5x or 5000x, which the dialog allows: `-` there made it 1x, `+` 1000x).
 */
export function nextSpeed(speed: number, dir: 1 | -1): number {
  if (dir > 0) return SPEED_PRESETS.find((p) => p > speed + 1e-9) ?? speed;
  for (let i = SPEED_PRESETS.length - 1; i >= 0; i--) if (SPEED_PRESETS[i] < speed - 1e-9) return SPEED_PRESETS[i];
  return speed;
}

/** Whether Play / Pause can act: not on a replay driven in lockstep, finished or faulted (the banner's button and Space alike). */
export function canPlay(status: { lockstep: boolean; finished: boolean; fault?: unknown }): boolean {
  return !status.lockstep && !status.finished && !status.fault;
}

export const STEPS: ReadonlyArray<readonly [label: string, ms: number]> = [
  ['1s', 1_000],
  ['1m', 60_000],
  ['1h', 3_600_000],
];

/** "100x", "0.5x", "1,000x". */
export function speedLabel(speed: number): string {
  return `${speed.toLocaleString('en-US', { maximumFractionDigits: 2 })}x`;
}

/** Share of the replay's span played, 0..1. */
export function progress(s: Pick<ReplayStatusView, 'start' | 'until' | 'time'>): number {
  if (!(s.until > s.start)) return 0;
  return Math.min(1, Math.max(0, (s.time - s.start) / (s.until - s.start)));
}

/** The banner's state word: faulted (applying history failed, docs/replay.md) before all else. */
export function playState(
  s: Pick<ReplayStatusView, 'paused' | 'lockstep' | 'finished'> & Partial<Pick<ReplayStatusView, 'fault'>>,
): 'faulted' | 'finished' | 'lockstep' | 'paused' | 'playing' {
  if (s.fault) return 'faulted';
  if (s.finished) return 'finished';
  if (s.lockstep) return 'lockstep';
  return s.paused ? 'paused' : 'playing';
}

/** One account's session report (GET /api/v1/replay/report?format=json: `data.accounts[]`). */
export type ReplayReportView = ReplayAccountReport;

/** Equity curve points for a line series: seconds, ascending, one point per second (the last wins). */
export function equityPoints(
  curve: ReadonlyArray<readonly [number, string | number]>,
): Array<{ time: number; value: number }> {
  const out: Array<{ time: number; value: number }> = [];
  for (const [t, v] of [...curve].sort((a, b) => a[0] - b[0])) {
    const time = Math.floor(t / 1000);
    const value = Number(v);
    if (!Number.isFinite(value)) continue;
    if (out.length > 0 && out[out.length - 1].time === time) out[out.length - 1].value = value;
    else out.push({ time, value });
  }
  return out;
}

/**
 * What the report's chart draws: the net equity (equity less the cash deposited, withdrawn or
 * set by a reset since the account entered the report), the curve max drawdown is measured on,
 * so a deposit is no jump; and the equity itself, faint, only when cash moved (the two differ).
 */
export function equitySeries(report: Pick<ReplayReportView, 'equity_curve' | 'net_equity_curve'>): {
  net: Array<{ time: number; value: number }>;
  equity: Array<{ time: number; value: number }> | null;
} {
  const net = equityPoints(report.net_equity_curve ?? report.equity_curve ?? []);
  const equity = equityPoints(report.equity_curve ?? []);
  const same = equity.length === net.length && equity.every((p, i) => p.value === net[i].value);
  return { net, equity: same ? null : equity };
}

/** "3h 05m", "12m 30s", "45s", "2d 4h" for time in market. */
export function fmtDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (d > 0) return `${d}d ${h}h`;
  if (h > 0) return `${h}h ${String(m).padStart(2, '0')}m`;
  if (m > 0) return `${m}m ${String(sec).padStart(2, '0')}s`;
  return `${sec}s`;
}

/** Download address of the report. */
export function reportUrl(baseUrl: string, format: 'json' | 'csv'): string {
  return `${baseUrl.replace(/\/+$/, '')}/api/v1/replay/report?format=${format}`;
}
