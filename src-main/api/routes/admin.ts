// Administration of a local venue: paper accounts and the bot whitelist (loopback callers
// only), the caller's own whitelist status (public, for the UI's bot panel) and the signed
// paper deposit.
import { Type } from 'typebox';
import { parseFixed, formatFixed } from '../../../src-shared/decimal.ts';
import { ApiError, Errors } from '../../../src-shared/errors.ts';
import type {
  AdminAccount,
  AdminAccountRequest,
  DepositResult,
  IpWhitelist,
  WhitelistStatus,
} from '../../../src-shared/types/admin.ts';
import {
  AccountFieldError,
  checkAccountFields as checkFields,
  CREDENTIAL_RULE,
  MAX_PAPER_BALANCE,
  newApiKey,
  newApiSecret,
} from '../../accounts/credentials.ts';
import { parseIpList } from '../../accounts/whitelist.ts';
import { USDT_DECIMALS, type Account } from '../../core/account.ts';
import type { Venue } from '../../services/venue.ts';
import { signedQuerystring, type AuthServices } from '../auth.ts';
import { envelopeSchema, ok, standardErrors } from '../envelope.ts';
import { agree, agreeSent, noQuery, type ApiInstance } from '../schemas.ts';
import { positionModeField } from '../trading-schemas.ts';
import { strictJsonBody } from '../strict-input.ts';

const UNIT = 10n ** BigInt(USDT_DECIMALS);
/** Largest balance an admin may set (a paper account's largest), and largest single deposit: 1e9 USDT. */
const MAX_SET_BALANCE = MAX_PAPER_BALANCE;
const MAX_DEPOSIT = 1_000_000_000n * UNIT;
/**
 * Ceiling of a wallet and of an account's total deposits: 1e10 USDT, i.e. 1e18 units, well
 * inside SQLite's signed 64-bit integer (9.2e18), so a row can never overflow.
 */
const MAX_WALLET = 10_000_000_000n * UNIT;

const usdt = (units: bigint): string => formatFixed(units, USDT_DECIMALS);

const accountSchema = Type.Object({
  user_id: Type.Integer({ description: 'Account (user) id, as user_id of GET /fapi/v1/account' }),
  api_key: Type.String({ description: 'API key (X-API-KEY header)' }),
  api_secret: Type.String({ description: 'API secret (HMAC key of signatures)' }),
  balance: Type.String({ description: 'USDT wallet balance, 8 decimals' }),
  position_mode: Type.Union([Type.Literal('hedge'), Type.Literal('one_way')], {
    description: "The account's position mode (the same on /binance: one_way is dualSidePosition=false)",
  }),
});

const accountBody = Type.Object(
  {
    api_key: Type.Optional(Type.String({ maxLength: 200, description: `API key, ${CREDENTIAL_RULE}` })),
    api_secret: Type.Optional(Type.String({ maxLength: 200, description: `API secret, ${CREDENTIAL_RULE}` })),
    balance: Type.Optional(
      Type.String({
        maxLength: 40,
        description: `USDT balance to set: decimal string, > 0, at most ${USDT_DECIMALS} decimals and ${usdt(MAX_SET_BALANCE)}`,
      }),
    ),
    position_mode: Type.Optional(positionModeField),
  },
  { additionalProperties: false },
);

agreeSent<typeof accountBody, AdminAccountRequest>(true);
agree<typeof accountSchema, AdminAccount>(true);

const whitelistBody = Type.Object(
  { ips: Type.Array(Type.String({ maxLength: 64 }), { maxItems: 256, description: 'IP literals' }) },
  { additionalProperties: false },
);

const ipsSchema = Type.Object({
  ips: Type.Array(Type.String(), { description: 'IP literals; loopback entries first, always present' }),
});

const whitelistStatusSchema = Type.Object({
  ip: Type.String({ description: 'Caller IP as the service sees it' }),
  whitelisted: Type.Boolean({ description: 'Whether that IP is on the bot whitelist' }),
});

const depositBody = Type.Object(
  { amount: Type.String({ maxLength: 40, description: 'USDT to add, e.g. "250.5"' }) },
  { additionalProperties: false },
);

const depositSchema = Type.Object({
  balance: Type.String({ description: 'USDT wallet balance after the deposit, 8 decimals' }),
});

agree<typeof ipsSchema, IpWhitelist>(true);
agree<typeof whitelistStatusSchema, WhitelistStatus>(true);
agree<typeof depositSchema, DepositResult>(true);

const FIELD_OF: Record<string, string> = { KEY: 'api_key', SECRET: 'api_secret', BALANCE: 'balance' };

/**
 * Checks key, secret and balance text with the rules of the CLI's --account (one home for them:
 * accounts/credentials.ts), worded for the body fields.
 */
