// The grid file: which parameter sets a sweep runs (docs/sweeps.md, "The grid file"). A JSON
// object with any of three parts, expanded in this order and without repeats:
//   "grid":   {"fast": [3, 5], "slow": [10, 20]}      every combination (the first name varies slowest)
//   "sets":   [{"fast": 4, "slow": 30}, ...]          listed sets, as they are
//   "random": {"count": 20, "seed": 7, "params": {"fast": {"min": 2, "max": 9}, "qty": ["0.01", "0.02"]}}
//             sets drawn from ranges (a step, or integers when min and max are) or value lists,
//             from a seeded generator: the same file gives the same sets.
//   "defaults": {"qty": "0.01"}                      the bot's values for what a set leaves out: every
//             set is completed with them (so the bot runs with them and the Sweeps page shows them)
// Names are identifiers, not a column of the results' CSV (csv-columns.ts); values JSON strings,
// numbers or booleans, a list giving none twice in two spellings (1 and "1"). Anything else is a
// GridError naming the place in the file.
import type { ParamSet, ParamValue } from './job.ts';
import { isReservedName, RESERVED_NAMES } from './csv-columns.ts';
import Decimal from 'decimal.js';
import { jsonFault } from './json-place.ts';

export class GridError extends Error {}

/** Bound of the sets one file may expand to (a grid of 10 names of 10 values is 10^10). */
const MAX_SETS = 10_000;
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/**
 * A value of the file, for a message: as JSON, but a number too large for a double (1e400, which
 * JSON.parse reads as Infinity) said so rather than as JSON's null; a missing one as nothing.
 */
function shown(v: unknown): string {
  const text = JSON.stringify(v, (_k, x: unknown) => (typeof x === 'number' && !Number.isFinite(x) ? `#${x}#` : x));
  return text === undefined ? 'nothing' : text.replace(/"#(-?Infinity)#"/g, '$1 (a number too large to read)');
}

/**
 * A number of the file that a double cannot hold as written (12345678901234567891 reads as
 * 12345678901234567000): the bot would get another value than the file says, so a parameter's
 * value like it is refused. A range's bounds, the count and the seed take its double.
 */
class Inexact {
  readonly source: string;
  readonly value: number;
  constructor(source: string, value: number) {
    this.source = source;
    this.value = value;
  }
  toJSON(): number {
    return this.value;
  }
}

/** JSON.parse's reviver: a finite number whose text is not its double's value becomes an Inexact. */
function markInexact(_key: string, value: unknown, context?: { source?: string }): unknown {
  if (typeof value !== 'number' || !Number.isFinite(value) || context?.source === undefined) return value;
  return new Decimal(context.source).eq(new Decimal(String(value))) ? value : new Inexact(context.source, value);
}

/** A number as its double (an Inexact one's rounded value), anything else as it is. */
function num(x: unknown): unknown {
  return x instanceof Inexact ? x.value : x;
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x) && !(x instanceof Inexact);
}

function checkValue(v: unknown, where: string): ParamValue {
  if (v instanceof Inexact)
    throw new GridError(
      `${where} is ${v.source}, which a JSON number cannot hold exactly: the bot would get ${String(v.value)}; ` +
        `write it as a string ("${v.source}") and read it as such in the bot`,
    );
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  throw new GridError(`${where} must be a string, a number or a boolean, got ${shown(v)}`);
}

function checkName(name: string, where: string): void {
  if (!NAME.test(name))
    throw new GridError(`${where}: '${name}' is not a parameter name (letters, digits, _; 64 at most)`);
  if (isReservedName(name))
    throw new GridError(
      `${where}: '${name}' is a column of the results' CSV, which no parameter may be named like ` +
        `(${RESERVED_NAMES.join(', ')}); name it otherwise in the grid and the bot`,
    );
}

/** Checks the names of sets read before (another sweep's, --like); GridError naming the first one not allowed. */
export function checkSetNames(sets: readonly ParamSet[]): void {
  sets.forEach((s, i) => Object.keys(s).forEach((name) => checkName(name, `set ${i}`)));
}

