// The service's close does not wait on connections that would hold it (src-main/api/server-close.ts):
// a connection that has sent nothing (a browser's spare connection to an origin it has used),
// a keep-alive connection idle after its answer, and, GRACE later, one in the middle of a request.
// Before, the first held the close for Node's headers timeout (60 s and up to 30 s more): closing
// a replay from its dialog after "Back to live" took a minute.
import net from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { startService, type ServiceHandle } from '../../src-main/service.ts';

const open: ServiceHandle[] = [];
const sockets: net.Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const svc of open.splice(0)) await svc.close();
});

async function connect(url: string): Promise<net.Socket> {
  const { hostname, port } = new URL(url);
  const s = net.connect(Number(port), hostname);
  sockets.push(s);
  await new Promise<void>((resolve, reject) => s.once('connect', resolve).once('error', reject));
  return s;
}

/** Resolves when the socket is closed by the other end (or errors), with the ms it took. */
const ended = (s: net.Socket, t0: number): Promise<number> =>
  new Promise((resolve) => {
    s.once('close', () => resolve(performance.now() - t0));
    s.resume();
  });

it('closes at once over a connection that sent nothing and a keep-alive one that is idle', async () => {
  const svc = await startService({ dataDir: ':memory:', simulate: false, rateLimit: false });
  open.push(svc);
  const silent = await connect(svc.url);
  const kept = await connect(svc.url);
  // one answered request, the connection kept alive
  kept.write('GET /fapi/v1/time HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
  await new Promise<void>((resolve) => kept.once('data', () => resolve()));
  const t0 = performance.now();
  const done = [ended(silent, t0), ended(kept, t0)];
  await svc.close();
  const took = performance.now() - t0;
  // well under the 2 s grace that cuts a request under way: nothing waited on
  expect(took).toBeLessThan(1500);
  for (const ms of await Promise.all(done)) expect(ms).toBeLessThan(1500);
}, 20_000);

it('a request under way when the close begins is cut after the grace, not held for the timeouts', async () => {
  const svc = await startService({ dataDir: ':memory:', simulate: false, rateLimit: false });
  open.push(svc);
  // half a request: its body never ends
  const half = await connect(svc.url);
  half.write(
    'POST /fapi/v1/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
  );
  await new Promise((r) => setTimeout(r, 50));
  const t0 = performance.now();
  const cut = ended(half, t0);
  await svc.close();
  const took = performance.now() - t0;
  expect(took).toBeGreaterThanOrEqual(1900);
  expect(took).toBeLessThan(5000);
  expect(await cut).toBeLessThan(5000);
}, 20_000);

it("a keep-alive connection's next request, sent as the close begins, is refused in the envelope (5001, Connection: close), not cut", async () => {
  const svc = await startService({ dataDir: ':memory:', simulate: false, rateLimit: false });
  open.push(svc);
  const silent = await connect(svc.url);
  const kept = await connect(svc.url);
  kept.write('GET /fapi/v1/time HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
  await new Promise<void>((resolve) => kept.once('data', () => resolve()));
  // the close has begun once the connection that sent nothing is closed; the bot's next request
  // goes out then, on its kept connection (before, closed in the same sweep: a reset, no answer)
  const closing = svc.close();
  await new Promise<void>((resolve) => silent.once('close', () => resolve()).resume());
  let answer = '';
  kept.on('data', (b: Buffer) => (answer += b.toString()));
  const cut = new Promise<void>((resolve) => kept.once('close', () => resolve()));
  kept.on('error', () => {});
  kept.write('GET /fapi/v1/time HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
  await cut;
  await closing;
  expect(answer).toMatch(/^HTTP\/1\.1 500 /);
  expect(answer.toLowerCase()).toContain('connection: close');
  // the service's envelope, not Fastify's own 503 body: the request was not run
  expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
    code: 5001,
    message: 'The service is shutting down: the request was not run. Retry once it is back',
    data: null,
  });
}, 20_000);

it('a stalled request whose headers never end is cut once quiet, not held for the grace', async () => {
  const svc = await startService({ dataDir: ':memory:', simulate: false, rateLimit: false });
  open.push(svc);
  const half = await connect(svc.url);
  half.write('GET /fapi/v1/time HTTP/1.1\r\nHost: x\r\n');
  await new Promise((r) => setTimeout(r, 50));
  const t0 = performance.now();
  const cut = ended(half, t0);
  await svc.close();
  expect(performance.now() - t0).toBeLessThan(1500);
  expect(await cut).toBeLessThan(1500);
}, 20_000);
