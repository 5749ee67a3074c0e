// The facade's WebSocket endpoints as HTTP routes (hub.ts keeps the connections): each stream
// path of PATHS, bare and with a `/<streams>` tail, upgraded by upgrade.ts, and what the OpenAPI
// document says they answer. An upgrade is 101; what refuses it is an HTTP answer: a plain GET
// (no `Upgrade: websocket`) 400 / -1000, a malformed handshake (a missing or invalid
// Sec-WebSocket-Key or version: `ws`'s refusal) 400 with a text/html reason, a Host of another
// site 403 / -1002 (browser-guards.ts), a URL over 8192 characters 414 / -1000 and headers over
// 16 KiB 431 / -1000 (refused before any route: error-handler.ts), the facade's request-rate limit and Binance's 300
// connections every 5 minutes from an IP (while the rate limits are on) 429 / -1003. After the
// upgrade a refused connection is closed with a code: 1008 for a private path without a
// listenKey or a listenKey that does not exist, for more than 10 messages a second, and for more than
// 4 MiB unsent (a client that stopped reading: slow-consumer.ts); 1009 for a
// frame over 64 KiB; 1011 when the hub fails to serve a request (the connection gets back the
// streams it had; no other connection is touched) or to send it an event (the others still get
// it); 1001 after 10 minutes without a pong (pinged every 3 minutes, as Binance: hub.ts); a
// malformed request is an error message, the connection staying open.
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { FixedWindowLimiter, type WindowLimit } from '../../rate-limit.ts';
import type { HeartbeatLimits } from '../../ws/heartbeat.ts';
import type { BinanceContext } from '../context.ts';
import { ERROR } from '../response-fields.ts';
import { BinanceStreams } from './hub.ts';
import { PATHS } from './requests.ts';

/** Binance's limit of WebSocket connections an IP opens: 300 every 5 minutes (USD-M streams, "general info"). */
const CONNECTIONS: WindowLimit = { max: 300, windowMs: 5 * 60_000 };

const DESCRIPTION =
  'Binance-layout WebSocket stream endpoint (reference a.4; docs/binance.md): connect with `Upgrade: websocket`. ' +
  'Raw paths (`ws`) send bare events, combined ones (`stream`) `{"stream","data"}`; stream names come in the path ' +
  '(`/<a>/<b>`) or `?streams=a/b`, a user stream is `?listenKey=` (`&events=A/B` to choose its events) or a ' +
  'SUBSCRIBE of the listenKey on an open connection (its UNSUBSCRIBE, a DELETE or expiry ends it alone). Requests ' +
  '(JSON text): SUBSCRIBE, UNSUBSCRIBE, LIST_SUBSCRIPTIONS, SET_PROPERTY, GET_PROPERTY, answered `{"result","id"}` ' +
  'or, for a malformed one, `{"error":{"code","msg"},"id"}` with Binance codes 0-3 (the connection stays open); a ' +
  "SUBSCRIBE that would take the connection past 1024 streams is code 2 and takes none. An IP's upgrades past 300 " +
  'every 5 minutes are 429 (while the rate limits are on). ' +
  'Closed after the upgrade with 1008 when the path is private and has no listenKey, when the listenKey does not ' +
  'exist, when the URL names more than 1024 streams, after more than 10 client messages in a second, or with more ' +
  'than 4 MiB unsent (slow consumer: a client that stopped reading); with 1009 for a frame over 64 KiB; with 1011 when ' +
  'the service fails to serve a request or to send an event (that connection only). As on Binance, the service ' +
  'pings every connection every 3 minutes and closes it with 1001 after 10 minutes without a pong.';

