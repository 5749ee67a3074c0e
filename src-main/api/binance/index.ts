// The Binance USD-M compatible API under /binance: a translation layer over the exchange's
// commands and the native read services, so Binance bots (ccxt, freqtrade, python-binance) run
// against the venue with only a base-URL change. Route modules per resource (routes/: market
// data, orders, history, account, position margin, user stream; streams/: the WebSocket hub)
// with handlers that only translate, through translate/ (Binance parameters, enums and records
// <-> native commands and records, pure). Reference: docs/binance.md.
//
// Invariants: this plugin is encapsulated, so its error handler, not-found handler, form-body
// parser and rate limits apply only under its prefix, and the native envelope never wraps a
// /binance answer; every error is Binance's {code, msg}. No validation, matching, margin or
// record of its own: orders go through Exchange.execute, reads through the native views.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Venue } from '../../services/venue.ts';
import type { AuthServices } from '../auth.ts';
import { FixedWindowLimiter, resolveRateLimits, type RateLimitOptions, type WindowLimit } from '../rate-limit.ts';
import type { HeartbeatLimits } from '../ws/heartbeat.ts';
import type { BinanceContext } from './context.ts';
import { binanceErrorOf, BinanceError, fromSchema, MSG, type ParamRule } from './errors.ts';
import { ListenKeys } from './listen-keys.ts';
import { addFormParams, duplicated } from './params.ts';
import { DOCUMENTATION, serializesAnswers } from './response-schemas.ts';
import { accountByKey } from './signing.ts';
import { registerAccount } from './routes/account.ts';
import { registerAlgoOrders } from './routes/algo-orders.ts';
import { registerCountdown } from './routes/countdown.ts';
import { registerHistory } from './routes/history.ts';
import { registerInsuranceBalance } from './routes/insurance-balance.ts';
import { registerPositionMargin } from './routes/position-margin.ts';
import { registerFuturesData } from './routes/futures-data.ts';
import { registerMarketData } from './routes/market-data.ts';
import { registerOrders } from './routes/orders.ts';
import { registerUserStream } from './routes/user-stream.ts';
import { registerStreams } from './streams/endpoints.ts';
import { Ticker24hService } from '../../market/ticker-24h.ts';

/** The methods the facade's REST routes use (a wrong-method answer names the path's). */
const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;

/** The facade's tag in the OpenAPI document. */
const BINANCE_TAG = 'binance';

const STREAM_TEXT =
  'Binance-compatible WebSocket endpoint: connect with Upgrade: websocket (a plain GET answers -1000). ' +
  "Streams, methods and events are Binance's; what is served: docs/binance.md.";

export interface BinanceApiOptions {
  venue: Venue;
  auth: AuthServices;
  rateLimit?: RateLimitOptions | false;
  /** The streams' ping period and time without a pong before a close, when not Binance's 3 and 10 minutes (tests). */
  heartbeat?: Partial<HeartbeatLimits>;
  /** Unsent bytes of a stream connection above which it is closed as a slow consumer, when not 4 MiB (tests). */
  maxUnsentBytes?: number;
}

const UNREAD_BODY =
  'The request body was not read: as on Binance, parameters go in the query string or an ' +
  'application/x-www-form-urlencoded body, not JSON.';

/** Whether the request had a body of another type than a form: the facade does not read it. */
function unreadBody(req: FastifyRequest): boolean {
  const type = req.headers['content-type'];
  if (type === undefined || type.startsWith('application/x-www-form-urlencoded')) return false;
  const length = req.headers['content-length'];
  return length === undefined ? req.headers['transfer-encoding'] !== undefined : Number(length) > 0;
}

/** A window as Binance's header suffixes name intervals: `10s`, `1m`. */
function intervalTag(l: WindowLimit): string {
  return l.windowMs % 60_000 === 0 ? `${l.windowMs / 60_000}m` : `${Math.ceil(l.windowMs / 1000)}s`;
}

function sendBinanceError(reply: FastifyReply, e: BinanceError, retryAfterMs?: number): FastifyReply {
  if (retryAfterMs !== undefined) reply.header('retry-after', String(Math.max(1, Math.ceil(retryAfterMs / 1000))));
  return reply.code(e.http).type('application/json; charset=utf-8').send({ code: e.code, msg: e.message });
}

