// Builds the Fastify application: error handling, OpenAPI, shared schemas, routes, the UI.
import { cachedSchemaCompilers } from './schema-compilers.ts';
import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type preValidationHookHandler,
  type RouteOptions,
} from 'fastify';
import { ApiError, Errors, STORE_FAILED } from '../../src-shared/errors.ts';
import type { Venue } from '../services/venue.ts';
import { AnswerBatch } from './answer-batch.ts';
import { API_KEY_SCHEME, installAuth } from './auth.ts';
import { closeUpgradeAfterAnswer, hostCheck, originCheck, refuseFraming } from './browser-guards.ts';
import {
  answerClientError,
  clip,
  installErrorHandling,
  sendError,
  urlLimitCheck,
  type AnswerFinish,
  type RequestCheck,
} from './error-handler.ts';
import { API_DESCRIPTION } from './openapi-description.ts';
import { addGuardAnswers } from './openapi-guards.ts';
import { completeOperations } from './openapi-operations.ts';
import {
  STRICT_BODY,
  bodyTypeChecker,
  fusePreValidation,
  installStrictQueryNumbers,
  syncHook,
  type FlatBodySchema,
} from './strict-input.ts';
import type { RateLimitOptions } from './rate-limit.ts';
import accountRoutes from './routes/account.ts';
import adminRoutes from './routes/admin.ts';
import klinesRoutes from './routes/klines.ts';
import depthRoutes from './routes/depth.ts';
import botOrderRoutes from './routes/bot-orders.ts';
import datasetRoutes from './routes/datasets.ts';
import logoRoutes from './routes/logos.ts';
import orderRoutes from './routes/orders.ts';
import conditionalOrderRoutes from './routes/conditional-orders.ts';
import positionRoutes from './routes/positions.ts';
import positionMarginRoutes from './routes/position-margin.ts';
import symbolRoutes from './routes/symbols.ts';
import timeRoutes from './routes/time.ts';
import sessionRoutes, { type LoginToken } from './routes/session.ts';
import tpslRoutes from './routes/tpsl.ts';
import paperRoutes from './routes/paper.ts';
import simRoutes, { replaySimRoutes } from './routes/sim.ts';
import replayRoutes, { type ReplayHost } from './routes/replay.ts';
import sweepRoutes, { type SweepResults } from './routes/sweeps.ts';
import priceRoutes from './routes/prices.ts';
import insuranceRoutes from './routes/insurance.ts';
import tradeRoutes from './routes/trades.ts';
import { futuresSymbolSchema, generalSymbolSchema } from './schemas.ts';
import { tradingSchemas } from './trading-schemas.ts';
import { installWebSocket } from './ws/ws-route.ts';
import binanceApi from './binance/index.ts';
import type { HeartbeatLimits } from './ws/heartbeat.ts';
import { BINANCE_KEY_SCHEME } from './binance/schemas.ts';

export interface AppOptions {
  venue: Venue;
  /** Folder of the built renderer (index.html); when missing, `/` explains how to build it. */
  uiDir?: string;
  logger?: boolean;
  /** Wall clock for signature timestamps and rate-limit windows (tests); Date.now by default. */
  now?: () => number;
  /** Per-IP and per-key limits (see rate-limit.ts); defaults when absent, none when false. */
  rateLimit?: RateLimitOptions | false;
  /** One-time browser login token (see routes/session.ts). */
  loginToken?: LoginToken;
  /**
   * Accept only loopback names in the Host header (DNS rebinding guard, browser-guards.ts);
   * true by default, false for a service bound beyond loopback on purpose.
   */
  loopbackHostsOnly?: boolean;
  /** Replay venues this (live) service hosts: POST/GET /api/v1/replays (service.ts). */
  replays?: ReplayHost;
  /** The sweeps of the data folder: GET /api/v1/sweeps (service.ts, docs/sweeps.md). */
  sweeps?: SweepResults;
  /** The /binance streams' ping period and time without a pong, when not Binance's 3 and 10 minutes (tests). */
  binanceHeartbeat?: Partial<HeartbeatLimits>;
  /** Unsent bytes of a /binance stream connection above which it is closed as a slow consumer, when not 4 MiB (tests). */
  binanceMaxUnsentBytes?: number;
}

