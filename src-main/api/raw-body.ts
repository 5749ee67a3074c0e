// Keeps the JSON request body exactly as sent, because a signature covers those bytes and
// not whatever JSON.stringify would make of the parsed value (key order, spacing, number
// spelling). Parsing itself stays Fastify's own parser, with its prototype-poisoning guard;
// its errors (empty or malformed body) reach the error handler as INVALID_JSON (1004).
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The raw request body of an application/json request; undefined for other requests. */
    rawBody: string | undefined;
  }
}

/** Replaces the application/json parser of `app` (call before routes are registered). */
export function installRawBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.decorateRequest('rawBody', undefined);
  app.removeContentTypeParser('application/json');
  // Every body of this API is JSON: without Fastify's default text/plain parser a text body is
  // 1006 (content type) on every route, not a schema error about an unnamed '' parameter.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    req.rawBody = body as string;
    parseJson(req, body as string, (err, value) => (err ? done(explained(err, body as string), undefined) : done(null, value)));
  });
}

/**
 * Fastify's parser says only "Body is not valid JSON"; on that (rare) path the body is parsed
 * again to say why: where the syntax breaks, or that it is valid JSON holding a `__proto__` or
 * `constructor.prototype` key, which is refused (prototype poisoning).
 */
function explained(err: Error, body: string): Error {
  if ((err as { code?: string }).code !== 'FST_ERR_CTP_INVALID_JSON_BODY') return err;
  let why: string;
  try {
    JSON.parse(body);
    why = 'Body is valid JSON but holds a __proto__ or constructor.prototype key, which is refused';
  } catch (e) {
    why = `Body is not valid JSON: ${e instanceof Error ? e.message : String(e)}`;
  }
  return Object.assign(new Error(why), { code: 'FST_ERR_CTP_INVALID_JSON_BODY', statusCode: 400 });
}