const RESPONSES = {
  101: { description: 'Switching Protocols: the WebSocket connection is open' },
  400: {
    description:
      'Not a WebSocket upgrade: a plain GET answers -1000 (application/json); a malformed handshake (missing or ' +
      'invalid Sec-WebSocket-Key or Sec-WebSocket-Version) is refused by the WebSocket server with a text/html reason',
    content: {
      'application/json': { schema: ERROR },
      'text/html': { schema: { type: 'string', description: "The WebSocket server's reason" } },
    },
  },
  403: { ...ERROR, description: 'The Host header names another site (DNS rebinding guard): -1002' },
  414: { ...ERROR, description: 'The request URL is over 8192 characters (refused before any route): -1000' },
  431: {
    ...ERROR,
    description: "The request line and headers are over Node's 16 KiB (refused before any route): -1000",
  },
  503: {
    ...ERROR,
    description: 'The service is shutting down: an upgrade that comes in during its close is not run: -1001',
  },
  429: {
    ...ERROR,
    description:
      "Over the facade's request-rate limit, or over Binance's 300 connection attempts every 5 minutes from one IP: " +
      '-1003, with Retry-After',
  },
};

/**
 * The WebSocket endpoints; a plain GET on one answers -1000. With `limitConnections` (the facade's
 * rate limits are on) an IP's upgrades past Binance's 300 every 5 minutes answer 429 / -1003.
 * `heartbeat`: other ping and pong periods than Binance's, `maxUnsent` another slow-consumer bound (tests).
 */
export function registerStreams(
  app: FastifyInstance,
  ctx: BinanceContext,
  limitConnections: boolean,
  heartbeat?: Partial<HeartbeatLimits>,
  maxUnsent?: number,
): void {
  const streams = new BinanceStreams(
    ctx,
    (err, what) => app.log.error({ err }, `Binance stream hub: ${what}`),
    heartbeat,
    maxUnsent,
  );
  const onRequest = limitConnections ? connectionLimit(ctx.auth.now) : undefined;
  // closed with /ws's hub, before the upgrade server waits for its clients (ws/ws-route.ts): its
  // connections get 1001 "server shutting down" as /ws's do, not a reset when the grace ends
  app.wsShutdown(() => streams.close());
  for (const p of PATHS) {
    for (const url of [p, `${p}/*`]) {
      app.route({
        method: 'GET',
        url,
        schema: {
          tags: ['binance'],
          summary: `GET ${p}${url === p ? '' : '/{streams}'} (Binance USD-M WebSocket streams)`,
          description: DESCRIPTION,
          // no X-MBX-APIKEY: a market stream is public, a user stream's listenKey (query or path) is its credential
          security: [],
          response: RESPONSES,
        },
        config: { swaggerTransform: url === p ? undefined : namedTail },
        ...(onRequest === undefined ? {} : { onRequest }),
        handler: async (_req, reply) =>
          reply.code(400).send({ code: -1000, msg: `${p} is a WebSocket endpoint: connect with Upgrade: websocket.` }),
        wsHandler: (socket, req) => streams.attach(socket, req),
      });
    }
  }
}

/**
 * How the OpenAPI document shows a `/*` endpoint: the wildcard as a named path parameter, `{streams}`
 * (a template parameter's name must be a word, so `{*}` is no valid OpenAPI path).
 */
function namedTail({ schema, url }: { schema?: object; url: string }): { schema: object; url: string } {
  const params = {
    type: 'object',
    properties: {
      streams: {
        type: 'string',
        description: "Stream names joined by '/' (btcusdt@depth/btcusdt@aggTrade), or a listen key",
      },
    },
    required: ['streams'],
  };
  return { schema: { ...schema, params }, url: url.replace(/\*$/, ':streams') };
}

/** Counts each upgrade (an attempt, whatever comes of it) by IP; the 301st in 5 minutes is 429 / -1003. */
function connectionLimit(now: () => number): onRequestHookHandler {
  const attempts = new FixedWindowLimiter(CONNECTIONS, now);
  return (req, reply, done) => {
    if (req.headers.upgrade?.toLowerCase() !== 'websocket') return done();
    const wait = attempts.hit(req.ip);
    if (wait === 0) return done();
    reply
      .header('retry-after', String(Math.ceil(wait / 1000)))
      .code(429)
      .type('application/json; charset=utf-8')
      .send({
        code: -1003,
        msg: `Too many connection attempts: at most ${CONNECTIONS.max} WebSocket connections every 5 minutes per IP.`,
      });
  };
}
