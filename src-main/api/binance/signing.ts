// Binance's request authentication for the facade (reference a.1): the key in X-MBX-APIKEY;
// signed routes carry timestamp (wall-clock ms), an optional recvWindow (default 5000, at most
// 60000) and signature = lowercase hex HMAC-SHA256(secret, totalParams), where totalParams is
// the query string followed directly by the form body, the signature parameter removed from
// whichever holds it. The time and HMAC checks are the venue's one verifier (api/signature.ts,
// as native REST and the /ws LOGIN); this module only reads Binance's parameter names and words
// each failure with Binance's code. The accounts are the native ones (the same AccountCache as
// the native auth), so a key works on both surfaces.
import type { FastifyRequest } from 'fastify';
import { Errors } from '../../../src-shared/errors.ts';
import { CREDENTIAL_RULE, isWellFormedCredential, repeatedKeyHeader } from '../../accounts/credentials.ts';
import type { Account } from '../../core/account.ts';
import type { AuthServices } from '../auth.ts';
import { verifySignature } from '../signature.ts';
import { BinanceError, MSG, illegal, mandatory, recvWindowError } from './errors.ts';
import { withoutSignature } from './params.ts';

const DIGITS = /^\d{1,15}$/;

/**
 * The account named by X-MBX-APIKEY (API-key-only routes such as listenKey). As Binance: a key
 * that is missing or cannot be a key (here: not CREDENTIAL_RULE, the rule every account's key
 * follows) is -2014 "API-key format invalid.", a well-formed key no account has -2015.
 */
export function accountByKey(auth: AuthServices, req: FastifyRequest): Account {
  const key = req.headers['x-mbx-apikey'];
  if (typeof key !== 'string' || key === '')
    throw new BinanceError(-2014, `${MSG.KEY_FORMAT} Send your API key in the X-MBX-APIKEY header.`, 401);
  if (!isWellFormedCredential(key)) {
    const repeated = repeatedKeyHeader('X-MBX-APIKEY', key);
    throw new BinanceError(-2014, `${MSG.KEY_FORMAT} ${repeated ?? `An API key is ${CREDENTIAL_RULE}`}.`, 401);
  }
  const account = auth.accounts.byKey(key);
  if (account === undefined) throw new BinanceError(-2015, MSG.KEY_INVALID, 401);
  return account;
}

/** What a signed request sent: its raw query and body texts and its parameters' values. */
export interface SignedText {
  query: string;
  body: string;
  timestamp: string | undefined;
  recvWindow: string | undefined;
}

/** Verifies a signed request; answers its account or throws the Binance error. */
export function verifySigned(auth: AuthServices, req: FastifyRequest, sent: SignedText): Account {
  const account = accountByKey(auth, req);
  const ts = sent.timestamp;
  if (ts === undefined) throw mandatory('timestamp');
  if (!DIGITS.test(ts)) throw illegal('timestamp');
  const rw = sent.recvWindow;
  if (rw !== undefined && !DIGITS.test(rw)) throw /^-?\d+$/.test(rw) ? recvWindowError(rw) : illegal('recvWindow');
  const q = withoutSignature(sent.query);
  const b = withoutSignature(sent.body);
  const signature = q.signature ?? b.signature;
  const failure = verifySignature({
    secret: account.apiSecret,
    timestamp: ts,
    recvWindow: rw,
    signed: q.rest,
    body: b.rest,
    // the verifier compares lowercase hex; Binance accepts either case
    signature: signature === undefined ? '' : signature.toLowerCase(),
    now: auth.now(),
  });
  if (failure === null) return account;
  switch (failure.check) {
    case 'recv-window':
      throw recvWindowError(rw);
    case 'time':
      // Binance's two -1021 texts: ahead of the server clock by 1000 ms or more, or older than recvWindow
      throw new BinanceError(-1021, failure.def === Errors.TIMESTAMP_IN_FUTURE ? MSG.TIMESTAMP_AHEAD : MSG.TIMESTAMP);
    default:
      // the time is checked before the HMAC: a request without a signature gets here once fresh
      if (signature === undefined || signature === '') throw mandatory('signature');
      throw new BinanceError(-1022, MSG.SIGNATURE);
  }
}
