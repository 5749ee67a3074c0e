// Turns every failure into the documented envelope: never a stack trace, an HTML page or a
// bare Fastify error body. Routes pick their error style through `config.errorStyle`:
// 'envelope' (default; registry codes, HTTP status by class), 'klines' (HTTP 200, body
// {code, message}, 6xxx/7xxx) and 'price' (the spec's 7000/7001/7002 for complete_price).
//
// A URL no route matches is 404 / 1100, unless the path exists for other methods: then it is
// HTTP 405 / 1105 with an `Allow` header (the router is asked with the concrete URL, so
// parametric routes count).
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, Errors, type ErrorDef } from '../../src-shared/errors.ts';

export type ErrorStyle = 'envelope' | 'klines' | 'price';

declare module 'fastify' {
  interface FastifyContextConfig {
    errorStyle?: ErrorStyle;
  }
}

export function sendError(reply: FastifyReply, def: ErrorDef, message?: string): FastifyReply {
  const style = (reply.request.routeOptions.config as { errorStyle?: ErrorStyle } | undefined)?.errorStyle;
  const msg = message ?? def.message;
  if (style === 'klines') return reply.code(200).send({ code: def.code, message: msg });
  return reply.code(def.http).send({ code: def.code, message: msg, data: null });
}

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

function describeValidation(err: FastifyError): { kind: 'unknown' | 'missing' | 'invalid'; message: string } {
  const v = (err.validation ?? []) as AjvError[];
  const first = v[0];
  const where = err.validationContext === 'body' ? 'body' : err.validationContext === 'params' ? 'path' : 'query';
  if (!first) return { kind: 'invalid', message: err.message };
  const field = first.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (first.keyword === 'additionalProperties') {
    const extra = String(first.params.additionalProperty);
    return { kind: 'unknown', message: `Unknown ${where} parameter '${extra}'` };
  }
  if (first.keyword === 'required') {
    return { kind: 'missing', message: `Missing required ${where} parameter '${String(first.params.missingProperty)}'` };
  }
  if (first.keyword === 'enum') {
    const allowed = (first.params.allowedValues as unknown[]).map((x) => JSON.stringify(x)).join(', ');
    return { kind: 'invalid', message: `Invalid ${where} parameter '${field}': must be one of ${allowed}` };
  }
  // A rule on the whole object (minProperties: "at least one field") names no parameter.
  if (field === '') return { kind: 'invalid', message: `Invalid ${where}: ${first.message ?? 'invalid value'}` };
  return { kind: 'invalid', message: `Invalid ${where} parameter '${field}': ${first.message ?? 'invalid value'}` };
}

function styleOf(req: FastifyRequest): ErrorStyle {
  return (req.routeOptions?.config as { errorStyle?: ErrorStyle } | undefined)?.errorStyle ?? 'envelope';
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | ApiError, req, reply) => {
    const style = styleOf(req);
    if (err instanceof ApiError) return sendError(reply, err.def, err.detail);

    if (err.validation) {
      const d = describeValidation(err);
      if (style === 'klines') {
        const def = d.kind === 'missing' ? Errors.KLINES_MISSING_PARAMETER : Errors.KLINES_INVALID_PARAMETER;
        return sendError(reply, def, d.message);
      }
      if (style === 'price') return sendError(reply, Errors.PRICE_INVALID_PARAMETER, d.message);
      const def =
        d.kind === 'unknown' ? Errors.UNKNOWN_PARAMETER : d.kind === 'missing' ? Errors.MISSING_PARAMETER : Errors.INVALID_PARAMETER;
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

    req.log.error({ err }, 'unhandled error');
    if (style === 'klines') return sendError(reply, Errors.KLINES_INTERNAL);
    if (style === 'price') return sendError(reply, Errors.PRICE_INTERNAL);
    return sendError(reply, Errors.INTERNAL);
  });

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    const allowed = allowedMethods(app, req.method, path);
    if (allowed.length > 0) {
      // Allow names every method; the message leaves out HEAD beside GET (it comes with it).
      const shown = allowed.includes('GET') ? allowed.filter((m) => m !== 'HEAD') : allowed;
      const use = shown.length === 1 ? shown[0] : `${shown.slice(0, -1).join(', ')} or ${shown[shown.length - 1]}`;
      return reply
        .code(Errors.METHOD_NOT_ALLOWED.http)
        .header('allow', allowed.join(', '))
        .send({ code: Errors.METHOD_NOT_ALLOWED.code, message: `${req.method} is not allowed on ${path}; use ${use}`, data: null });
    }
    reply.code(404).send({ code: Errors.ROUTE_NOT_FOUND.code, message: `No route ${req.method} ${path}`, data: null });
  });
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
export const EMPTY_JSON_BODY_MESSAGE =
  'Missing request body: Content-Type is application/json but the body is empty; send a JSON object, ' +
  'or no Content-Type where a route takes no body';

export function bodyTooLargeMessage(limit: number): string {
  const kib = limit % 1024 === 0 ? ` (${limit / 1024} KiB)` : '';
  return `${Errors.BODY_TOO_LARGE.message}: the limit is ${limit} bytes${kib}`;
}
