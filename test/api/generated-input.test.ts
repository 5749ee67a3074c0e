// Bad input generated from the OpenAPI document: for every operation of
// /openapi.json and every parameter it lists (path, query, body property), fast-check makes
// values the parameter's schema refuses (wrong types, non-finite, huge and out-of-range numbers,
// loose integer spellings, empty and very long text, nested objects), plus unknown keys
// (`__proto__` among them) and malformed whole bodies. Each answer must be the route's
// documented error form naming the parameter, never a 5xx, and the service must answer a
// health probe after each operation.
//
// Signed routes are signed (the key is valid, the signature covers the bad value), so every
// failure is about the parameter. The Binance dialect's operations (/binance, tag binance) are
// generated from their schemas too, signed Binance's way (X-MBX-APIKEY, timestamp, recvWindow,
// signature), and must answer Binance's {code, msg} with a 4xx; unknown parameters are ignored
// there, as on Binance, so only the bad values of declared parameters are sent. FUZZ_RUNS sets the runs per parameter; `npm run fuzz:api -- N`
// is the long run.
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src-main/api/app.ts';
import { STRICT_INTEGER } from '../../src-main/api/schemas.ts';
import { SimulatedMarket } from '../../src-main/market/sim/simulated-market.ts';
import { Simulator } from '../../src-main/market/sim/simulator.ts';
import { openVenue, type LocalVenue as Venue } from '../../src-main/venue.ts';
import { hmacSha256Hex } from '../../src-shared/sign.ts';
import { makeAccount, type Creds } from '../helpers/signed.ts';

const RUNS = Math.max(1, Number(process.env.FUZZ_RUNS ?? 12));
/** Long runs (fuzz:api) take longer than the default test timeout. */
const TIMEOUT = 30_000 + RUNS * 1_000;
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

