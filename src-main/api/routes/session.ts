// Browser login by one-time token (as Jupyter does): the service prints
// `http://HOST:PORT/#token=...` at start; the page trades that token once for the local
// account's credentials. No unauthenticated route ever hands out credentials.
//
// The token is worth the local account's secret, so it is refused (403 / 2102) to any caller
// not on this machine whatever --host says (a remote attempt does not use it up), and it expires
// LOGIN_TOKEN_TTL_MS after the start (2010, "expired"; a restart prints a new link).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { Type } from 'typebox';
import { ApiError, Errors } from '../../../src-shared/errors.ts';
import type { Venue } from '../../services/venue.ts';
import { envelopeSchema, ok, standardErrors } from '../envelope.ts';
import type { SessionCredentials } from '../../../src-shared/types/admin.ts';
import { agree, noQuery, type ApiInstance } from '../schemas.ts';
import { strictJsonBody } from '../strict-input.ts';

/** How long the printed login link works: 15 minutes (wall clock) from the start. */
export const LOGIN_TOKEN_TTL_MS = 15 * 60_000;

export interface LoginToken {
  /** The token; undefined once used. */
  value: string | undefined;
  accountId: number;
  /** Wall-clock ms after which the token is refused. */
  expiresAt: number;
}

export function newLoginToken(accountId: number, now = Date.now(), ttlMs = LOGIN_TOKEN_TTL_MS): LoginToken {
  return { value: randomBytes(24).toString('base64url'), accountId, expiresAt: now + ttlMs };
}

const sessionBody = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 128, description: 'The one-time login token' }) },
  { additionalProperties: false },
);

const sessionAnswer = Type.Object({ user_id: Type.Integer(), api_key: Type.String(), api_secret: Type.String() });

agree<typeof sessionAnswer, SessionCredentials>(true);

export default async function sessionRoutes(
  app: ApiInstance,
  opts: { venue: Venue; token?: LoginToken; now?: () => number },
): Promise<void> {
  const { venue, token } = opts;
  const now = opts.now ?? Date.now;
  app.post(
    '/api/v1/session',
    {
      config: { auth: 'loopback' },
      preValidation: strictJsonBody(sessionBody),
      schema: {
        tags: ['account'],
        summary: "Trade the one-time login token for the local account's API key and secret",
        description:
          'The service prints a URL `http://HOST:PORT/#token=...` when it starts. The token works once, ' +
          `for ${LOGIN_TOKEN_TTL_MS / 60_000} minutes after the start, and only from this machine (loopback caller, ` +
          'whatever --host is; others get 403 / 2102 and the token stays unused). A used, expired, wrong or ' +
          'missing token answers 2010. Restart the service for a new token.',
        querystring: noQuery,
        body: sessionBody,
        response: {
          200: envelopeSchema(sessionAnswer),
          ...standardErrors(401, 403),
        },
      },
    },
    async (req) => {
      const given = Buffer.from(req.body.token);
      const expected = token?.value === undefined ? undefined : Buffer.from(token.value);
      if (!token || !expected || given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new ApiError(Errors.TOKEN_INVALID);
      }
      if (now() > token.expiresAt) {
        token.value = undefined;
        throw new ApiError(
          Errors.TOKEN_INVALID,
          `${Errors.TOKEN_INVALID.message}: this login link expired (it works for ${LOGIN_TOKEN_TTL_MS / 60_000} ` +
            'minutes after the start); restart the service for a new one',
        );
      }
      token.value = undefined;
      const acct = venue.accounts.byId(token.accountId);
      if (!acct) throw new ApiError(Errors.ACCOUNT_NOT_FOUND);
      return ok({ user_id: acct.id, api_key: acct.apiKey, api_secret: acct.apiSecret });
    },
  );
}
