// The process-wide schema compiler cache (src-main/api/schema-compilers.ts): an app built again
// compiles nothing again, while a different route schema or different shared schemas still get
// their own validator and serializer.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { cachedSchemaCompilers, schemaCompiles } from '../../src-main/api/schema-compilers.ts';

const apps: FastifyInstance[] = [];
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close();
});

/** An app with one route; its schemas are fresh objects each call, as a route module builds them. */
async function app(o: { shared: Record<string, unknown>; reply: Record<string, unknown>; minQty: number }) {
  const a = Fastify({ schemaController: cachedSchemaCompilers, ajv: { customOptions: { coerceTypes: true } } });
  apps.push(a);
  a.addSchema({ $id: 'shared', type: 'object', properties: o.shared });
  a.post(
    '/r',
    {
      schema: {
        querystring: { type: 'object', properties: { qty: { type: 'integer', minimum: o.minQty } } },
        response: { 200: { type: 'object', properties: { a: { type: 'string' }, s: { $ref: 'shared#' } } } },
      },
    },
    async () => o.reply,
  );
  await a.ready();
  return a;
}

const body = async (a: FastifyInstance, qty = 5) => {
  const r = await a.inject({ method: 'POST', url: `/r?qty=${qty}` });
  return { status: r.statusCode, body: r.body };
};

describe('cached schema compilers', () => {
  it('a second app with the same schemas compiles nothing and answers the same', async () => {
    const spec = { shared: { x: { type: 'integer' } }, reply: { a: 'A', b: 'dropped', s: { x: 1, y: 2 } }, minQty: 1 };
    const first = await app(spec);
    const before = schemaCompiles();
    const second = await app(spec);
    expect(schemaCompiles()).toEqual(before);
    expect(await body(second)).toEqual(await body(first));
    expect(await body(second)).toEqual({ status: 200, body: '{"a":"A","s":{"x":1}}' });
    expect((await body(second, 0)).status).toBe(400);
  });

  it('another route schema or other shared schemas get their own compile', async () => {
    const reply = { a: 'A', s: { x: 1, y: 2 } };
    const a = await app({ shared: { x: { type: 'integer' } }, reply, minQty: 1 });
    const before = schemaCompiles();
    // the shared schema now has y and not x: the serializer follows it
    const b = await app({ shared: { y: { type: 'integer' } }, reply, minQty: 1 });
    expect(schemaCompiles().serializers).toBeGreaterThan(before.serializers);
    expect((await body(a)).body).toBe('{"a":"A","s":{"x":1}}');
    expect((await body(b)).body).toBe('{"a":"A","s":{"y":2}}');
    // a stricter query schema on the same route: its validator refuses what the first one took
    const c = await app({ shared: { x: { type: 'integer' } }, reply, minQty: 10 });
    expect((await body(a, 5)).status).toBe(200);
    expect((await body(c, 5)).status).toBe(400);
    expect((await body(c, 10)).status).toBe(200);
  });
});