interface Schema {
  type?: string | string[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  items?: Schema;
  maxItems?: number;
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  default?: unknown;
}

type Where = 'path' | 'query' | 'body';
type Style = 'envelope' | 'klines' | 'price';

interface Param {
  name: string;
  in: Where;
  required: boolean;
  schema: Schema;
}

interface Op {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** The Binance dialect: Binance's signing and error shape. */
  binance: boolean;
  signed: boolean;
  style: Style;
  params: Param[];
  hasBody: boolean;
  /** The body's minProperties (POST /api/v1/sim wants at least one field). */
  minBodyProps: number;
}

/** The routes whose error form the spec sets apart (error-handler.ts errorStyle). */
const STYLE: Record<string, Style> = {
  '/fapi/v1/klines': 'klines',
  '/fapi/v1/klines/batch': 'klines',
  '/api/v1/datasets/{id}/klines': 'klines',
  '/fapi/v1/complete_price': 'price',
};

/** Parameters the auth hook owns on signed routes (checked before the schema). */
const AUTH_PARAMS = new Set(['timestamp', 'recv_window', 'signature']);
/** The same on the Binance dialect's signed routes. */
const BINANCE_AUTH_PARAMS = new Set(['timestamp', 'recvWindow', 'signature']);
/** Binance's own code for a refused value of these parameters (its message need not quote the name). */
const BINANCE_OWN_CODES: Record<string, number[]> = {
  side: [-1117],
  type: [-1116],
  timeInForce: [-1115],
  positionSide: [-4060],
  newOrderRespType: [-1136],
  workingType: [-4031],
  selfTradePreventionMode: [-5039],
  contractType: [-4104],
  interval: [-1120],
  recvWindow: [-1131],
  leverage: [-4028],
  signature: [-1022],
};
/** The Binance codes that name the parameter in their message. */
const BINANCE_NAMING = new Set([-1100, -1102, -1130]);
/** The dialect's WebSocket endpoints: upgrade routes, no parameters to send. */
const BINANCE_STREAM = /^\/binance\/(ws|stream|public|market|private)(\/|$)/;

/** Valid values of required parameters, by name; the rest come from the schema. */
const KNOWN: Record<string, unknown> = {
  symbol: 'BTCUSDT',
  symbols: 'BTCUSDT',
  action: 'pause',
  file: 'BTC.svg',
  interval: '1m',
  qty: '0.010',
  price: '95000.0',
  trigger_price: '97000.0',
  amount: '1',
  tick_size: '0.01',
  step_size: '0.001',
  // the Binance dialect's required parameters
  quantity: '0.010',
  pair: 'BTCUSDT',
  period: '5m',
  batchOrders: '[{}]',
  // dataset import by path: a file that does not exist (refused by name, nothing imported)
  paths: ['/nonexistent/perpdesk-generated-input/BTCUSDT-1m-2025-01-06.zip'],
  token: 'not-the-login-token',
  ips: ['127.0.0.1'],
  position_mode: 'hedge',
  leverage: 10,
};

function validValue(p: Param): unknown {
  if (Object.hasOwn(KNOWN, p.name)) {
    // `symbols` is a comma list in the klines batch query and an array in POST /api/v1/replays
    const v = KNOWN[p.name];
    return p.schema.type === 'array' && !Array.isArray(v) ? [v] : v;
  }
  const s = p.schema;
  if (s.enum !== undefined) return s.enum[0];
  switch (s.type) {
    case 'integer':
    case 'number':
      return s.minimum ?? 1;
    case 'boolean':
      return false;
    default:
      return 'x';
  }
}

// ---------------------------------------------------------------- what the schema accepts

const len = (v: string): number => [...v].length;

function stringOk(s: Schema, v: string): boolean {
  if (s.enum !== undefined) return s.enum.includes(v);
  if (s.minLength !== undefined && len(v) < s.minLength) return false;
  if (s.maxLength !== undefined && len(v) > s.maxLength) return false;
  if (s.pattern !== undefined && !new RegExp(s.pattern, 'u').test(v)) return false;
  return true;
}

function numberOk(s: Schema, n: number, integer: boolean): boolean {
  if (integer ? !Number.isSafeInteger(n) : !Number.isFinite(n)) return false;
  if (s.minimum !== undefined && n < s.minimum) return false;
  if (s.maximum !== undefined && n > s.maximum) return false;
  if (s.enum !== undefined && !s.enum.includes(n)) return false;
  return true;
}

/** Whether query (or path) text would pass: the strict integer syntax, else the coercing validator's rules. */
function textOk(s: Schema, v: string): boolean {
  switch (s.type) {
    case 'integer':
      return STRICT_INTEGER.test(v) && numberOk(s, Number(v), true);
    case 'number':
      return /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/.test(v) && numberOk(s, Number(v), false);
    case 'boolean':
      return v === 'true' || v === 'false';
    default:
      return stringOk(s, v);
  }
}

/** A body value sent as the JSON literal `raw` (numbers JSON.stringify cannot write). */
interface Raw {
  raw: string;
}
const isRaw = (v: unknown): v is Raw =>
  typeof v === 'object' && v !== null && Object.keys(v).length === 1 && typeof (v as Raw).raw === 'string';

/** Whether a JSON body value has the declared JSON type and passes the schema (conservative). */
function jsonOk(s: Schema, v: unknown): boolean {
  if (isRaw(v)) v = JSON.parse(v.raw);
  if (s.anyOf !== undefined) return s.anyOf.some((b) => jsonOk(b, v));
  const types = Array.isArray(s.type) ? s.type : [s.type];
  return types.some((t) => {
    switch (t) {
      case 'integer':
        return typeof v === 'number' && numberOk(s, v, true);
      case 'number':
        return typeof v === 'number' && numberOk(s, v, false);
      case 'string':
        return typeof v === 'string' && stringOk(s, v);
      case 'boolean':
        return typeof v === 'boolean';
      case 'null':
        return v === null;
      case 'array':
        // any array of strings may still be refused by the route (ips), never counted as bad input here;
        // an array of numbers (dataset ids) is as good as its items
        return (
          Array.isArray(v) &&
          (s.maxItems === undefined || v.length <= s.maxItems) &&
          (s.items?.type === 'integer' || s.items?.type === 'number'
            ? v.every((x) => jsonOk(s.items!, x))
            : v.every((x) => typeof x === 'string'))
        );
      default:
        return true;
    }
  });
}

// ---------------------------------------------------------------- bad values

const LOOSE_NUMBERS = [
  'Infinity',
  '-Infinity',
  '1e309',
  '-1e309',
  'NaN',
  '0x10',
  '0b1',
  '0o7',
  '1e1',
  '+5',
  ' 1 ',
  '1 ',
  '0005',
  '1.5',
  '1.',
  '.5',
  '',
  '-',
  '--1',
  'abc',
  '9007199254740993',
  '-9007199254740993',
  '1e21',
  '1_000',
  '１',
  '1,000',
];

/** Text a query or path parameter's schema refuses. */
function badText(s: Schema): fc.Arbitrary<string> {
  const long = fc.integer({ min: Math.max(s.maxLength ?? 0, 64) + 1, max: 3000 }).map((n) => 'A'.repeat(n));
  const arbs: fc.Arbitrary<string>[] = [fc.string({ maxLength: 40 }), long, fc.constantFrom(...LOOSE_NUMBERS)];
  if (s.type === 'integer' || s.type === 'number') {
    arbs.push(fc.double().map(String), fc.bigInt().map(String), fc.integer().map(String));
  }
  if (s.enum !== undefined)
    arbs.push(fc.integer({ min: -10, max: 10 }).map(String), fc.constantFrom('true', 'null', 'new,meme'));
  return fc.oneof(...arbs).filter((v) => !textOk(s, v));
}

const nested = fc.constantFrom<unknown>({ a: { b: { c: [1, { d: null }] } } }, [[[]]], { toString: 1 }, { length: 3 }, [
  null,
]);

/** JSON values (or raw literals) a body property's schema refuses. */
function badJson(s: Schema): fc.Arbitrary<unknown> {
  const arbs: fc.Arbitrary<unknown>[] = [
    fc.string({ maxLength: 30 }),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.integer(), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 6 }), fc.integer(), { maxKeys: 3 }),
    nested,
    fc.constantFrom<Raw>(
      { raw: '1e309' },
      { raw: '-1e309' },
      { raw: '1e300' },
      { raw: '9007199254740993' },
      { raw: '-9007199254740993' },
      { raw: '1.5' },
      { raw: '-0' },
    ),
    fc.integer({ min: 1, max: 5000 }).map((n) => 'x'.repeat(n + (s.maxLength ?? 0))),
    fc.integer({ min: -2_000_000, max: 2_000_000 }),
  ];
  if (s.type === 'array') arbs.push(fc.constant(Array.from({ length: (s.maxItems ?? 256) + 1 }, () => '127.0.0.1')));
  return fc.oneof(...arbs).filter((v) => !jsonOk(s, v));
}

