// The statuses the service answers before any route runs, on the operations that are not envelope
// routes (GET /ws, GET /logos/{file}, the Binance WebSocket endpoints): a URL over 8192 characters
// (414) and a request line and headers over 16 KiB (431, Node's HTTP parser). Real requests on a
// listening service; each answer's status must be one the served /openapi.json lists for its
// operation, with the error body it documents there (a generated client reads it by its status).
import { get, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startService, type Service } from './binance/helpers.ts';

let svc: Service;
let base: string;
let doc: any;

beforeAll(async () => {
  svc = await startService(); // listening on a free port
  base = svc.base;
  doc = (await svc.app.inject({ method: 'GET', url: '/openapi.json' })).json();
});
afterAll(async () => svc?.close());

/** [operation path in the document, a URL of it, whether a WebSocket client calls it]. */
const OPERATIONS: Array<[string, string, boolean]> = [
  ['/ws', '/ws', true],
  ['/logos/{file}', '/logos/BTC.svg', false],
  ['/binance/ws', '/binance/ws', true],
  ['/binance/ws/{streams}', '/binance/ws/btcusdt@trade', true],
  ['/binance/stream', '/binance/stream', true],
  ['/binance/market/stream/{streams}', '/binance/market/stream/btcusdt@trade', true],
];

/** The refusal of a GET of `url` (a WebSocket client's upgrade when `ws`): its status and JSON body. */
function answer(
  url: string,
  ws: boolean,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const read = (res: IncomingMessage) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    };
    if (!ws) {
      get(base + url, { headers }, read).on('error', reject);
      return;
    }
    const client = new WebSocket(base.replace('http', 'ws') + url, { headers });
    client.on('unexpected-response', (_req, res) => read(res));
    client.on('open', () => {
      client.close();
      reject(new Error(`${url} was upgraded`));
    });
    client.on('error', reject);
  });
}

/** What is wrong with `got` as an answer of `path`'s GET by the document (nothing: []). */
function undocumented(path: string, got: { status: number; body: any }, code: number): string[] {
  const documented = doc.paths[path].get.responses[String(got.status)];
  if (documented === undefined) return [`GET ${path} answered ${got.status}, which its operation does not list`];
  const schema = documented.content?.['application/json']?.schema;
  const out: string[] = [];
  if (schema === undefined) out.push(`GET ${path} ${got.status}: no application/json body documented`);
  else for (const k of schema.required ?? []) if (!(k in got.body)) out.push(`GET ${path} ${got.status}: no ${k}`);
  if (!String(documented.description).includes(String(code)))
    out.push(`GET ${path} ${got.status}: the description does not name ${code}`);
  return out;
}

describe('/openapi.json lists the pre-route refusals of the non-envelope operations', () => {
  it('a URL over 8192 characters: 414, documented on each operation', async () => {
    const bad: string[] = [];
    for (const [path, url, ws] of OPERATIONS) {
      const got = await answer(`${url}?x=${'a'.repeat(9000)}`, ws);
      expect(got.status, url).toBe(414);
      bad.push(...undocumented(path, got, path.startsWith('/binance') ? -1000 : 1007));
    }
    expect(bad).toEqual([]);
  });

  it("headers over 16 KiB: 431 (Node's parser), documented on each operation", async () => {
    const bad: string[] = [];
    for (const [path, url, ws] of OPERATIONS) {
      const got = await answer(url, ws, { 'x-big': 'a'.repeat(20_000) });
      expect(got.status, url).toBe(431);
      bad.push(...undocumented(path, got, path.startsWith('/binance') ? -1000 : 1008));
    }
    expect(bad).toEqual([]);
  });
});
