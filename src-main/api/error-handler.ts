// Turns every failure into the documented envelope: never a stack trace, an HTML page or a
// bare Fastify error body. Routes pick their error style through `config.errorStyle`:
// 'envelope' (default; registry codes, HTTP status by class), 'klines' (HTTP 200, body
// {code, message}, 6xxx/7xxx) and 'price' (the spec's 7000/7001/7002 for complete_price).
//
// A URL no route matches is 404 / 1100, unless the path exists for other methods: then it is
// HTTP 405 / 1105 with an `Allow` header (the router is asked with the concrete URL, so
// parametric routes count).
//
// What is refused before a request reaches Fastify's routing is the envelope too: a URL longer
// than MAX_URL_LENGTH is 414 / 1007 (in the route's own codes on the candlestick routes, 200 /
// 6007, and on complete_price, 414 / 7000), request headers beyond Node's limit 431 / 1008, a
// request that does not arrive in time 408 / 1009, anything that is not HTTP/1.1 400 / 1000
// (answerClientError, Node's 'clientError'). Client text echoed in a message is clipped.
import { STATUS_CODES, maxHeaderSize } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, Errors, type ErrorDef } from '../../src-shared/errors.ts';
import { binanceRefusal, isBinanceUrl } from './binance/errors.ts';
import { patternWords } from './pattern-words.ts';
import { drainRefusedBody } from './raw-body.ts';
import { undeclared } from './strict-input.ts';

type ErrorStyle = 'envelope' | 'klines' | 'price';

declare module 'fastify' {
  interface FastifyContextConfig {
    errorStyle?: ErrorStyle;
  }
}

export function sendError(reply: FastifyReply, def: ErrorDef, message?: string): FastifyReply {
  const msg = message ?? def.message;
  // a guard's refusal (Host, URL length, disk) under /binance answers in Binance's {code, msg}
  if (isBinanceUrl(reply.request.url)) {
    const b = binanceRefusal(def, msg);
    return reply.code(b.http).send(b.body);
  }
  const style = (reply.request.routeOptions.config as { errorStyle?: ErrorStyle } | undefined)?.errorStyle;
  if (style === 'klines') return reply.code(200).send({ code: def.code, message: msg });
  return reply.code(def.http).send({ code: def.code, message: msg, data: null });
}

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

/** The fields a route's schema of `where` (body, query, path) declares, in its order. */
function fieldsOf(req: FastifyRequest, where: string): string[] {
  const schemas = req.routeOptions.schema as Record<string, { properties?: object } | undefined> | undefined;
  const key = where === 'path' ? 'params' : where === 'query' ? 'querystring' : 'body';
  return Object.keys(schemas?.[key]?.properties ?? {});
}

/** Where the route declares a field: body, query or path (the first that has it), else undefined. */
function whereDeclared(req: FastifyRequest, name: string): string | undefined {
  for (const where of ['body', 'query', 'path']) if (fieldsOf(req, where).includes(name)) return where;
  return undefined;
}

/**
 * A 1001 / 1002 the trading checks raised about one field (ApiError.param; its detail is `name
 * rule`), worded as every such message on this transport: `Invalid body parameter 'qty': must be
 * greater than zero (got '0')`, `Missing required body parameter 'trigger_direction': ...`. A field
 * the route does not declare keeps the checks' own wording.
 */
function namedParam(req: FastifyRequest, err: ApiError): string {
  const name = err.param as string;
  const where = whereDeclared(req, name);
  if (where === undefined || !err.detail.startsWith(`${name} `)) return err.detail;
  const rule = err.detail.slice(name.length + 1);
  const lead = err.def === Errors.MISSING_PARAMETER ? 'Missing required' : 'Invalid';
  return `${lead} ${where} parameter '${name}': ${rule}`;
}

