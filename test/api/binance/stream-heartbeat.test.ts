// The /binance streams ping their connections and close one that answers no ping, as Binance does
// (a ping every 3 minutes, dropped after 10 minutes without a pong): market and user streams
// alike. The periods are shortened here (the app's binanceHeartbeat option) so that the test takes
// a fraction of a second: a ping every 40 ms, closed after 250 ms without a pong. A client that
// answers pings (ws does by itself, as every WebSocket library) stays open however long.
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src-main/api/app.ts';
import { BINANCE_HEARTBEAT } from '../../../src-main/api/binance/streams/hub.ts';
import { openVenue } from '../../../src-main/venue.ts';
import { account, listenKeyCall, type Service } from './helpers.ts';

const PING_MS = 40;
const IDLE_MS = 250;
let svc: Service;
let ws: string;

beforeAll(async () => {
  const venue = openVenue({ dataDir: ':memory:' });
  const app = await buildApp({
    venue,
    rateLimit: false,
    binanceHeartbeat: { pingIntervalMs: PING_MS, idleTimeoutMs: IDLE_MS },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  ws = base.replace(/^http/, 'ws');
  svc = {
    app,
    venue,
    base,
    async close() {
      await app.close();
      await venue.close();
    },
  };
});
afterAll(async () => svc?.close());

interface Probe {
  pings: number;
  /** `code reason` once closed. */
  closed: Promise<string>;
  /** When it closed (ms after it opened), once closed. */
  after: number;
  socket: WebSocket;
}

/** A client on `path` under /binance; `autoPong` false: it answers no ping. */
async function probe(path: string, autoPong: boolean): Promise<Probe> {
  const socket = new WebSocket(`${ws}/binance${path}`, { autoPong });
  const p = { pings: 0, after: -1, socket } as Probe;
  socket.on('ping', () => p.pings++);
  let opened = 0;
  p.closed = new Promise<string>((r) =>
    socket.once('close', (code, why) => {
      p.after = Date.now() - opened;
      r(`${code} ${String(why)}`);
    }),
  );
  await new Promise<void>((res, rej) => (socket.once('open', () => res()), socket.once('error', rej)));
  opened = Date.now();
  return p;
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How `p` closed, or 'still open' after 2 s. */
const closing = (p: Probe) => Promise.race([p.closed, wait(2000).then(() => 'still open')]);

describe('/binance stream heartbeat', () => {
  it("Binance's periods by default: a ping every 3 minutes, closed after 10 minutes without a pong", () => {
    expect(BINANCE_HEARTBEAT).toEqual({ pingIntervalMs: 180_000, idleTimeoutMs: 600_000 });
  });

  const streams: Array<[string, () => Promise<string>]> = [
    ['a market stream', async () => '/ws/btcusdt@aggTrade'],
    [
      'a user stream',
      async () => {
        const c = account(svc.venue, `hb${Math.random().toString(36).slice(2, 8)}`, 1_000, 'one_way');
        return `/private/ws?listenKey=${(await listenKeyCall(svc.base, 'POST', c.apiKey)).listenKey}`;
      },
    ],
  ];

  it.each(streams)('%s is pinged, and stays open while it answers', async (_name, path) => {
    const p = await probe(await path(), true);
    await wait(2 * IDLE_MS);
    expect(p.pings, 'pinged about every 40 ms').toBeGreaterThanOrEqual(5);
    expect(p.socket.readyState, 'still open after two idle periods').toBe(WebSocket.OPEN);
    p.socket.close();
    await p.closed;
  });

  it.each(streams)(
    '%s that answers no ping is closed (1001) once a whole period passed without a pong',
    async (_name, path) => {
      const p = await probe(await path(), false);
      expect(await closing(p)).toBe(`1001 idle timeout: no pong for ${IDLE_MS} ms`);
      expect(p.pings).toBeGreaterThanOrEqual(2);
      expect(p.after).toBeGreaterThanOrEqual(IDLE_MS - 20);
      expect(p.after).toBeLessThan(IDLE_MS + 500);
    },
  );

  it('a client message is no pong: a connection that talks but answers no ping is closed too', async () => {
    const p = await probe('/ws', false);
    // 5 a second: within Binance's 10
    const talk = setInterval(() => p.socket.send(JSON.stringify({ method: 'LIST_SUBSCRIPTIONS', id: 1 })), 200);
    try {
      expect(await closing(p)).toBe(`1001 idle timeout: no pong for ${IDLE_MS} ms`);
    } finally {
      clearInterval(talk);
    }
  });
});
