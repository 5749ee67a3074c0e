// Paper-trading conveniences of a signed account: reset the wallet, rotate the API key.
import { Type } from 'typebox';
import { ApiError, Errors } from '../../../src-shared/errors.ts';
import type { ApiCredentials } from '../../../src-shared/types/admin.ts';
import {
  AccountFieldError,
  DEFAULT_PAPER_BALANCE,
  MAX_PAPER_BALANCE,
  MAX_PAPER_USDT,
  newApiKey,
  newApiSecret,
  parsePaperBalance,
} from '../../accounts/credentials.ts';
import type { Venue } from '../../services/venue.ts';
import { signedQuerystring, type AuthServices } from '../auth.ts';
import { envelopeSchema, ok, standardErrors } from '../envelope.ts';
import { agree, type ApiInstance } from '../schemas.ts';
import { strictJsonBody } from '../strict-input.ts';
import { accountSummaryRef } from '../trading-schemas.ts';

const resetBody = Type.Object(
  {
    balance: Type.Optional(
      Type.String({ pattern: '^\\d{1,10}(\\.\\d{1,8})?$', description: 'USDT, at most 8 decimals' }),
    ),
  },
  { additionalProperties: false },
);

const credentialsSchema = Type.Object({ api_key: Type.String(), api_secret: Type.String() });

agree<typeof credentialsSchema, ApiCredentials>(true);

/**
 * The balance a reset sets, in 1e-8 USDT: more than 0 and at most a paper account's most, said as
 * the body field's error (before, '0' read "'0' is not a USDT amount with at most 8 decimals" and
 * too much "balance must be at most ...", neither naming the body parameter).
 */
function resetBalance(text: string): bigint {
  let balance: bigint;
  try {
    balance = parsePaperBalance(text);
  } catch (err) {
    if (!(err instanceof AccountFieldError)) throw err;
    throw new ApiError(Errors.INVALID_PARAMETER, `Invalid body parameter 'balance': ${err.detail}, got "${text}"`);
  }
  if (balance > MAX_PAPER_BALANCE)
    throw new ApiError(
      Errors.INVALID_PARAMETER,
      `Invalid body parameter 'balance': at most ${MAX_PAPER_USDT} USDT, got "${text}"`,
    );
  return balance;
}

export default async function paperRoutes(app: ApiInstance, opts: { venue: Venue; auth: AuthServices }): Promise<void> {
  const { venue, auth } = opts;

  app.post(
    '/fapi/v1/account/reset',
    {
      config: { auth: 'signed' },
      preValidation: strictJsonBody(resetBody),
      schema: {
        tags: ['account'],
        summary: 'Reset the paper account (signed)',
        description:
          'Cancels every open order, closes every position at the mark price (close type 1, no fee) and sets the ' +
          'wallet to `balance` USDT (default 10000). The difference is booked as a deposit, so accounting still adds up. ' +
          'The body is required: `{}` resets to the default balance.',
        querystring: signedQuerystring(),
        body: resetBody,
        response: { 200: envelopeSchema(accountSummaryRef), ...standardErrors(401) },
      },
    },
    async (req) => {
      const balance = req.body.balance === undefined ? DEFAULT_PAPER_BALANCE : resetBalance(req.body.balance);
      return ok(await venue.submit({ kind: 'reset', accountId: req.account!.id, balance }));
    },
  );

  app.post(
    '/fapi/v1/account/apiKey/regenerate',
    {
      config: { auth: 'signed' },
      schema: {
        tags: ['account'],
        summary: 'Replace the API key and secret of the signed account (signed)',
        description:
          'The old key stops working at once, on REST and on the WebSocket: a /ws connection logged in with it gets a ' +
          'last `user` push `{kind: "logged_out", data: {code: 2002, message}}`, leaves the `user` stream and is no ' +
          "longer logged in (LOGIN again with the new key); its market streams go on. The account's listenKey on the " +
          '/binance facade ends too (listenKeyExpired).',
        querystring: signedQuerystring(),
        response: {
          200: envelopeSchema(credentialsSchema),
          ...standardErrors(401),
        },
      },
    },
    async (req) => {
      const old = req.account!;
      const kind = old.kind === 'local' ? 'local' : 'key';
      const fresh = await venue.submit({
        kind: 'rotateKey',
        accountId: old.id,
        apiKey: newApiKey(kind),
        apiSecret: newApiSecret(),
        now: Date.now(),
      });
      auth.accounts.revoke(old.apiKey, old.id);
      return ok({ api_key: fresh.apiKey, api_secret: fresh.apiSecret });
    },
  );
}