/** Names of keys no route declares (`__proto__`, prototype members, nested-looking, random). */
const unknownKey = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    'a[b]',
    'a.b',
    'zz',
    'Symbol',
    'SYMBOL',
  ),
  fc.stringMatching(/^[a-z][a-z0-9_]{0,15}$/),
);

// ---------------------------------------------------------------- requests

let app: FastifyInstance;
let venue: Venue;
let who: Creds;

interface Sent {
  status: number;
  body: { code?: unknown; message?: unknown; msg?: unknown; data?: unknown } | undefined;
  raw: string;
}

interface Request {
  path: Record<string, string>;
  /** Query pairs in order, text as given (encoded here). */
  query: Array<[string, string]>;
  /** Body text (undefined: none); content type JSON when present unless `ctype` says otherwise. */
  body?: string;
  /** Overrides the signed parameters (auth-parameter runs). */
  timestamp?: string;
  recvWindow?: string;
  signature?: string;
}

function bodyText(obj: Record<string, unknown>): string {
  const raws: string[] = [];
  const text = JSON.stringify(obj, (_k, v: unknown) => {
    if (isRaw(v)) {
      raws.push(v.raw);
      return `@@RAW${raws.length - 1}@@`;
    }
    return v;
  });
  return text.replace(/"@@RAW(\d+)@@"/g, (_m, i: string) => raws[Number(i)]);
}

/** Percent-encoding the URL keeps as is (the signature covers the query exactly as sent). */
const enc = (v: string): string =>
  encodeURIComponent(v).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

async function send(op: Op, r: Request): Promise<Sent> {
  let url = op.path.replace(/\{(\w+)\}/g, (_m, n: string) => enc(r.path[n] ?? ''));
  const pairs = r.query.map(([k, v]) => `${enc(k)}=${enc(v)}`);
  const headers: Record<string, string> = {};
  if (op.binance && op.signed) {
    headers['x-mbx-apikey'] = who.apiKey;
    pairs.push(`timestamp=${enc(r.timestamp ?? String(Date.now()))}`);
    if (r.recvWindow !== undefined) pairs.push(`recvWindow=${enc(r.recvWindow)}`);
    pairs.push(`signature=${enc(r.signature ?? hmacSha256Hex(who.apiSecret, pairs.join('&')))}`);
  } else if (op.signed) {
    headers['x-api-key'] = who.apiKey;
    pairs.push(`timestamp=${enc(r.timestamp ?? String(Date.now()))}`);
    if (r.recvWindow !== undefined) pairs.push(`recv_window=${enc(r.recvWindow)}`);
    const unsigned = pairs.join('&');
    pairs.push(`signature=${enc(r.signature ?? hmacSha256Hex(who.apiSecret, unsigned + (r.body ?? '')))}`);
  }
  if (pairs.length > 0) url += `?${pairs.join('&')}`;
  if (r.body !== undefined) headers['content-type'] = 'application/json';
  const res = await app.inject({
    method: op.method,
    url,
    headers,
    ...(r.body === undefined ? {} : { payload: r.body }),
  });
  let body: Sent['body'];
  try {
    body = JSON.parse(res.body) as Sent['body'];
  } catch {
    body = undefined;
  }
  return { status: res.statusCode, body, raw: res.body };
}

