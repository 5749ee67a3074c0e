// Decimal strings <-> integer units: the project's one conversion module (DESIGN section 8).
//
// Inside, prices and quantities are integer counts of a step (ticks, lots); on the wire they
// are decimal strings. A `StepScale`, built once per step, converts both ways with character
// and integer arithmetic: no decimal.js object, no float division, and exactly one small
// object per successful parse (errors are shared constants). Nothing is ever rounded
// silently: a value that is not an exact multiple of the step is an error.
//
// Accepted grammar (wire decimals): `-?(0|[1-9][0-9]*)(\.[0-9]+)?`. So no '+', no exponent,
// no blanks, no leading zeros, no bare '.', '1.' or '.5'; trailing fraction zeros are fine
// ("1.50"). A leading '-' is accepted only when the caller allows negatives.
//
// Limits: unit counts are safe integers (|units| <= Number.MAX_SAFE_INTEGER, else 'range');
// steps and precisions have at most 18 decimals. bigint carries the rare wide values
// (notional products, balances with many decimals) exactly.

import Decimal from 'decimal.js';

/** Why a decimal string was refused. */
export type UnitsErrorReason =
  /** Not a decimal string of the grammar above. */
  | 'format'
  /** Not an exact multiple of the step. */
  | 'off_step'
  /** More than Number.MAX_SAFE_INTEGER units. */
  | 'range'
  /** A leading '-' where negatives are not allowed (also "-0"). */
  | 'negative'
  /** Zero where zero is not allowed. */
  | 'zero';

export type UnitsError = { readonly ok: false; readonly reason: UnitsErrorReason };
/** Result of a parse into a safe-integer count of steps. */
export type UnitsResult = { readonly ok: true; readonly value: number } | UnitsError;
/** Result of a parse into a bigint count of 10^-decimals. */
export type BigUnitsResult = { readonly ok: true; readonly value: bigint } | UnitsError;

export interface ParseOptions {
  /** Accept a leading '-'. Default false (reason 'negative'). */
  readonly allowNegative?: boolean;
  /** Accept zero. Default false (reason 'zero'): prices and order quantities are positive. */
  readonly allowZero?: boolean;
}

/** Rounding for `rescaleFixed`. 'trunc' goes toward zero; 'half_up' takes ties away from zero. */
export type Rounding = 'trunc' | 'floor' | 'ceil' | 'half_up' | 'half_even';

export const MAX_DECIMALS = 18;

const ERR_FORMAT: UnitsError = Object.freeze({ ok: false, reason: 'format' });
const ERR_OFF_STEP: UnitsError = Object.freeze({ ok: false, reason: 'off_step' });
const ERR_RANGE: UnitsError = Object.freeze({ ok: false, reason: 'range' });
const ERR_NEGATIVE: UnitsError = Object.freeze({ ok: false, reason: 'negative' });
const ERR_ZERO: UnitsError = Object.freeze({ ok: false, reason: 'zero' });
const OK_ZERO: UnitsResult = Object.freeze({ ok: true, value: 0 });

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const MAX_SAFE_BIG = BigInt(MAX_SAFE);
/** Largest v with v * 10 + 9 <= MAX_SAFE. */
const SAFE_TIMES_TEN = Math.floor((MAX_SAFE - 9) / 10);
const ZEROS = '0'.repeat(MAX_DECIMALS * 2 + 2);

// ---------------------------------------------------------------- scanner

const SCAN_OK = 0;
const SCAN_FORMAT = 1;
/** Well-formed, but a nonzero digit lies beyond the wanted decimals. */
const SCAN_TOO_FINE = 2;

// The scanner's outputs live in module variables so a parse allocates nothing (JS runs one
// scan at a time, and every caller reads them right after the call).
let scanNegative = false;
/** The digits read as an integer of 10^-decimals, when `scanWide` is false. */
let scanValue = 0;
/** The value did not fit a safe integer; use `scanBig()`. */
let scanWide = false;

