// The statuses the service answers before any route runs, on the operations that are not envelope
// routes (GET /ws, GET /logos/{file}, the Binance WebSocket endpoints): a URL over 8192 characters
// (414) and a request line and headers over 16 KiB (431, Node's HTTP parser). Real requests on a
// listening service; each answer's status must be one the served /openapi.json lists for its
// operation, with the error body it documents there (a generated client reads it by its status).
import { get, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from '../../src-main/api/app.ts';
import { openVenue } from '../../src-main/venue.ts';
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

describe('/openapi.json lists the 408 of a request whose headers do not arrive in time', () => {
  /** [operation path, method, a request line of it]: native envelope, candlestick, WebSocket and facade operations. */
  const SLOW: Array<[string, string, string]> = [
    ['/fapi/v1/time', 'get', 'GET /fapi/v1/time'],
    ['/fapi/v1/orders', 'post', 'POST /fapi/v1/orders'],
    ['/fapi/v1/klines', 'get', 'GET /fapi/v1/klines?symbol=BTCUSDT&interval=1m'],
    ['/ws', 'get', 'GET /ws'],
    ['/binance/fapi/v1/order', 'post', 'POST /binance/fapi/v1/order'],
  ];

  /** What a request line with one header and no end of headers is answered once the headers time out. */
  function slowAnswer(port: number, line: string): Promise<{ status: number; body: any }> {
    return new Promise((resolve, reject) => {
      let text = '';
      const s = connect(port, '127.0.0.1', () => s.write(`${line} HTTP/1.1\r\nHost: 127.0.0.1\r\n`));
      s.setEncoding('utf8');
      s.on('data', (c: string) => (text += c));
      s.on('error', reject);
      s.on('close', () => {
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
        resolve({ status, body: JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4) || 'null') });
      });
    });
  }

  it('each operation documents the 408 and the code the service answers it with', async () => {
    const venue = openVenue({ dataDir: ':memory:' });
    const app = await buildApp({ venue, rateLimit: false });
    // Node's 60 s headersTimeout, checked every 30 s, made short (both read when the server starts listening)
    app.server.headersTimeout = 200;
    app.server.requestTimeout = 400;
    // (a property of Node's server that its types do not list)
    (app.server as unknown as { connectionsCheckingInterval: number }).connectionsCheckingInterval = 50;
    try {
      await app.listen({ host: '127.0.0.1', port: 0 });
      const port = (app.server.address() as AddressInfo).port;
      const bad: string[] = [];
      for (const [path, method, line] of SLOW) {
        const got = await slowAnswer(port, line);
        expect(got.status, line).toBe(408);
        // the facade's too: Node's parser gives no path of a request whose headers never ended
        expect(got.body, line).toEqual({ code: 1009, message: 'The request did not arrive in time', data: null });
        const documented = doc.paths[path][method].responses['408'];
        if (documented === undefined) bad.push(`${method} ${path}: no 408`);
        else if (!String(documented.description).includes('1009'))
          bad.push(`${method} ${path} 408: the description does not name the code`);
        else if (documented.content?.['application/json']?.schema?.required?.join() !== 'code,message,data')
          bad.push(`${path} 408: not the envelope it answers`);
      }
      expect(bad).toEqual([]);
    } finally {
      await app.close();
      await venue.close();
    }
  });
});

describe('/openapi.json: the facade operations that change something take their parameters in a form body too', () => {
  it('every /binance POST, PUT and DELETE with parameters documents the form body, none of its fields required', () => {
    const bad: string[] = [];
    let seen = 0;
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      if (!path.startsWith('/binance')) continue;
      for (const method of ['post', 'put', 'delete']) {
        const op = item[method];
        const query = (op?.parameters ?? []).filter((p: any) => p.in === 'query').map((p: any) => p.name);
        if (op === undefined || query.length === 0) continue;
        seen++;
        const schema = op.requestBody?.content?.['application/x-www-form-urlencoded']?.schema;
        if (schema === undefined) bad.push(`${method} ${path}: no form body`);
        else if (JSON.stringify(Object.keys(schema.properties)) !== JSON.stringify(query))
          bad.push(`${method} ${path}: the body's fields are not the query's`);
        else if (schema.required !== undefined || op.requestBody.required !== false)
          bad.push(`${method} ${path}: the body or a field of it is required`);
      }
    }
    expect(seen).toBeGreaterThan(10);
    expect(bad).toEqual([]);
  });
});