/** The valid request of an operation: each required parameter with a valid value. */
function baseRequest(op: Op): { req: Request; body: Record<string, unknown> | undefined } {
  const req: Request = { path: {}, query: [] };
  const body: Record<string, unknown> | undefined = op.hasBody ? {} : undefined;
  for (const p of op.params) {
    if (!p.required || (op.binance ? BINANCE_AUTH_PARAMS : AUTH_PARAMS).has(p.name)) continue;
    const v = validValue(p);
    if (p.in === 'path') req.path[p.name] = String(v);
    else if (p.in === 'query') req.query.push([p.name, String(v)]);
    else body![p.name] = v;
  }
  // a body that must hold some field gets its first optional one, so the body itself is valid
  for (const p of op.params) {
    if (body === undefined || Object.keys(body).length >= op.minBodyProps) break;
    if (p.in === 'body' && !p.required) body[p.name] = validValue(p);
  }
  return { req, body };
}

/**
 * The route's documented error form: a 4xx envelope {code != 0, message, data: null}; on the
 * klines routes HTTP 200 with {code, message} in 6000-6999; on complete_price a 4xx envelope
 * with 7000. `named`, when given, must appear in the message.
 */
function expectRefused(op: Op, r: Sent, named: string | undefined, what: string): void {
  const where = `${op.method} ${op.path} ${what} -> ${r.status} ${r.raw.slice(0, 300)}`;
  expect(r.status, where).toBeLessThan(500);
  expect(r.raw, where).not.toMatch(EXCEPTION_TEXT);
  expect(r.body, where).toBeTypeOf('object');
  const b = r.body!;
  if (op.binance) return expectBinanceRefused(r, named, where);
  expect(typeof b.message === 'string' && b.message.length > 0, where).toBe(true);
  if (op.style === 'klines') {
    expect(r.status, where).toBe(200);
    expect(Object.keys(b), where).toEqual(['code', 'message']);
    expect(Number(b.code) >= 6000 && Number(b.code) < 7000, where).toBe(true);
  } else {
    expect(r.status >= 400 && r.status < 500, where).toBe(true);
    expect(Object.keys(b), where).toEqual(['code', 'message', 'data']);
    expect(b.data, where).toBeNull();
    if (op.style === 'price') expect(b.code, where).toBe(7000);
    else expect(b.code !== 0 && typeof b.code === 'number', where).toBe(true);
  }
  if (named !== undefined) expect(String(b.message), where).toContain(named);
}

/** Binance's refusal: a 4xx, exactly {code, msg}, a negative code; the parameter named, or Binance's own code for it. */
function expectBinanceRefused(r: Sent, named: string | undefined, where: string): void {
  const b = r.body!;
  expect(r.status >= 400 && r.status < 500, where).toBe(true);
  expect(Object.keys(b), where).toEqual(['code', 'msg']);
  expect(Number.isInteger(b.code) && Number(b.code) < 0, where).toBe(true);
  expect(typeof b.msg === 'string' && b.msg.length > 0, where).toBe(true);
  if (named === undefined) return;
  if (BINANCE_NAMING.has(Number(b.code))) expect(String(b.msg), where).toContain(`'${named}'`);
  else expect(BINANCE_OWN_CODES[named] ?? [], where).toContain(b.code);
}

