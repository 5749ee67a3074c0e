// Guards for what a web browser on this machine can be made to do against the local service.
//
// - DNS rebinding: a page of some site whose name is made to resolve to 127.0.0.1 is same-origin
//   with "its" server, which is then ours; its requests reach the loopback-only admin and
//   simulator routes and the bot routes (no signature). They carry that site's name in the Host
//   header, so while the service listens on loopback only the loopback names are accepted
//   (127.0.0.1, localhost, [::1], any port), parsed strictly: 403 / 2103 otherwise, also for a
//   malformed Host. A service bound elsewhere on purpose (--host 0.0.0.0, a LAN address) accepts
//   every Host from other machines, as they use its LAN name; a caller on this machine (a loopback
//   IP, which is what the rebound page's requests come from) must still name a loopback name, an IP
//   address or this machine's own name. (Until 2026-12-07 such a service accepted every Host from
//   everyone: a page rebound to 127.0.0.1 created accounts and put IPs on the bot whitelist.)
// - Cross-site WebSocket hijacking: WebSockets have no CORS, so a page of any site the user opens
//   may connect to ws://127.0.0.1:PORT/ws, and its connection comes from a loopback IP: the
//   loopback-only REPLAY controls and the `bot` stream (loopback is always on the bot whitelist)
//   would be that page's. A browser names the page's origin in `Origin` on every upgrade, so an
//   upgrade whose Origin is another site's is refused (403 / 2103, as a Host naming another site);
//   accepted: no Origin (a bot, not a browser), an origin on a loopback name (any port), or the
//   request's own Host (the screen served by this service, also bound on the LAN with --host).
// - Framing: no page of the service may be framed by another site (click-jacking of the trading
//   screen, whose browser login persists): every HTML answer says so (X-Frame-Options and CSP
//   frame-ancestors). JSON answers are left as they are.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import { isLoopbackIp } from '../accounts/whitelist.ts';
import { Errors } from '../../src-shared/errors.ts';
import { sendError, type RequestCheck } from './error-handler.ts';

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

/**
 * A WebSocket upgrade answered over HTTP instead (refused by a check of the onRequest pass, or
 * sent to a path that is no WebSocket endpoint: ws/upgrade.ts) owns a socket that Node has
 * detached from its HTTP parser: nothing else would ever close it, and server.close() would wait
 * for it forever. Close it once the answer is out. (An upgrade that succeeds is hijacked: its
 * answer never finishes.) Only upgrade requests pay for the listener.
 */
export function closeUpgradeAfterAnswer(req: FastifyRequest, reply: FastifyReply): void {
  if (req.headers.upgrade === undefined) return;
  reply.raw.once('finish', () => req.raw.socket?.destroy());
}

/**
 * Whether a Host names this machine as a browser here may: a loopback name, an IP address (a
 * rebound page's Host is its site's name, never an address), a `.localhost` name or the
 * machine's own name (which /etc/hosts often maps to 127.0.1.1).
 */
export function isThisMachineHost(host: string, machine: string = hostname()): boolean {
  const parsed = parseHost(host);
  if (parsed === null) return false;
  const name = parsed.name;
  if (LOOPBACK_NAMES.has(name) || name.startsWith('[') || isIP(name) === 4) return true;
  const own = machine.toLowerCase();
  return name.endsWith('.localhost') || name === own || name === own.split('.')[0];
}

/**
 * The DNS-rebinding check of the onRequest pass (app.ts). On loopback every request names a
 * loopback name; bound beyond loopback on purpose (`loopbackHostsOnly` false), only the callers
 * on this machine are held to a name of it (isThisMachineHost), the others name it as they like.
 */
export function hostCheck(opts: { loopbackHostsOnly: boolean }): RequestCheck {
  const allowed = opts.loopbackHostsOnly ? isLoopbackHost : (h: string) => isThisMachineHost(h);
  // Every request of a client names the same Host: the values found allowed are kept (the
  // check is a pure function of the value), so the strict parse runs once per value, not per
  // request. Bounded: a flood of distinct allowed values only falls back to parsing.
  const accepted = new Set<string>();
  return (req, reply) => {
    const host = req.headers.host;
    if (host === undefined || accepted.has(host)) return false;
    if (!opts.loopbackHostsOnly && !isLoopbackIp(req.ip)) return false;
    if (allowed(host)) {
      if (accepted.size < ACCEPTED_HOSTS_KEPT) accepted.add(host);
      return false;
    }
    sendError(
      reply,
      Errors.HOST_NOT_ALLOWED,
      `${Errors.HOST_NOT_ALLOWED.message}: '${String(host).slice(0, 80)}'; use http://127.0.0.1:PORT`,
    );
    return true;
  };
}

/**
 * True for an upgrade's Origin the service accepts (see the top of this file): none, a loopback
 * name (any port, http or https), or the request's own Host. `null` (a sandboxed or file page) and
 * anything unreadable are another site.
 */
export function isAcceptedOrigin(origin: string | undefined, host: string | undefined): boolean {
  if (origin === undefined) return true;
  const m = /^https?:\/\/([^/?#]+)$/i.exec(origin);
  if (m === null) return false;
  const parsed = parseHost(m[1]);
  if (parsed === null) return false;
  if (LOOPBACK_NAMES.has(parsed.name)) return true;
  return host !== undefined && m[1].toLowerCase() === host.toLowerCase();
}

/** The cross-site WebSocket check of the onRequest pass (app.ts): upgrades only; plain requests pass. */
export const originCheck: RequestCheck = (req, reply) => {
  if (req.headers.upgrade === undefined) return false;
  const origin = req.headers.origin;
  if (isAcceptedOrigin(origin, req.headers.host)) return false;
  sendError(
    reply,
    Errors.HOST_NOT_ALLOWED,
    `A WebSocket from a page of another site (Origin '${String(origin).slice(0, 80)}') is refused ` +
      '(cross-site WebSocket guard); bots send no Origin, the screen is served by this service',
  );
  return true;
};

/** The framing guard of the onSend pass (app.ts): every HTML answer refuses to be framed. */
export function refuseFraming(reply: FastifyReply): void {
  const type = reply.getHeader('content-type');
  if (typeof type === 'string' && type.startsWith('text/html')) {
    reply.header('x-frame-options', 'DENY');
    reply.header('content-security-policy', "frame-ancestors 'none'");
  }
}