/** mulberry32: small, fast, and the same sequence on every machine. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A finite number as an exact decimal: `int / 10^scale`, read off its shortest text (1e-7 too). */
function decimal(x: number): { int: bigint; scale: number } {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/.exec(String(x));
  if (m === null) throw new GridError(`cannot read ${x} as a decimal`);
  const frac = m[3] ?? '';
  const scale = frac.length - Number(m[4] ?? 0);
  const digits = BigInt(`${m[1]}${m[2]}${frac}`);
  return scale >= 0 ? { int: digits, scale } : { int: digits * 10n ** BigInt(-scale), scale: 0 };
}

/** `int / 10^scale` as the nearest number (through its decimal text, so 0.3 is 0.3). */
function toNumber(int: bigint, scale: number): number {
  const neg = int < 0n;
  const s = (neg ? -int : int).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? s : `${s.slice(0, -scale)}.${s.slice(-scale)}`;
  return Number(`${neg ? '-' : ''}${text}`);
}

/** A decimal written as a string ("0.5", "1e-7", " 2"), as the Sweeps page reads one to sort it by value. */
const DECIMAL = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** What a value is: a number or a decimal string as its exact decimal (1, "1.0" and "1e0" alike), else itself. */
function valueOf(v: ParamValue): string {
  const text = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '';
  if (typeof v === 'boolean' || !DECIMAL.test(text)) return JSON.stringify(v);
  const d = new Decimal(text);
  return `=${d.isZero() ? '0' : d.toString()}`;
}

/**
 * A parameter's list giving one value in two spellings (1 and "1", 0.5 and "0.50"): a GridError
 * naming both, as it ran one set twice, in rows no one could tell apart; a value given twice
 * alike is a repeat, dropped like any.
 */
function checkSpellings(values: readonly ParamValue[], where: string): void {
  const first = new Map<string, ParamValue>();
  for (const v of values) {
    const key = valueOf(v);
    const seen = first.get(key);
    if (seen === undefined) first.set(key, v);
    else if (shown(seen) !== shown(v))
      throw new GridError(`${where}: ${shown(seen)} and ${shown(v)} are the same value; give it once`);
  }
}

type Draw = (next: () => number) => ParamValue;

function rangeDraw(spec: Record<string, unknown>, where: string): Draw {
  const [min, max, step] = [num(spec.min), num(spec.max), num(spec.step)];
  // a misspelt field named first (it was "wants numbers min <= max", not saying which field)
  for (const k of Object.keys(spec))
    if (k !== 'min' && k !== 'max' && k !== 'step')
      throw new GridError(`${where} has an unknown field '${k}' (a range has "min", "max" and "step")`);
  if (typeof min !== 'number' || typeof max !== 'number' || !Number.isFinite(min) || !Number.isFinite(max) || min > max)
    throw new GridError(`${where} wants numbers min <= max, got ${shown(spec)}`);
  if (step !== undefined && (typeof step !== 'number' || !(step > 0)))
    throw new GridError(`${where}.step must be a positive number, got ${shown(step)}`);
  if (step !== undefined && max > min && step > max - min)
    throw new GridError(`${where}.step ${step} is more than max - min (${min} to ${max}): only ${min} could be drawn`);
  const st = step ?? (Number.isInteger(min) && Number.isInteger(max) ? 1 : undefined);
  if (st === undefined) return (next) => Number((min + next() * (max - min)).toPrecision(6));
  // min + k x step in exact decimals: no float drift, and steps below 1e-6 (written 1e-7) kept
  const [lo, hi, by] = [decimal(min), decimal(max), decimal(st)];
  const dp = Math.max(lo.scale, hi.scale, by.scale);
  const at = (d: { int: bigint; scale: number }) => d.int * 10n ** BigInt(dp - d.scale);
  const base = at(lo);
  const unit = at(by);
  const n = (at(hi) - base) / unit;
  const count = Number(n + 1n);
  return (next) => {
    let k = BigInt(Math.floor(next() * count));
    if (k > n) k = n;
    return toNumber(base + k * unit, dp);
  };
}