/** What a JavaScript exception's text looks like: never part of an answer. */
const EXCEPTION_TEXT =
  /Cannot read propert|Cannot set propert|is not a function|is not iterable|is not defined|\(reading '|TypeError|ReferenceError|RangeError|\bat [\w.<>]+ \(/;

/** How a message names a parameter: quoted by the validator's messages, bare in auth and klines wording. */
function nameIn(op: Op, p: { name: string; in: Where }): string {
  if (op.binance) return p.name;
  if (op.style === 'klines' || (op.signed && AUTH_PARAMS.has(p.name))) return p.name;
  return `'${p.name}`;
}

async function healthy(): Promise<void> {
  const r = await app.inject({ method: 'GET', url: '/fapi/v1/time' });
  expect(r.statusCode).toBe(200);
  expect(JSON.parse(r.body).code).toBe(0);
}

// ---------------------------------------------------------------- the operations

function operations(doc: { paths: Record<string, Record<string, Record<string, unknown>>> }): Op[] {
  const ops: Op[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    if (path === '/ws') continue; // the WebSocket upgrade, not a request/answer route
    if (BINANCE_STREAM.test(path)) continue;
    const binance = path.startsWith('/binance/');
    for (const [m, raw] of Object.entries(methods)) {
      const o = raw as {
        parameters?: Array<{ name: string; in: string; required?: boolean; schema: Schema }>;
        requestBody?: { content: Record<string, { schema: Schema }> };
        security?: unknown[];
      };
      const params: Param[] = (o.parameters ?? []).map((p) => ({
        name: p.name,
        in: p.in as Where,
        required: p.required === true,
        schema: p.schema,
      }));
      const bodySchema = o.requestBody?.content['application/json']?.schema;
      for (const [name, schema] of Object.entries(bodySchema?.properties ?? {})) {
        params.push({ name, in: 'body', required: bodySchema!.required?.includes(name) === true, schema });
      }
      ops.push({
        method: m.toUpperCase() as Op['method'],
        path,
        binance,
        signed: binance ? params.some((x) => x.name === 'signature') : (o.security ?? []).length > 0,
        style: STYLE[path] ?? 'envelope',
        params,
        hasBody: bodySchema !== undefined,
        minBodyProps: (bodySchema as { minProperties?: number } | undefined)?.minProperties ?? 0,
      });
    }
  }
  return ops;
}

let ops: Op[] = [];

beforeAll(async () => {
  venue = openVenue({ dataDir: ':memory:' });
  // a simulated market (never started) behind /api/v1/sim, for its whole answer
  Object.assign(venue, {
    market: new SimulatedMarket(new Simulator({ exchange: venue.exchange, clock: venue.clock, seed: 7 }), venue.clock),
  });
  app = await buildApp({ venue, rateLimit: false });
  await app.ready();
  who = makeAccount(venue, 'fuzz');
  ops = operations(JSON.parse((await app.inject({ url: '/openapi.json' })).body));
});

afterAll(async () => {
  await app.close();
  await venue.close();
});

const params = { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) };

