// Envelope helpers and the JSON schema of the envelope, shared by every envelope route.
import { SUCCESS_MESSAGE, type Envelope } from '../../src-shared/errors.ts';

export function ok<T>(data: T): Envelope<T> {
  return { code: 0, message: SUCCESS_MESSAGE, data };
}

/** Response schema of a successful envelope whose `data` follows `dataSchema`. */
export function envelopeSchema(dataSchema: object, description?: string): object {
  return {
    type: 'object',
    description,
    required: ['code', 'message', 'data'],
    properties: {
      code: { type: 'integer', description: '0 on success' },
      message: { type: 'string' },
      data: dataSchema,
    },
  };
}

/** Response schema of an error envelope (any non-zero code of the registry). */
export const errorEnvelopeSchema = {
  type: 'object',
  description: 'Error envelope; `code` is from the error registry (see README, Errors)',
  required: ['code', 'message', 'data'],
  properties: {
    code: { type: 'integer' },
    message: { type: 'string' },
    data: { type: 'null' },
  },
} as const;

/** The error responses every envelope route may give, for OpenAPI. */
export function standardErrors(...statuses: number[]): Record<number, object> {
  const out: Record<number, object> = {};
  for (const s of [400, 404, 429, 500, ...statuses]) out[s] = errorEnvelopeSchema;
  return out;
}