function expandRandom(r: unknown): ParamSet[] {
  if (!isObject(r)) throw new GridError('"random" must be an object {count, seed?, params}');
  for (const k of Object.keys(r))
    if (k !== 'count' && k !== 'seed' && k !== 'params') throw new GridError(`"random" has an unknown field '${k}'`);
  const { params } = r;
  const [count, seed] = [num(r.count), num(r.seed ?? 1)];
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_SETS)
    throw new GridError(`"random.count" must be an integer from 1 to ${MAX_SETS}, got ${shown(count)}`);
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0)
    throw new GridError(`"random.seed" must be a non-negative integer, got ${shown(seed)}`);
  if (!isObject(params) || Object.keys(params).length === 0)
    throw new GridError('"random.params" must be an object of at least one parameter');
  const draws: Array<[string, Draw]> = Object.entries(params).map(([name, spec]) => {
    const where = `"random.params.${name}"`;
    checkName(name, where);
    if (Array.isArray(spec)) {
      if (spec.length === 0) throw new GridError(`${where} lists no value`);
      const values = spec.map((v, i) => checkValue(v, `${where}[${i}]`));
      checkSpellings(values, where);
      return [name, (next) => values[Math.floor(next() * values.length)]];
    }
    if (!isObject(spec)) throw new GridError(`${where} must be a list of values or {min, max, step?}`);
    return [name, rangeDraw(spec, where)];
  });
  const next = generator(seed);
  const out: ParamSet[] = [];
  for (let i = 0; i < count; i++) out.push(Object.fromEntries(draws.map(([name, d]) => [name, d(next)])));
  return out;
}

function expandGrid(g: unknown): ParamSet[] {
  if (!isObject(g)) throw new GridError(`"grid" must be an object of parameter lists, got ${shown(g)}`);
  // an empty one was told it "must be an object of parameter lists", which {} is
  if (Object.keys(g).length === 0)
    throw new GridError('"grid" names no parameter: give each parameter its list of values, {"fast": [3, 5]}');
  let sets: ParamSet[] = [{}];
  for (const [name, values] of Object.entries(g)) {
    checkName(name, '"grid"');
    if (!Array.isArray(values) || values.length === 0)
      throw new GridError(`"grid.${name}" must be a non-empty list of values, got ${shown(values)}`);
    const vs = values.map((v, i) => checkValue(v, `"grid.${name}"[${i}]`));
    checkSpellings(vs, `"grid.${name}"`);
    if (sets.length * vs.length > MAX_SETS)
      throw new GridError(`"grid" expands to more than ${MAX_SETS} sets; list fewer values or use "random"`);
    sets = sets.flatMap((s) => vs.map((v) => ({ ...s, [name]: v })));
  }
  return sets;
}

function listedSets(l: unknown): ParamSet[] {
  if (!Array.isArray(l) || l.length === 0) throw new GridError('"sets" must be a non-empty list of objects');
  return l.map((s, i) => {
    if (!isObject(s)) throw new GridError(`"sets"[${i}] must be an object of parameter values`);
    const out: ParamSet = {};
    for (const [name, v] of Object.entries(s)) {
      checkName(name, `"sets"[${i}]`);
      out[name] = checkValue(v, `"sets"[${i}].${name}`);
    }
    return out;
  });
}

/** A grid file read: its sets, each completed with the defaults, and the defaults. */
export interface Grid {
  sets: ParamSet[];
  /** The bot's values for what a set leaves out ("defaults"; {} when the file names none). */
  defaults: ParamSet;
  /**
   * When "random" drew repeats: how many sets its draws gave (`20 random draws gave 2 distinct
   * sets`), which the run's first line says; undefined when every draw is a set of its own.
   */
  note?: string;
}

/** `from` without the names `set` has. */
function omit(from: ParamSet, set: ParamSet): ParamSet {
  return Object.fromEntries(Object.entries(from).filter(([k]) => !(k in set)));
}

