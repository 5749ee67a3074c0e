// Whether a TCP port can be listened on right now: a short listen and close on the same host
// the service will use. It is a hint, not a reservation: another process may take the port in
// between, so the caller still handles EADDRINUSE from the real listen.
import { createServer } from 'node:net';

export function isPortFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen({ host, port, exclusive: true }, () => {
      srv.close(() => resolve(true));
    });
  });
}

/**
 * Why a listen on host:port fails right now, or null when it would not: EADDRINUSE (taken),
 * EADDRNOTAVAIL (an address not of this machine), EACCES (a port this user may not take),
 * ENOTFOUND (a name that resolves to nothing). Port 0 checks the host alone.
 */
export function listenProblem(host: string, port: number): Promise<NodeJS.ErrnoException | null> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', (err: NodeJS.ErrnoException) => resolve(err));
    srv.listen({ host, port, exclusive: true }, () => {
      srv.close(() => resolve(null));
    });
  });
}