function checkAccountFields(apiKey: string, apiSecret: string, balance: string | undefined): { balance: bigint } {
  try {
    return checkFields(apiKey, apiSecret, balance);
  } catch (err) {
    if (!(err instanceof AccountFieldError)) throw err;
    const detail = err.detail.replace('positive decimal', 'positive decimal string');
    throw new ApiError(Errors.INVALID_PARAMETER, `Invalid body parameter '${FIELD_OF[err.field]}': ${detail}`);
  }
}

function newKey(): string {
  return newApiKey('user');
}

function newSecret(): string {
  return newApiSecret();
}

function accountView(
  a: Account,
  mode: 'hedge' | 'one_way',
): { user_id: number; api_key: string; api_secret: string; balance: string; position_mode: 'hedge' | 'one_way' } {
  return {
    user_id: a.id,
    api_key: a.apiKey,
    api_secret: a.apiSecret,
    balance: usdt(a.walletBalance),
    position_mode: mode,
  };
}

function badAmount(detail: string, text: string): ApiError {
  const shown = text.length > 40 ? text.slice(0, 40) + '...' : text;
  return new ApiError(
    Errors.INVALID_PARAMETER,
    `Invalid body parameter 'amount': ${detail}, got ${JSON.stringify(shown)}`,
  );
}

/** A deposit amount in 1e-8 USDT: positive, at most 8 decimals, at most MAX_DEPOSIT. */
function parseDepositAmount(text: string): bigint {
  const r = parseFixed(text, USDT_DECIMALS);
  if (!r.ok) {
    switch (r.reason) {
      case 'negative':
      case 'zero':
        throw badAmount('must be greater than 0', text);
      case 'off_step':
        throw badAmount(`at most ${USDT_DECIMALS} decimals`, text);
      default:
        throw badAmount('must be a positive decimal string such as "250.5"', text);
    }
  }
  if (r.value > MAX_DEPOSIT) throw badAmount(`at most ${usdt(MAX_DEPOSIT)} USDT per deposit`, text);
  return r.value;
}