export default async function binanceApi(app: FastifyInstance, opts: BinanceApiOptions): Promise<void> {
  const ctx: BinanceContext = {
    venue: opts.venue,
    auth: opts.auth,
    listenKeys: new ListenKeys(opts.venue.listenKeyStore, opts.auth.now),
    tickers: new Ticker24hService(opts.venue.klines, opts.venue.recentTrades),
  };

  // Every route has its schema (schemas.ts); the WebSocket endpoints, which take no parameters,
  // are listed under the same tag here. Response schemas are documentation, the answer written as
  // the handler returns it, but on the routes that serialize through theirs (response-schemas.ts).
  app.addHook('onRoute', (route) => {
    const path = route.url.startsWith(route.prefix) ? route.url.slice(route.prefix.length) : route.url;
    if (route.serializerCompiler === undefined && !serializesAnswers(`${String(route.method)} ${path}`))
      route.serializerCompiler = DOCUMENTATION;
    if ((route.schema as { tags?: unknown } | undefined)?.tags !== undefined) return;
    route.schema = {
      ...route.schema,
      tags: [BINANCE_TAG],
      summary: `${String(route.method)} ${path} (Binance USD-M)`,
      description: STREAM_TEXT,
    };
  });

  // Binance clients sign the form body as sent: it stays text (the signature check reads it), and
  // its parameters join the query's as it is parsed, before the route's schema validates them:
  // Binance's totalParams. A name in both keeps the query's value, as Binance documents; a name
  // sent twice in the body is refused (-1101, params.ts).
  // Binance reads no other body: one of any other type (JSON, text) is not read, as there, and an
  // empty one is no body (HTTP clients that send `Content-Type: application/json` on every request
  // were refused with -1000 for their empty POST body); parameters come from the query string.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, _body, done) => done(null, undefined));
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string;
    try {
      if (text !== '') addFormParams(text, req.query as Record<string, unknown>);
    } catch (err) {
      done(err as Error, undefined);
      return;
    }
    done(null, text);
  });
  // A keyed route (signed or user-stream: its schema names the X-MBX-APIKEY scheme) reads the key
  // before its parameters, as Binance's gateway does: a request without a well-formed key is
  // -2014 and one with an unknown key -2015, whatever its parameters (it was -1102 "timestamp"
  // for a bare GET /fapi/v2/account). The signature is checked later, by the handler.
  // A name sent twice in the query (the query parser makes a list of it): -1101, as in the body.
  app.addHook('preValidation', (req, _reply, done) => {
    const security = (req.routeOptions.schema as { security?: unknown[] } | undefined)?.security;
    if (security !== undefined && security.length > 0) {
      try {
        accountByKey(ctx.auth, req);
      } catch (err) {
        return done(err as Error);
      }
    }
    const q = req.query as Record<string, unknown>;
    for (const k in q) if (Array.isArray(q[k])) return done(duplicated(k));
    done();
  });

  app.setErrorHandler((err, req, reply) => {
    const v = (err as { validation?: Parameters<typeof fromSchema>[0][] }).validation;
    const rules = (req.routeOptions.schema?.querystring as { properties?: Record<string, ParamRule> } | undefined)
      ?.properties;
    let e = Array.isArray(v) ? fromSchema(v[0], req.query as Record<string, unknown>, rules) : binanceErrorOf(err);
    // a parameter missing from a request whose body was not read (JSON, text): say where they go
    if (Array.isArray(v) && v[0]?.keyword === 'required' && unreadBody(req))
      e = new BinanceError(e.code, `${e.message} ${UNREAD_BODY}`, e.http);
    if (e.http >= 500) reply.log.error({ err }, 'binance facade error');
    return sendBinanceError(reply, e);
  });
  // An unknown path, or a served path asked with another method: the latter names the methods it
  // is served with, so a wrong method is not mistaken for a missing route.
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    const methods = HTTP_METHODS.filter((method) => app.hasRoute({ method, url: path }));
    const served = methods.length === 0 ? '' : ` It is served as ${methods.join(', ')}.`;
    return sendBinanceError(
      reply,
      new BinanceError(-5000, `Path ${req.method} ${path} is not served by this Binance-compatible API.${served}`, 404),
    );
  });

  // The native per-IP and per-key limits (same numbers), answered the Binance way: 429, -1003, Retry-After.
  const limits = resolveRateLimits(opts.rateLimit);
  const ipLimiter = limits.perIp ? new FixedWindowLimiter(limits.perIp, ctx.auth.now) : null;
  const keyLimiter = limits.perKey ? new FixedWindowLimiter(limits.perKey, ctx.auth.now) : null;
  // Every answer says what its caller has used, as Binance's X-MBX-USED-WEIGHT-1M and
  // X-MBX-ORDER-COUNT-10S do, named after the venue's windows (exchangeInfo's rateLimits):
  // X-MBX-USED-WEIGHT-10S (the IP's weight) and X-MBX-ORDER-COUNT-10S (the API key's count).
  const weightHeader = ipLimiter === null ? '' : `x-mbx-used-weight-${intervalTag(ipLimiter.limit)}`;
  const countHeader = keyLimiter === null ? '' : `x-mbx-order-count-${intervalTag(keyLimiter.limit)}`;
  // (no hook at all when both are off: a hook costs every request an iteration)
  if (ipLimiter !== null || keyLimiter !== null)
    app.addHook('onRequest', (req, reply, done) => {
      // a route's weight (Binance's: 5 for a batch of new or modified orders), else 1
      const weight = (req.routeOptions.config as { weight?: number }).weight ?? 1;
      let wait = ipLimiter === null ? 0 : ipLimiter.hit(req.ip, weight);
      const key = req.headers['x-mbx-apikey'];
      const keyed = keyLimiter !== null && typeof key === 'string' && key !== '';
      if (wait === 0 && keyed) wait = keyLimiter.hit(key, weight);
      if (ipLimiter !== null) reply.header(weightHeader, String(ipLimiter.used(req.ip)));
      if (keyed) reply.header(countHeader, String(keyLimiter.used(key)));
      if (wait === 0) return done();
      sendBinanceError(reply, new BinanceError(-1003, MSG.TOO_MANY_REQUESTS, 429), wait);
    });

  registerMarketData(app, ctx, limits);
  registerFuturesData(app, ctx);
  registerStreams(app, ctx, limits.perIp !== null, opts.heartbeat, opts.maxUnsentBytes);
  registerOrders(app, ctx);
  registerAlgoOrders(app, ctx);
  registerCountdown(app, ctx);
  registerHistory(app, ctx);
  registerAccount(app, ctx);
  registerPositionMargin(app, ctx);
  registerUserStream(app, ctx);
  registerInsuranceBalance(app, ctx);
}
