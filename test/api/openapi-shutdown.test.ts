// A request that comes in while the service closes is refused unrun (server-close.ts, app.ts
// closingCheck): 5001 in the native envelope, -1001 under /binance. Real requests on kept-alive
// connections as the close begins give each dialect's status and code; every operation of the
// served /openapi.json must list that status with a description naming the code (a generated
// client reads the answer by its status, a bot author the description).
import net from 'node:net';
import { expect, it } from 'vitest';
import { startService } from '../../src-main/service.ts';

async function connect(url: string): Promise<net.Socket> {
  const { hostname, port } = new URL(url);
  const s = net.connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => s.once('connect', resolve).once('error', reject));
  return s;
}

/** Sends `line` on `s` and reads the answer until the connection closes: its status and JSON body. */
function send(s: net.Socket, line: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve) => {
    let text = '';
    s.on('data', (b: Buffer) => (text += b.toString()));
    s.on('error', () => {});
    s.once('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, body: JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4) || 'null') });
    });
    s.write(`${line} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`);
  });
}

const METHODS = ['get', 'post', 'put', 'delete', 'patch'];

it('every operation documents the refusal of a request that comes in while the service closes', async () => {
  const svc = await startService({ dataDir: ':memory:', simulate: false, rateLimit: false });
  const doc = (await (await fetch(`${svc.url}/openapi.json`)).json()) as any;
  const silent = await connect(svc.url);
  const kept: net.Socket[] = [];
  for (let i = 0; i < 3; i++) {
    const s = await connect(svc.url);
    s.write('GET /fapi/v1/time HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
    await new Promise<void>((resolve) => s.once('data', () => resolve()));
    kept.push(s);
  }
  // the close has begun once the connection that sent nothing is closed
  const closing = svc.close();
  await new Promise<void>((resolve) => silent.once('close', () => resolve()).resume());
  const [native, facade, candles] = await Promise.all([
    send(kept[0], 'GET /fapi/v1/time'),
    send(kept[1], 'GET /binance/fapi/v1/time'),
    send(kept[2], 'GET /fapi/v1/klines?symbol=BTCUSDT&interval=1m'),
  ]);
  await closing;
  expect(native).toMatchObject({ status: 500, body: { code: 5001 } });
  // -1001 is 503 on every answer of the facade (a route's too: binance/errors.ts fromNative)
  expect(facade).toMatchObject({ status: 503, body: { code: -1001 } });
  // the candlestick routes answer every error but 431 in an HTTP 200
  expect(candles).toMatchObject({ status: 200, body: { code: 5001 } });
  const bad: string[] = [];
  let seen = 0;
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    const got = path.startsWith('/binance') ? facade : /\/klines(\/batch)?$/.test(path) ? candles : native;
    for (const method of METHODS) {
      if (item[method] === undefined) continue;
      seen++;
      const documented = item[method].responses?.[String(got.status)];
      if (documented === undefined) bad.push(`${method} ${path}: no ${got.status}`);
      else if (!String(documented.description).includes(String(got.body.code)))
        bad.push(`${method} ${path} ${got.status}: the description does not name ${got.body.code}`);
    }
  }
  expect(seen).toBeGreaterThan(100);
  expect(bad).toEqual([]);
}, 20_000);
