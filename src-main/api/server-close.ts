// Closing the service's HTTP server without waiting on connections that would hold the close.
// Node's server.close() stops accepting and waits for every connection to end. Two kinds never
// end by themselves soon:
//   - a keep-alive connection whose request was under way when the close began is not idle
//     then, so Node leaves it open for its keep-alive timeout (72 s) after the answer: the
//     connections are swept every 25 ms while the close runs, each closed once it is idle;
//   - a connection that has sent nothing yet (a browser opens spare ones to an origin it has
//     used, and keeps them after it navigated away) is neither idle nor busy to Node: the close
//     waited for its headers timeout, 60 s and up to 30 s more (closing a replay from its
//     dialog after "Back to live" took a minute, or more than the e2e's 15 s). It is destroyed.
// What is still open after GRACE_MS (a request that takes that long to answer) is closed.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** How long a request under way when the close began has to be answered, ms. */
const GRACE_MS = 2000;

/**
 * Follows `server`'s connections from now on (call it before it listens); answers the function
 * that closes it: `close` (Fastify's, which runs its onClose hooks and then the server's close)
 * with the connections above closed meanwhile.
 */
export function serverCloser(server: Server): (close: () => Promise<void>) => Promise<void> {
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  return async (close) => {
    const sweep = (): void => {
      server.closeIdleConnections();
      for (const s of sockets) if (s.bytesRead === 0) s.destroy();
    };
    const sweeping = setInterval(sweep, 25);
    const grace = setTimeout(() => server.closeAllConnections(), GRACE_MS);
    try {
      const closed = close();
      sweep();
      await closed;
    } finally {
      clearInterval(sweeping);
      clearTimeout(grace);
    }
  };
}
