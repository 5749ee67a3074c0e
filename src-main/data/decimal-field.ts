// Fast reads of the archive's numeric fields: a decimal string into its integer mantissa and
// its number of decimals ("42314.50" -> 4231450, 2), an integer field, a boolean field.
// No allocation per call (the decimals land in a field of the reader); NaN means "not this
// kind of field", so callers turn it into a row error with the field's name.

const MAX = Number.MAX_SAFE_INTEGER;

export class DecimalReader {
  /** Decimals of the last successful read(). */
  dp = 0;

  /**
   * Mantissa of `s` (grammar -?digits(.digits)?, leading zeros tolerated), NaN when malformed,
   * negative without leave, or past 2^53 unless `wide` (then only the form and `dp` are exact:
   * for validating values kept as text, such as 17-digit quote volumes).
   */
  read(s: string, allowNegative = false, wide = false): number {
    const n = s.length;
    let i = 0;
    let neg = false;
    if (n > 0 && s.charCodeAt(0) === 45) {
      if (!allowNegative) return Number.NaN;
      neg = true;
      i = 1;
    }
    let v = 0;
    let digits = 0;
    let dp = -1;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 48 && c <= 57) {
        v = v * 10 + (c - 48);
        digits++;
        if (dp >= 0) dp++;
      } else if (c === 46 && dp < 0) {
        if (digits === 0) return Number.NaN;
        dp = 0;
      } else return Number.NaN;
    }
    if (digits === 0 || dp === 0 || (v > MAX && !wide)) return Number.NaN;
    this.dp = dp < 0 ? 0 : dp;
    return neg ? -v : v;
  }
}

/** A non-negative safe integer field, NaN otherwise. */
export function readInt(s: string): number {
  const n = s.length;
  if (n === 0 || n > 16) return n > 16 && /^\d+$/.test(s) && Number(s) <= MAX ? Number(s) : Number.NaN;
  let v = 0;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return Number.NaN;
    v = v * 10 + (c - 48);
  }
  return v;
}

/** 1 for true, 0 for false (the archive writes true/false in futures, True/False in spot), -1 otherwise. */
export function readBool(s: string): number {
  if (s === 'true' || s === 'True') return 1;
  if (s === 'false' || s === 'False') return 0;
  return -1;
}

const POW10: number[] = [];
for (let i = 0, p = 1; i <= 18; i++, p *= 10) POW10.push(p);

/** Mantissa m of `dp` decimals re-expressed with `to` >= dp decimals; NaN past 2^53. */
export function rescale(m: number, dp: number, to: number): number {
  if (dp === to) return m;
  const v = m * POW10[to - dp];
  return Number.isSafeInteger(v) ? v : Number.NaN;
}

/**
 * Times in the archive are ms, except spot files from 2025 on, in µs. Told apart by magnitude:
 * 1e14 ms is the year 5138 and 1e14 µs is 1973, so anything at or above is µs.
 */
const MICROS_FROM = 1e14;

/** A ms or µs timestamp field as µs, NaN when not an integer. */
export function timeMicros(s: string): number {
  const v = readInt(s);
  return v >= MICROS_FROM ? v : v * 1000;
}

/**
 * A value for an error message: whole (JSON-quoted) up to `max` characters, else cut there with
 * its length said, as the API's limit errors quote a sent value (api/routes/klines.ts).
 */
export function quoted(s: string, max = 64): string {
  return s.length > max ? `${JSON.stringify(s.slice(0, max))}... (${s.length} characters)` : JSON.stringify(s);
}

/** Most characters a numeric field may have, sign and point included (the archive's longest, a quote volume, has about 20). */
const MAX_FIELD_CHARS = 32;

/**
 * How a field is held downstream, so how large it may be:
 * - 'written': an integer of units of its last decimal as written, a double (candle prices, which
 *   coarse candles read so; a trade's price, quantity and quote quantity, which its block stores so);
 * - 'lots': an integer of units of its last significant decimal (trailing zeros not counted), a
 *   double (candle volumes: the venue counts them in lots of a step read from those decimals);
 * - 'money': exact text or a bigint (quote volumes, notionals): only the characters are bounded.
 */
export type FieldHold = 'written' | 'lots' | 'money';

const MAX_DIGITS = String(MAX).length;

/**
 * Why a well-formed decimal field is too large for the store and the venue, or null: more than
 * MAX_FIELD_CHARS characters, or (but 'money') more than 2^53 - 1 units.
 */
export function sizeProblem(s: string, hold: FieldHold): string | null {
  if (s.length > MAX_FIELD_CHARS)
    return `has ${s.length} characters, more than the ${MAX_FIELD_CHARS} a value may have`;
  if (hold === 'money') return null;
  const dot = s.indexOf('.');
  let frac = dot < 0 ? '' : s.slice(dot + 1);
  if (hold === 'lots') frac = frac.replace(/0+$/, '');
  const digits = ((dot < 0 ? s : s.slice(0, dot)).replace(/^-/, '') + frac).replace(/^0+/, '');
  if (digits.length < MAX_DIGITS || (digits.length === MAX_DIGITS && digits <= String(MAX))) return null;
  const unit = frac.length === 0 ? '1' : `0.${'0'.repeat(frac.length - 1)}1`;
  return `is too large: more than 2^53 - 1 (${MAX}) units of ${unit}, what the venue can count`;
}
