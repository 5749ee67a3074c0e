// Display formatting. Every price and quantity on screen goes through here with the symbol's
// own precision (price_precision / qty_precision of /fapi/v1/symbols), so columns line up and
// no value shows more or fewer decimals than the venue uses. Wire strings are parsed with
// Number: display only, never arithmetic that is sent back (order fields keep their text).

const fixedCache = new Map<number, Intl.NumberFormat>();

function fixedFormat(decimals: number): Intl.NumberFormat {
  let f = fixedCache.get(decimals);
  if (f === undefined) {
    const d = Math.max(0, Math.min(20, Math.trunc(decimals)));
    f = new Intl.NumberFormat('en-US', { minimumFractionDigits: d, maximumFractionDigits: d, useGrouping: true });
    fixedCache.set(decimals, f);
  }
  return f;
}

/** Parses a wire value for display; NaN for anything unusable. */
export function num(v: number | string | null | undefined): number {
  if (v === null || v === undefined || v === '') return NaN;
  return typeof v === 'number' ? v : Number(v);
}

/** A number with exactly `decimals` decimals and thousands separators; '—' when absent. */
export function fmt(v: number | string | null | undefined, decimals: number): string {
  const n = num(v);
  if (!Number.isFinite(n)) return '—';
  const s = fixedFormat(decimals).format(n);
  // Intl writes -0.00 for tiny negatives; a zero has no sign.
  return s.startsWith('-') && /^-[0,.]*$/.test(s) ? s.slice(1) : s;
}

/** Like `fmt` with a leading '+' for positive values (PnL, changes). */
export function fmtSigned(v: number | string | null | undefined, decimals: number): string {
  const n = num(v);
  const s = fmt(n, decimals);
  return Number.isFinite(n) && n > 0 && !/^[0,.]*$/.test(s) ? `+${s}` : s;
}

/**
 * The colour class of a signed figure as written at `decimals`: 'up' above zero, 'down' below,
 * none for one that reads as zero ("0.00" of -0.001 is not red).
 */
export function signClass(v: number | string | null | undefined, decimals: number): '' | 'up' | 'down' {
  const n = num(v);
  if (!Number.isFinite(n) || /^[-0,.]*$/.test(fmt(n, decimals))) return '';
  return n > 0 ? 'up' : 'down';
}

/** A ratio (0.0123) as a percentage ("1.23%"). */
export function fmtPct(ratio: number | string | null | undefined, decimals = 2, signed = false): string {
  const n = num(ratio);
  if (!Number.isFinite(n)) return '—';
  return `${signed ? fmtSigned(n * 100, decimals) : fmt(n * 100, decimals)}%`;
}

/**
 * A small share as a percent that still says something: at least `min` decimals, and as many more
 * (up to 6) as its first significant digit needs: a one-tick spread of BTC, 0.1 on 96,000, is
 * "0.0001%", not "0.000%"; 0.5 % stays "0.50%".
 */
export function fmtSmallPct(ratio: number, min = 2): string {
  const p = Math.abs(ratio * 100);
  const needed = p > 0 && Number.isFinite(p) ? Math.ceil(-Math.log10(p) - 1e-9) : 0;
  return fmtPct(ratio, Math.min(6, Math.max(min, needed)));
}

/** Large amounts shortened: 1.23K, 4.56M, 7.89B. */
export function fmtCompact(v: number | string | null | undefined, decimals = 2): string {
  const n = num(v);
  if (!Number.isFinite(n)) return '—';
  const a = Math.abs(n);
  if (a >= 1e9) return `${fmt(n / 1e9, decimals)}B`;
  if (a >= 1e6) return `${fmt(n / 1e6, decimals)}M`;
  if (a >= 1e4) return `${fmt(n / 1e3, decimals)}K`;
  return fmt(n, a >= 100 ? Math.min(decimals, 2) : decimals);
}

/** USDT amounts: 2 decimals. */
export function fmtUsd(v: number | string | null | undefined): string {
  return fmt(v, 2);
}

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

/** HH:MM:SS of a ms timestamp, UTC (market time is UTC). */
export function fmtTime(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  const d = new Date(ms);
  return `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`;
}

/** YYYY-MM-DD HH:MM:SS of a ms timestamp, UTC. */
export function fmtDateTime(ms: number): string {
  if (!Number.isFinite(ms) || ms <= 0) return '—';
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ${fmtTime(ms)}`;
}

/**
 * A span of market time, UTC, to the second: "2026-12-06 21:35:10 to 21:35:12", the end's date
 * written when it is another day, and one instant ("2026-12-06 21:35:10") for a span inside a second.
 */
export function fmtSpan(from: number, to: number): string {
  const start = fmtDateTime(from);
  const end = fmtDateTime(to);
  if (end === start) return start;
  return end.slice(0, 10) === start.slice(0, 10) ? `${start} to ${fmtTime(to)}` : `${start} to ${end}`;
}

/** A duration as HH:MM:SS (hours may exceed 24); negative counts as zero. */
export function fmtCountdown(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${pad2(Math.floor(s / 3600))}:${pad2(Math.floor((s % 3600) / 60))}:${pad2(s % 60)}`;
}

/**
 * An amount written with all its decimals, at least `min` ("12345.67800000" -> "12,345.678",
 * "20000" -> "20,000.00"): a paper balance the trader typed, which 2 decimals rounded.
 */
export function fmtAmount(v: string, min = 2): string {
  return fmt(v, Math.max(min, decimalsOf(v.trim())));
}

/** Decimals a step is written with: "0.001" -> 3, "1" -> 0, "0.50" -> 1. */
export function decimalsOf(step: string): number {
  const dot = step.indexOf('.');
  if (dot < 0) return 0;
  return step.slice(dot + 1).replace(/0+$/, '').length;
}

/**
 * `value` rounded down (or to nearest) to a multiple of `step`, written with the step's
 * decimals; exact for steps and values of up to 15 significant digits. Empty for <= 0.
 */
export function toStep(value: number, step: string, mode: 'floor' | 'round' | 'ceil' = 'floor'): string {
  const d = decimalsOf(step);
  const scale = 10 ** d;
  const stepUnits = Math.round(Number(step) * scale);
  if (!(value > 0) || !(stepUnits > 0)) return '';
  const raw = value * scale;
  // A hair of tolerance so that 0.3 / 0.1 style float noise does not drop a whole step.
  const k =
    mode === 'floor'
      ? Math.floor(raw / stepUnits + 1e-9)
      : mode === 'ceil'
        ? Math.ceil(raw / stepUnits - 1e-9)
        : Math.round(raw / stepUnits);
  if (k <= 0) return '';
  return ((k * stepUnits) / scale).toFixed(d);
}
