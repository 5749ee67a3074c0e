// The coordinator's --pack-url: an HTTP server on this machine from which queue workers without a
// sweep's dataset pack fetch it (pack-cache.ts). Its URL is checked and its port bound when the
// queue runner connects, before the sweep is planned or recorded: a URL workers could not fetch
// from, or a port in use, is a usage error (one line, exit 2), not a failure once the sweep runs.
import { createReadStream, statSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { PackRef } from './pack.ts';
import { QueueError } from './queue-error.ts';

/** http://HOST:PORT, the port written out, nothing after it but a slash. */
const PACK_URL = /^http:\/\/(\[[0-9A-Fa-f:.]+\]|[^\s/:@?#[\]]+):(\d{1,5})\/?$/;

/** The --pack-url's host (as listen takes it) and port; a QueueError for any other URL. */
function packAddress(url: string): { host: string; port: number } {
  const m = PACK_URL.exec(url);
  const port = m === null ? 0 : Number(m[2]);
  if (m === null || port < 1 || port > 65_535)
    throw new QueueError(
      `--pack-url wants http://HOST:PORT (an address of this machine that the workers reach, and a free port), got '${url}'`,
    );
  return { host: m[1].replace(/^\[|\]$/g, ''), port };
}

/** Why listening at the --pack-url failed, in the user's words. */
function listenError(url: string, host: string, port: number, err: NodeJS.ErrnoException): QueueError {
  const why =
    err.code === 'EADDRINUSE'
      ? `port ${port} is in use on ${host}`
      : err.code === 'EADDRNOTAVAIL'
        ? `${host} is not an address of this machine`
        : err.code === 'EACCES'
          ? `not allowed to listen on port ${port}`
          : err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN'
            ? `no address found for ${host}`
            : err.message;
  return new QueueError(`--pack-url ${url}: cannot serve the data there: ${why}`);
}

/** The pack server, listening from the runner's connect to its stop. */
export class PackServer {
  private readonly server: Server;
  private readonly base: string;
  private pack: PackRef | null = null;

  private constructor(server: Server, base: string) {
    this.server = server;
    this.base = base;
  }

  /** Checks the URL (syntax first, before Redis is reached) and answers a function that binds it. */
  static check(url: string): () => Promise<PackServer> {
    const { host, port } = packAddress(url);
    return async () => {
      const s = new PackServer(createServer(), new URL(url).origin);
      s.server.on('request', (req, res) => s.answer(req.url, res));
      await new Promise<void>((resolve, reject) => {
        s.server.once('error', (err) => reject(listenError(url, host, port, err)));
        s.server.listen(port, host, resolve);
      });
      return s;
    };
  }

  private path(pack: PackRef): string {
    return `/packs/${pack.sha256}.db`;
  }

  private answer(url: string | undefined, res: ServerResponse): void {
    const pack = this.pack;
    if (pack === null || url !== this.path(pack)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': statSync(pack.path).size });
    createReadStream(pack.path).pipe(res);
  }

  /** Serves this pack from now on: its reference with the URL workers fetch it at. */
  serve(pack: PackRef): PackRef {
    this.pack = pack;
    return { ...pack, url: `${this.base}${this.path(pack)}` };
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
