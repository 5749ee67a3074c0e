// Keeps the JSON request body exactly as sent, because a signature covers those bytes and
// not whatever JSON.stringify would make of the parsed value (key order, spacing, number
// spelling). Parsing itself stays Fastify's own parser, with its prototype-poisoning guard;
// its errors (empty or malformed body) reach the error handler as INVALID_JSON (1004).
//
// A body still arriving when the answer goes out (too large, 1005, or refused before it was
// read) is read to its end and dropped after the answer, within DRAIN_LIMIT_BYTES and
// DRAIN_LIMIT_MS: closing a socket with unread input makes the kernel send a reset, and the
// client, still writing, then sees EPIPE or ECONNRESET instead of the answer; waiting for a
// client that stopped sending would hold the socket (and the server's close) for ever.
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

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
    parseJson(req, body as string, (err, value) =>
      err ? done(explained(err, body as string), undefined) : done(null, value),
    );
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

/** How much of a refused body is still read (and dropped) after the answer. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;
/** How long a refused body may take to finish arriving after the answer, ms. */
const DRAIN_LIMIT_MS = 10_000;

/**
 * Called as any answer goes out to a request whose body is still arriving (a body too large, a
 * Host, content type or route refused before the body was read): the answer goes out at once and
 * the connection stays open while the rest of the body is read and dropped, so the client
 * finishes its upload and reads the answer; the connection is then reusable. Past either limit
 * the socket is closed. (Fastify marks such an answer `Connection: close`, which would make
 * Node close the socket right after it, with the upload unread.) `draining` holds the sockets
 * meanwhile, for the server's close to end them at once.
 */
export function drainRefusedBody(req: FastifyRequest, reply: FastifyReply, draining: Set<Socket>): void {
  const raw = req.raw;
  const socket = raw.socket as Socket | null;
  // (an injected request has a stand-in socket and its whole body at once)
  if (raw.complete || raw.destroyed || typeof socket?.destroy !== 'function') return;
  const h = raw.headers;
  if (h['transfer-encoding'] === undefined && !(Number(h['content-length']) > 0)) return; // no body
  // Fastify's "close" after a body error, not the client's own wish
  if (reply.getHeader('connection') === 'close' && !/close/i.test(String(h.connection ?? '')))
    reply.header('connection', 'keep-alive');
  draining.add(socket);
  let seen = 0;
  const stop = (): void => {
    draining.delete(socket);
    clearTimeout(timer);
    raw.off('data', onData);
    raw.off('end', stop);
    raw.off('close', stop);
  };
  const onData = (chunk: Buffer): void => {
    seen += chunk.length;
    if (seen <= DRAIN_LIMIT_BYTES) return;
    stop();
    socket.destroy();
  };
  const timer = setTimeout(() => {
    stop();
    socket.destroy();
  }, DRAIN_LIMIT_MS);
  timer.unref();
  raw.on('data', onData);
  raw.on('end', stop);
  raw.on('close', stop);
  raw.resume();
}