/**
 * The one onSend pass: a body still arriving is read to its end after the answer
 * (error-handler.ts), HTML answers refuse framing (browser-guards.ts), and no answer leaves
 * before the writes made ahead of it are committed (group commit: the turn's commands share one
 * SQLite commit, store/group-commit.ts). When that commit fails, the answer becomes error 5000
 * and the exchange refuses further commands. The other answers leave together at the end of
 * their turn (answer-batch.ts), as the committed ones do. One hook instead of three: Fastify pays
 * a hook iteration per hook and request.
 */
function installOnSendPass(app: FastifyInstance, venue: Venue, finish: AnswerFinish): void {
  const group = venue.durability;
  const batch = new AnswerBatch();
  app.addHook('onSend', (req, reply, payload, done) => {
    finish.drainIfIncomplete(req, reply);
    refuseFraming(reply);
    if (!group.pending) return batch.add(done, payload);
    group.whenDurable((err) => {
      if (err === null) return done(null, payload);
      reply.code(Errors.INTERNAL.http);
      done(
        null,
        JSON.stringify({
          code: Errors.INTERNAL.code,
          message: `${STORE_FAILED.batch}${err.message}`,
          data: null,
        }),
      );
    });
  });
}

/**
 * While the data folder's disk is nearly full (store/disk-space.ts), every change is refused
 * (503 / 5002, the free space in the message) before it reaches a route; reads go on, and so
 * does the browser login, which writes nothing. It ends by itself once there is room.
 */
function diskCheck(venue: Venue): RequestCheck | null {
  const disk = venue.disk;
  if (disk === undefined) return null;
  const mib = (n: number) => `${(n / 1048576).toFixed(1)} MiB`;
  return (req, reply) => {
    const m = req.method;
    if (m === 'GET' || m === 'HEAD' || m === 'OPTIONS' || req.url.startsWith('/api/v1/session')) return false;
    const low = disk.low();
    if (low === null) return false;
    sendError(
      reply,
      Errors.STORAGE_FULL,
      `${Errors.STORAGE_FULL.message}: ${mib(low.free)} free on the disk of ${low.dir}, below the ${mib(low.reserve)} ` +
        'perpdesk keeps in reserve. Free some space and retry; reads still work',
    );
    return true;
  };
}

/**
 * A request that comes in while the service closes (on a kept-alive connection, which the close
 * leaves open a moment for it: server-close.ts) is refused, not run: 5001 in the envelope (-1001
 * under /binance), with Fastify's `Connection: close` of its close; Fastify's own 503 body
 * (`return503OnClosing`, turned off) is not the envelope.
 */
function closingCheck(app: FastifyInstance): RequestCheck {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  return (_req, reply) => {
    if (!closing) return false;
    sendError(
      reply,
      Errors.SERVICE_UNAVAILABLE,
      'The service is shutting down: the request was not run. Retry once it is back',
    );
    return true;
  };
}

/**
 * The one onRequest pass of the guards, in this order: the service closing (5001), the URL length (414), the Host header
 * (DNS rebinding, 403), an upgrade's Origin (cross-site WebSocket, 403), the disk guard (503 on changes) and the per-IP rate limit (429); the
 * first that answers ends the request. An upgrade request also gets its socket closed after an
 * HTTP answer (browser-guards.ts closeUpgradeAfterAnswer).
 */
function installOnRequestPass(app: FastifyInstance, checks: Array<RequestCheck | null>): void {
  const list = checks.filter((c): c is RequestCheck => c !== null);
  app.addHook('onRequest', (req, reply, done) => {
    closeUpgradeAfterAnswer(req, reply);
    for (let i = 0; i < list.length; i++) if (list[i](req, reply)) return;
    done();
  });
}

