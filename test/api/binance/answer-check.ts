// Holds the facade's real answers to what /openapi.json documents for them: each answer validated
// by Ajv (JSON Schema 2020-12, strict mode) against its route's schema for its HTTP status with
// every object closed (additionalProperties false: a field sent but not documented fails, as does
// a required one missing), its objects' fields checked in the documented order, and a record of
// what the answers exercised (each list seen with entries, each branch of a union, each optional
// field), so that a test can require every part of every answer schema to have met a real answer.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

type Schema = Record<string, any>;

/** The schema with every object closed to the fields it lists (a deep copy). */
function closed(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(closed);
  if (typeof s !== 'object' || s === null) return s;
  const out: Schema = Object.fromEntries(Object.entries(s).map(([k, v]) => [k, closed(v)]));
  if ((out.type === 'object' || out.properties !== undefined) && out.additionalProperties === undefined)
    out.additionalProperties = false;
  return out;
}

export class AnswerChecker {
  private readonly ajv = new Ajv2020({ strict: true, allErrors: true, logger: false });
  private readonly validators = new WeakMap<object, ValidateFunction>();
  /** What the answers exercised: "<route> <status><where> list | branch i | field f". */
  private readonly seen = new Set<string>();
  /** The statuses each route ("METHOD path") was seen answering. */
  readonly answered = new Map<string, Set<number>>();

  private readonly doc: any;
  private readonly unordered: Readonly<Record<string, string>>;

  /**
   * `doc`: the served OpenAPI document; `unordered`: the routes whose objects are known to send
   * their fields in another order than documented (why, for the report), whose order is not held.
   */
  constructor(doc: any, unordered: Readonly<Record<string, string>> = {}) {
    this.doc = doc;
    this.unordered = unordered;
    // the Schema Object's OpenAPI fields besides JSON Schema's own
    for (const k of ['discriminator', 'xml', 'externalDocs', 'example']) this.ajv.addKeyword(k);
  }

  /** The schema the document gives the answer of route "METHOD path" (under /binance) with `status`. */
  schemaOf(key: string, status: number): Schema | undefined {
    const [method, path] = key.split(' ');
    const op = this.doc.paths[`/binance${path}`]?.[method.toLowerCase()];
    return op?.responses?.[String(status)]?.content?.['application/json']?.schema;
  }

  /** Each REST operation of the facade in the document ("METHOD path"), the WebSocket endpoints left out. */
  restRoutes(): string[] {
    const streams = /^\/binance\/(ws|stream|public|market|private)(\/|$)/;
    return Object.entries<Record<string, unknown>>(this.doc.paths)
      .filter(([p]) => p.startsWith('/binance/') && !streams.test(p))
      .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p.slice('/binance'.length)}`));
  }

  private validator(schema: Schema): ValidateFunction {
    let v = this.validators.get(schema);
    if (v === undefined) this.validators.set(schema, (v = this.ajv.compile(closed(schema) as object)));
    return v;
  }

  /** What is wrong with the answer `text` of route `key` with `status` (nothing: []); records what it exercised. */
  check(key: string, status: number, text: string): string[] {
    const schema = this.schemaOf(key, status);
    if (schema === undefined) return [`${key} answered ${status}, which the document does not list: ${text}`];
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return [`${key} ${status}: not JSON: ${text.slice(0, 200)}`];
    }
    const validate = this.validator(schema);
    if (!validate(body))
      return (validate.errors ?? []).map(
        (e) => `${key} ${status}: ${e.instancePath || '(root)'} ${e.message} ${JSON.stringify(e.params)}`,
      );
    const set = this.answered.get(key) ?? new Set<number>();
    this.answered.set(key, set.add(status));
    const problems: string[] = [];
    this.walk(schema, body, { at: `${key} ${status}`, ordered: !(key in this.unordered), problems });
    return problems;
  }

  /** The field order and what `data` exercised, through `schema` (which it validates). */
  private walk(schema: Schema, data: unknown, w: { at: string; ordered: boolean; problems: string[] }): void {
    if (Array.isArray(schema.anyOf)) {
      const i = schema.anyOf.findIndex((b: Schema) => this.validator(b)(data));
      this.seen.add(`${w.at} branch ${i}`);
      this.walk(schema.anyOf[i], data, { ...w, at: `${w.at}/anyOf/${i}` });
      return;
    }
    if (Array.isArray(data)) {
      if (data.length > 0) this.seen.add(`${w.at} list`);
      if (Array.isArray(schema.prefixItems))
        data.forEach((d, i) => this.walk(schema.prefixItems[i], d, { ...w, at: `${w.at}/${i}` }));
      else if (typeof schema.items === 'object')
        for (const d of data) this.walk(schema.items, d, { ...w, at: `${w.at}/items` });
      return;
    }
    if (typeof data !== 'object' || data === null || schema.properties === undefined) return;
    const sent = Object.keys(data);
    const documented = Object.keys(schema.properties).filter((k) => k in data);
    if (w.ordered && sent.join() !== documented.join())
      w.problems.push(`${w.at}: fields sent as ${sent.join(', ')}; documented as ${documented.join(', ')}`);
    for (const k of documented) {
      if (!(schema.required ?? []).includes(k)) this.seen.add(`${w.at} field ${k}`);
      this.walk(schema.properties[k], (data as Record<string, unknown>)[k], { ...w, at: `${w.at}/${k}` });
    }
  }

  /**
   * The parts of route `key`'s `status` schema no answer exercised: a list never seen with an entry
   * (but one documented as always empty), a union branch or an optional field never seen.
   */
  unexercised(key: string, status: number): string[] {
    const schema = this.schemaOf(key, status);
    if (schema === undefined) return [`${key} documents no ${status}`];
    const want: string[] = [];
    const visit = (s: Schema, at: string) => {
      if (Array.isArray(s.anyOf)) {
        s.anyOf.forEach((b: Schema, i: number) => {
          want.push(`${at} branch ${i}`);
          visit(b, `${at}/anyOf/${i}`);
        });
        return;
      }
      if (s.type === 'array') {
        if (s.maxItems !== 0) want.push(`${at} list`);
        if (Array.isArray(s.prefixItems)) s.prefixItems.forEach((p: Schema, i: number) => visit(p, `${at}/${i}`));
        else if (typeof s.items === 'object') visit(s.items, `${at}/items`);
        return;
      }
      for (const [k, p] of Object.entries<Schema>(s.properties ?? {})) {
        if (!(s.required ?? []).includes(k)) want.push(`${at} field ${k}`);
        visit(p, `${at}/${k}`);
      }
    };
    visit(schema, `${key} ${status}`);
    return want.filter((x) => !this.seen.has(x));
  }
}
