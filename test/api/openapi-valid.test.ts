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
import simRoutes from '../../src-main/api/routes/sim.ts';
import { SimulatedMarket } from '../../src-main/market/sim/simulated-market.ts';
import { Simulator } from '../../src-main/market/sim/simulator.ts';
import { openVenue, type LocalVenue } from '../../src-main/venue.ts';

let venue: LocalVenue;
let app: FastifyInstance;
let doc: any;

beforeAll(async () => {
  venue = openVenue({ dataDir: ':memory:' });
  const sweeps = { list: () => [], get: () => undefined, csv: () => undefined, job: () => undefined };
  app = await buildApp({ venue, rateLimit: false, sweeps });
  await app.register(simRoutes, {
    market: new SimulatedMarket(new Simulator({ exchange: venue.exchange, clock: venue.clock, seed: 1 }), venue.clock),
  });
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
