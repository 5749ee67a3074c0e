// A local archive server for the download tests (never the internet): files under a folder in
// the archive's own path layout, on 127.0.0.1, with Range requests answered as Binance's CDN
// does (206 and Content-Range). Each test may take a request over before it is answered.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parseKinds, planDownload } from '../../src-main/data/download.ts';

export interface ArchiveRequest {
  req: IncomingMessage;
  res: ServerResponse;
  url: string;
  /** the file asked for, whole */
  body: Buffer;
  /** the byte a `Range: bytes=N-` asks to start at (0 without one) */
  from: number;
}

export interface ArchiveServer {
  /** `http://127.0.0.1:PORT` */
  base: string;
  /** `127.0.0.1:PORT`, as the download's messages name it */
  host: string;
  close: () => Promise<void>;
}

/**
 * Serves `root`; a path outside it or not there is a 404. `handle` sees every request for a
 * file that exists first and returns true when it has answered it (or chosen never to).
 */
export async function serveArchive(
  root: string,
  handle: (r: ArchiveRequest) => boolean = () => false,
): Promise<ArchiveServer> {
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    const file = path.join(root, decodeURIComponent(url));
    if (!file.startsWith(root) || !existsSync(file)) {
      res.writeHead(404).end('Not Found');
      return;
    }
    const body = readFileSync(file);
    const from = Number(/^bytes=(\d+)-$/.exec(req.headers.range ?? '')?.[1] ?? 0);
    if (!handle({ req, res, url, body, from })) answerFrom(res, body, from);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base: `http://${host}`,
    host,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/**
 * Answers `body` from byte `from` on: 200 whole, 206 with its Content-Range, 416 from its end on;
 * with `part` under what is left, only that many bytes are written and the answer is left open.
 */
export function answerFrom(res: ServerResponse, body: Buffer, from: number, part = body.length - from): void {
  if (from > 0 && from >= body.length) {
    // a Range from the end or past it, as the archive's CDN answers it
    res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
    return;
  }
  const rest = body.subarray(from);
  res.writeHead(from > 0 ? 206 : 200, {
    'content-length': rest.length,
    ...(from > 0 ? { 'content-range': `bytes ${from}-${body.length - 1}/${body.length}` } : {}),
  });
  if (part >= rest.length) res.end(rest);
  else res.write(rest.subarray(0, part));
}

/** The plan of BTCUSDT's spot 1m klines, day by day, that writeBtcusdtDays's files answer. */
export const spotKlinesPlan = (from: string, to: string) =>
  planDownload({ symbol: 'BTCUSDT', market: 'spot', kinds: parseKinds('klines:1m'), from, to });

/** `npm run data -- download` of what spotKlinesPlan plans, from `base` (the arguments after `data --`). */
export const spotKlinesDownload = (base: string, from: string, to: string): string[] => [
  'download',
  ...['--symbol', 'BTCUSDT', '--market', 'spot', '--kinds', 'klines:1m'],
  ...['--from', from, '--to', to, '--base-url', base],
];
