// Browser login by one-time token (as Jupyter does): the service prints
// `http://HOST:PORT/#token=...` at start; the page trades that token once for the local
// account's credentials. No unauthenticated route ever hands out credentials.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { Type } from 'typebox';
import { ApiError, Errors } from '../../../src-shared/errors.ts';
import type { Venue } from '../../venue.ts';
import { envelopeSchema, ok, standardErrors } from '../envelope.ts';
import { noQuery, type ApiInstance } from '../schemas.ts';
import { strictJsonBody } from '../trading-schemas.ts';

export interface LoginToken {
  /** The token; undefined once used. */
  value: string | undefined;
  accountId: number;
}

export function newLoginToken(accountId: number): LoginToken {
  return { value: randomBytes(24).toString('base64url'), accountId };
}

const sessionBody = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 128, description: 'The one-time login token' }) },
  { additionalProperties: false },
);

export default async function sessionRoutes(app: ApiInstance, opts: { venue: Venue; token?: LoginToken }): Promise<void> {
  const { venue, token } = opts;
  app.post(
    '/api/v1/session',
    {
      preValidation: strictJsonBody(sessionBody),
      schema: {
        tags: ['account'],
        summary: 'Trade the one-time login token for the local account\'s API key and secret',
        description:
          'The service prints a URL `http://HOST:PORT/#token=...` when it starts. The token works once; ' +
          'a used, wrong or missing token answers 2010. Restart the service for a new token.',
        querystring: noQuery,
        body: sessionBody,
        response: {
          200: envelopeSchema(Type.Object({ user_id: Type.Integer(), api_key: Type.String(), api_secret: Type.String() })),
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
