// WsClient's keep-alive on its defaults, against a `ws` server on 127.0.0.1:0 that can hang: it
// stops reading its connections' sockets (as a SIGSTOPped service, or the far end of a half-open
// TCP connection), so nothing is answered and no close comes. The client (Node 24's WebSocket)
// must find the silence itself: PING every 15 s, the connection dropped after 45 s without a
// frame and reconnected. A connection attempt a service takes over TCP and never upgrades is given
// up after connectTimeoutMs. Timers run on a manual scheduler; only real I/O is awaited.
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { DEFAULT_PING_INTERVAL_MS, DEFAULT_PING_TIMEOUT_MS } from '../../../src-shared/sdk/index.ts';
import { WsClient, type WsClientOptions, type WsCloseInfo } from '../../../src-shared/sdk/ws-client.ts';
import { ManualScheduler } from '../../helpers/manual-scheduler.ts';

/** A venue answering every request `null` by id; `hang()` stops it reading its open connections. */
class HangingServer {
  readonly wss = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/ws' });
  readonly received: { conn: number; method: string; params?: unknown }[] = [];
  readonly #sockets: Socket[] = [];

  constructor() {
    this.wss.on('connection', (ws, req) => {
      const conn = this.#sockets.push(req.socket) - 1;
      ws.on('message', (raw) => {
        const msg = JSON.parse(String(raw)) as { method: string; params?: unknown; id: number };
        this.received.push({ conn, method: msg.method, params: msg.params });
        ws.send(JSON.stringify({ id: msg.id, result: msg.method === 'PING' ? 'PONG' : null }));
      });
    });
  }

  url(): string {
    return `ws://127.0.0.1:${(this.wss.address() as AddressInfo).port}/ws`;
  }

