// Closing the service's HTTP server without waiting on connections that would hold the close,
// and without cutting a client in the middle of a burst. Node's server.close() stops accepting
// and waits for every connection to end. Two kinds never end by themselves soon:
//   - a keep-alive connection whose request was under way when the close began is not idle
//     then, so Node leaves it open for its keep-alive timeout (72 s) after the answer;
//   - a connection that has sent nothing yet (a browser opens spare ones to an origin it has
//     used, and keeps them after it navigated away) is neither idle nor busy to Node: the close
//     waited for its headers timeout, 60 s and up to 30 s more (closing a replay from its
//     dialog after "Back to live" took a minute, or more than the e2e's 15 s). It is destroyed.
// The connections are swept every 25 ms while the close runs, and a keep-alive connection is
// closed once it has gone IDLE_MS without a request: a bot sends its next order on it as soon
// as its answer is in, and a connection closed under that request answers it with a reset,
// leaving the bot unsure whether its order went in. So it gets an answer instead (the refusal
// of a request during the close, app.ts: not run, with `Connection: close`; an answer under way
// says `Connection: close` too), and its reconnect is refused. Before, Node's server.close()
// and the sweep closed every idle connection at once: a SIGTERM under a load of orders reset
// one request of most busy connections (ECONNRESET, "other side closed").
// Nothing of this runs before the close: no per-request work (the order routes' cost).
// What is still open after GRACE_MS (a request that takes that long to answer) is closed.
// Upgraded connections (WebSockets) are not the HTTP server's any more: their hubs close them.
import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** How long a request under way when the close began has to be answered, ms. */
const GRACE_MS = 2000;
/** How long a keep-alive connection must go without a request before the close ends it, ms. */
const IDLE_MS = 300;

/** The answer a connection is writing now (Node's own link from the socket), if any. */
function answerOf(s: Socket): ServerResponse | undefined {
  return (s as Socket & { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;
}

/**
 * Follows `server`'s connections from now on (call it before it listens); answers the function
 * that closes it: `close` (Fastify's, which runs its onClose hooks and then the server's close)
 * with the connections above closed meanwhile.
 */
export function serverCloser(server: Server): (close: () => Promise<void>) => Promise<void> {
  const sockets = new Set<Socket>();
  const upgraded = new WeakSet<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  server.on('upgrade', (_req: unknown, s: Socket) => upgraded.add(s));
  return async (close) => {
    // each connection's bytes read when last seen busy or reading, and when
    const seen = new Map<Socket, { read: number; at: number }>();
    for (const s of sockets) {
      const res = answerOf(s);
      // an answer under way ends its connection: the client's next request goes to a new one
      if (res !== undefined && !res.headersSent) res.shouldKeepAlive = false;
    }
    const sweep = (): void => {
      const now = performance.now();
      for (const s of sockets) {
        if (upgraded.has(s)) continue;
        if (s.bytesRead === 0) {
          s.destroy();
          continue;
        }
        const mark = seen.get(s);
        if (answerOf(s) !== undefined || mark === undefined || mark.read !== s.bytesRead)
          seen.set(s, { read: s.bytesRead, at: now });
        else if (now - mark.at >= IDLE_MS) s.destroy();
      }
    };
    // server.close() closes every idle connection at once: here they get IDLE_MS of quiet first
    const closeIdle = Object.getOwnPropertyDescriptor(server, 'closeIdleConnections');
    server.closeIdleConnections = sweep;
    const sweeping = setInterval(sweep, 25);
    const grace = setTimeout(() => server.closeAllConnections(), GRACE_MS);
    try {
      const closed = close();
      sweep();
      await closed;
    } finally {
      clearInterval(sweeping);
      clearTimeout(grace);
      if (closeIdle === undefined) delete (server as { closeIdleConnections?: unknown }).closeIdleConnections;
      else Object.defineProperty(server, 'closeIdleConnections', closeIdle);
    }
  };
}
