// Binance-style request parameters: the query string and a form body read together (Binance's
// "totalParams"; the facade's form parser merges the body into the query before the route's
// schema validates them). Unknown parameters are ignored as Binance ignores them; each getter
// refuses a malformed value with Binance's code (-1100 illegal characters, -1102 mandatory
// missing, -1130 invalid data) and the parameter's name, and reads a value as text (the
// validator may have made a number of it).
import { BinanceError, illegal, legalRange, mandatory, notOneOf, outsideBounds, type ParamRule } from './errors.ts';
import { BOOL_WORDS } from './schemas.ts';

const INT = /^-?\d{1,16}$/;
/** Keys never copied into a parameters object. */
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * -1101, Binance's refusal of a parameter sent more than once (in the query, or in the form body;
 * `other`: also under another spelling of its name).
 */
export function duplicated(name: string, other?: string): BinanceError {
  const as = other === undefined ? '' : ` (as ${name} and ${other})`;
  return new BinanceError(
    -1101,
    `Duplicate values for a parameter detected. Parameter '${name}' was sent more than once${as}; send it once.`,
  );
}

/**
 * Adds the parameters of a form body's URL-encoded text to `into`, the query's parameters, as
 * URLSearchParams reads them (a text with nothing to decode is split directly): a name also in
 * the query keeps the query's value, as Binance reads totalParams ("If a parameter sent in both
 * the query string and request body, the query string parameter will be used"); a name sent
 * twice in the body is refused (-1101), as a name sent twice in the query is.
 */
export function addFormParams(text: string, into: Record<string, unknown>): void {
  // the query's names (none, the usual case: ccxt signs POST / PUT entirely in the body)
  let fromQuery: Set<string> | undefined;
  for (const k in into) (fromQuery ??= new Set()).add(k);
  const add = (k: string, v: string) => {
    if (UNSAFE_KEYS.has(k)) return;
    if (fromQuery?.has(k) === true) return;
    if (Object.hasOwn(into, k)) throw duplicated(k);
    into[k] = v;
  };
  if (text.includes('%') || text.includes('+')) {
    for (const [k, v] of new URLSearchParams(text)) add(k, v);
    return;
  }
  const n = text.length;
  for (let i = 0; i < n;) {
    let j = text.indexOf('&', i);
    if (j < 0) j = n;
    if (j > i) {
      const e = text.indexOf('=', i);
      if (e < 0 || e > j) add(text.slice(i, j), '');
      else add(text.slice(i, e), text.slice(e + 1, j));
    }
    i = j + 1;
  }
}

const patterns = new Map<string, RegExp>();
const patternOf = (p: string): RegExp => {
  let r = patterns.get(p);
  if (r === undefined) patterns.set(p, (r = new RegExp(p)));
  return r;
};

export class Params {
  /** The values by name: read only through the getters, with the parameter names of this facade. */
  private readonly values: Record<string, unknown>;

  private constructor(values: Record<string, unknown>) {
    this.values = values;
  }

  /**
   * The parameters of a request already merged and validated (the request's query object, read
   * in place, not copied), or of one entry of a batch.
   */
  static of(values: Record<string, unknown>): Params {
    return new Params(values);
  }

  has(name: string): boolean {
    const v = this.values[name];
    return v !== undefined && v !== null && v !== '';
  }

  /**
   * A batch entry checked as its route's schema checks a single request (no schema sees an
   * entry), `rules` being that route's parameters: one sent empty is -1102, a text off its
   * pattern -1100, an integer not a whole number within its bounds -1100 / -1130, each with the
   * single route's message. Enumerations are the handler's (their own codes: -1117 side...).
   */
  checkAs(rules: Record<string, ParamRule>): void {
    for (const [name, rule] of Object.entries(rules)) {
      const v = this.values[name];
      if (v === '') throw mandatory(name, legalRange(name, rule));
      if (v === undefined || v === null) continue;
      if (typeof rule.pattern === 'string' && !patternOf(rule.pattern).test(String(v)))
        throw illegal(name, rule.pattern);
      if (rule.type === 'integer' && typeof rule.minimum === 'number' && typeof rule.maximum === 'number')
        this.int(name, rule.minimum, rule.maximum);
    }
  }

  str(name: string): string | undefined {
    const v = this.values[name];
    if (v === undefined || v === null || v === '') return undefined;
    return typeof v === 'string' ? v : String(v);
  }

  required(name: string): string {
    const v = this.str(name);
    if (v === undefined) throw mandatory(name);
    return v;
  }

  int(name: string, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): number | undefined {
    const v = this.str(name);
    if (v === undefined) return undefined;
    if (!INT.test(v)) throw illegal(name, `${min} to ${max}`);
    const n = Number(v);
    if (n < min || n > max) throw outsideBounds(name, min, max);
    return n;
  }

  requiredInt(name: string, min?: number, max?: number): number {
    const n = this.int(name, min, max);
    if (n === undefined) throw mandatory(name);
    return n;
  }

  /**
   * startTime / endTime (ms from 0), each optional; Binance's -1023 when both are sent and the
   * window is reversed (its USD-M error list, START_TIME_GREATER_THAN_END_TIME), on every route
   * that takes them.
   */
  timeWindow(): { start: number | undefined; end: number | undefined } {
    const start = this.int('startTime', 0);
    const end = this.int('endTime', 0);
    if (start !== undefined && end !== undefined && start > end)
      throw new BinanceError(-1023, 'Start time is greater than end time.');
    return { start, end };
  }

  bool(name: string): boolean | undefined {
    const v = this.str(name);
    if (v === undefined) return undefined;
    if (v === 'true' || v === 'TRUE' || v === 'True') return true;
    if (v === 'false' || v === 'FALSE' || v === 'False') return false;
    throw notOneOf(name, BOOL_WORDS);
  }

  /** One of `values` (exact text), or the error `refuse` makes (Binance's own code for that enum; built only when needed). */
  oneOf<T extends string>(name: string, values: readonly T[], refuse?: () => BinanceError): T | undefined {
    const v = this.str(name);
    if (v === undefined) return undefined;
    if (!(values as readonly string[]).includes(v)) throw refuse?.() ?? notOneOf(name, values);
    return v as T;
  }
}

/** Splits a raw URL into its query text. */
export function queryOf(url: string): string {
  const i = url.indexOf('?');
  return i < 0 ? '' : url.slice(i + 1);
}

/** `text` without its `signature` parameter, and that parameter's value (undefined when absent). */
export function withoutSignature(text: string): { rest: string; signature: string | undefined } {
  if (text === '') return { rest: '', signature: undefined };
  // the usual case: one signature, the last parameter
  const at = text.lastIndexOf('signature');
  if (at < 0) return { rest: text, signature: undefined };
  if (
    text.indexOf('signature') === at &&
    (at === 0 || text.charCodeAt(at - 1) === 38) &&
    text.charCodeAt(at + 9) === 61 &&
    text.indexOf('&', at) < 0
  )
    return { rest: at === 0 ? '' : text.slice(0, at - 1), signature: text.slice(at + 10) };
  let signature: string | undefined;
  const kept: string[] = [];
  for (const part of text.split('&')) {
    if (part === 'signature' || part.startsWith('signature=')) signature = part.slice(10);
    else kept.push(part);
  }
  return { rest: kept.join('&'), signature };
}
