// Guards for what a web browser on this machine can be made to do against the local service.
//
// - DNS rebinding: a page of some site whose name is made to resolve to 127.0.0.1 is same-origin
//   with "its" server, which is then ours; its requests reach the loopback-only admin and
//   simulator routes and the bot routes (no signature). They carry that site's name in the Host
//   header, so while the service listens on loopback only the loopback names are accepted
//   (127.0.0.1, localhost, [::1], any port), parsed strictly: 403 / 2103 otherwise, also for a
//   malformed Host. A service bound elsewhere on purpose (--host) accepts every Host, as its
//   callers use its LAN name.
// - Framing: no page of the service may be framed by another site (click-jacking of the trading
//   screen, whose browser login persists): every HTML answer says so (X-Frame-Options and CSP
//   frame-ancestors). JSON answers are left as they are.
import type { FastifyInstance } from 'fastify';
import { Errors } from '../../src-shared/errors.ts';
import { sendError } from './error-handler.ts';

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);
/** How many distinct accepted Host values the guard remembers. */
const ACCEPTED_HOSTS_KEPT = 64;

/**
 * A Host value parsed strictly (RFC 9110 / RFC 3986: `host [":" port]`): an IPv6 literal in
 * brackets, else a name or IPv4 made of letters, digits, '.' and '-'; the port, when present,
 * 1 to 5 digits and at most 65535. null for anything else, e.g. `127.0.0.1:80.evil.example`
 * or `[::1].evil.example`, which a split at the first ':' or ']' would take for loopback.
 */
function parseHost(host: string): { name: string; port: number | null } | null {
  const m = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(host);
  if (m === null) return null;
  const port = m[2] === undefined ? null : Number(m[2]);
  if (port !== null && port > 65535) return null;
  return { name: m[1].toLowerCase(), port };
}

/** The host name of a Host header value, without the port ("[::1]:80" -> "[::1]"); null when malformed. */
export function hostName(host: string): string | null {
  return parseHost(host)?.name ?? null;
}

export function isLoopbackHost(host: string | undefined): boolean {
  // HTTP/1.0 clients may send none; a browser always does
  if (host === undefined) return true;
  const name = hostName(host);
  return name !== null && LOOPBACK_NAMES.has(name);
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
    // Every request of a client names the same Host: the values found loopback are kept (the
    // check is a pure function of the value), so the strict parse runs once per value, not per
    // request. Bounded: a flood of distinct loopback values only falls back to parsing.
    const accepted = new Set<string>();
    app.addHook('onRequest', (req, reply, done) => {
      const host = req.headers.host;
      if (host === undefined || accepted.has(host)) return done();
      if (isLoopbackHost(host)) {
        if (accepted.size < ACCEPTED_HOSTS_KEPT) accepted.add(host);
        return done();
      }
      sendError(
        reply,
        Errors.HOST_NOT_ALLOWED,
        `${Errors.HOST_NOT_ALLOWED.message}: '${String(host).slice(0, 80)}'; use http://127.0.0.1:PORT`,
      );
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
