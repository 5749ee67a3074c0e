// Access control of the API (DESIGN sections 4 and 7). A route opts in through its config:
//
//   config: { auth: 'signed' }    HMAC-signed request of a paper account; sets request.account
//   config: { auth: 'bot' }       caller IP on the bot whitelist (request.account stays null)
//   config: { auth: 'loopback' }  caller on this machine (admin routes)
//
// Signed requests: header X-API-KEY; query `timestamp` (ms, required), `recv_window` (ms,
// default 5000, 1 to 60000) and `signature`, which must be the last parameter:
// lowercase hex HMAC-SHA256(secret, P), where P is the raw query string as sent, up to and
// without `&signature=...`, followed directly by the raw body if any. Accepted when
// `timestamp < now + 1000` and `now - timestamp <= recv_window`, where now is the WALL clock
// (Date.now unless a test injects one), not the market clock.
//
// The check runs as the route's first preValidation hook: after the body is parsed (the raw
// JSON text is kept by raw-body.ts) and before schema validation, so an unsigned request
// hears about its signature, not about a missing `timestamp` field. Checks go from the
// cheapest and most basic (who are you, is the request well formed) to freshness and last
// authenticity, each with its own registry code. Errors are sent straight from the hook
// without an exception, so a flood of bad requests costs no stack traces.
import type { FastifyInstance, FastifyReply, FastifyRequest, preValidationHookHandler } from 'fastify';
import { Type, type TObject, type TOptional, type TProperties } from 'typebox';
import { Errors, type ErrorDef } from '../../src-shared/errors.ts';
import type { AccountService } from '../accounts/account-service.ts';
import { repeatedKeyHeader } from '../accounts/credentials.ts';
import { isLoopbackIp, type BotWhitelist } from '../accounts/whitelist.ts';
import type { Account } from '../core/account.ts';
import type { Defaulted } from './schemas.ts';
import type { Venue } from '../services/venue.ts';
import { sendError, type RequestCheck } from './error-handler.ts';
import { ANSWERED, syncHook } from './strict-input.ts';
import {
  FixedWindowLimiter,
  ipRateLimitCheck,
  resolveRateLimits,
  sendRateLimited,
  type RateLimitOptions,
} from './rate-limit.ts';
import { installRawBody } from './raw-body.ts';
import { DEFAULT_RECV_WINDOW, MAX_RECV_WINDOW, verifySignature } from './signature.ts';

type AuthMode = 'none' | 'signed' | 'bot' | 'loopback';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Access rule of the route; public when absent. */
    auth?: AuthMode;
  }
  interface FastifyRequest {
    /**
     * The paper account of a verified signed request; null on other routes. A cached,
     * frozen snapshot: identity and settings are current (writers invalidate the cache),
     * but money on the hot path should come from the account's live state, not from here.
     */
    account: Account | null;
  }
}

/** Name of the OpenAPI security scheme of signed routes (components.securitySchemes, app.ts). */
export const API_KEY_SCHEME = 'apiKey';

/**
 * Accounts by API key, in memory: the signed-request check runs on every order, and an
 * SQLite lookup costs a few µs where a Map lookup costs tens of ns. Whoever changes an
 * account's row (secret, kind, position mode, balance) calls `invalidate(apiKey)`; unknown
 * keys are never cached, so a new account is found at once.
 */
export class AccountCache {
  private readonly repo: Pick<AccountService, 'byKey'>;
  private readonly byKeyMap = new Map<string, Account>();

  constructor(repo: Pick<AccountService, 'byKey'>) {
    this.repo = repo;
  }

  byKey(apiKey: string): Account | undefined {
    const hit = this.byKeyMap.get(apiKey);
    if (hit !== undefined) return hit;
    const a = this.repo.byKey(apiKey);
    if (a === undefined) return undefined;
    Object.freeze(a);
    this.byKeyMap.set(apiKey, a);
    return a;
  }

  /** Forgets one key, or every key when none is given. */
  invalidate(apiKey?: string): void {
    if (apiKey === undefined) this.byKeyMap.clear();
    else this.byKeyMap.delete(apiKey);
  }

  /**
   * Account `accountId`'s key was replaced (regenerated) and no longer exists: forgets it and
   * tells the revoke listeners (the WebSocket hub ends the logins made with it, the Binance
   * facade the account's listenKey).
   */
  revoke(apiKey: string, accountId: number): void {
    this.invalidate(apiKey);
    for (const l of [...this.revokeListeners]) l(apiKey, accountId);
  }

  /** Calls `listener` with every key revoked from now on (and its account); returns its remover. */
  onRevoked(listener: (apiKey: string, accountId: number) => void): () => void {
    this.revokeListeners.add(listener);
    return () => this.revokeListeners.delete(listener);
  }