export default async function adminRoutes(app: ApiInstance, opts: { venue: Venue; auth: AuthServices }): Promise<void> {
  const { venue, auth } = opts;

  app.post(
    '/admin/v1/accounts',
    {
      config: { auth: 'loopback' },
      // The body is required (as OpenAPI says): `{}` asks for all defaults.
      preValidation: strictJsonBody(accountBody),
      schema: {
        tags: ['admin'],
        summary: 'Create or update a paper account (loopback only)',
        description:
          'Creates the account with `api_key`, or updates the existing one. Key and secret follow the rules of the ' +
          `CLI's --account (${CREDENTIAL_RULE}). A missing key creates a new account with a generated key; a missing ` +
          'secret is generated for a new account and kept for an existing one; a new secret for an existing key ends ' +
          'the old one at once (signed requests with it are 2004, its /ws logins get a last logged_out push). ' +
          '`balance` sets the wallet (the ' +
          'difference is booked as a deposit); it defaults to 10000 for a new account and leaves an existing one ' +
          "unchanged. `position_mode` (hedge, the default, or one_way) sets the account's position mode, the same " +
          'on the native API and on /binance; changing it on an existing account with an open order or position ' +
          'is refused (3015) and then nothing else changes. The body is required: `{}` creates an account with ' +
          'every default. Answers 403 / 2102 to callers that are not on this machine.',
        querystring: noQuery,
        body: accountBody,
        response: { 200: envelopeSchema(accountSchema), ...standardErrors(403) },
      },
    },
    async (req) => {
      const body = req.body;
      let apiKey = body.api_key;
      if (apiKey === undefined) {
        do apiKey = newKey();
        while (venue.accounts.byKey(apiKey) !== undefined);
      }
      // A placeholder that passes the rules stands in for an omitted secret during the check.
      const checked = checkAccountFields(apiKey, body.api_secret ?? 'placeholder', body.balance);
      const existing = body.api_key === undefined ? undefined : venue.accounts.byKey(apiKey);
      const balance = body.balance !== undefined ? checked.balance : (existing?.walletBalance ?? checked.balance);
      if (body.balance !== undefined && balance > MAX_SET_BALANCE) {
        throw new ApiError(
          Errors.INVALID_PARAMETER,
          `Invalid body parameter 'balance': at most ${usdt(MAX_SET_BALANCE)} USDT`,
        );
      }
      if (existing !== undefined && existing.totalDeposits + (balance - existing.walletBalance) > MAX_WALLET) {
        throw new ApiError(
          Errors.INVALID_PARAMETER,
          `Invalid body parameter 'balance': total deposits would exceed ${usdt(MAX_WALLET)} USDT`,
        );
      }
      const apiSecret = body.api_secret ?? existing?.apiSecret ?? newSecret();
      const mode = body.position_mode;
      // a replay's report starts an account at what it held before its first command: this one
      if (existing !== undefined) venue.replay?.report.baseline(existing.id);
      // An existing account changes mode first: the exchange refuses while an order or a
      // position is open, and then the rest is not applied either. A new account has nothing open.
      if (existing !== undefined && mode !== undefined && venue.exchange.summary(existing.id).position_mode !== mode) {
        await venue.submit({ kind: 'setPositionMode', accountId: existing.id, mode });
      }
      const { id } = await venue.submit({
        kind: 'upsertAccount',
        spec: { apiKey, apiSecret, kind: 'user', balance },
        now: auth.now(),
      });
      if (existing === undefined && mode !== undefined && mode !== 'hedge')
        await venue.submit({ kind: 'setPositionMode', accountId: id, mode });
      // (or, new, at what it was made with)
      if (existing === undefined) venue.replay?.report.baseline(id);
      // a new secret ends what the old one proved: signed REST at once, and the /ws logins made with it
      if (existing !== undefined && existing.apiSecret !== apiSecret) auth.accounts.secretChanged(apiKey, id);
      else auth.accounts.invalidate(apiKey);
      return ok(accountView(venue.accounts.byId(id)!, venue.exchange.summary(id).position_mode));
    },
  );

  app.get(
    '/admin/v1/whitelist',
    {
      config: { auth: 'loopback' },
      schema: {
        tags: ['admin'],
        summary: 'Bot IP whitelist (loopback only)',
        querystring: noQuery,
        response: { 200: envelopeSchema(ipsSchema), ...standardErrors(403) },
      },
    },
    async () => ok({ ips: auth.whitelist.list() }),
  );

  app.put(
    '/admin/v1/whitelist',
    {
      config: { auth: 'loopback' },
      preValidation: strictJsonBody(whitelistBody),
      schema: {
        tags: ['admin'],
        summary: 'Replace the bot IP whitelist (loopback only)',
        description:
          'IPv4 or IPv6 literals (no ranges, no zone ids). Loopback entries (127.0.0.1, ::1, ::ffff:127.0.0.1) are ' +
          'always kept, whatever the list says, so local bots cannot be locked out. An IPv4 entry also admits its ' +
          'IPv4-mapped IPv6 form. Answers the stored list.',
        querystring: noQuery,
        body: whitelistBody,
        response: { 200: envelopeSchema(ipsSchema), ...standardErrors(403) },
      },
    },
    async (req) => {
      const r = parseIpList(req.body.ips);
      if (!r.ok) {
        throw new ApiError(
          Errors.INVALID_PARAMETER,
          `Invalid body parameter 'ips': ${JSON.stringify(r.bad)} is not an IPv4 or IPv6 address`,
        );
      }
      return ok({ ips: auth.whitelist.replace(r.ips) });
    },
  );

  app.get(
    '/fapi/v1/bot/whitelist/status',
    {
      schema: {
        tags: ['bot'],
        summary: "Whether the caller's IP may use the bot routes",
        querystring: noQuery,
        response: {
          200: envelopeSchema(whitelistStatusSchema),
          ...standardErrors(),
        },
      },
    },
    async (req) => ok({ ip: req.ip, whitelisted: auth.whitelist.has(req.ip) }),
  );

  app.post(
    '/fapi/v1/account/deposit',
    {
      config: { auth: 'signed' },
      preValidation: strictJsonBody(depositBody),
      schema: {
        tags: ['account'],
        summary: 'Paper deposit (signed)',
        description:
          'Adds `amount` USDT to the wallet and to total deposits. `amount`: decimal string, > 0, at most ' +
          `${USDT_DECIMALS} decimals and ${usdt(MAX_DEPOSIT)} per deposit; the wallet may not exceed ${usdt(MAX_WALLET)}. ` +
          'Answers the new wallet balance.',
        querystring: signedQuerystring(),
        body: depositBody,
        response: {
          200: envelopeSchema(depositSchema),
          ...standardErrors(401),
        },
      },
    },
    async (req) => {
      const amount = parseDepositAmount(req.body.amount);
      const account = req.account!;
      // The row is current: the exchange stores every wallet change before it answers.
      const fresh = venue.accounts.byId(account.id);
      if (fresh === undefined) throw new ApiError(Errors.ACCOUNT_NOT_FOUND);
      if (fresh.walletBalance + amount > MAX_WALLET || fresh.totalDeposits + amount > MAX_WALLET) {
        throw badAmount(`the wallet and total deposits may not exceed ${usdt(MAX_WALLET)} USDT`, req.body.amount);
      }
      // Through the exchange (the venue's one sequencer): it owns the live wallet, stores the
      // change and announces the new balance on the user channel.
      const summary = await venue.submit({ kind: 'deposit', accountId: account.id, amount });
      auth.accounts.invalidate(account.apiKey);
      return ok({ balance: summary.wallet_balance });
    },
  );
}