function defaultsOf(d: unknown): ParamSet {
  if (!isObject(d)) throw new GridError('"defaults" must be an object of parameter values');
  const out: ParamSet = {};
  for (const [name, v] of Object.entries(d)) {
    checkName(name, '"defaults"');
    out[name] = checkValue(v, `"defaults".${name}`);
  }
  return out;
}

/** The parameter sets of a grid file's text; GridError for anything it cannot use. */
export function parseGrid(text: string): Grid {
  let doc: unknown;
  // a file saved with a UTF-8 byte order mark (Windows editors) reads as the same file without
  // it, as a data import does: JSON.parse refused it, naming an invisible character
  const json = text.replace(/^\uFEFF/, '');
  try {
    // (the reviver's third argument, the number's text, is Node 21's and later)
    doc = JSON.parse(json, markInexact as (key: string, value: unknown) => unknown);
  } catch (err) {
    // one line naming the place: V8's message quotes the text around some faults, line breaks and all
    const at = jsonFault(json);
    if (at !== null) throw new GridError(`not JSON at line ${at.line} column ${at.column}: ${at.what}`);
    throw new GridError(`not JSON: ${String(err instanceof Error ? err.message : err).replace(/\s+/g, ' ')}`);
  }
  if (!isObject(doc)) throw new GridError('must be a JSON object with "grid", "sets" and/or "random"');
  for (const k of Object.keys(doc))
    if (k !== 'grid' && k !== 'sets' && k !== 'random' && k !== 'defaults' && k !== 'comment')
      throw new GridError(`unknown field '${k}' (a grid file has "grid", "sets", "random", "defaults" and "comment")`);
  if (doc.grid === undefined && doc.sets === undefined && doc.random === undefined && doc.defaults === undefined)
    throw new GridError('has none of "grid", "sets", "random" and "defaults"');
  const defaults = doc.defaults === undefined ? {} : defaultsOf(doc.defaults);
  const listed = [
    ...(doc.grid === undefined ? [] : expandGrid(doc.grid)),
    ...(doc.sets === undefined ? [] : listedSets(doc.sets)),
  ];
  const drawn = doc.random === undefined ? [] : expandRandom(doc.random);
  const named = [...listed, ...drawn];
  // a set runs with the defaults for what it leaves out (only defaults: one set of them); its own
  // names first, so the page's columns and heat map start with what the sets vary
  const all = (named.length === 0 ? [{}] : named).map((s) => ({ ...s, ...omit(defaults, s) }));
  // one set by its values (valueOf): two listed sets alike but for a value's spelling ({"fast": 1} and
  // {"fast": "1"}) are refused, as within a list; a draw that repeats a set so is a repeat, dropped
  const seen = new Map<string, { text: string; listed: boolean }>();
  const out: ParamSet[] = [];
  let keptDraws = 0;
  all.forEach((s, i) => {
    const entries = Object.entries(s).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const key = shown(entries.map(([name, v]) => [name, valueOf(v)]));
    const text = shown(Object.fromEntries(entries));
    const before = seen.get(key);
    if (before !== undefined) {
      if (before.listed && i < listed.length && before.text !== text)
        throw new GridError(`the sets ${before.text} and ${text} are the same set in two spellings; give it once`);
      return;
    }
    seen.set(key, { text, listed: i < listed.length });
    out.push(s);
    if (drawn.length > 0 && i >= listed.length) keptDraws++;
  });
  if (out.length > MAX_SETS) throw new GridError(`expands to ${out.length} sets, more than ${MAX_SETS}`);
  if (keptDraws === drawn.length) return { sets: out, defaults };
  const sets = (n: number) => `${n} ${listed.length === 0 ? 'distinct' : 'new'} set${n === 1 ? '' : 's'}`;
  const note =
    `${drawn.length} random draws gave ${sets(keptDraws)}` +
    (listed.length === 0 ? '' : ` (the others repeat a set drawn or listed before)`);
  return { sets: out, defaults, note };
}
