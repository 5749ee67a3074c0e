// One compile per schema per process. Fastify compiles a validator (ajv) and a response serializer
// (fast-json-stringify) for every route each time an app is built; they are pure functions of the
// route's schema, the shared schemas and the compiler options, which are the same for every app
// this process builds. A process that builds the app more than once (a sweep worker starts a venue
// per job, the tests start hundreds) reuses them, keyed by the schemas' JSON, instead of paying the
// compile (about a second of CPU a start) again. Fastify's own compilers do the compiling.
import AjvCompiler from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type Factories = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type BuildValidator = NonNullable<Factories['buildValidator']>;
type BuildSerializer = NonNullable<Factories['buildSerializer']>;

const validatorCompiler = AjvCompiler();
const serializerCompiler = SerializerSelector();
// by context, then by the route's schema (and part): a lookup hashes only the schema's JSON string,
// taken once per schema object (a route's schema is a module constant, the same on every build)
const validators = new Map<string, Map<string, unknown>>();
const serializers = new Map<string, Map<string, unknown>>();
const schemaJson = new WeakMap<object, string>();
const jsonOf = (schema: unknown): string => {
  if (typeof schema !== 'object' || schema === null) return JSON.stringify(schema);
  let j = schemaJson.get(schema);
  if (j === undefined) schemaJson.set(schema, (j = JSON.stringify(schema)));
  return j;
};
const inContext = (all: Map<string, Map<string, unknown>>, context: string): Map<string, unknown> => {
  let m = all.get(context);
  if (m === undefined) all.set(context, (m = new Map()));
  return m;
};
const compiled = { validators: 0, serializers: 0 };

/** The key of a compiler's context: the shared schemas and the options (functions in them are fixed). */
const contextKey = (external: unknown, options: unknown): string => JSON.stringify([external, options ?? null]);

const buildValidator: BuildValidator = (external, options) => {
  const compile = validatorCompiler(external, options);
  const cache = inContext(validators, contextKey(external, options?.customOptions));
  return (route) => {
    const key = `${route.httpPart}\n${jsonOf(route.schema)}`;
    let fn = cache.get(key);
    if (fn === undefined) {
      cache.set(key, (fn = compile(route)));
      compiled.validators++;
    }
    return fn as ReturnType<typeof compile>;
  };
};

const buildSerializer: BuildSerializer = (external, options) => {
  const compile = serializerCompiler(external, options);
  const cache = inContext(serializers, contextKey(external, options));
  return (route) => {
    const key = jsonOf(route.schema);
    let fn = cache.get(key);
    if (fn === undefined) {
      cache.set(key, (fn = compile(route)));
      compiled.serializers++;
    }
    return fn as ReturnType<typeof compile>;
  };
};

/** Fastify's compilers behind a process-wide cache (the `schemaController` option of Fastify()). */
export const cachedSchemaCompilers: FastifyServerOptions['schemaController'] = {
  compilersFactory: { buildValidator, buildSerializer },
};

/** How many validators and serializers this process has compiled so far (the cache's misses). */
export function schemaCompiles(): { validators: number; serializers: number } {
  return { ...compiled };
}
