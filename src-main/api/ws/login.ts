// The WebSocket LOGIN request: its parameters and their check, over the signature verifier
// shared with signed REST requests (../signature.ts), so both paths answer the same codes.
//
// Params: `{api_key, timestamp, recv_window?, signature}` (or an array holding that object).
// Signed text: src-shared/sign.ts's loginPayload, `api_key={api_key}&timestamp={timestamp}`
// followed by `&recv_window={recv_window}` when given; signature = lowercase hex
// HMAC-SHA256(secret, text). Parameter rules as a REST body: no other keys (1003), timestamp
// and recv_window JSON integers, api_key and signature strings (1001). Time rules as signed
// REST requests (wall clock): accepted when timestamp < now + 1000 and now - timestamp <=
// recv_window (default 5000, 1..60000). Checking has no effect: what a successful LOGIN does
// to the connection is the hub's business.
import { Errors } from '../../../src-shared/errors.ts';
import { loginPayload } from '../../../src-shared/sign.ts';
import type { Account } from '../../core/account.ts';
import { verifySignature } from '../signature.ts';
import { errorReply, type Reply, type RequestId } from './protocol.ts';

/**
 * The `user` stream's own event kinds (beside the account's, trading/events.ts ACCOUNT_EVENT_KINDS)
 * and what each one's `data` is.
 */
export const LOGIN_EVENT_KINDS = {
  logged_out:
    '{code, message}: the login ended because its API key was regenerated (code 2002) or the key got a new secret ' +
    '(code 2004); the connection has left the `user` stream and must LOGIN again (with the new key or secret) ' +
    'before subscribing to it again',
} as const;

/** The `user` push that ends a login whose API key was revoked, or whose secret was replaced (`secret`). */
export function loggedOutEvent(why: 'key' | 'secret' = 'key'): {
  kind: keyof typeof LOGIN_EVENT_KINDS;
  data: { code: number; message: string };
} {
  return {
    kind: 'logged_out',
    data:
      why === 'key'
        ? {
            code: Errors.API_KEY_UNKNOWN.code,
            message: 'The API key of this login was regenerated: LOGIN again with the new key',
          }
        : {
            code: Errors.SIGNATURE_INVALID.code,
            message: 'The API key of this login got a new secret: LOGIN again, signed with the new secret',
          },
  };
}

/**
 * The `bot` stream's own event kind (beside `order`, the cached bot orders) and what its `data` is.
 */
export const BOT_EVENT_KINDS = {
  whitelist_removed:
    "{code, message}: the connection's IP was taken off the bot whitelist (code 2101); the connection has left the " +
    '`bot` stream, and SUBSCRIBE bot is 2101 until the IP is on the whitelist again',
} as const;

/** The `bot` push that ends the stream of a connection whose IP left the bot whitelist. */
export function botStreamEndedEvent(): {
  kind: keyof typeof BOT_EVENT_KINDS;
  data: { code: number; message: string };
} {
  return {
    kind: 'whitelist_removed',
    data: {
      code: Errors.IP_NOT_WHITELISTED.code,
      message: "This connection's IP was taken off the bot whitelist: the bot stream has ended",
    },
  };
}

/** LOGIN parameters and their JSON types; any other key is refused (1003), as on REST. */
const LOGIN_PARAMS = { api_key: 'string', timestamp: 'integer', recv_window: 'integer', signature: 'string' } as const;

/** Longest API key looked up; a longer one is unknown without a look-up. */
const MAX_KEY_LENGTH = 256;

/** The accounts behind LOGIN and the events that end logins (auth.ts's AccountCache fits). */
export interface LoginAccounts {
  byKey(apiKey: string): Account | undefined;
  /** Keys regenerated from now on. */
  onRevoked?(listener: (apiKey: string) => void): () => void;
  /** Keys that get a new secret from now on: the logins the old secret made end too. */
  onSecretChanged?(listener: (apiKey: string) => void): () => void;
}

export interface LoginDeps {
  /** API key look-up (auth.ts's AccountCache). */
  accounts: { byKey(apiKey: string): Account | undefined };
  /** Wall clock, ms. */
  now: () => number;
}

/** The account a LOGIN request proves, or the error answer. */
export function checkLogin(deps: LoginDeps, id: RequestId, params: unknown): { account: Account } | { error: Reply } {
  const p = (Array.isArray(params) && params.length === 1 ? params[0] : params) as Record<string, unknown> | null;
  if (typeof p !== 'object' || p === null || Array.isArray(p)) {
    return {
      error: errorReply(
        id,
        Errors.BAD_REQUEST,
        'LOGIN takes "params": {"api_key","timestamp","recv_window"?,"signature"}',
      ),
    };
  }
  // The same shape rules as a REST body: unknown parameters 1003, wrong JSON types 1001.
  for (const key of Object.keys(p)) {
    const type = Object.hasOwn(LOGIN_PARAMS, key) ? LOGIN_PARAMS[key as keyof typeof LOGIN_PARAMS] : undefined;
    if (type === undefined) {
      return {
        error: errorReply(
          id,
          Errors.UNKNOWN_PARAMETER,
          `Unknown LOGIN parameter '${key.slice(0, 32)}'; LOGIN params are ${Object.keys(LOGIN_PARAMS).join(', ')}`,
        ),
      };
    }
    const v = p[key];
    if (type === 'integer' ? !(typeof v === 'number' && Number.isInteger(v)) : typeof v !== 'string') {
      return {
        error: errorReply(id, Errors.INVALID_PARAMETER, `Invalid LOGIN parameter '${key}': must be a JSON ${type}`),
      };
    }
  }
  const apiKey = p.api_key;
  if (typeof apiKey !== 'string' || apiKey === '')
    return { error: errorReply(id, Errors.API_KEY_MISSING, 'LOGIN params need api_key') };
  const account = apiKey.length <= MAX_KEY_LENGTH ? deps.accounts.byKey(apiKey) : undefined;
  if (account === undefined) return { error: errorReply(id, Errors.API_KEY_UNKNOWN) };
  const signature = p.signature;
  if (typeof signature !== 'string' || signature === '')
    return { error: errorReply(id, Errors.SIGNATURE_MISSING, 'LOGIN params need signature') };
  // Both are JSON integers here (checked above); the signed text spells them as JSON does.
  const tsText = p.timestamp === undefined ? undefined : String(p.timestamp);
  const rwText = p.recv_window === undefined ? undefined : String(p.recv_window);
  const bad = verifySignature({
    secret: account.apiSecret,
    timestamp: tsText,
    recvWindow: rwText,
    signed: tsText === undefined ? '' : loginPayload(apiKey, tsText, rwText),
    signature,
    now: deps.now(),
  });
  if (bad === null) return { account };
  switch (bad.check) {
    case 'timestamp-missing':
    case 'timestamp-malformed':
      return { error: errorReply(id, bad.def, 'LOGIN params need timestamp: a non-negative integer of ms') };
    case 'recv-window':
      return { error: errorReply(id, bad.def) };
    case 'time':
      return { error: errorReply(id, bad.def, bad.message) };
    case 'signature':
      return {
        error: errorReply(
          id,
          bad.def,
          `${bad.def.message}: expected 64 lowercase hex chars of HMAC-SHA256(secret, "api_key=...&timestamp=..." [+ "&recv_window=..."])`,
        ),
      };
  }
}