  /** Every connection open now reads and answers nothing more; new ones are served. */
  hang(): void {
    for (const s of this.#sockets) s.pause();
  }

  close(): Promise<void> {
    for (const s of this.wss.clients) s.terminate();
    return new Promise((r) => this.wss.close(() => r()));
  }
}

let server: HangingServer;
let client: WsClient | undefined;

beforeEach(async () => {
  server = new HangingServer();
  await new Promise<void>((r) => server.wss.once('listening', () => r()));
});

afterEach(async () => {
  client?.close();
  client = undefined;
  await server.close();
});

/** A bot's client: the URL and nothing else but the test's clock, and `extra`. */
async function connected(sched: ManualScheduler, extra: Partial<WsClientOptions> = {}) {
  const c = new WsClient({ url: server.url(), scheduler: sched, ...extra });
  client = c;
  const closes: WsCloseInfo[] = [];
  c.onClose((info) => closes.push(info));
  c.connect();
  await c.whenReady();
  await c.subscribe(['depth_update@BTCUSDT']);
  return { c, closes };
}

/** Runs the one pending ping timer (moving the clock to it). */
function ping(sched: ManualScheduler): void {
  const [id, ...more] = sched.withDelay(DEFAULT_PING_INTERVAL_MS);
  expect(more).toEqual([]);
  expect(id, 'a pending ping').toBeDefined();
  sched.fireId(id);
}

describe('WsClient keep-alive on its defaults', () => {
  it('pings every 15 s, answered PONG, and stays open while the service answers', async () => {
    const sched = new ManualScheduler();
    const { c, closes } = await connected(sched);
    for (let i = 1; i <= 4; i++) {
      const answered = new Promise<unknown>((r) => c.onMessage(r));
      ping(sched);
      expect(await answered).toMatchObject({ result: 'PONG' });
    }
    expect(server.received.map((r) => r.method)).toEqual(['SUBSCRIBE', 'PING', 'PING', 'PING', 'PING']);
    expect([c.state, closes]).toEqual(['open', []]);
  });

  it('drops a connection silent for 45 s (a hung service) and reconnects, streams restored', async () => {
    const sched = new ManualScheduler();
    const { c, closes } = await connected(sched);
    server.hang();
    ping(sched); // t = 15 s: a PING the service never reads
    ping(sched); // t = 30 s: silent for 30 s, not yet taken for dead
    expect([c.state, closes]).toEqual(['open', []]);

    ping(sched); // t = 45 s
    expect(sched.t).toBe(DEFAULT_PING_TIMEOUT_MS);
    expect(closes).toEqual([{ code: 4000, reason: 'ping timeout', willReconnect: true }]);
    expect(c.state).toBe('reconnecting');

    const reconnected = new Promise<void>((r) => c.onReconnect(() => r()));
    expect(sched.fireNext()).toBe(true); // the reconnect delay
    await reconnected;
    expect(c.state).toBe('open');
    expect(server.received.filter((r) => r.conn === 1)).toEqual([
      { conn: 1, method: 'SUBSCRIBE', params: ['depth_update@BTCUSDT'] },
    ]);
  });

  it('with a longer requestTimeoutMs, takes only that much silence for death (a long replay step)', async () => {
    const sched = new ManualScheduler();
    const { c, closes } = await connected(sched, { requestTimeoutMs: 60_000 });
    server.hang();
    for (let i = 0; i < 3; i++) ping(sched);
    expect(sched.t).toBe(DEFAULT_PING_TIMEOUT_MS);
    expect([c.state, closes]).toEqual(['open', []]);
    ping(sched); // t = 60 s
    expect(closes).toEqual([{ code: 4000, reason: 'ping timeout', willReconnect: true }]);
  });

  it('pingIntervalMs 0 turns it off: a hung service leaves the client open', async () => {
    const sched = new ManualScheduler();
    const { c, closes } = await connected(sched, { pingIntervalMs: 0 });
    server.hang();
    expect(sched.delays()).toEqual([]); // no ping, nothing that could find the silence
    sched.advance(10 * DEFAULT_PING_TIMEOUT_MS);
    expect([c.state, closes]).toEqual(['open', []]);
  });
});

/** Waits (real time, 2 s at most) until `done()` holds. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !done(); i++) await new Promise((r) => setTimeout(r, 20));
  expect(done()).toBe(true);
}

describe('WsClient connection attempt time-out', () => {
  /** A TCP server that takes connections and never reads or answers them (no upgrade ever comes). */
  async function silentTcp() {
    const sockets: Socket[] = [];
    const tcp = createServer((s) => sockets.push(s));
    await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', () => r()));
    const url = `ws://127.0.0.1:${(tcp.address() as AddressInfo).port}/ws`;
    const stop = () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => tcp.close(() => r()));
    };
    return { sockets, url, stop };
  }

  it('a service that takes the TCP connection and never upgrades it: given up after 10 s, whenReady says why, tried again', async () => {
    const tcp = await silentTcp();
    try {
      const sched = new ManualScheduler();
      const c = new WsClient({ url: tcp.url, scheduler: sched });
      client = c;
      const closes: WsCloseInfo[] = [];
      c.onClose((info) => closes.push(info));
      c.connect();
      const ready = c.whenReady();
      await until(() => tcp.sockets.length === 1);
      expect(c.state).toBe('connecting');
      const [id, ...more] = sched.withDelay(10_000);
      expect(more).toEqual([]);
      sched.fireId(id);
      const reason = 'the connection was not open after 10000 ms (connectTimeoutMs)';
      await expect(ready).rejects.toThrow(`failed (close 1006: ${reason})`);
      expect(closes).toEqual([{ code: 1006, reason, willReconnect: true }]);
      expect(c.state).toBe('reconnecting');
      // the next attempt, after the backoff delay, is timed the same way
      expect(sched.fireNext()).toBe(true);
      await until(() => tcp.sockets.length >= 2);
      expect(sched.withDelay(10_000)).toHaveLength(1);
    } finally {
      await tcp.stop();
    }
  });

  it('connectTimeoutMs 0: no limit, the attempt waits', async () => {
    const tcp = await silentTcp();
    try {
      const sched = new ManualScheduler();
      const c = new WsClient({ url: tcp.url, scheduler: sched, connectTimeoutMs: 0 });
      client = c;
      c.connect();
      await until(() => tcp.sockets.length === 1);
      expect(sched.delays()).toEqual([]);
      expect(c.state).toBe('connecting');
    } finally {
      await tcp.stop();
    }
  });
});
