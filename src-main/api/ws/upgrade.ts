// WebSocket upgrades, dispatched through Fastify's router to the routes that declare a
// `wsHandler` (the /ws endpoint, the Binance dialect's stream endpoints), with nothing added to
// any other route.
//
// What it keeps true: an upgrade request runs the same onRequest checks as any request (Host,
// per-IP limit, ...) and is upgraded only by a route with a wsHandler; anywhere else (another
// route, a 404, a refused check) it gets an HTTP answer and its socket is closed after it
// (browser-guards.ts closeUpgradeAfterAnswer). Registering @fastify/websocket did the same
// dispatch, but at the root it also added an onRequest hook, an onResponse hook and a handler
// wrapper to every route, which every order placement paid for. Its types (`wsHandler`,
// `websocketServer`) are still the ones declared by @fastify/websocket.
import type {} from '@fastify/websocket';
import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { WebSocketServer, type ServerOptions, type WebSocket } from 'ws';

const UPGRADE_SOCKET = Symbol('upgradeSocket');
const UPGRADE_HEAD = Symbol('upgradeHead');

interface UpgradeRequest extends IncomingMessage {
  [UPGRADE_SOCKET]?: Duplex;
  [UPGRADE_HEAD]?: Buffer;
}

type WsHandler = (this: FastifyInstance, socket: WebSocket, req: FastifyRequest) => unknown;
type HttpHandler = (this: FastifyInstance, req: FastifyRequest, reply: FastifyReply) => unknown;

function destroyOnError(this: Duplex): void {
  this.destroy();
}

/**
 * Installs the dispatch on `app` (the root instance, before any route with a wsHandler is added)
 * and returns the WebSocket server (also `app.websocketServer`). `onSocketError` sees errors of
 * an established WebSocket and what its wsHandler throws. Closing the server is the caller's
 * (a preClose hook): this only stops taking upgrades when the app closes.
 */
export function installUpgrades(
  app: FastifyInstance,
  opts: { options: Omit<ServerOptions, 'noServer' | 'server' | 'port'>; onSocketError: (socket: WebSocket) => void },
): WebSocketServer {
  const wss = new WebSocketServer({ ...opts.options, noServer: true });
  // (typed by @fastify/websocket as its own copy of the ws typings: the same class)
  app.decorate('websocketServer', wss as unknown as FastifyInstance['websocketServer']);

  app.addHook('onRoute', (route) => {
    const wsHandler = (route as { wsHandler?: WsHandler }).wsHandler;
    if (typeof wsHandler !== 'function') return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    // the HEAD twin Fastify adds for a GET route cannot be upgraded: plain HTTP
    if (methods.every((m) => m === 'HEAD')) return;
    if (methods.some((m) => m !== 'GET' && m !== 'HEAD')) throw new Error('a wsHandler route must be GET');
    const handler = route.handler as HttpHandler;
    route.handler = function (this: FastifyInstance, req: FastifyRequest, reply: FastifyReply) {
      const raw = req.raw as UpgradeRequest;
      const socket = raw[UPGRADE_SOCKET];
      if (socket === undefined) return handler.call(this, req, reply);
      reply.hijack();
      // `ws` puts its own error listener on the socket as it takes it over
      socket.removeListener('error', destroyOnError);
      wss.handleUpgrade(raw, socket, raw[UPGRADE_HEAD] ?? Buffer.alloc(0), (ws) => {
        wss.emit('connection', ws, raw);
        ws.on('error', () => opts.onSocketError(ws));
        try {
          const r = wsHandler.call(this, ws, req);
          if (r instanceof Promise) r.catch(() => opts.onSocketError(ws));
        } catch {
          opts.onSocketError(ws);
        }
      });
    };
  });

  const onUpgrade = (raw: UpgradeRequest, socket: Duplex, head: Buffer): void => {
    // Node takes its own error listener off before 'upgrade'; the socket stays guarded until
    // `ws` takes it over (or the HTTP answer's finish closes it)
    socket.on('error', destroyOnError);
    raw[UPGRADE_SOCKET] = socket;
    raw[UPGRADE_HEAD] = head;
    const res = new ServerResponse(raw);
    try {
      res.assignSocket(socket as Parameters<ServerResponse['assignSocket']>[0]);
      app.routing(raw, res);
    } catch (err) {
      app.log.warn({ err }, 'websocket upgrade failed');
      socket.destroy();
    }
  };
  app.server.on('upgrade', onUpgrade);
  app.addHook('onClose', (_instance, done) => {
    app.server.removeListener('upgrade', onUpgrade);
    done();
  });
  return wss;
}
