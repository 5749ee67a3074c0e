// What every facade route module receives (the venue's services, the native auth's account cache
// and clock, the listenKeys, the 24 h ticker service), and the helpers every handler uses: the
// request's Binance parameters, a pair by Binance's name, a signed request's account and mode,
// and native commands run with their errors in Binance's terms.
import type { FastifyRequest } from 'fastify';
import { ApiError, Errors } from '../../../src-shared/errors.ts';
import { isListed } from '../../core/symbol.ts';
import type { Account } from '../../core/account.ts';
import type { Ticker24hService } from '../../market/ticker-24h.ts';
import type { Command, ResultOf } from '../../trading/exchange.ts';
import type { PairView } from '../../trading/pair-state.ts';
import type { Venue } from '../../services/venue.ts';
import type { AuthServices } from '../auth.ts';
import { BinanceError, MSG, fromNative, type ErrorContext } from './errors.ts';
import type { ListenKeys } from './listen-keys.ts';
import { Params, queryOf } from './params.ts';
import { verifySigned } from './signing.ts';
import type { Mode } from './translate/orders.ts';

export interface BinanceContext {
  venue: Venue;
  auth: AuthServices;
  listenKeys: ListenKeys;
  tickers: Ticker24hService;
}

/** The request body as text (the facade's form parser keeps it raw); '' when none. */
function bodyText(req: FastifyRequest): string {
  return typeof req.body === 'string' ? req.body : '';
}

/** The request's parameters: the query and form body, merged and validated by the route's schema. */
export function paramsOf(req: FastifyRequest): Params {
  return Params.of(req.query as Record<string, unknown>);
}

/** A listed pair (delisted ones are unknown to Binance clients), by Binance's upper-case name. */
export function pairOf(ctx: BinanceContext, symbol: string): PairView {
  const pair = ctx.venue.exchange.pair(symbol.toUpperCase());
  if (pair === undefined || !isListed(pair.row)) throw new BinanceError(-1121, MSG.INVALID_SYMBOL);
  return pair;
}

/** Every listed pair, in catalogue order. */
export function listedPairs(ctx: BinanceContext): PairView[] {
  const out: PairView[] = [];
  for (const row of ctx.venue.symbols.all()) {
    const p = ctx.venue.exchange.pair(row.symbol);
    if (p !== undefined && isListed(p.row)) out.push(p);
  }
  return out;
}

/** A verified signed request: its account, parameters and the account's position mode. */
export interface Signed {
  account: Account;
  q: Params;
  mode: Mode;
}

/**
 * Verifies a signed request. `live` reads the account's position mode from the exchange; the
 * cached account row may predate a change made through the native API. Order placement, the hot
 * route, takes the cached one (a stale one makes the core refuse, and the refusal names the live
 * mode).
 */
export function signedRequest(ctx: BinanceContext, req: FastifyRequest, live = true): Signed {
  const q = paramsOf(req);
  const account = verifySigned(ctx.auth, req, {
    query: queryOf(req.url),
    body: bodyText(req),
    timestamp: q.str('timestamp'),
    recvWindow: q.str('recvWindow'),
  });
  const mode = live ? ctx.venue.exchange.summary(account.id).position_mode : account.positionMode;
  return { account, q, mode };
}

/** A native refusal in Binance's terms; a position-side refusal names the live mode. */
export function translated(ctx: BinanceContext, err: unknown, ectx: ErrorContext, s?: Signed): never {
  if (!(err instanceof ApiError)) throw err;
  if (s !== undefined && err.def.code === Errors.POSITION_SIDE_MISMATCH.code)
    ectx = { ...ectx, positionMode: ctx.venue.exchange.summary(s.account.id).position_mode };
  throw fromNative(err, ectx);
}

/**
 * A native command (an order, a cancel, an amendment, a setting) through the venue's one door
 * (submit), its errors in Binance's terms: a replay's order latency applies to each alike.
 * Synchronous (the answer at once) unless the venue delays it.
 */
export function enter<C extends Command>(
  ctx: BinanceContext,
  c: C,
  ectx: ErrorContext,
  s?: Signed,
): ResultOf<C> | Promise<ResultOf<C>> {
  let r: ResultOf<C> | Promise<ResultOf<C>>;
  try {
    r = ctx.venue.submit(c);
  } catch (err) {
    return translated(ctx, err, ectx, s);
  }
  return r instanceof Promise ? r.catch((err: unknown) => translated(ctx, err, ectx, s)) : r;
}
