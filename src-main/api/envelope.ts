// Envelope helpers and the schema of the envelope, shared by every envelope route.
import type { FastifyReply } from 'fastify';
import { Type, type TSchema } from 'typebox';
import { SUCCESS_MESSAGE, type Envelope } from '../../src-shared/errors.ts';

export function ok<T>(data: T): Envelope<T> {
  return { code: 0, message: SUCCESS_MESSAGE, data };
}

/**
 * Answers `result` in the envelope: at once when it is a value (no promise and no microtask turn
 * for the order routes, whose command runs synchronously), after it settles when it is a promise
 * (a replay's order latency). A rejection reaches the error handler as a thrown error would.
 */
export function answer<T>(reply: Pick<FastifyReply, 'send'>, result: T | Promise<T>): Promise<Envelope<T>> | undefined {
  if (result instanceof Promise) return result.then(ok);
  reply.send(ok(result));
  return undefined;
}

/** Response schema of a successful envelope whose `data` follows `dataSchema`. */
export function envelopeSchema<T extends TSchema>(dataSchema: T, description?: string) {
  return Type.Object(
    {
      code: Type.Integer({ description: '0 on success' }),
      message: Type.String(),
      data: dataSchema,
    },
    description === undefined ? {} : { description },
  );
}

/** Response schema of an error envelope (any non-zero code of the registry). */
export const errorEnvelopeSchema = Type.Object(
  {
    code: Type.Integer(),
    message: Type.String(),
    data: Type.Null(),
  },
  { description: 'Error envelope; `code` is from the error registry (see docs/api.md, Errors)' },
);

/**
 * The error responses every envelope route may give, for OpenAPI: 400, 404, 429, 500 and 414
 * (1007, a URL over 8192 characters: checked before any route), and the route's own. The
 * guards' answers (403 / 2103, 405, 431, 503 / 5002) are added to every operation by
 * openapi-guards.ts.
 */
export function standardErrors(...statuses: number[]): Record<number, typeof errorEnvelopeSchema> {
  const out: Record<number, typeof errorEnvelopeSchema> = {};
  for (const s of [400, 404, 414, 429, 500, ...statuses]) out[s] = errorEnvelopeSchema;
  return out;
}
