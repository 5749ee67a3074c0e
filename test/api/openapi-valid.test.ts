// The served /openapi.json is a valid OpenAPI 3.1 document: every schema in it (components,
// parameters, bodies, answers) compiles with Ajv's JSON Schema 2020-12 dialect in strict mode (a
// draft-07 tuple, `items: [...]` + `additionalItems`, is refused there), every path template's
// parameters are words and are the operation's declared path parameters (`{*}` is no template
// parameter), and `servers`, when given, is not empty. The app has every optional route group
// (simulator, sweeps, the Binance facade) so that all of them are checked.
import type { FastifyInstance } from 'fastify';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src-main/api/app.ts';
import { SimulatedMarket } from '../../src-main/market/sim/simulated-market.ts';
import { Simulator } from '../../src-main/market/sim/simulator.ts';
import { sweepResults } from '../../src-main/sweep/reader.ts';
import { openVenue, type LocalVenue } from '../../src-main/venue.ts';

let venue: LocalVenue;
let app: FastifyInstance;
let doc: any;

beforeAll(async () => {
  venue = openVenue({ dataDir: ':memory:' });
  const sweeps = sweepResults(':memory:'); // the real reader, on a folder without sweeps
  // a simulated market (never started) behind /api/v1/sim, for its whole answer
  Object.assign(venue, {
    market: new SimulatedMarket(new Simulator({ exchange: venue.exchange, clock: venue.clock, seed: 1 }), venue.clock),
  });
  app = await buildApp({ venue, rateLimit: false, sweeps });
  await app.ready();
  const r = await app.inject({ method: 'GET', url: '/openapi.json' });
  expect(r.statusCode).toBe(200);
  doc = r.json();
});

afterAll(async () => {
  await app.close();
  venue.close();
});

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** Every operation of the document as [label, operation]. */
function operations(): Array<[string, any]> {
  const out: Array<[string, any]> = [];
  for (const [path, item] of Object.entries<Record<string, any>>(doc.paths))
    for (const [method, op] of Object.entries(item)) if (METHODS.has(method)) out.push([`${method} ${path}`, op]);
  return out;
}

/** Every schema of the document with where it is: components, parameters, request bodies, answers. */
function schemas(): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = Object.entries<unknown>(doc.components?.schemas ?? {}).map(([n, s]) => [
    `#/components/schemas/${n}`,
    s,
  ]);
  for (const [label, op] of operations()) {
    for (const p of op.parameters ?? []) out.push([`${label} parameter ${p.name}`, p.schema]);
    for (const [type, c] of Object.entries<any>(op.requestBody?.content ?? {}))
      out.push([`${label} body ${type}`, c.schema]);
    for (const [status, r] of Object.entries<any>(op.responses ?? {}))
      for (const [type, c] of Object.entries<any>(r.content ?? {})) out.push([`${label} ${status} ${type}`, c.schema]);
  }
  return out;
}

const BASE = 'https://perpdesk.invalid/openapi.json';
/** The schema with its document-local references (`#/components/...`) made absolute. */
const absolute = (o: unknown): unknown =>
  Array.isArray(o)
    ? o.map(absolute)
    : typeof o === 'object' && o !== null
      ? Object.fromEntries(
          Object.entries(o).map(([k, v]) => [
            k,
            k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? BASE + v : absolute(v),
          ]),
        )
      : o;

describe('/openapi.json is valid OpenAPI 3.1', () => {
  it('is an OpenAPI 3.1 document with a non-empty servers list', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    if (doc.servers !== undefined) {
      expect(Array.isArray(doc.servers) && doc.servers.length > 0, 'servers must not be empty').toBe(true);
      for (const s of doc.servers) expect(typeof s.url).toBe('string');
    }
  });

  it('every schema compiles as JSON Schema 2020-12 in strict mode', () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true, logger: false });
    addFormats.default(ajv);
    // the Schema Object's OpenAPI fields besides JSON Schema's own
    for (const k of ['discriminator', 'xml', 'externalDocs', 'example']) ajv.addKeyword(k);
    for (const [n, s] of Object.entries<object>(doc.components?.schemas ?? {}))
      ajv.addSchema(absolute(s) as object, `${BASE}#/components/schemas/${n}`);
    const all = schemas();
    expect(all.length).toBeGreaterThan(300);
    const refused: string[] = [];
    for (const [where, schema] of all) {
      try {
        ajv.compile(absolute(schema) as object);
      } catch (e) {
        refused.push(`${where}: ${(e as Error).message.slice(0, 300)}`);
      }
    }
    expect(refused).toEqual([]);
  });

  it("every path template's parameters are words, declared as required path parameters, and no others", () => {
    const bad: string[] = [];
    for (const [label, op] of operations()) {
      const path = label.slice(label.indexOf(' ') + 1);
      const inTemplate = [...path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
      for (const name of inTemplate) if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) bad.push(`${label}: {${name}}`);
      const declared = (op.parameters ?? []).filter((p: any) => p.in === 'path');
      for (const p of declared) if (p.required !== true) bad.push(`${label}: path parameter ${p.name} not required`);
      const names = declared.map((p: any) => p.name as string).sort();
      if (JSON.stringify(names) !== JSON.stringify([...inTemplate].sort()))
        bad.push(`${label}: template ${JSON.stringify(inTemplate)} vs declared ${JSON.stringify(names)}`);
    }
    expect(bad).toEqual([]);
  });
});

