// The one verifier of signed requests, used by REST (auth.ts) and by the WebSocket LOGIN
// (ws/login.ts). What is signed is defined next to the signer (src-shared/sign.ts: the query
// string plus raw body for REST, `loginPayload` for LOGIN); this module checks the parts that
// both share, in the same order for both: timestamp format (2005), recv_window (2008),
// freshness on the wall clock (2006 / 2007), and last the HMAC itself (2004).
//
// Invariants:
// - Each failure names its registry error and which check failed; the caller phrases the
//   message for its transport (a query parameter on REST, a LOGIN field on WebSocket), so the
//   codes are the same on both paths and nothing else is.
// - The digest is HMAC-SHA256 over the same bytes as the signer's (src-shared/sign.ts), with
//   each secret's key blocks absorbed once and nothing allocated per request (hmac-check.ts),
//   compared in constant time. Not node:crypto's: in the service, between requests,
//   createHmac's set-up (OpenSSL's digest and key preparation) cost several times the whole
//   JavaScript digest of a signed order (CPU profiles of the signed route, docs/benchmarks-log.md),
//   though a tight loop of either costs a few µs.
import { Errors, type ErrorDef } from '../../src-shared/errors.ts';
import { createHmacCheck, type HmacCheck } from './hmac-check.ts';

export const DEFAULT_RECV_WINDOW = 5000;
export const MAX_RECV_WINDOW = 60_000;
/** How far ahead of the server clock a timestamp may be (exclusive), ms. */
const MAX_CLOCK_AHEAD = 1000;

/**
 * A stale timestamp is taken for seconds when, read as seconds, it lies within a day of the server
 * clock (a bot's clock may be hours off; a counter or a typo such as 1 is no clock reading at all).
 */
const SECONDS_NEAR = 86_400_000;

/** A timestamp or recv_window as text: 1 to 15 digits (16 digits would be microseconds). */
const DIGITS = /^\d{1,15}$/;
/** The same written plainly, as every native integer (docs/api-input-rules.md): no leading zero. */
const PLAIN_DIGITS = /^(?:0|[1-9]\d{0,14})$/;

/**
 * The freshness rule of signed requests and WebSocket LOGIN (`timestamp < now + MAX_CLOCK_AHEAD`
 * and `now - timestamp <= recvWindow`, wall-clock ms): null when fresh, else the 2006 or 2007
 * answer. A stale timestamp that looks like seconds says so: that is the usual cause, and the
 * bare distance (decades of ms) does not tell it. (Microseconds have 16 digits and are already
 * refused as malformed, 2005, by the 15-digit rule.)
 */
function timestampError(timestamp: number, now: number, recvWindow: number): { def: ErrorDef; message: string } | null {
  if (timestamp >= now + MAX_CLOCK_AHEAD) {
    return {
      def: Errors.TIMESTAMP_IN_FUTURE,
      message: `timestamp ${timestamp} is ${timestamp - now} ms ahead of server time ${now}; it must be less than ${MAX_CLOCK_AHEAD} ms ahead`,
    };
  }
  if (now - timestamp > recvWindow) {
    const unit =
      Math.abs(timestamp * 1000 - now) <= SECONDS_NEAR
        ? '. timestamp is in milliseconds; this one looks like seconds'
        : '';
    return {
      def: Errors.TIMESTAMP_STALE,
      message: `timestamp ${timestamp} is ${now - timestamp} ms behind server time ${now}, more than recv_window ${recvWindow} ms${unit}`,
    };
  }
  return null;
}

export interface SignedParts {
  /** The account's API secret. */
  secret: string;
  /** `timestamp` as received: text of ms on both paths (REST may also hand an array: given twice). undefined: absent. */
  timestamp: unknown;
  /** `recv_window` as received, like timestamp; undefined: DEFAULT_RECV_WINDOW. */
  recvWindow: unknown;
  /** The signed text (REST: the query before `&signature=`; LOGIN: `loginPayload`). */
  signed: string;
  /** REST: the raw body, hashed right after `signed`. */
  body?: string;
  /** The signature sent (non-empty: presence is the caller's check, with its own wording). */
  signature: string;
  /** Wall clock, ms. */
  now: number;
  /**
   * Native REST: timestamp and recv_window must be written plainly (`05000` is 2005 / 2008, here
   * and not after the signature as a 1001 of the schema). The Binance facade leaves it unset.
   */
  plain?: boolean;
}

/** Which check refused the request; `message` is set where the check itself knows the figures. */
export type SignatureFailure =
  | {
      readonly check: 'timestamp-missing' | 'timestamp-malformed' | 'recv-window' | 'signature';
      readonly def: ErrorDef;
    }
  | { readonly check: 'time'; readonly def: ErrorDef; readonly message: string };

const TIMESTAMP_MISSING: SignatureFailure = { check: 'timestamp-missing', def: Errors.TIMESTAMP_MISSING };
const TIMESTAMP_MALFORMED: SignatureFailure = { check: 'timestamp-malformed', def: Errors.TIMESTAMP_MISSING };
const RECV_WINDOW: SignatureFailure = { check: 'recv-window', def: Errors.RECV_WINDOW_INVALID };
const SIGNATURE: SignatureFailure = { check: 'signature', def: Errors.SIGNATURE_INVALID };

/** How many secrets' prepared HMACs are kept (an account's is reused on every request it signs). */
const KEYS_KEPT = 1024;
const keys = new Map<string, HmacCheck>();

/**
 * The secret's HMAC with its key blocks absorbed once. Bounded: past KEYS_KEPT distinct secrets
 * the map starts again (secrets are a handful of paper accounts in practice).
 */
function hmacOf(secret: string): HmacCheck {
  let k = keys.get(secret);
  if (k === undefined) {
    if (keys.size >= KEYS_KEPT) keys.clear();
    k = createHmacCheck(secret);
    keys.set(secret, k);
  }
  return k;
}

/** Checks a signed request's time and signature: null when accepted, else the first failing check. */
export function verifySignature(p: SignedParts): SignatureFailure | null {
  const ts = p.timestamp;
  if (ts === undefined) return TIMESTAMP_MISSING;
  const digits = p.plain === true ? PLAIN_DIGITS : DIGITS;
  if (typeof ts !== 'string' || !digits.test(ts)) return TIMESTAMP_MALFORMED;
  const rw = p.recvWindow;
  let recvWindow = DEFAULT_RECV_WINDOW;
  if (rw !== undefined) {
    recvWindow = typeof rw === 'string' && digits.test(rw) ? Number(rw) : NaN;
    if (!(recvWindow >= 1 && recvWindow <= MAX_RECV_WINDOW)) return RECV_WINDOW;
  }
  const late = timestampError(Number(ts), p.now, recvWindow);
  if (late !== null) return { check: 'time', def: late.def, message: late.message };
  // constant time in the signature; the length of a valid one (64) is public
  if (!hmacOf(p.secret).matches(p.signed, p.body ?? '', p.signature)) return SIGNATURE;
  return null;
}
