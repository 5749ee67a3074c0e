// Turns every failure into the documented envelope: never a stack trace, an HTML page or a
// bare Fastify error body. Routes pick their error style through `config.errorStyle`:
// 'envelope' (default; registry codes, HTTP status by class), 'klines' (HTTP 200, body
// {code, message}, 6xxx/7xxx) and 'price' (the spec's 7000/7001/7002 for complete_price).
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
  const where = err.validationContext === 'body' ? 'body' : 'query';
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
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return sendError(reply, Errors.INVALID_JSON, err.message);
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return sendError(reply, Errors.BODY_TOO_LARGE);
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
    reply
      .code(404)
      .send({ code: Errors.ROUTE_NOT_FOUND.code, message: `No route ${req.method} ${req.url.split('?')[0]}`, data: null });
  });
}