/** A route's preValidation hooks as a list. */
function hooksOf(hooks: RouteOptions['preValidation']): preValidationHookHandler[] {
  if (hooks === undefined) return [];
  return (Array.isArray(hooks) ? hooks : [hooks]) as preValidationHookHandler[];
}

/** The body check of a route that declares none: a JSON body with anything in it is 1003. */
function refuseBody(req: FastifyRequest): ApiError | undefined {
  if (req.rawBody === undefined) return undefined; // no JSON body (another type is 1006 before this)
  const b = req.body;
  if (typeof b === 'object' && b !== null && !Array.isArray(b)) {
    for (const key in b)
      return new ApiError(Errors.UNKNOWN_PARAMETER, `Unknown body parameter '${key}': this route takes no body`);
    return undefined;
  }
  return new ApiError(Errors.UNKNOWN_PARAMETER, 'This route takes no request body');
}

/**
 * The validator coerces types, which querystrings need (every value arrives as text) but which
 * would let a JSON body say `"amount": 10` or `"speed": "5"` and be read as something else.
 * Every route whose body schema is an object gets a preValidation check (after the auth hook and
 * the route's own) that each value of a declared property already has its JSON type, else 1001:
 * the same rule (bodyTypeChecker) as the trading routes' strictJsonBody, whose routes it skips.
 */
function installStrictBodyTypes(app: FastifyInstance): void {
  type ObjectSchema = { type?: unknown; properties?: FlatBodySchema['properties'] };
  app.addHook('onRoute', (route) => {
    const body = (
      route.schema as { body?: ObjectSchema & { content?: Record<string, { schema?: ObjectSchema }> } } | undefined
    )?.body;
    // a body schema per content type (a route that also takes uploads): the JSON one is checked
    const json = body?.content?.['application/json']?.schema;
    const schema = json ?? body;
    if (body === undefined && !route.url.startsWith('/binance')) {
      // A route that declares no body refuses a JSON body with a field (1003), as a route with a
      // body refuses a field it does not declare: a DELETE /fapi/v1/order with its order_id in a
      // body cancelled the order of the query and said nothing of the field. An empty object is
      // no field. (The /binance dialect ignores what it does not know, as Binance does.)
      route.preValidation = [...hooksOf(route.preValidation), syncHook(refuseBody)];
      return;
    }
    if (schema?.type !== 'object' || schema.properties === undefined) return;
    const typeError = bodyTypeChecker(schema.properties);
    const existing = hooksOf(route.preValidation);
    if (existing.some((h) => STRICT_BODY in h)) return;
    const check = syncHook((req) => {
      const b = req.body;
      if (typeof b !== 'object' || b === null || Array.isArray(b)) return undefined;
      if (json !== undefined && !/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? ''))
        return undefined;
      return typeError(b as Record<string, unknown>);
    });
    route.preValidation = [...existing, check];
  });
}

/**
 * Fastify's request lines are info lines, below the service's 'warn' level: this builds none (it
 * would make an object and read the clock for each line the logger then drops, on every order).
 * A request that ends with an error is still reported as Fastify does.
 */
