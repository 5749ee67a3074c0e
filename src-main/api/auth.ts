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
import { createHmac, timingSafeEqual } from 'node:crypto';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  preValidationHookHandler,
} from 'fastify';
import { Errors, type ErrorDef } from '../../src-shared/errors.ts';
import type { AccountService } from '../accounts/account-service.ts';
import { isLoopbackIp, type BotWhitelist } from '../accounts/whitelist.ts';
import type { Account } from '../core/account.ts';
import type { Venue } from '../venue.ts';
import { sendError } from './error-handler.ts';
import { FixedWindowLimiter, installIpRateLimit, resolveRateLimits, sendRateLimited, type RateLimitOptions } from './rate-limit.ts';
import { installRawBody } from './raw-body.ts';

export type AuthMode = 'none' | 'signed' | 'bot' | 'loopback';

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

export const DEFAULT_RECV_WINDOW = 5000;
export const MAX_RECV_WINDOW = 60_000;
/** How far ahead of the server clock a timestamp may be (exclusive), ms. */
export const MAX_CLOCK_AHEAD = 1000;

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
}

const signedParams = {
  timestamp: { type: 'integer', minimum: 0, description: 'Request time, ms (wall clock; see GET /fapi/v1/time)' },
  recv_window: {
    type: 'integer',
    minimum: 1,
    maximum: MAX_RECV_WINDOW,
    description: `How long after timestamp the request stays valid, ms (default ${DEFAULT_RECV_WINDOW}, max ${MAX_RECV_WINDOW})`,
  },
  signature: {
    type: 'string',
    pattern: '^[0-9a-f]{64}$',
    description:
      'Lowercase hex HMAC-SHA256(secret, query string without signature + raw body); must be the last parameter',
  },
} as const;

/**
 * Querystring schema of a signed route: `properties` plus timestamp, recv_window and
 * signature, nothing else allowed.
 */
export function signedQuerystring(properties: Record<string, object> = {}, required: readonly string[] = []): object {
  return {
    type: 'object',
    additionalProperties: false,
    required: [...required, 'timestamp', 'signature'],
    properties: { ...properties, ...signedParams },
  };
}

/** Below this a timestamp is taken for seconds: 1e11 ms is March 1973, 1e11 s is year 5138. */
const SECONDS_BELOW = 1e11;

/**
 * The freshness rule of signed requests and WebSocket LOGIN (`timestamp < now + MAX_CLOCK_AHEAD`
 * and `now - timestamp <= recvWindow`, wall-clock ms): null when fresh, else the 2006 or 2007
 * answer. A stale timestamp that looks like seconds says so: that is the usual cause, and the
 * bare distance (decades of ms) does not tell it. (Microseconds have 16 digits and are already
 * refused as malformed, 2005, by the 15-digit rule.)
 */
export function timestampError(timestamp: number, now: number, recvWindow: number): { def: ErrorDef; message: string } | null {
  if (timestamp >= now + MAX_CLOCK_AHEAD) {
    return {
      def: Errors.TIMESTAMP_IN_FUTURE,
      message: `timestamp ${timestamp} is ${timestamp - now} ms ahead of server time ${now}; it must be less than ${MAX_CLOCK_AHEAD} ms ahead`,
    };
  }
  if (now - timestamp > recvWindow) {
    const unit = timestamp < SECONDS_BELOW && now >= SECONDS_BELOW ? '. timestamp is in milliseconds; this one looks like seconds' : '';
    return {
      def: Errors.TIMESTAMP_STALE,
      message: `timestamp ${timestamp} is ${now - timestamp} ms behind server time ${now}, more than recv_window ${recvWindow} ms${unit}`,
    };
  }
  return null;
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

function fail(reply: FastifyReply, def: ErrorDef, message?: string): void {
  sendError(reply, def, message);
}

/** Echoes client text into a message safely short. */
function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? text.slice(0, 40) + '...' : text);
}

const DIGITS = /^\d{1,15}$/;

