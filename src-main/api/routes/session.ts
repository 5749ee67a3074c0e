// Browser login by one-time token (as Jupyter does): the service prints
// `http://HOST:PORT/#token=...` at start; the page trades that token once for the local
// account's credentials. No unauthenticated route ever hands out credentials.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ApiError, Errors } from '../../../src-shared/errors.ts';
import type { Venue } from '../../venue.ts';
import { envelopeSchema, ok, standardErrors } from '../envelope.ts';

export interface LoginToken {
  /** The token; undefined once used. */
  value: string | undefined;
  accountId: number;
}

export function newLoginToken(accountId: number): LoginToken {
  return { value: randomBytes(24).toString('base64url'), accountId };
}

export default async function sessionRoutes(app: FastifyInstance, opts: { venue: Venue; token?: LoginToken }): Promise<void> {
  const { venue, token } = opts;
  app.post<{ Body: { token: string } }>(
    '/api/v1/session',
    {
      schema: {
        tags: ['account'],
        summary: 'Trade the one-time login token for the local account\'s API key and secret',
        description:
          'The service prints a URL `http://HOST:PORT/#token=...` when it starts. The token works once; ' +
          'a used, wrong or missing token answers 2010. Restart the service for a new token.',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['token'],
          properties: { token: { type: 'string', minLength: 1, maxLength: 128 } },
        },
        response: {
          200: envelopeSchema({
            type: 'object',
            required: ['user_id', 'api_key', 'api_secret'],
            properties: { user_id: { type: 'integer' }, api_key: { type: 'string' }, api_secret: { type: 'string' } },
          }),
          ...standardErrors(401),
        },
      },
    },
    async (req) => {
      const given = Buffer.from(req.body.token);
      const expected = token?.value === undefined ? undefined : Buffer.from(token.value);
      if (!token || !expected || given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new ApiError(Errors.TOKEN_INVALID);
      }
      token.value = undefined;
      const acct = venue.accounts.byId(token.accountId);
      if (!acct) throw new ApiError(Errors.ACCOUNT_NOT_FOUND);
      return ok({ user_id: acct.id, api_key: acct.apiKey, api_secret: acct.apiSecret });
    },
  );
}