class QuietRequestLines extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) super.requestCompleted(error, request, reply);
  }
}

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    // a request during the close is refused in the envelope (closingCheck)
    return503OnClosing: false,
    logger: opts.logger ? { level: 'warn' } : false,
    // Only warnings and errors are logged: no request lines (info), so none is built either
    // (QuietRequestLines), and no per-request child logger (Fastify makes one per request to bind
    // its id, a few µs on every order); an error's log line names the request id itself
    // (error-handler.ts). Without a logger Fastify skips the child on its own, and a factory of
    // ours would cost it a call and a check of the logger's methods on every request.
    logController: new QuietRequestLines(),
    ...(opts.logger ? { childLoggerFactory: (logger: FastifyBaseLogger) => logger } : {}),
    bodyLimit: 64 * 1024,
    schemaController: cachedSchemaCompilers,
    ajv: {
      customOptions: {
        // Unknown fields are an error (1003), never silently dropped.
        removeAdditional: false,
        coerceTypes: true,
        useDefaults: true,
        allErrors: false,
      },
    },
    // maxParamLength: a path parameter of any length reaches its schema, which refuses it by
    // name (1001); the router's own limit (100) answered a bare "malformed request". No route
    // has a regexp parameter, so the limit guards nothing here; Node caps the URL (16 KiB).
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 16 * 1024 },
    // Errors raised before routing (a malformed URL, a bad content type) get the envelope too.
    frameworkErrors(err, _req, reply) {
      const def =
        err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? Errors.UNSUPPORTED_MEDIA_TYPE
          : err.code === 'FST_ERR_MAX_PARAM_LENGTH'
            ? Errors.URI_TOO_LONG
            : Errors.BAD_REQUEST;
      // (the router's limit on one path parameter, maxParamLength above; the URL limit of
      // installUrlLimit, 8192 characters, answers first)
      const why = def === Errors.URI_TOO_LONG ? 'a path parameter is longer than 16384 characters' : clip(err.message);
      (reply as unknown as FastifyReply)
        .code(def.http)
        .send({ code: def.code, message: `${def.message}: ${why}`, data: null });
    },
    // and what Node's HTTP parser refuses (oversized headers, timeouts, not HTTP)
    clientErrorHandler: answerClientError,
  });

  const finish = installErrorHandling(app);
  installOnSendPass(app, opts.venue, finish);
  const auth = installAuth(app, { venue: opts.venue, now: opts.now, rateLimit: opts.rateLimit });
  installOnRequestPass(app, [
    closingCheck(app),
    urlLimitCheck,
    hostCheck({ loopbackHostsOnly: opts.loopbackHostsOnly ?? true }),
    originCheck,
    diskCheck(opts.venue),
    auth.ipLimit,
  ]);
  installStrictBodyTypes(app);
  installStrictQueryNumbers(app);
  // last of the onRoute hooks that add preValidation checks: one pass for each route's checks
  fusePreValidation(app);
  app.addSchema(generalSymbolSchema);
  app.addSchema(futuresSymbolSchema);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'perpdesk API', version: '1.0.0', description: API_DESCRIPTION },
      // relative: the service that serves this document, whatever its host and port
      servers: [{ url: '/', description: 'This service (http://127.0.0.1:PORT)' }],
      tags: [
        { name: 'market data', description: 'Public market data: symbols, time, klines, depth, prices' },
        { name: 'trading', description: 'Signed order placement, cancels, open orders, trades' },
        { name: 'positions', description: 'Signed current positions, take-profit/stop-loss, position history' },
        {
          name: 'account',
          description: 'Signed account summary, leverage, margin and position modes, paper wallet; browser login',
        },
        { name: 'bot', description: 'Bot orders: IP whitelist instead of signatures, no margin, never stored' },
        { name: 'admin', description: 'Loopback-only administration: paper accounts, bot whitelist' },
        { name: 'simulator', description: 'The simulated market: clock speed, pause, seed' },
        {
          name: 'replay',
          description:
            'Replay sessions of imported data: start and close them (live venue), control and report (replay venue)',
        },
        { name: 'streams', description: 'The WebSocket endpoint /ws' },
        {
          name: 'datasets',
          description:
            "Imported market data (Binance's public archive): catalogue, candles, trades; import and delete loopback only",
        },
        {
          name: 'binance',
          description:
            'The Binance USD-M compatible API under /binance (a translation layer over the routes above, for ccxt, freqtrade and ' +
            "python-binance): Binance's paths, parameters, answers, errors and signatures (X-MBX-APIKEY). docs/binance.md",
        },
      ],
      components: {
        securitySchemes: {
          [API_KEY_SCHEME]: {
            type: 'apiKey',
            in: 'header',
            name: 'X-API-KEY',
            description:
              'Your API key, in the X-API-KEY header of every signed route (the operations marked with this scheme). ' +
              'The key alone is not enough: the query also carries timestamp (wall-clock ms), optionally recv_window, ' +
              'and signature as its LAST parameter = lowercase hex HMAC-SHA256(secret, the query string before ' +
              "'&signature=' + the raw body). See Signed requests in the description above.",
          },
          [BINANCE_KEY_SCHEME]: {
            type: 'apiKey',
            in: 'header',
            name: 'X-MBX-APIKEY',
            description:
              'The API key of a Binance-compatible route (under /binance), as Binance: the X-MBX-APIKEY header. A ' +
              'signed one also carries timestamp, optionally recvWindow, and signature = hex HMAC-SHA256(secret, the ' +
              'query string and form body without signature) in its parameters; the user-stream routes take the ' +
              'key alone. docs/binance.md',
          },
        },
      },
    },
    // every operation gets an operationId and says what credentials it needs (openapi-operations.ts)
    // and the guards' answers (openapi-guards.ts)
    transformObject: (d) =>
      'openapiObject' in d ? addGuardAnswers(completeOperations(d.openapiObject)) : d.swaggerObject,
    refResolver: {
      buildLocalReference(json, _baseUri, _fragment, i) {
        return typeof json.$id === 'string' ? json.$id : `def-${i}`;
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  const venue = opts.venue;
  // before every other route: the upgrade dispatch serves the wsHandler of routes added after it
  await installWebSocket(app, { venue, auth });
  await app.register(symbolRoutes, { venue });
  await app.register(klinesRoutes, { venue });
  await app.register(timeRoutes, { venue });
  await app.register(logoRoutes, { venue });
  await app.register(depthRoutes, { venue });
  await app.register(priceRoutes, { venue });
  await app.register(insuranceRoutes, { venue });
  await app.register(tradeRoutes, { venue });
  await app.register(sessionRoutes, { venue, token: opts.loginToken, now: opts.now });
  await app.register(tpslRoutes, { venue });
  await app.register(adminRoutes, { venue, auth });
  await app.register(paperRoutes, { venue, auth });
  // a replay's clock is the replay's controls' (POST /api/v1/replay), not the simulator's route;
  // a venue without a market source (--no-sim) has the route for its clock
  if (venue.market === null || venue.market.kind === 'simulator')
    await app.register(simRoutes, { market: venue.market, clock: venue.clock, seed: venue.seed });
  else await app.register(replaySimRoutes);
  await app.register(replayRoutes, { replay: venue.replay, host: venue.replay === null ? opts.replays : undefined });
  if (opts.sweeps !== undefined) await app.register(sweepRoutes, { sweeps: opts.sweeps });
  await app.register(tradingSchemas);
  await app.register(orderRoutes, { venue });
  await app.register(conditionalOrderRoutes, { venue });
  await app.register(positionRoutes, { venue });
  await app.register(positionMarginRoutes, { venue });
  await app.register(accountRoutes, { venue });
  await app.register(botOrderRoutes, { venue });
  await app.register(datasetRoutes, { venue });
  await app.register(binanceApi, {
    prefix: '/binance',
    venue,
    auth,
    rateLimit: opts.rateLimit,
    heartbeat: opts.binanceHeartbeat,
    maxUnsentBytes: opts.binanceMaxUnsentBytes,
  });

  if (opts.uiDir && existsSync(opts.uiDir)) {
    await app.register(fastifyStatic, { root: opts.uiDir, prefix: '/', wildcard: false, index: ['index.html'] });
  } else {
    app.get('/', { schema: { hide: true } }, async (_req, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .send(
          '<!doctype html><title>perpdesk</title><p>The web UI is not built. Run <code>npm run build</code>, ' +
            'then start the service again. The API is at <a href="/docs">/docs</a>.</p>',
        ),
    );
  }
  return app;
}
