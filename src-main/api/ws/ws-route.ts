// The /ws endpoint: the upgrade dispatch (upgrade.ts) on the root instance, the route, and the
// hub (hub.ts holds the protocol). Call installWebSocket before any other route is registered:
// the dispatch only serves the wsHandler of routes added after it.
//
// Limits: a client message may be at most MAX_MESSAGE_BYTES (64 KiB; a longer one closes the
// connection with 1009, by `ws`); no per-message compression. A plain GET /ws (no upgrade)
// answers the envelope error 1000. On app close (preClose) the hub, and every other hub of the
// upgrade server's connections (the Binance streams, registered with wsShutdown), stop their timers
// and close every connection with 1001 "server shutting down"; connections that have not finished
// the close handshake within CLOSE_GRACE_MS are terminated, so shutdown never waits on a slow peer.
import type { FastifyInstance } from 'fastify';
import { Errors } from '../../../src-shared/errors.ts';
import { ACCOUNT_EVENT_KINDS } from '../../trading/events.ts';
import type { Venue } from '../../services/venue.ts';
import type { AuthServices } from '../auth.ts';
import { errorEnvelopeSchema } from '../envelope.ts';
import { sendError } from '../error-handler.ts';
import { STREAM_PATTERNS } from './channels.ts';
import { DEFAULT_HUB_LIMITS, Hub, METHODS, type HubLimits } from './hub.ts';
import type { KlineSource } from './subscriptions.ts';
import { LOGIN_EVENT_KINDS } from './login.ts';
import { installUpgrades } from './upgrade.ts';

const MAX_MESSAGE_BYTES = 64 * 1024;
const CLOSE_GRACE_MS = 1000;

declare module 'fastify' {
  interface FastifyInstance {
    /** The WebSocket hub of /ws (stats, limits, test hooks). */
    wsHub: Hub;
    /**
     * Registers the close of another hub of upgraded connections (the Binance streams): run at the
     * app's close with the /ws hub's, before the wait for their clients to finish closing.
     */
    wsShutdown: (close: () => void) => void;
  }
}

export interface WebSocketOptions {
  venue: Venue;
  auth: AuthServices;
  limits?: Partial<HubLimits>;
  klines?: KlineSource;
}

const USER_KINDS = Object.entries({ ...ACCOUNT_EVENT_KINDS, ...LOGIN_EVENT_KINDS })
  .map(([kind, data]) => `  - \`${kind}\`: ${data}`)
  .join('\n');

const DESCRIPTION = `
WebSocket endpoint (connect with \`Upgrade: websocket\`; a plain GET answers error 1000).

Client messages are JSON text: \`{"method":"SUBSCRIBE","params":["depth_update@BTCUSDT"],"id":1}\`.
Methods: ${METHODS.join(', ')}. Answers: \`{"id":1,"result":...}\` or \`{"id":1,"error":{"code","message"}}\`
(id null when the message could not be read). Pushes: \`{"stream":NAME,"data":{...}}\`.

Streams (${STREAM_PATTERNS}):
- \`depth@{symbol},{level}\` (level 5, 10, 20, 50, 100), every 200 ms when the book changed, and once to each new
  subscriber: \`{e:"depth",E,s,u,bids,asks}\`, u = update id after the last change included.
- \`depth_update@{symbol}\`, every 100 ms when the book changed: \`{e:"depthUpdate",E,s,U,u,pu,b,a}\`; U..u are the
  update ids in the event (contiguous: each U is the previous u + 1), pu = U - 1 = the previous event's u,
  b/a the final quantity of each changed level in the window, best first; a removed level's quantity is zero written
  at the pair's quantity precision (e.g. "0.000" on BTCUSDT, not "0"): compare it as a number.
- \`trade@{symbol}\`, every 100 ms when trades happened: data is an ARRAY, oldest first, of
  \`{e:"trade",E,s,t,p,q,T,S,m}\` (t trade id, T trade time, S taker side 1 buy / 2 sell, m buyer is maker).
- \`price@{symbol}\`, every 1 s: \`{e:"price",E,s,i,m,l,r,T}\` (index, mark, last price, funding rate, next funding time).
- \`kline@{symbol},{interval}\`: the current candle \`{e:"kline",E,s,i,k}\` (k: the 12-field candle array of
  /fapi/v1/klines) on change, at most every 250 ms.
- \`user\` (after LOGIN): \`{kind, data}\` on every event of the logged-in account, kind one of:
${USER_KINDS}
- \`bot\` (caller IP on the bot whitelist): \`{kind: "order", data}\`, the order records of cached bot orders; and
  a last \`{kind: "whitelist_removed", data: {code: 2101, message}}\` when the connection's IP is taken off the
  whitelist (PUT /admin/v1/whitelist): the connection then leaves the \`bot\` stream.
- \`replay\` (replay venues): the replay status of GET /api/v1/replay, on subscribe and on every change.

E is market time, ms. LOGIN params: \`{"api_key","timestamp","recv_window"?,"signature"}\`, signature =
lowercase hex HMAC-SHA256(secret, "api_key={api_key}&timestamp={timestamp}" + "&recv_window={recv_window}" when sent),
time rules as signed REST (wall-clock ms); timestamp and recv_window are JSON integers, api_key and signature strings
(else 1001), and no other key is allowed (1003), as in a REST body. Errors: 1004 not JSON; 1000 malformed message (not
an object, bad id, bad params, binary frame); 1003 unknown LOGIN parameter; 1105 unknown method; 1100 unknown channel;
1101 unknown symbol; 1001 bad depth level / interval / name; 1108 \`replay\` on the live venue; 2101 \`bot\` from an IP
off the whitelist;
4290 more than ${DEFAULT_HUB_LIMITS.maxSubscriptions} streams on a connection; 2001-2008 LOGIN failures (2001 also:
'user' before LOGIN); 5001 kline streams unavailable; 5000 internal error: a request the service failed to serve,
answered with its id once the connection is as it was before it (nothing of the request applied; it may be sent again).
A connection that cannot be put back so, or whose answer cannot be written, is closed with 1011 instead (reconnect and
resubscribe).
Connections: server ping every ${DEFAULT_HUB_LIMITS.pingIntervalMs / 1000} s; closed with 1001 after
${DEFAULT_HUB_LIMITS.idleTimeoutMs / 1000} s without any client message or pong; closed with 1008 when more than
${DEFAULT_HUB_LIMITS.maxBufferedBytes / 1024 / 1024} MiB of pushes and answers are unsent (slow consumer) or after more than
${DEFAULT_HUB_LIMITS.maxMessagesPerSecond} client messages in one second; messages over ${MAX_MESSAGE_BYTES / 1024} KiB
close it with 1009; a push that could not be written to it (a fault of the service's) closes it with 1011, the other
subscribers still get it.
`;

