// Reading client messages of /ws and the shape of answers (the protocol is described in hub.ts).
// A message is JSON text `{"method", "params", "id"}`; `id` is an integer or a string of at
// most MAX_ID_LENGTH chars and comes back in the answer. Anything unreadable is answered with
// id null. Parsing never throws: every bad input becomes an error answer.
import type { RawData } from 'ws';
import { Errors, type ErrorDef } from '../../../src-shared/errors.ts';

export const METHODS = ['SUBSCRIBE', 'UNSUBSCRIBE', 'LIST_SUBSCRIPTIONS', 'PING', 'LOGIN', 'REPLAY'] as const;

const MAX_ID_LENGTH = 64;

export type RequestId = number | string;

export type Reply =
  { id: RequestId | null; result: unknown } | { id: RequestId | null; error: { code: number; message: string } };

export function errorReply(id: RequestId | null, def: ErrorDef, message?: string): Reply {
  return { id, error: { code: def.code, message: message ?? def.message } };
}

/** A readable request: its id checked, method and params still as sent. */
export interface Request {
  readonly id: RequestId;
  readonly method: unknown;
  readonly params: unknown;
}

/** The request in a client frame, or the error answer (id null) when it cannot be read. */
export function parseRequest(data: RawData, isBinary: boolean): Request | { error: Reply } {
  if (isBinary)
    return { error: errorReply(null, Errors.BAD_REQUEST, 'Binary frames are not accepted: send JSON text') };
  const text = Buffer.isBuffer(data)
    ? data.toString('utf8')
    : Array.isArray(data)
      ? Buffer.concat(data).toString('utf8')
      : Buffer.from(data).toString('utf8');
  let msg: unknown;
  try {
    msg = JSON.parse(text);
  } catch {
    return {
      error: errorReply(
        null,
        Errors.INVALID_JSON,
        'Message is not valid JSON; send {"method":...,"params":[...],"id":n}',
      ),
    };
  }
  if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) {
    return {
      error: errorReply(null, Errors.BAD_REQUEST, 'Message must be a JSON object {"method":...,"params":[...],"id":n}'),
    };
  }
  const m = msg as { method?: unknown; params?: unknown; id?: unknown };
  const id = m.id;
  const extra = Object.keys(m).find((k) => k !== 'method' && k !== 'params' && k !== 'id');
  const idOk =
    (typeof id === 'number' && Number.isSafeInteger(id)) || (typeof id === 'string' && id.length <= MAX_ID_LENGTH);
  if (!idOk) {
    return {
      error: errorReply(
        null,
        Errors.BAD_REQUEST,
        `"id" must be an integer or a string of at most ${MAX_ID_LENGTH} characters`,
      ),
    };
  }
  // as a REST body's: a key the protocol does not have is refused, never silently dropped
  if (extra !== undefined)
    return {
      error: errorReply(
        id as RequestId,
        Errors.UNKNOWN_PARAMETER,
        `Unknown key '${extra.slice(0, 32)}': a message is {"method":...,"params":[...],"id":n}`,
      ),
    };
  return { id: id as RequestId, method: m.method, params: m.params };
}

/** 1003 for params sent to a method that takes none (PING, LIST_SUBSCRIPTIONS); an empty array is none. */
export function noParams(id: RequestId, method: string, params: unknown): Reply | null {
  if (params === undefined || (Array.isArray(params) && params.length === 0)) return null;
  return errorReply(id, Errors.UNKNOWN_PARAMETER, `${method} takes no params`);
}

/**
 * The answer to a method that is not one of METHODS: 1105; a message without one is malformed
 * (1000), as a REST request without its required parameter is refused for it, not as an unknown value.
 */
export function unknownMethod(id: RequestId, method: unknown): Reply {
  if (method === undefined)
    return errorReply(
      id,
      Errors.BAD_REQUEST,
      `Missing "method": a message is {"method":...,"params":[...],"id":n}; methods are ${METHODS.join(', ')}`,
    );
  const shown = typeof method === 'string' ? `'${method.slice(0, 32)}'` : 'not a string';
  return errorReply(id, Errors.METHOD_NOT_ALLOWED, `Unknown method (${shown}); methods are ${METHODS.join(', ')}`);
}

/** SUBSCRIBE / UNSUBSCRIBE params: a non-empty array (its items are checked by the method). */
export function streamNames(id: RequestId, params: unknown, method: string): string[] | Reply {
  if (!Array.isArray(params) || params.length === 0) {
    return errorReply(id, Errors.BAD_REQUEST, `${method} takes "params": a non-empty array of stream names`);
  }
  return params as string[];
}
