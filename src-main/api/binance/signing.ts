// Binance's request authentication for the facade (reference a.1): the key in X-MBX-APIKEY;
// signed routes carry timestamp (wall-clock ms), an optional recvWindow (default 5000, at most
// 60000) and signature = lowercase hex HMAC-SHA256(secret, totalParams) where totalParams is
// the query string followed directly by the form body, the signature parameter removed from
// whichever holds it. Accepted when timestamp < serverTime + 1000 and serverTime - timestamp
// <= recvWindow; serverTime is the wall clock (the same the native API signs against). The
// accounts are the native ones (the same AccountCache as the native auth), so a key works on
// both surfaces.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Account } from '../../core/account.ts';
import type { AuthServices } from '../auth.ts';
import { MAX_CLOCK_AHEAD, MAX_RECV_WINDOW } from '../auth.ts';
import { BinanceError, MSG, illegal, mandatory } from './errors.ts';
import { withoutSignature, type Params } from './params.ts';

const BINANCE_DEFAULT_RECV_WINDOW = 5000;
const DIGITS = /^\d{1,15}$/;
const HEX64 = /^[0-9a-fA-F]{64}$/;

/** The account named by X-MBX-APIKEY (API-key-only routes such as listenKey). */
export function accountByKey(auth: AuthServices, req: FastifyRequest): Account {
  const key = req.headers['x-mbx-apikey'];
  if (typeof key !== 'string' || key === '') throw new BinanceError(-2014, MSG.KEY_FORMAT, 401);
  const account = auth.accounts.byKey(key);
  if (account === undefined) throw new BinanceError(-2015, MSG.KEY_INVALID, 401);
  return account;
}

/** Verifies a signed request; answers its account or throws the Binance error. */
export function verifySigned(
  auth: AuthServices,
  req: FastifyRequest,
  query: string,
  body: string,
  params: Params,
): Account {
  const account = accountByKey(auth, req);
  const q = withoutSignature(query);
  const b = withoutSignature(body);
  const ts = params.str('timestamp');
  if (ts === undefined) throw mandatory('timestamp');
  if (!DIGITS.test(ts)) throw illegal('timestamp');
  const rw = params.str('recvWindow');
  let recvWindow = BINANCE_DEFAULT_RECV_WINDOW;
  if (rw !== undefined) {
    if (!DIGITS.test(rw)) throw illegal('recvWindow');
    recvWindow = Number(rw);
    if (recvWindow > MAX_RECV_WINDOW) throw new BinanceError(-1131, MSG.RECV_WINDOW);
  }
  const now = auth.now();
  const timestamp = Number(ts);
  if (timestamp >= now + MAX_CLOCK_AHEAD || now - timestamp > recvWindow) throw new BinanceError(-1021, MSG.TIMESTAMP);
  const signature = q.signature ?? b.signature;
  if (signature === undefined || signature === '') throw mandatory('signature');
  const expected = createHmac('sha256', account.apiSecret).update(q.rest).update(b.rest).digest('hex');
  // equal-length texts only, compared in constant time
  if (
    !HEX64.test(signature) ||
    !timingSafeEqual(Buffer.from(signature.toLowerCase(), 'latin1'), Buffer.from(expected, 'latin1'))
  ) {
    throw new BinanceError(-1022, MSG.SIGNATURE, 400);
  }
  return account;
}