describe(`generated bad input (${RUNS} runs per parameter)`, () => {
  it('covers every operation of the document, its parameters and its error forms', () => {
    expect(ops.length).toBeGreaterThanOrEqual(38);
    const keys = ops.map((o) => `${o.method} ${o.path}`);
    for (const k of [
      'GET /api/v1/symbols/{symbol}',
      'GET /logos/{file}',
      'POST /admin/v1/accounts',
      'PUT /admin/v1/whitelist',
      'POST /api/v1/sim',
      'GET /fapi/v1/klines',
      'GET /fapi/v1/complete_price',
      'GET /fapi/v1/position/history',
    ]) {
      expect(keys).toContain(k);
    }
    expect(ops.filter((o) => o.signed && !o.binance).length).toBeGreaterThanOrEqual(19);
    // every Binance operation but the WebSocket endpoints, the dataset and replay routes
    const binance = ops.filter((o) => o.binance);
    expect(binance.length).toBeGreaterThanOrEqual(50);
    expect(binance.filter((o) => o.signed).length).toBeGreaterThanOrEqual(25);
    for (const k of [
      'POST /binance/fapi/v1/order',
      'PUT /binance/fapi/v1/order',
      'GET /binance/fapi/v1/klines',
      'GET /binance/fapi/v1/fundingInfo',
      'GET /binance/fapi/v2/account',
      'GET /binance/sapi/v1/margin/allPairs',
      'POST /api/v1/datasets/import',
      'POST /api/v1/replays',
      'DELETE /api/v1/replays/{id}',
    ])
      expect(keys).toContain(k);
    expect(ops.flatMap((o) => o.params).filter((p) => p.in === 'body').length).toBeGreaterThanOrEqual(25);
  });

  it(
    'every parameter: values its schema refuses get the documented error naming it, never a 5xx',
    async () => {
      for (const op of ops) {
        for (const p of op.params) {
          const base = baseRequest(op);
          await fc.assert(
            fc.asyncProperty(p.in === 'body' ? badJson(p.schema) : badText(p.schema), async (bad) => {
              // '', '.' and '..' leave the route (another path or the list route), not values of the parameter
              fc.pre(!(p.in === 'path' && (bad === '' || bad === '.' || bad === '..')));
              const req: Request = { path: { ...base.req.path }, query: base.req.query.filter(([k]) => k !== p.name) };
              let body = base.body === undefined ? undefined : { ...base.body };
              if (p.in === 'path') req.path[p.name] = bad as string;
              else if (p.in === 'body') body = { ...body, [p.name]: bad };
              else if (op.signed && p.name === 'timestamp') req.timestamp = bad as string;
              else if (op.signed && (p.name === 'recv_window' || (op.binance && p.name === 'recvWindow')))
                req.recvWindow = bad as string;
              else if (op.signed && p.name === 'signature') req.signature = bad as string;
              else req.query.push([p.name, bad as string]);
              if (body !== undefined) req.body = bodyText(body);
              const r = await send(op, req);
              // the router refuses a path that is empty or holds a slash before any schema runs
              const routerOnly = p.in === 'path' && ((bad as string) === '' || (bad as string).includes('/'));
              expectRefused(
                op,
                r,
                routerOnly ? undefined : nameIn(op, p),
                `${p.in} ${p.name}=${JSON.stringify(bad).slice(0, 80)}`,
              );
            }),
            params,
          );
        }
        await healthy();
      }
    },
    TIMEOUT,
  );

  it(
    'every operation: unknown query keys and unknown body keys are refused by name',
    async () => {
      // the Binance dialect ignores unknown parameters, as Binance does
      for (const op of ops.filter((o) => !o.binance)) {
        const base = baseRequest(op);
        await fc.assert(
          fc.asyncProperty(unknownKey, fc.string({ maxLength: 20 }), async (key, value) => {
            fc.pre(!op.params.some((p) => p.name === key));
            const req: Request = { path: base.req.path, query: [...base.req.query, [key, value]] };
            if (base.body !== undefined) req.body = bodyText(base.body);
            expectRefused(op, await send(op, req), key, `query key ${key}`);
          }),
          params,
        );
        if (op.hasBody) {
          await fc.assert(
            fc.asyncProperty(
              unknownKey,
              fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), nested),
              async (key, value) => {
                fc.pre(!op.params.some((p) => p.name === key));
                const req: Request = { path: base.req.path, query: base.req.query };
                // __proto__ written into the JSON text itself (an object literal key would set the prototype)
                req.body = bodyText(base.body!).replace(
                  /^\{/,
                  () =>
                    `{${JSON.stringify(key)}:${JSON.stringify(value)}${Object.keys(base.body!).length > 0 ? ',' : ''}`,
                );
                const r = await send(op, req);
                // JSON.parse-level refusal of prototype keys (1004) names the key too
                expectRefused(op, r, key === '__proto__' || key === 'constructor' ? undefined : key, `body key ${key}`);
                if (key === '__proto__' || key === 'constructor') {
                  expect(r.body?.code === 1003 || r.body?.code === 1004 || r.body?.code === 1001, r.raw).toBe(true);
                }
              },
            ),
            params,
          );
        }
        await healthy();
      }
    },
    TIMEOUT,
  );

  it(
    'every operation with a body: none, null, a non-object or malformed JSON is a 4xx, never a 5xx',
    async () => {
      const wholes: Array<string | undefined> = [
        undefined,
        'null',
        '[]',
        '"text"',
        '1',
        'true',
        '{',
        '{"a":',
        '[{}]',
        '',
      ];
      for (const op of ops.filter((o) => o.hasBody)) {
        const base = baseRequest(op);
        for (const w of wholes) {
          const r = await send(op, { path: base.req.path, query: base.req.query, body: w });
          expectRefused(op, r, undefined, `body ${JSON.stringify(w)}`);
        }
        await healthy();
      }
    },
    TIMEOUT,
  );
});

describe('no exception text in an answer', () => {
  it('POST /api/v1/datasets/import with no body: 1002 naming the body, no JavaScript error text', async () => {
    const r = await app.inject({ method: 'POST', url: '/api/v1/datasets/import' });
    expect(r.statusCode, r.body).toBe(400);
    const b = JSON.parse(r.body);
    expect(b.code).toBe(1002);
    expect(b.message).toContain('body');
    expect(r.body).not.toMatch(EXCEPTION_TEXT);
  });
});