/** Reads `text` as a count of 10^-decimals. */
function scan(text: string, decimals: number): number {
  // JSON bodies are not trusted to carry strings; a number here is a format error, not a crash.
  if (typeof text !== 'string') return SCAN_FORMAT;
  const len = text.length;
  let i = 0;
  let neg = false;
  if (len === 0) return SCAN_FORMAT;
  let c = text.charCodeAt(0);
  if (c === 45 /* - */) {
    neg = true;
    i = 1;
    if (len === 1) return SCAN_FORMAT;
    c = text.charCodeAt(1);
  }
  if (c < 48 || c > 57) return SCAN_FORMAT;
  if (c === 48 && i + 1 < len) {
    const next = text.charCodeAt(i + 1);
    if (next >= 48 && next <= 57) return SCAN_FORMAT; // leading zero
  }
  let v = 0;
  let wide = false;
  for (; i < len; i++) {
    c = text.charCodeAt(i);
    if (c < 48 || c > 57) break;
    if (!wide) {
      if (v > SAFE_TIMES_TEN) wide = true;
      else v = v * 10 + (c - 48);
    }
  }
  let frac = 0;
  let tooFine = false;
  if (i < len) {
    if (c !== 46 /* . */) return SCAN_FORMAT;
    i++;
    if (i === len) return SCAN_FORMAT;
    for (; i < len; i++) {
      c = text.charCodeAt(i);
      if (c < 48 || c > 57) return SCAN_FORMAT;
      if (frac < decimals) {
        frac++;
        if (!wide) {
          if (v > SAFE_TIMES_TEN) wide = true;
          else v = v * 10 + (c - 48);
        }
      } else if (c !== 48) {
        tooFine = true;
      }
    }
  }
  for (; frac < decimals && !wide; frac++) {
    if (v > SAFE_TIMES_TEN) wide = true;
    else v *= 10;
  }
  scanNegative = neg;
  scanValue = v;
  scanWide = wide;
  return tooFine ? SCAN_TOO_FINE : SCAN_OK;
}

/** The magnitude of a text `scan` accepted, as a bigint of 10^-decimals (the wide path). */
function scanBig(text: string, decimals: number): bigint {
  const body = text.charCodeAt(0) === 45 ? text.slice(1) : text;
  const dot = body.indexOf('.');
  const int = dot < 0 ? body : body.slice(0, dot);
  const frac = dot < 0 ? '' : body.slice(dot + 1, dot + 1 + decimals);
  return BigInt(int + frac + ZEROS.slice(0, decimals - frac.length));
}

/** Whether `text` follows the wire grammar (see the top of this file). */
export function isDecimalString(text: string, allowNegative = false): boolean {
  if (scan(text, 0) === SCAN_FORMAT) return false;
  return allowNegative || !scanNegative;
}

// ---------------------------------------------------------------- formatting helpers

/** `digits` (a non-negative integer string) times 10^-shift, written with `decimals` >= shift decimals. */
function placePoint(digits: string, negative: boolean, shift: number, decimals: number): string {
  let int: string;
  let frac: string;
  if (shift === 0) {
    int = digits;
    frac = '';
  } else if (digits.length > shift) {
    int = digits.slice(0, digits.length - shift);
    frac = digits.slice(digits.length - shift);
  } else {
    int = '0';
    frac = ZEROS.slice(0, shift - digits.length) + digits;
  }
  const sign = negative && digits !== '0' ? '-' : '';
  if (decimals === 0) return sign + int;
  return sign + int + '.' + frac + ZEROS.slice(0, decimals - shift);
}

function checkDecimals(decimals: number, what: string): void {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_DECIMALS) {
    throw new RangeError(`${what} must be an integer from 0 to ${MAX_DECIMALS}, got ${decimals}`);
  }
}

/**
 * Integer `units` of 10^-decimals as a decimal string with exactly `decimals` decimals:
 * `formatFixed(12345n, 2) === "123.45"`, `formatFixed(-5, 3) === "-0.005"`.
 */
export function formatFixed(units: bigint | number, decimals: number): string {
  checkDecimals(decimals, 'decimals');
  if (typeof units === 'number') {
    if (!Number.isInteger(units)) throw new RangeError(`units must be an integer, got ${units}`);
    const neg = units < 0;
    const abs = neg ? -units : units;
    // String() of an integer above 1e21 uses an exponent; BigInt() is exact for any integer double.
    return placePoint(abs <= MAX_SAFE ? String(abs) : BigInt(abs).toString(), neg, decimals, decimals);
  }
  const neg = units < 0n;
  return placePoint((neg ? -units : units).toString(), neg, decimals, decimals);
}

/**
 * Exact parse of a decimal string into a bigint count of 10^-decimals (balances, notional
 * limits): `parseFixed("1.5", 2)` is 150n. More nonzero decimals than `decimals` give
 * 'off_step'. No 'range' limit.
 */
export function parseFixed(text: string, decimals: number, opts?: ParseOptions): BigUnitsResult {
  checkDecimals(decimals, 'decimals');
  const code = scan(text, decimals);
  if (code === SCAN_FORMAT) return ERR_FORMAT;
  if (scanNegative && opts?.allowNegative !== true) return ERR_NEGATIVE;
  if (code === SCAN_TOO_FINE) return ERR_OFF_STEP;
  const mag = scanWide ? scanBig(text, decimals) : BigInt(scanValue);
  if (mag === 0n) return opts?.allowZero === true ? { ok: true, value: 0n } : ERR_ZERO;
  return { ok: true, value: scanNegative ? -mag : mag };
}

