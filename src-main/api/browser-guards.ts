// Guards for what a web browser on this machine can be made to do against the local service.
//
// - DNS rebinding: a page of some site whose name is made to resolve to 127.0.0.1 is same-origin
//   with "its" server, which is then ours; its requests reach the loopback-only admin and
//   simulator routes and the bot routes (no signature). They carry that site's name in the Host
//   header, so while the service listens on loopback only the loopback names are accepted
//   (127.0.0.1, localhost, [::1], any port): 403 / 2103 otherwise. A service bound elsewhere on
//   purpose (--host) accepts every Host, as its callers use its LAN name.
// - Framing: no page of the service may be framed by another site (click-jacking of the trading
//   screen, whose browser login persists): every HTML answer says so (X-Frame-Options and CSP
//   frame-ancestors). JSON answers are left as they are.
import type { FastifyInstance } from 'fastify';
import { Errors } from '../../src-shared/errors.ts';
import { sendError } from './error-handler.ts';

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** The host name of a Host header value, without the port ("[::1]:80" -> "[::1]"). */
export function hostName(host: string): string {
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end < 0 ? host : host.slice(0, end + 1);
  }
  const colon = host.indexOf(':');
  return (colon < 0 ? host : host.slice(0, colon)).toLowerCase();
}

export function isLoopbackHost(host: string | undefined): boolean {
  // HTTP/1.0 clients may send none; a browser always does
  return host === undefined || LOOPBACK_NAMES.has(hostName(host));
}

export function installBrowserGuards(app: FastifyInstance, opts: { loopbackHostsOnly: boolean }): void {
  // A WebSocket upgrade answered over HTTP instead (refused here, before @fastify/websocket's
  // own hooks ran) owns a socket that Node has detached from its HTTP parser: nothing else
  // would ever close it, and server.close() would wait for it forever. Close it once the
  // answer is out. (An upgrade that succeeds is hijacked and never reaches onResponse.)
  app.addHook('onResponse', (req, _reply, done) => {
    if (req.headers.upgrade !== undefined) req.raw.socket?.destroy();
    done();
  });
  if (opts.loopbackHostsOnly) {
    app.addHook('onRequest', (req, reply, done) => {
      const host = req.headers.host;
      if (isLoopbackHost(host)) return done();
      sendError(reply, Errors.HOST_NOT_ALLOWED, `${Errors.HOST_NOT_ALLOWED.message}: '${String(host).slice(0, 80)}'; use http://127.0.0.1:PORT`);
    });
  }
  app.addHook('onSend', (_req, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('text/html')) {
      reply.header('x-frame-options', 'DENY');
      reply.header('content-security-policy', "frame-ancestors 'none'");
    }
    done(null, payload);
  });
}