/**
 * Operations that answer no 4xx, and why: the spec's candlestick routes answer every error with
 * HTTP 200 and {code, message} (routes/klines.ts), so their error is a branch of the 200 answer.
 */
const ERRORS_IN_200: Record<string, string> = {
  'get /fapi/v1/klines': 'spec: errors are HTTP 200 {code, message}',
  'get /fapi/v1/klines/batch': 'spec: errors are HTTP 200 {code, message}',
  'get /api/v1/datasets/{id}/klines': 'answers as /fapi/v1/klines',
};

describe('/openapi.json documents the errors of every operation', () => {
  it('each operation documents a 4xx answer, or an error object in its 200 answer when it is listed as such', () => {
    const missing: string[] = [];
    for (const [label, op] of operations()) {
      const statuses = Object.keys(op.responses ?? {});
      if (label in ERRORS_IN_200) {
        const branches = op.responses['200']?.content?.['application/json']?.schema?.anyOf ?? [];
        const error = branches.find((b: any) => b.type === 'object' && b.required?.includes('code'));
        if (error === undefined || !error.required.includes('message') || !/HTTP 200/.test(error.description ?? ''))
          missing.push(`${label}: its 200 answer documents no error object`);
        // (431 and 408 excepted: Node's HTTP parser refuses oversized headers, and the server headers
        // that do not arrive in time, before any route is known)
        if (statuses.some((s) => s.startsWith('4') && s !== '431' && s !== '408'))
          missing.push(`${label}: listed as 200-only but documents a 4xx`);
        // the service-wide refusals answer in this style too (HTTP 200): the Host guard, the rate limit
        for (const code of ['2103', '4290', '6000', '7000'])
          if (error !== undefined && !error.description.includes(code))
            missing.push(`${label}: error ${code} not listed`);
        continue;
      }
      if (!statuses.some((s) => s.startsWith('4'))) missing.push(`${label}: no 4xx answer`);
    }
    expect(missing).toEqual([]);
  });

  it('a Binance WebSocket endpoint documents its upgrade (101) and the refusals it answers, not a 200 it never sends', () => {
    const ws = operations().filter(([label]) => /^get \/binance\/(ws|stream|public|market|private)/.test(label));
    expect(ws.length).toBe(16);
    for (const [label, op] of ws)
      expect(Object.keys(op.responses).sort(), label).toEqual(['101', '400', '403', '408', '414', '429', '431', '503']);
  });

  it('the native WebSocket endpoint, GET /ws, documents its upgrade (101) and the handshake refusal (text/html)', () => {
    const op = doc.paths['/ws'].get;
    // no 429: the per-IP rate limit covers /api and /fapi alone
    expect(Object.keys(op.responses).sort()).toEqual(['101', '400', '403', '408', '414', '431', '500']);
    expect(op.responses['101'].description).toMatch(/Switching Protocols/);
    const bad = op.responses['400'].content;
    expect(Object.keys(bad).sort()).toEqual(['application/json', 'text/html']);
    expect(bad['application/json'].schema.required).toEqual(['code', 'message', 'data']);
    expect(bad['text/html'].schema.type).toBe('string');
  });
});

describe("/openapi.json documents the service guards' answers on every native operation", () => {
  it('403 / 2103, 414 / 1007 and 431 / 1008 everywhere, 405 / 1105 where the path has other methods, 503 / 5002 on changes', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const [label, op] of operations()) {
      const [method, path] = label.split(' ');
      if (path.startsWith('/binance')) continue; // the facade documents its own (binance/schemas.ts)
      checked++;
      const has = (status: string, code: string) => {
        if (!String(op.responses?.[status]?.description ?? '').includes(code))
          missing.push(`${label}: ${status} ${code}`);
      };
      // the candlestick routes answer the Host guard with HTTP 200 (their 200 answer lists 2103)
      if (!(label in ERRORS_IN_200)) has('403', '2103');
      if (!(label in ERRORS_IN_200)) has('414', '1007');
      has('431', '1008');
      if (Object.keys(doc.paths[path]).filter((m) => METHODS.has(m)).length > 1) has('405', '1105');
      if (!['get', 'head', 'options'].includes(method) && !path.startsWith('/api/v1/session')) has('503', '5002');
    }
    expect(checked).toBeGreaterThan(60);
    expect(missing).toEqual([]);
  });

  it('every 429 names its Retry-After header and every 405 its Allow header, as the answers carry them', () => {
    const missing: string[] = [];
    let seen429 = 0;
    for (const [label, op] of operations()) {
      const r429 = op.responses?.['429'];
      if (r429 !== undefined) {
        seen429++;
        if (r429.headers?.['Retry-After']?.schema?.type !== 'integer') missing.push(`${label}: 429 Retry-After`);
      }
      const r405 = op.responses?.['405'];
      if (r405 !== undefined && r405.headers?.Allow?.schema?.type !== 'string') missing.push(`${label}: 405 Allow`);
    }
    expect(seen429).toBeGreaterThan(100); // native and facade operations
    expect(missing).toEqual([]);
  });

  it("the candlestick routes' limit says its default, 500 (spec)", () => {
    for (const path of ['/fapi/v1/klines', '/fapi/v1/klines/batch']) {
      const limit = doc.paths[path].get.parameters.find((p: any) => p.name === 'limit');
      expect(limit.schema.default, path).toBe(500);
    }
  });
});