/** The nearest double to integer `units` of 10^-decimals (for the spec's JSON-number fields). */
export function unitsToNumber(units: bigint | number, decimals: number): number {
  if (decimals === 0 && typeof units === 'number') return units;
  return Number(formatFixed(units, decimals));
}

/**
 * A double written with exactly `decimals` decimals, rounding its shortest round-trip form
 * half away from zero: `formatNumber(1.005, 2) === "1.01"` (where `toFixed` gives "1.00"),
 * never an exponent, never "-0.00". For display and the JSON-number records; internal
 * amounts are integers and use `formatFixed`.
 */
export function formatNumber(value: number, decimals: number): string {
  checkDecimals(decimals, 'decimals');
  if (!Number.isFinite(value)) throw new RangeError(`value must be finite, got ${value}`);
  if (Number.isSafeInteger(value)) return formatFixed(value, 0) + (decimals > 0 ? '.' + ZEROS.slice(0, decimals) : '');
  const s = new Decimal(value).toFixed(decimals, Decimal.ROUND_HALF_UP);
  return s.charCodeAt(0) === 45 && /^-0(\.0*)?$/.test(s) ? s.slice(1) : s;
}

/** Integer `units` of 10^-from re-expressed in 10^-to, rounded as asked when `to < from`. */
export function rescaleFixed(units: bigint, from: number, to: number, rounding: Rounding): bigint {
  checkDecimals(from, 'from');
  checkDecimals(to, 'to');
  if (to >= from) return units * 10n ** BigInt(to - from);
  const div = 10n ** BigInt(from - to);
  const q = units / div; // truncates toward zero
  const r = units - q * div;
  if (r === 0n) return q;
  const sign = units < 0n ? -1n : 1n;
  switch (rounding) {
    case 'trunc':
      return q;
    case 'floor':
      return sign < 0n ? q - 1n : q;
    case 'ceil':
      return sign > 0n ? q + 1n : q;
    case 'half_up':
    case 'half_even': {
      const twice = (r < 0n ? -r : r) * 2n;
      if (twice > div) return q + sign;
      if (twice < div) return q;
      if (rounding === 'half_up') return q + sign;
      return q % 2n === 0n ? q : q + sign;
    }
  }
}

// ---------------------------------------------------------------- step scales

/**
 * Conversion between decimal strings and integer counts of one step, created once per
 * symbol field (`createScale(symbol.price_step, symbol.price_precision)`).
 */
export class StepScale {
  /** The step as given, e.g. "0.10". */
  readonly step: string;
  /** The step as an integer of 10^-stepDecimals: "0.10" -> 1, "0.5" -> 5, "5" -> 5. */
  readonly stepUnits: number;
  /** Decimals of the step with trailing zeros removed: "0.10" -> 1, "5" -> 0. */
  readonly stepDecimals: number;
  /** Decimals `fromUnits` writes; at least `stepDecimals`. */
  readonly precision: number;

  constructor(step: string, precision?: number) {
    if (scan(step, MAX_DECIMALS) !== SCAN_OK || scanNegative) {
      throw new RangeError(
        `step must be a positive decimal string with at most ${MAX_DECIMALS} decimals, got ${JSON.stringify(step)}`,
      );
    }
    const dot = step.indexOf('.');
    const written = dot < 0 ? 0 : step.length - dot - 1;
    // Trailing zeros of the fraction do not change the step ("0.10" is one tenth).
    let decimals = written;
    let units = dot < 0 ? step : step.slice(0, dot) + step.slice(dot + 1);
    while (decimals > 0 && units.endsWith('0')) {
      units = units.slice(0, -1);
      decimals--;
    }
    const n = Number(units);
    if (n === 0) throw new RangeError(`step must be positive, got ${JSON.stringify(step)}`);
    if (!Number.isSafeInteger(n)) throw new RangeError(`step has too many digits: ${JSON.stringify(step)}`);
    const p = precision ?? written;
    checkDecimals(p, 'precision');
    if (p < decimals) {
      throw new RangeError(`precision ${p} cannot show every multiple of step ${step} (needs ${decimals})`);
    }
    this.step = step;
    this.stepUnits = n;
    this.stepDecimals = decimals;
    this.precision = p;
  }

