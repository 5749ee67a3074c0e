// The Binance USD-M compatible API under /binance (issue 14): a translation layer over the
// exchange's commands and the native read services, so Binance bots (ccxt, freqtrade,
// python-binance) run against the venue with only a base-URL change. Reference:
// /work/shared/reference/binance-usdm.md.
//
// Invariants: this plugin is encapsulated, so its error handler, not-found handler, form-body
// parser and rate limits apply only under its prefix, and the native envelope never wraps a
// /binance answer; every error is Binance's {code, msg}. No validation, matching, margin or
// record of its own: orders go through Exchange.execute, reads through the native views.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Venue } from '../../venue.ts';
import type { AuthServices } from '../auth.ts';
import { FixedWindowLimiter, resolveRateLimits, type RateLimitOptions } from '../rate-limit.ts';
import type { BinanceContext } from './context.ts';
import { binanceErrorOf, BinanceError, MSG } from './errors.ts';
import { registerMarket } from './market.ts';
import { registerTrading } from './trading.ts';
import { ListenKeys } from './listen-keys.ts';
import { registerStreams } from './ws.ts';

export interface BinanceApiOptions {
  venue: Venue;
  auth: AuthServices;
  rateLimit?: RateLimitOptions | false;
}

export function sendBinanceError(reply: FastifyReply, e: BinanceError, retryAfterMs?: number): FastifyReply {
  if (retryAfterMs !== undefined) reply.header('retry-after', String(Math.max(1, Math.ceil(retryAfterMs / 1000))));
  return reply.code(e.http).type('application/json; charset=utf-8').send({ code: e.code, msg: e.message });
}

export default async function binanceApi(app: FastifyInstance, opts: BinanceApiOptions): Promise<void> {
  const ctx: BinanceContext = { venue: opts.venue, auth: opts.auth, listenKeys: new ListenKeys(opts.auth.now) };

  // Binance's own documentation describes these routes; the native OpenAPI document stays native
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });

  // Binance clients sign the form body as sent: keep it as text (params.ts reads it)
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  app.setErrorHandler((err, _req, reply) => {
    const e = binanceErrorOf(err);
    if (e.http >= 500) reply.log.error({ err }, 'binance facade error');
    return sendBinanceError(reply, e);
  });
  app.setNotFoundHandler((req, reply) =>
    sendBinanceError(reply, new BinanceError(-5000, `Path ${req.method} ${req.url.split('?')[0]} is not served by this Binance-compatible API.`, 404)),
  );

  // The native per-IP and per-key limits (same numbers), answered the Binance way: 429, -1003, Retry-After.
  const limits = resolveRateLimits(opts.rateLimit);
  const ipLimiter = limits.perIp ? new FixedWindowLimiter(limits.perIp, ctx.auth.now) : null;
  const keyLimiter = limits.perKey ? new FixedWindowLimiter(limits.perKey, ctx.auth.now) : null;
  app.addHook('onRequest', (req, reply, done) => {
    let wait = ipLimiter === null ? 0 : ipLimiter.hit(req.ip);
    const key = req.headers['x-mbx-apikey'];
    if (wait === 0 && keyLimiter !== null && typeof key === 'string' && key !== '') wait = keyLimiter.hit(key);
    if (wait === 0) return done();
    sendBinanceError(reply, new BinanceError(-1003, MSG.TOO_MANY_REQUESTS, 429), wait);
  });

  registerMarket(app, ctx);
  registerStreams(app, ctx);
  registerTrading(app, ctx);
}
