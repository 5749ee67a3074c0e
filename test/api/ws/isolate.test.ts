// A send to one connection that throws, in the stream hubs' timed pushes (src-main/api/ws/isolate.ts):
// that connection alone is closed with 1011, the failure is logged, and the other clients of
// the same stream keep receiving, on /ws (the 1 s price@ push, written pre-framed to each
// socket) and on the Binance streams (the 1 s markPrice@1s push, sent through ws). Real
// service, real clients on 127.0.0.1, the hubs' own timers. Neither ws 8 nor a Node socket
// throws on a send to a closed or destroyed socket (both report it as an event, checked by hand),
// so the failing connection is made to throw by replacing its server-side write for one call:
// the first subscriber, so that without the guard the others, after it in the loop, would get
// nothing.
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from '../../../src-main/api/app.ts';
import { rawStreamOf } from '../../../src-main/api/ws/test-hooks.ts';
import { openVenue } from '../../../src-main/venue.ts';
import type { FastifyInstance } from 'fastify';
import { until } from './ws-test-client.ts';

let app: FastifyInstance;
let closeAll: () => Promise<void>;
let base: string;
const clients: WebSocket[] = [];

beforeAll(async () => {
  const venue = openVenue({ dataDir: ':memory:' });
  app = await buildApp({ venue, rateLimit: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  closeAll = async () => {
    for (const c of clients) c.terminate();
    await app.close();
    await venue.close();
  };
});
afterAll(async () => closeAll());
afterEach(() => vi.restoreAllMocks());

interface Client {
  ws: WebSocket;
  /** Pushes received, with when. */
  pushes: Array<{ at: number; msg: any }>;
  closed: Promise<{ code: number; reason: string }>;
  /** The server's side of this connection. */
  server: WebSocket;
}

/** A client on `path`, its pushes recorded, and the server-side socket it got. */
async function open(path: string): Promise<Client> {
  const ws = new WebSocket(base + path);
  clients.push(ws);
  const pushes: Client['pushes'] = [];
  ws.on('message', (d) => {
    const msg = JSON.parse(String(d));
    if (!('id' in msg)) pushes.push({ at: Date.now(), msg });
  });
  ws.on('error', () => {});
  const closed = new Promise<{ code: number; reason: string }>((r) =>
    ws.on('close', (code, why) => r({ code, reason: String(why) })),
  );
  const before = new Set(app.websocketServer.clients);
  await new Promise<void>((res, rej) => (ws.once('open', () => res()), ws.once('error', rej)));
  const fresh = () => [...app.websocketServer.clients].find((s) => !before.has(s));
  await until(() => fresh() !== undefined, 3000, 'the server side');
  const server = fresh()!;
  return { ws, pushes, closed, server };
}

/** Sends a request and waits for its answer. */
async function ask(c: Client, msg: object): Promise<void> {
  const answered = new Promise<void>((r) =>
    c.ws.on('message', (d) => {
      if ('id' in JSON.parse(String(d))) r();
    }),
  );
  c.ws.send(JSON.stringify(msg));
  await answered;
}

const BROKEN = 'a write that failed (injected)';

describe('a connection whose send throws, in a timed push', () => {
  it('/ws: that connection is closed 1011 and logged; the other subscribers keep getting price@ pushes', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const [bad, a, b] = [await open('/ws'), await open('/ws'), await open('/ws')];
    for (const c of [bad, a, b]) await ask(c, { method: 'SUBSCRIBE', params: ['price@BTCUSDT'], id: 1 });
    const raw = rawStreamOf(app.wsHub, bad.server) as Duplex;
    expect(raw).not.toBeNull();
    // once: the close frame that follows goes out on the socket's own write
    const write = raw.write;
    raw.write = () => {
      raw.write = write;
      throw new Error(BROKEN);
    };
    const t0 = Date.now();
    const closed = await bad.closed;
    expect(closed).toEqual({ code: 1011, reason: 'Internal error: a push could not be sent' });
    expect(errors).toHaveBeenCalledWith(
      'perpdesk: ws push of price@BTCUSDT failed; that connection is closed (1011)',
      expect.objectContaining({ message: BROKEN }),
    );
    // the others go on: two more pushes each after the failure (one a second)
    await until(() => [a, b].every((c) => c.pushes.filter((p) => p.at > t0).length >= 2), 5000, 'pushes after it');
    for (const c of [a, b]) expect(c.pushes.at(-1)!.msg.stream).toBe('price@BTCUSDT');
  }, 15_000);

  it('/binance: that connection is closed 1011; the other streams keep getting markPrice@1s', async () => {
    const name = 'btcusdt@markPrice@1s';
    const [bad, a, b] = [
      await open(`/binance/ws/${name}`),
      await open(`/binance/stream?streams=${name}`),
      await open(`/binance/ws/${name}`),
    ];
    const send = bad.server.send;
    bad.server.send = () => {
      bad.server.send = send;
      throw new Error(BROKEN);
    };
    const t0 = Date.now();
    const closed = await bad.closed;
    expect(closed).toEqual({ code: 1011, reason: 'Internal error: a message could not be sent' });
    await until(() => [a, b].every((c) => c.pushes.filter((p) => p.at > t0).length >= 2), 5000, 'pushes after it');
    expect(a.pushes.at(-1)!.msg.stream).toBe(name); // combined
    expect(b.pushes.at(-1)!.msg.e).toBe('markPriceUpdate'); // raw
  }, 15_000);
});
