// What every facade route module receives: the venue's services, the native auth's account
// cache and clock, and the request's Binance parameters.
import type { FastifyRequest } from 'fastify';
import type { Venue } from '../../services/venue.ts';
import type { AuthServices } from '../auth.ts';
import { BinanceError, MSG } from './errors.ts';
import { Params, queryOf } from './params.ts';
import type { PairView } from '../../trading/pair-state.ts';
import type { ListenKeys } from './listen-keys.ts';

export interface BinanceContext {
  venue: Venue;
  auth: AuthServices;
  listenKeys: ListenKeys;
}

/** The request body as text (the facade's form parser keeps it raw); '' when none. */
export function bodyText(req: FastifyRequest): string {
  return typeof req.body === 'string' ? req.body : '';
}

export function paramsOf(req: FastifyRequest): Params {
  return new Params(queryOf(req.url), bodyText(req));
}

/** A listed pair (delisted ones are unknown to Binance clients), by Binance's upper-case name. */
export function pairOf(ctx: BinanceContext, symbol: string): PairView {
  const pair = ctx.venue.exchange.pair(symbol.toUpperCase());
  if (pair === undefined || pair.row.status === 3) throw new BinanceError(-1121, MSG.INVALID_SYMBOL);
  return pair;
}

/** Every listed pair, in catalogue order. */
export function listedPairs(ctx: BinanceContext): PairView[] {
  const out: PairView[] = [];
  for (const row of ctx.venue.symbols.all()) {
    const p = ctx.venue.exchange.pair(row.symbol);
    if (p !== undefined && p.row.status !== 3) out.push(p);
  }
  return out;
}
