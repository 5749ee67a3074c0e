// Binance-style request parameters: the query string and a form body read together (Binance's
// "totalParams"; index.ts merges them before the route's schema validates them), every value text. Unknown parameters are ignored as Binance ignores them;
// each getter refuses a malformed value with Binance's code (-1100 illegal characters, -1102
// mandatory missing, -1130 invalid data) and the parameter's name.
import { BinanceError, illegal, invalidValue, mandatory } from './errors.ts';

const INT = /^-?\d{1,16}$/;

export class Params {
  private readonly map: Map<string, string>;

  constructor(query: string, body: string) {
    this.map = new Map();
    // the body after the query: Binance reads both; a name given in both is taken from the body
    for (const text of [query, body]) {
      if (text === '') continue;
      for (const [k, v] of new URLSearchParams(text)) this.map.set(k, v);
    }
  }

  /** The parameters of a request already merged and validated (index.ts), each value as text. */
  static of(values: Record<string, unknown>): Params {
    const p = new Params('', '');
    for (const k of Object.keys(values)) {
      const v = values[k];
      if (v !== undefined && v !== null) p.map.set(k, String(v));
    }
    return p;
  }

  has(name: string): boolean {
    const v = this.map.get(name);
    return v !== undefined && v !== '';
  }

  str(name: string): string | undefined {
    const v = this.map.get(name);
    return v === undefined || v === '' ? undefined : v;
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
    if (n < min || n > max) throw invalidValue(name, `It must be from ${min} to ${max}.`);
    return n;
  }

  requiredInt(name: string, min?: number, max?: number): number {
    const n = this.int(name, min, max);
    if (n === undefined) throw mandatory(name);
    return n;
  }

  bool(name: string): boolean | undefined {
    const v = this.str(name);
    if (v === undefined) return undefined;
    if (v === 'true' || v === 'TRUE' || v === 'True') return true;
    if (v === 'false' || v === 'FALSE' || v === 'False') return false;
    throw invalidValue(name, "Send 'true' or 'false'.");
  }

  /** One of `values` (exact text), or the error `refuse` makes (Binance's own code for that enum; built only when needed). */
  oneOf<T extends string>(name: string, values: readonly T[], refuse?: () => BinanceError): T | undefined {
    const v = this.str(name);
    if (v === undefined) return undefined;
    if (!(values as readonly string[]).includes(v))
      throw refuse?.() ?? invalidValue(name, `It must be one of ${values.join(', ')}.`);
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
  let signature: string | undefined;
  const kept: string[] = [];
  for (const part of text.split('&')) {
    if (part === 'signature' || part.startsWith('signature=')) signature = part.slice(10);
    else kept.push(part);
  }
  return { rest: kept.join('&'), signature };
}
