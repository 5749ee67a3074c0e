// The last pass over the served OpenAPI document (@fastify/swagger's transformObject, app.ts):
// every operation gets what code generators and linters (openapi-generator, Redocly) need from
// it, without each route having to say so.
// - operationId: when a route names none, the method and path in camelCase ("GET
//   /fapi/v1/openOrders" -> getFapiV1OpenOrders, "{symbol}" -> BySymbol), unique because a
//   method and path are; a generated client's method names.
// - security: a signed route names its key scheme (auth.ts for the native API, binance/schemas.ts
//   for the facade); every other operation says it needs no credentials with an empty list
//   (`security: []`), which is what it means: public routes, bot routes (the IP whitelist) and
//   loopback-only ones are reached without a key. Without it a reader cannot tell "public" from
//   "forgot to say".

interface Operation {
  operationId?: string;
  security?: unknown[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** "get" + "/fapi/v1/ticker/24hr" -> "getFapiV1Ticker24hr"; "{id}" -> "ById". */
function operationIdOf(method: string, path: string): string {
  let id = method.toLowerCase();
  for (const segment of path.split('/')) {
    if (segment === '') continue;
    const param = /^\{(\w+)\}$/.exec(segment);
    const words = (param ? `by-${param[1]}` : segment).split(/[^A-Za-z0-9]+/).filter((w) => w !== '');
    for (const w of words) id += w[0].toUpperCase() + w.slice(1);
  }
  return id;
}

/** Fills in each operation's operationId and security (see above); returns the same document. */
export function completeOperations<T extends { paths?: object }>(doc: T): T {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, unknown> | undefined>;
  for (const [path, item] of Object.entries(paths)) {
    if (item === undefined) continue;
    for (const method of METHODS) {
      const op = item[method] as Operation | undefined;
      if (op === undefined) continue;
      op.operationId ??= operationIdOf(method, path);
      op.security ??= [];
    }
  }
  return doc;
}