export async function installWebSocket(app: FastifyInstance, opts: WebSocketOptions): Promise<Hub> {
  const { venue } = opts;
  // Like the klines routes, the candle service is looked up when needed: the venue may attach
  // it after the app is built.
  const klines = opts.klines ?? ((): KlineSource | undefined => (venue as Venue & { klines?: KlineSource }).klines);
  const hub = new Hub({
    venue,
    accounts: opts.auth.accounts,
    whitelist: opts.auth.whitelist,
    now: opts.auth.now,
    limits: opts.limits,
    klines,
  });
  const wss = installUpgrades(app, {
    options: { maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false },
    // Resets and aborted handshakes are routine for a WebSocket server: drop the socket quietly.
    onSocketError: (socket) => socket.terminate(),
  });
  const closers: Array<() => void> = [];
  app.addHook('preClose', async () => {
    hub.close();
    for (const close of closers) {
      try {
        close();
      } catch (err) {
        app.log.error({ err }, 'a WebSocket hub failed to close; its clients are terminated after the grace');
      }
    }
    const deadline = Date.now() + CLOSE_GRACE_MS;
    while (wss.clients.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    for (const c of wss.clients) c.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  });
  app.decorate('wsHub', hub);
  app.decorate('wsShutdown', (close: () => void) => void closers.push(close));
  app.route({
    method: 'GET',
    url: '/ws',
    schema: {
      tags: ['streams'],
      summary: 'WebSocket streams and requests',
      description: DESCRIPTION,
      // the upgrade's answer (101) and the WebSocket server's own refusal of a malformed handshake
      // (text/html) are answers of this path too, as the Binance streams document theirs
      response: {
        101: { description: 'Switching Protocols: the WebSocket connection is open' },
        400: {
          description:
            'Not a WebSocket upgrade: a plain GET answers 1000 (application/json); a malformed handshake ' +
            '(missing or invalid Sec-WebSocket-Key or Sec-WebSocket-Version) is refused by the WebSocket server ' +
            'with a text/html reason',
          content: {
            'application/json': { schema: { ...errorEnvelopeSchema, description: 'A plain GET (1000)' } },
            'text/html': { schema: { type: 'string', description: "The WebSocket server's reason" } },
          },
        },
      },
    },
    handler: async (_req, reply) =>
      sendError(
        reply,
        Errors.BAD_REQUEST,
        'GET /ws is the WebSocket endpoint: connect with a WebSocket client (Upgrade: websocket)',
      ),
    wsHandler: (socket, req) => hub.attach(socket, req.ip, req.raw.socket),
  });
  return hub;
}