  private readonly revokeListeners = new Set<(apiKey: string, accountId: number) => void>();

  /**
   * Account `accountId` keeps its key but got a new secret (POST /admin/v1/accounts): forgets the
   * key's row and tells the secret listeners (the WebSocket hub ends the logins the old secret made).
   */
  secretChanged(apiKey: string, accountId: number): void {
    this.invalidate(apiKey);
    for (const l of [...this.secretListeners]) l(apiKey, accountId);
  }

  /** Calls `listener` with every key whose secret changes from now on; returns its remover. */
  onSecretChanged(listener: (apiKey: string, accountId: number) => void): () => void {
    this.secretListeners.add(listener);
    return () => this.secretListeners.delete(listener);
  }

  private readonly secretListeners = new Set<(apiKey: string, accountId: number) => void>();
}

const signedParams = {
  timestamp: Type.Integer({ minimum: 0, description: 'Request time, ms (wall clock; see GET /fapi/v1/time)' }),
  recv_window: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_RECV_WINDOW,
      description: `How long after timestamp the request stays valid, ms (default ${DEFAULT_RECV_WINDOW}, max ${MAX_RECV_WINDOW})`,
    }),
  ),
  signature: Type.String({
    pattern: '^[0-9a-f]{64}$',
    description:
      'Lowercase hex HMAC-SHA256(secret, query string without signature + raw body); must be the last parameter',
  }),
};

/**
 * Querystring schema of a signed route: `properties` plus timestamp, recv_window and
 * signature, nothing else allowed. The properties named in `required` are required, the
 * others optional, in the schema and in the static type the route's request gets (a
 * parameter with a default is always present once validated: see trading-schemas.ts defaulted).
 */
export function signedQuerystring<P extends TProperties = Record<never, never>, R extends keyof P & string = never>(
  properties: P = {} as P,
  required: readonly R[] = [],
): TObject<
  { [K in keyof P]: K extends R ? P[K] : P[K] extends Defaulted ? P[K] : TOptional<P[K]> } & typeof signedParams
> {
  const props: TProperties = {};
  for (const [k, v] of Object.entries(properties))
    props[k] = (required as readonly string[]).includes(k) ? v : Type.Optional(v);
  return Type.Object({ ...props, ...signedParams }, { additionalProperties: false }) as never;
}

export interface AuthOptions {
  venue: Venue;
  /** Wall clock, ms (tests inject one); Date.now by default. */
  now?: () => number;
  /** Rate limits; DEFAULT_RATE_LIMITS when absent, none when false. */
  rateLimit?: RateLimitOptions | false;
}

/** What the admin routes (and any route that changes accounts) need. */
export interface AuthServices {
  readonly accounts: AccountCache;
  readonly whitelist: BotWhitelist;
  readonly now: () => number;
}

function fail(reply: FastifyReply, def: ErrorDef, message?: string): typeof ANSWERED {
  sendError(reply, def, message);
  return ANSWERED;
}

/** Echoes client text into a message safely short. */
function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? text.slice(0, 40) + '...' : text);
}

/** Whether `query` holds a parameter named exactly `signature` (with or without a value). */
function hasSignatureParam(query: string): boolean {
  // (the usual case, a signed text without the word, in one scan)
  if (!query.includes('signature')) return false;
  return (
    query === 'signature' ||
    query.startsWith('signature=') ||
    query.startsWith('signature&') ||
    query.includes('&signature=') ||
    query.includes('&signature&') ||
    query.endsWith('&signature')
  );
}

/**
 * Installs raw-body capture, the auth hooks and the rate limits on `app`. Call it on the root
 * instance before any route is registered (it hooks onRoute).
 */