/** Whether `query` holds a parameter named exactly `signature` (with or without a value). */
function hasSignatureParam(query: string): boolean {
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
export function installAuth(app: FastifyInstance, opts: AuthOptions): AuthServices {
  const now = opts.now ?? Date.now;
  const accounts = new AccountCache(opts.venue.accounts);
  const whitelist = opts.venue.whitelist;
  const limits = resolveRateLimits(opts.rateLimit);
  const keyLimiter = limits.perKey ? new FixedWindowLimiter(limits.perKey, now) : null;

  installRawBody(app);
  app.decorateRequest('account', null);
  installIpRateLimit(app, limits.perIp, now);

  function verifySigned(req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    const apiKey = req.headers['x-api-key'];
    if (typeof apiKey !== 'string' || apiKey === '') return fail(reply, Errors.API_KEY_MISSING);
    const account = accounts.byKey(apiKey);
    if (account === undefined) return fail(reply, Errors.API_KEY_UNKNOWN, `${Errors.API_KEY_UNKNOWN.message} in X-API-KEY`);
    if (keyLimiter !== null) {
      const wait = keyLimiter.hit(apiKey);
      if (wait !== 0) return sendRateLimited(reply, keyLimiter.limit, 'API key', wait);
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
    if (!lastIsSignature) return fail(reply, Errors.SIGNATURE_MISSING, `${Errors.SIGNATURE_MISSING.message} in the query string`);
    const signature = last.slice(10);
    if (signature === '') return fail(reply, Errors.SIGNATURE_MISSING, 'signature parameter is empty');

    const q = req.query as Record<string, unknown>;
    const ts = q.timestamp;
    if (ts === undefined) return fail(reply, Errors.TIMESTAMP_MISSING, 'Missing timestamp parameter (ms)');
    if (typeof ts !== 'string' || !DIGITS.test(ts)) {
      return fail(reply, Errors.TIMESTAMP_MISSING, `Malformed timestamp ${Array.isArray(ts) ? '(given twice)' : quote(String(ts))}: must be an integer of ms, given once`);
    }
    const rw = q.recv_window;
    let recvWindow = DEFAULT_RECV_WINDOW;
    if (rw !== undefined) {
      recvWindow = typeof rw === 'string' && DIGITS.test(rw) ? Number(rw) : NaN;
      if (!(recvWindow >= 1 && recvWindow <= MAX_RECV_WINDOW)) {
        return fail(reply, Errors.RECV_WINDOW_INVALID, `${Errors.RECV_WINDOW_INVALID.message}, got ${Array.isArray(rw) ? 'it twice' : quote(String(rw))}`);
      }
    }
    const timestamp = Number(ts);
    const t = now();
    const late = timestampError(timestamp, t, recvWindow);
    if (late !== null) return fail(reply, late.def, late.message);

    const body = req.rawBody ?? (typeof req.body === 'string' ? req.body : undefined);
    const h = createHmac('sha256', account.apiSecret).update(signed);
    if (body !== undefined) h.update(body);
    const expected = h.digest('hex');
    // The length of a valid signature is public; only equal-length texts are compared, and
    // in constant time. latin1 maps each char of the URL text to one byte.
    if (signature.length !== expected.length || !timingSafeEqual(Buffer.from(signature, 'latin1'), Buffer.from(expected, 'latin1'))) {
      const what = body === undefined || body === '' ? 'no body' : `the ${Buffer.byteLength(body)}-byte raw body`;
      return fail(
        reply,
        Errors.SIGNATURE_INVALID,
        `${Errors.SIGNATURE_INVALID.message}: expected 64 lowercase hex chars of HMAC-SHA256(secret, ` +
          `the ${signed.length}-char query string before '&signature=' + ${what})`,
      );
    }
    req.account = account;
    done();
  }

  function verifyBot(req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    if (whitelist.has(req.ip)) return done();
    fail(reply, Errors.IP_NOT_WHITELISTED, `Caller IP ${req.ip} is not on the bot whitelist (see PUT /admin/v1/whitelist)`);
  }

  function verifyLoopback(req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    if (isLoopbackIp(req.ip)) return done();
    fail(reply, Errors.LOOPBACK_ONLY, `${Errors.LOOPBACK_ONLY.message}; caller IP is ${req.ip}`);
  }

  const hooks: Record<Exclude<AuthMode, 'none'>, preValidationHookHandler> = {
    signed: verifySigned as preValidationHookHandler,
    bot: verifyBot as preValidationHookHandler,
    loopback: verifyLoopback as preValidationHookHandler,
  };

  // Only routes that opt in pay for a check; a mistyped mode fails at start-up, not open.
  app.addHook('onRoute', (route) => {
    const mode = route.config?.auth;
    if (mode === undefined || mode === 'none') return;
    const hook = Object.hasOwn(hooks, mode) ? hooks[mode as keyof typeof hooks] : undefined;
    if (hook === undefined) throw new Error(`route ${route.method} ${route.url}: unknown auth mode '${String(mode)}'`);
    const existing = route.preValidation;
    route.preValidation = existing === undefined ? [hook] : [hook, ...(Array.isArray(existing) ? existing : [existing])];
    // OpenAPI: a signed operation names the key scheme, so generated clients send X-API-KEY.
    // (The schema's other keys are the route's own; `security` is for the document only.)
    if (mode === 'signed') route.schema = { ...route.schema, security: [{ [API_KEY_SCHEME]: [] }] } as typeof route.schema;
  });

  return { accounts, whitelist, now };
}
