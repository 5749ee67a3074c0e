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
 * Whether a listen on the port fails because it is taken (EADDRINUSE) right now; any other failure
 * (an address not on this machine, a port the user may not take) is left to the real listen to say.
 */
export function isPortTaken(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'EADDRINUSE'));
    srv.listen({ host, port, exclusive: true }, () => {
      srv.close(() => resolve(false));
    });
  });
}