function describeValidation(
  err: FastifyError,
  req: FastifyRequest,
): { kind: 'unknown' | 'missing' | 'invalid'; message: string } {
  const v = (err.validation ?? []) as AjvError[];
  const first = v[0];
  const where = err.validationContext === 'body' ? 'body' : err.validationContext === 'params' ? 'path' : 'query';
  if (!first) return { kind: 'invalid', message: err.message };
  // an unknown parameter first: the validator stops at its first error, a missing or invalid one
  // when there is one (until 2026-12-07 `?symbol=BTCUSDT&client_order_id=x` to a route taking
  // `order_id` was 1002 for order_id, never naming what the bot sent)
  const unknown = first.keyword === 'additionalProperties' ? undefined : undeclared(err, req);
  if (unknown !== undefined) return { kind: 'unknown', message: `Unknown ${where} parameter '${unknown}'` };
  const field = first.instancePath.replace(/^\//, '').replace(/\//g, '.');
  // a parameter sent twice arrives as a list, which no query field takes: say so, not its type
  if (where === 'query' && field !== '' && Array.isArray((req.query as Record<string, unknown> | undefined)?.[field]))
    return { kind: 'invalid', message: `Duplicate query parameter '${field}': send it once` };
  if (first.keyword === 'additionalProperties') {
    const extra = String(first.params.additionalProperty);
    return { kind: 'unknown', message: `Unknown ${where} parameter '${extra}'` };
  }
  if (first.keyword === 'required') {
    return {
      kind: 'missing',
      message: `Missing required ${where} parameter '${String(first.params.missingProperty)}'`,
    };
  }
  if (first.keyword === 'enum') {
    const allowed = (first.params.allowedValues as unknown[]).map((x) => JSON.stringify(x)).join(', ');
    return { kind: 'invalid', message: `Invalid ${where} parameter '${field}': must be one of ${allowed}` };
  }
  // A rule on the whole object names no parameter: "at least one field" names the fields it takes
  if (field === '' && first.keyword === 'minProperties') {
    const fields = fieldsOf(req, where);
    if (fields.length > 0)
      return {
        kind: 'invalid',
        message: `Empty ${where}: give at least one of ${fields.map((f) => `'${f}'`).join(', ')}`,
      };
  }
  if (field === '') return { kind: 'invalid', message: `Invalid ${where}: ${first.message ?? 'invalid value'}` };
  // a length in words (Ajv says "must NOT have fewer than 1 characters")
  if (first.keyword === 'minLength' || first.keyword === 'maxLength') {
    const n = Number(first.params.limit);
    const rule =
      first.keyword === 'maxLength'
        ? `must be at most ${n} characters long`
        : n === 1
          ? 'must not be empty'
          : `must be at least ${n} characters long`;
    return { kind: 'invalid', message: `Invalid ${where} parameter '${field}': ${rule}` };
  }
  // a boolean in the query is the word true or false (Ajv says only "must be boolean")
  if (first.keyword === 'type' && first.params.type === 'boolean')
    return {
      kind: 'invalid',
      message: `Invalid ${where} parameter '${field}': must be true or false${where === 'query' ? ' (the word)' : ' (a JSON boolean)'}`,
    };
  const words = first.keyword === 'pattern' ? patternWords(String(first.params.pattern)) : undefined;
  if (words !== undefined)
    return { kind: 'invalid', message: `Invalid ${where} parameter '${field}': must be ${words}` };
  return { kind: 'invalid', message: `Invalid ${where} parameter '${field}': ${first.message ?? 'invalid value'}` };
}

function styleOf(req: FastifyRequest): ErrorStyle {
  return (req.routeOptions?.config as { errorStyle?: ErrorStyle } | undefined)?.errorStyle ?? 'envelope';
}

/**
 * A check of app.ts's one onRequest pass: true when it answered the request itself (the
 * request then goes no further), false to let it through. Sync and allocation-free on the
 * path that lets a request through: it runs on every request.
 */
export type RequestCheck = (req: FastifyRequest, reply: FastifyReply) => boolean;

/** What installErrorHandling leaves for app.ts's one onSend pass. */
export interface AnswerFinish {
  /** Reads a body still arriving as the answer goes out to its end after it (raw-body.ts). */
  drainIfIncomplete(req: FastifyRequest, reply: FastifyReply): void;
}

export function installErrorHandling(app: FastifyInstance): AnswerFinish {
  const draining = new Set<Socket>();
  app.addHook('preClose', (done) => {
    for (const s of draining) s.destroy();
    done();
  });
  app.setErrorHandler((err: FastifyError | ApiError, req, reply) => {
    const style = styleOf(req);
    if (err instanceof ApiError)
      return sendError(reply, err.def, err.param === undefined ? err.detail : namedParam(req, err));

    if (err.validation) {
      const d = describeValidation(err, req);
      if (style === 'klines') {
        const def = d.kind === 'missing' ? Errors.KLINES_MISSING_PARAMETER : Errors.KLINES_INVALID_PARAMETER;
        return sendError(reply, def, d.message);
      }
      if (style === 'price') return sendError(reply, Errors.PRICE_INVALID_PARAMETER, d.message);
      const def =
        d.kind === 'unknown'
          ? Errors.UNKNOWN_PARAMETER
          : d.kind === 'missing'
            ? Errors.MISSING_PARAMETER
            : Errors.INVALID_PARAMETER;
      return sendError(reply, def, d.message);
    }

    const code = (err as FastifyError).code;
    const status = (err as FastifyError).statusCode ?? 500;
    if (style === 'klines' && status < 500) return sendError(reply, Errors.KLINES_INVALID_PARAMETER, err.message);
    if (style === 'price' && status < 500) return sendError(reply, Errors.PRICE_INVALID_PARAMETER, err.message);
    switch (code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        return sendError(reply, Errors.INVALID_JSON, err.message);
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return sendError(reply, Errors.INVALID_JSON, EMPTY_JSON_BODY_MESSAGE);
      case 'FST_ERR_CTP_BODY_TOO_LARGE': {
        const limit = req.routeOptions?.bodyLimit ?? app.initialConfig.bodyLimit;
        return sendError(reply, Errors.BODY_TOO_LARGE, bodyTooLargeMessage(limit));
      }
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return sendError(reply, Errors.UNSUPPORTED_MEDIA_TYPE);
      case 'FST_ERR_RATE_LIMITED':
        return sendError(reply, Errors.RATE_LIMITED, err.message);
      default:
        break;
    }
    if (status === 429) return sendError(reply, Errors.RATE_LIMITED, err.message);
    if (status >= 400 && status < 500) return sendError(reply, Errors.BAD_REQUEST, err.message);

    req.log.error({ err, reqId: req.id }, 'unhandled error');
    if (style === 'klines') return sendError(reply, Errors.KLINES_INTERNAL);
    if (style === 'price') return sendError(reply, Errors.PRICE_INTERNAL);
    return sendError(reply, Errors.INTERNAL);
  });

  app.setNotFoundHandler((req, reply) => {
    const full = req.url.split('?')[0];
    const allowed = allowedMethods(app, req.method, full);
    const path = clip(full);
    if (allowed.length > 0) {
      // Allow names every method; the message leaves out HEAD beside GET (it comes with it).
      const shown = allowed.includes('GET') ? allowed.filter((m) => m !== 'HEAD') : allowed;
      const use = shown.length === 1 ? shown[0] : `${shown.slice(0, -1).join(', ')} or ${shown[shown.length - 1]}`;
      return reply
        .code(Errors.METHOD_NOT_ALLOWED.http)
        .header('allow', allowed.join(', '))
        .send({
          code: Errors.METHOD_NOT_ALLOWED.code,
          message: `${req.method} is not allowed on ${path}; use ${use}`,
          data: null,
        });
    }
    reply.code(404).send({ code: Errors.ROUTE_NOT_FOUND.code, message: `No route ${req.method} ${path}`, data: null });
  });
  return {
    drainIfIncomplete(req, reply) {
      if (!req.raw.complete) drainRefusedBody(req, reply, draining);
    },
  };
}

/** Methods a route may have; the router is asked about each (only on the not-found path). */
const PROBED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * The methods with a route for the concrete `path`, or none when `method` itself has one (a
 * handler that called callNotFound, e.g. a missing static file, stays a 404).
 */
function allowedMethods(app: FastifyInstance, method: string, path: string): string[] {
  const url = path === '' ? '/' : path;
  if (app.findRoute({ method: method as 'GET', url }) !== null) return [];
  const out: string[] = [];
  for (const m of PROBED_METHODS) if (m !== method && app.findRoute({ method: m, url }) !== null) out.push(m);
  return out;
}

/** 1004 for an empty body sent as JSON; worded like the routes' 1002 for a missing body. */
const EMPTY_JSON_BODY_MESSAGE =
  'Missing request body: Content-Type is application/json but the body is empty; send a JSON object, ' +
  'or no Content-Type where a route takes no body';

function bodyTooLargeMessage(limit: number): string {
  const kib = limit % 1024 === 0 ? ` (${limit / 1024} KiB)` : '';
  return `${Errors.BODY_TOO_LARGE.message}: the limit is ${limit} bytes${kib}`;
}

/** Client text echoed in a message is cut to this many characters. */
const ECHO_LIMIT = 200;

export function clip(text: string): string {
  return text.length > ECHO_LIMIT ? `${text.slice(0, ECHO_LIMIT)}...` : text;
}

/** The longest request URL (path and query) served, characters; beyond it 414 / 1007. */
const MAX_URL_LENGTH = 8192;

/** An over-long URL in each route style's own codes: the candlestick routes and complete_price have their own ranges. */
const URI_TOO_LONG: Readonly<Record<ErrorStyle, ErrorDef>> = {
  envelope: Errors.URI_TOO_LONG,
  klines: Errors.KLINES_URI_TOO_LONG,
  price: Errors.PRICE_URI_TOO_LONG,
};

/** Refuses a URL over MAX_URL_LENGTH first thing (app.ts runs it first), before any route or guard sees it. */
export const urlLimitCheck: RequestCheck = (req, reply) => {
  if (req.url.length <= MAX_URL_LENGTH) return false;
  const def = URI_TOO_LONG[styleOf(req)];
  sendError(reply, def, `${def.message}: ${req.url.length} characters, the limit is ${MAX_URL_LENGTH}`);
  return true;
};

/** The path of a request line at the start of the bytes Node's parser refused (undefined when there is none). */
function requestPath(raw: unknown): string | undefined {
  if (!Buffer.isBuffer(raw)) return undefined;
  return /^[A-Z]{3,8} (\/\S*)/.exec(raw.subarray(0, 2048).toString('latin1'))?.[1];
}

/** How long a socket refused by answerClientError may still send before it is closed, ms. */
const CLIENT_ERROR_LINGER_MS = 2000;
const answered = new WeakSet<Socket>();

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser refused (oversized headers, a
 * timeout, bytes that are not HTTP/1.1) gets the envelope with the status that names the cause,
 * then the socket closes. Input still arriving is read and dropped for a moment first, so the
 * client is not reset before it reads the answer.
 */
export function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed || answered.has(socket)) return;
  answered.add(socket);
  let def: ErrorDef;
  let message: string;
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    def = Errors.HEADERS_TOO_LARGE;
    message = `${def.message}: the request line and headers may hold ${maxHeaderSize} bytes in all`;
  } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    def = Errors.REQUEST_TIMEOUT;
    message = def.message;
  } else {
    def = Errors.BAD_REQUEST;
    message = `${def.message}: not a valid HTTP/1.1 request (${err.code ?? 'parse error'})`;
  }
  // under /binance (the request line, when the parser got that far) in Binance's {code, msg}, as
  // every other refusal there: a Binance client reads `msg`
  const path = requestPath((err as { rawPacket?: unknown }).rawPacket);
  const body = JSON.stringify(
    path !== undefined && isBinanceUrl(path)
      ? binanceRefusal(def, message).body
      : { code: def.code, message, data: null },
  );
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(
    `HTTP/1.1 ${def.http} ${STATUS_CODES[def.http]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  socket.resume();
  socket.setTimeout(0);
  const timer = setTimeout(() => socket.destroy(), CLIENT_ERROR_LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.once('end', () => socket.destroy());
}