export function installAuth(
  app: FastifyInstance,
  opts: AuthOptions,
): AuthServices & { readonly ipLimit: RequestCheck | null } {
  const now = opts.now ?? Date.now;
  const accounts = new AccountCache(opts.venue.accounts);
  const whitelist = opts.venue.whitelist;
  const limits = resolveRateLimits(opts.rateLimit);
  const keyLimiter = limits.perKey ? new FixedWindowLimiter(limits.perKey, now) : null;

  installRawBody(app);
  app.decorateRequest('account', null);

  function verifySigned(req: FastifyRequest, reply: FastifyReply): typeof ANSWERED | undefined {
    const apiKey = req.headers['x-api-key'];
    if (typeof apiKey !== 'string' || apiKey === '') return fail(reply, Errors.API_KEY_MISSING);
    const account = accounts.byKey(apiKey);
    if (account === undefined) {
      const repeated = repeatedKeyHeader('X-API-KEY', apiKey);
      if (repeated !== undefined) return fail(reply, Errors.API_KEY_MISSING, repeated);
      return fail(reply, Errors.API_KEY_UNKNOWN, `${Errors.API_KEY_UNKNOWN.message} in X-API-KEY`);
    }
    if (keyLimiter !== null) {
      const wait = keyLimiter.hit(apiKey);
      if (wait !== 0) {
        sendRateLimited(reply, keyLimiter.limit, 'API key', wait);
        return ANSWERED;
      }
    }

    // The signature is located in the raw query string: the signed text is the query as sent.
    const url = req.url;
    const qi = url.indexOf('?');
    const query = qi < 0 ? '' : url.slice(qi + 1);
    const lastAmp = query.lastIndexOf('&');
    const last = query.slice(lastAmp + 1);
    const signed = lastAmp < 0 ? '' : query.slice(0, lastAmp);
    const lastIsSignature = last === 'signature' || last.startsWith('signature=');
    if (lastIsSignature ? hasSignatureParam(signed) : hasSignatureParam(query)) {
      return fail(reply, Errors.SIGNATURE_NOT_LAST, `${Errors.SIGNATURE_NOT_LAST.message}, and appear once`);
    }
    if (!lastIsSignature)
      return fail(reply, Errors.SIGNATURE_MISSING, `${Errors.SIGNATURE_MISSING.message} in the query string`);
    const signature = last.slice(10);
    if (signature === '') return fail(reply, Errors.SIGNATURE_MISSING, 'signature parameter is empty');

    const q = req.query as Record<string, unknown>;
    const ts = q.timestamp;
    const rw = q.recv_window;
    const body = req.rawBody ?? (typeof req.body === 'string' ? req.body : undefined);
    const bad = verifySignature({
      secret: account.apiSecret,
      timestamp: ts,
      recvWindow: rw,
      signed,
      body,
      signature,
      now: now(),
      plain: true,
    });
    if (bad !== null) {
      switch (bad.check) {
        case 'timestamp-missing':
          return fail(reply, bad.def, 'Missing timestamp parameter (ms)');
        case 'timestamp-malformed':
          return fail(
            reply,
            bad.def,
            `Malformed timestamp ${Array.isArray(ts) ? '(given twice)' : quote(String(ts))}: must be an integer of ms written plainly (no sign, leading zeros or exponent), given once`,
          );
        case 'recv-window':
          return fail(reply, bad.def, `${bad.def.message}, got ${Array.isArray(rw) ? 'it twice' : quote(String(rw))}`);
        case 'time':
          return fail(reply, bad.def, bad.message);
        case 'signature': {
          const what = body === undefined || body === '' ? 'no body' : `the ${Buffer.byteLength(body)}-byte raw body`;
          return fail(
            reply,
            bad.def,
            `${bad.def.message}: expected 64 lowercase hex chars of HMAC-SHA256(secret, ` +
              `the ${signed.length}-char query string before '&signature=' + ${what})`,
          );
        }
      }
    }
    req.account = account;
    return undefined;
  }

  function verifyBot(req: FastifyRequest, reply: FastifyReply): typeof ANSWERED | undefined {
    if (whitelist.has(req.ip)) return undefined;
    return fail(
      reply,
      Errors.IP_NOT_WHITELISTED,
      `Caller IP ${req.ip} is not on the bot whitelist (see PUT /admin/v1/whitelist)`,
    );
  }

  function verifyLoopback(req: FastifyRequest, reply: FastifyReply): typeof ANSWERED | undefined {
    if (isLoopbackIp(req.ip)) return undefined;
    return fail(reply, Errors.LOOPBACK_ONLY, `${Errors.LOOPBACK_ONLY.message}; caller IP is ${req.ip}`);
  }

  const hooks: Record<Exclude<AuthMode, 'none'>, preValidationHookHandler> = {
    signed: syncHook(verifySigned),
    bot: syncHook(verifyBot),
    loopback: syncHook(verifyLoopback),
  };

  // Only routes that opt in pay for a check; a mistyped mode fails at start-up, not open.
  app.addHook('onRoute', (route) => {
    const mode = route.config?.auth;
    if (mode === undefined || mode === 'none') return;
    const hook = Object.hasOwn(hooks, mode) ? hooks[mode as keyof typeof hooks] : undefined;
    if (hook === undefined) throw new Error(`route ${route.method} ${route.url}: unknown auth mode '${String(mode)}'`);
    const existing = route.preValidation;
    route.preValidation =
      existing === undefined ? [hook] : [hook, ...(Array.isArray(existing) ? existing : [existing])];
    // OpenAPI: a signed operation names the key scheme, so generated clients send X-API-KEY.
    // (The schema's other keys are the route's own; `security` is for the document only.)
    if (mode === 'signed')
      route.schema = { ...route.schema, security: [{ [API_KEY_SCHEME]: [] }] } as typeof route.schema;
  });

  return { accounts, whitelist, now, ipLimit: ipRateLimitCheck(limits.perIp, now) };
}