  /** The count of steps `text` is; an error result unless it is an exact, in-range multiple. */
  toUnits(text: string, opts?: ParseOptions): UnitsResult {
    const code = scan(text, this.stepDecimals);
    if (code === SCAN_FORMAT) return ERR_FORMAT;
    const neg = scanNegative;
    if (neg && opts?.allowNegative !== true) return ERR_NEGATIVE;
    if (code === SCAN_TOO_FINE) return ERR_OFF_STEP;
    const m = this.stepUnits;
    let u: number;
    if (!scanWide) {
      const v = scanValue;
      if (m === 1) u = v;
      else {
        if (v % m !== 0) return ERR_OFF_STEP;
        u = v / m; // exact: m divides v and both are safe integers
      }
    } else {
      const v = scanBig(text, this.stepDecimals);
      const bm = BigInt(m);
      if (v % bm !== 0n) return ERR_OFF_STEP;
      const q = v / bm;
      if (q > MAX_SAFE_BIG) return ERR_RANGE;
      u = Number(q);
    }
    if (u === 0) return opts?.allowZero === true ? OK_ZERO : ERR_ZERO;
    return { ok: true, value: neg ? -u : u };
  }

  /** `toUnits` for trusted text (configuration); throws a RangeError naming the reason. */
  mustToUnits(text: string, opts?: ParseOptions): number {
    const r = this.toUnits(text, opts);
    if (!r.ok) throw new RangeError(`${JSON.stringify(text)} is not a valid multiple of ${this.step}: ${r.reason}`);
    return r.value;
  }

  /** `units` steps as a decimal string with `precision` decimals: step "0.1", 123456 -> "12345.6". */
  fromUnits(units: number | bigint): string {
    if (typeof units === 'number') {
      if (!Number.isSafeInteger(units)) throw new RangeError(`units must be a safe integer, got ${units}`);
      const neg = units < 0;
      const v = (neg ? -units : units) * this.stepUnits;
      if (v <= MAX_SAFE) return placePoint(String(v), neg, this.stepDecimals, this.precision);
      return placePoint(
        (BigInt(neg ? -units : units) * BigInt(this.stepUnits)).toString(),
        neg,
        this.stepDecimals,
        this.precision,
      );
    }
    const neg = units < 0n;
    const v = (neg ? -units : units) * BigInt(this.stepUnits);
    return placePoint(v.toString(), neg, this.stepDecimals, this.precision);
  }

  /** `units` steps as a bigint of 10^-stepDecimals (to combine scales exactly). */
  toFixedUnits(units: number | bigint): bigint {
    return BigInt(units) * BigInt(this.stepUnits);
  }
}

/** A scale for `step`, writing `precision` decimals (default: the decimals `step` is written with). */
export function createScale(step: string, precision?: number): StepScale {
  return new StepScale(step, precision);
}

// The free functions below look scales up here; steps are few (one per symbol field).
const scaleCache = new Map<string, StepScale>();
function cachedScale(step: string, precision: number | undefined): StepScale {
  const key = precision === undefined ? step : step + '|' + precision;
  let s = scaleCache.get(key);
  if (s === undefined) {
    s = new StepScale(step, precision);
    if (scaleCache.size >= 1024) scaleCache.clear();
    scaleCache.set(key, s);
  }
  return s;
}

/** `createScale(step).toUnits(text, opts)`, with the scale cached. Throws only for a bad step. */
export function toUnits(text: string, step: string, opts?: ParseOptions): UnitsResult {
  return cachedScale(step, undefined).toUnits(text, opts);
}

/** `createScale(step, precision).fromUnits(units)`, with the scale cached: `fromUnits(123456, "0.1", 1) === "12345.6"`. */
export function fromUnits(units: number | bigint, step: string, precision?: number): string {
  return cachedScale(step, precision).fromUnits(units);
}

// ---------------------------------------------------------------- notional

/** Decimals of `notionalUnits(…, price, …, qty)`: price.stepDecimals + qty.stepDecimals. */
export function notionalDecimals(price: StepScale, qty: StepScale): number {
  return price.stepDecimals + qty.stepDecimals;
}

/**
 * Exact price x quantity as a bigint of 10^-notionalDecimals(price, qty). Compare it with
 * `parseFixed(minNotional, notionalDecimals(price, qty))`, or bring it to the quote
 * precision with `rescaleFixed`.
 */
export function notionalUnits(priceUnits: number, price: StepScale, qtyUnits: number, qty: StepScale): bigint {
  const a = priceUnits * price.stepUnits;
  const b = qtyUnits * qty.stepUnits;
  // A float product below 2^53 means the exact product is too (rounding is monotonic).
  if (Math.abs(a) <= MAX_SAFE && Math.abs(b) <= MAX_SAFE && Math.abs(a * b) <= MAX_SAFE) return BigInt(a * b);
  return BigInt(priceUnits) * BigInt(price.stepUnits) * BigInt(qtyUnits) * BigInt(qty.stepUnits);
}
