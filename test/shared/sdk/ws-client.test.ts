// WsClient against a small `ws` server on 127.0.0.1:0, using Node 24's global WebSocket as
// the client. Timers (request timeouts, reconnect backoff, pings) run on a manual scheduler,
// so backoff delays are asserted exactly and fired explicitly; only real I/O is awaited.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import type { AddressInfo } from 'node:net';
import { ManualScheduler as SharedScheduler } from '../../helpers/manual-scheduler.ts';
import { DEFAULT_PING_INTERVAL_MS } from '../../../src-shared/sdk/index.ts';
import {
  WsClient,
  WsRequestError,
  type WebSocketConstructor,
  type WsCloseInfo,
} from '../../../src-shared/sdk/ws-client.ts';

class ManualScheduler extends SharedScheduler {
  /** Delays of pending timers shorter than `limit` (excludes request timeouts). */
  shortDelays(limit = TIMEOUT): number[] {
    return [...this.timers.values()].filter((x) => x.ms < limit).map((x) => x.ms);
  }
  /** Runs the one pending timer with delay `ms` (advancing the clock to it). */
  fire(ms: number): void {
    const ids = this.withDelay(ms);
    expect(ids).toHaveLength(1);
    this.fireId(ids[0]);
  }
}

const TIMEOUT = 60_000;

interface Received {
  conn: number;
  msg: { method: string; params?: unknown; id: number };
}

/** A tiny venue: answers by id, errors on `bad@` streams and bad logins, can refuse or mute. */
class TestServer {
  readonly wss: WebSocketServer;
  readonly sockets: ServerSocket[] = [];
  readonly received: Received[] = [];
  refuse = false;
  mute = new Set<string>();
  /** Answer the next two requests in reverse order. */
  reverseNextTwo = false;
  #held: { ws: ServerSocket; reply: string }[] = [];
  #waiters: (() => void)[] = [];

  /** `port`: 0 for any free one; the port of a server gone away to bring it back. */
  constructor(port = 0) {
    this.wss = new WebSocketServer({
      host: '127.0.0.1',
      port,
      path: '/ws',
      verifyClient: (_info, cb) => cb(!this.refuse, 503),
    });
    this.wss.on('connection', (ws) => {
      const conn = this.sockets.push(ws) - 1;
      const subs = new Set<string>();
      ws.on('message', (raw) => {
        const msg = JSON.parse(String(raw)) as Received['msg'];
        this.received.push({ conn, msg });
        this.#wake();
        if (this.mute.has(msg.method)) return;
        let reply: object;
        const params = msg.params as string[] & { key?: string };
        // as the service: a request naming a stream it does not know is refused whole, nothing (un)subscribed
        if ((msg.method === 'SUBSCRIBE' || msg.method === 'UNSUBSCRIBE') && params.some((s) => s.startsWith('bad@'))) {
          reply = { id: msg.id, error: { code: 1101, message: 'unknown stream' } };
        } else if (msg.method === 'LOGIN' && params.key !== 'good') {
          reply = { id: msg.id, error: { code: 2001, message: 'bad key' } };
        } else {
          if (msg.method === 'SUBSCRIBE') for (const s of params) subs.add(s);
          if (msg.method === 'UNSUBSCRIBE') for (const s of params) subs.delete(s);
          reply = { id: msg.id, result: msg.method === 'LIST_SUBSCRIPTIONS' ? [...subs] : null };
        }
        const text = JSON.stringify(reply);
        if (this.reverseNextTwo) {
          this.#held.push({ ws, reply: text });
          if (this.#held.length === 2) {
            this.reverseNextTwo = false;
            for (const h of this.#held.reverse()) h.ws.send(h.reply);
            this.#held = [];
          }
        } else ws.send(text);
      });
    });
  }

  url(): string {
    return `ws://127.0.0.1:${(this.wss.address() as AddressInfo).port}/ws`;
  }

  #wake(): void {
    const w = this.#waiters;
    this.#waiters = [];
    for (const f of w) f();
  }

  /** Resolves once `n` messages (from the start) have arrived. */
  async waitReceived(n: number): Promise<Received[]> {
    while (this.received.length < n) await new Promise<void>((r) => this.#waiters.push(r));
    return this.received;
  }

  /** Resolves when the next connection comes in. */
  nextConnection(): Promise<ServerSocket> {
    return new Promise((r) => this.wss.once('connection', (ws) => r(ws)));
  }

  push(conn: number, stream: string, data: unknown): void {
    this.sockets[conn].send(JSON.stringify({ stream, data }));
  }

  close(): Promise<void> {
    for (const s of this.wss.clients) s.terminate();
    return new Promise((r) => this.wss.close(() => r()));
  }
}

/** Promise of the next call of a `client.onX(listener)` style registration. */
function next<T>(register: (fn: (v: T) => void) => () => void): Promise<T> {
  return new Promise((resolve) => {
    const off = register((v) => {
      off();
      resolve(v);
    });
  });
}

let server: TestServer;
let client: WsClient | undefined;
let constructed = 0;
const Counting: WebSocketConstructor = class extends WebSocket {
  constructor(url: string) {
    super(url);
    constructed++;
  }
};

beforeEach(async () => {
  server = new TestServer();
  await new Promise<void>((r) => server.wss.once('listening', () => r()));
  constructed = 0;
});

afterEach(async () => {
  client?.close();
  client = undefined;
  await server.close();
});

function makeClient(
  sched: ManualScheduler,
  randoms: number[] = [],
  extra: Partial<ConstructorParameters<typeof WsClient>[0]> = {},
) {
  const errors: unknown[] = [];
  const c = new WsClient({
    url: server.url(),
    WebSocket: Counting,
    scheduler: sched,
    requestTimeoutMs: TIMEOUT,
    reconnectBaseMs: 100,
    reconnectJitter: 0.5,
    random: () => randoms.shift() ?? 1,
    ...extra,
  });
  c.onError((e) => errors.push(e));
  client = c;
  return { c, errors };
}

describe('WsClient', () => {
  it('matches answers to requests by id, also out of order, and rejects server errors by id', async () => {
    const sched = new ManualScheduler();
    const { c } = makeClient(sched);
    c.connect();
    await c.whenReady();
    expect(c.state).toBe('open');

    server.reverseNextTwo = true;
    const sub = c.subscribe(['depth_update@BTCUSDT', 'depth@BTCUSDT,20']);
    const list = c.listSubscriptions();
    // The server answered LIST_SUBSCRIPTIONS first; each promise still gets its own answer.
    await expect(sub).resolves.toBeNull();
    await expect(list).resolves.toEqual(['depth_update@BTCUSDT', 'depth@BTCUSDT,20']);
    const sent = server.received.map((r) => r.msg);
    expect(sent[0]).toEqual({ method: 'SUBSCRIBE', params: ['depth_update@BTCUSDT', 'depth@BTCUSDT,20'], id: 1 });
    expect(sent[1]).toEqual({ method: 'LIST_SUBSCRIPTIONS', id: 2 });

    const bad = c.subscribe(['bad@X']);
    await expect(bad).rejects.toBeInstanceOf(WsRequestError);
    await bad.catch((e: WsRequestError) => {
      expect(e.kind).toBe('server');
      expect(e.code).toBe(1101);
      expect(e.message).toBe('unknown stream');
      expect(e.method).toBe('SUBSCRIBE');
    });
    expect(c.subscriptions).toEqual(['depth_update@BTCUSDT', 'depth@BTCUSDT,20']);
  });

  it('rejects a request that gets no answer when its timeout fires', async () => {
    const sched = new ManualScheduler();
    const { c } = makeClient(sched);
    c.connect();
    await c.whenReady();
    server.mute.add('LIST_SUBSCRIPTIONS');
    const p = c.listSubscriptions();
    await server.waitReceived(1);
    sched.fire(TIMEOUT);
    await expect(p).rejects.toMatchObject({ kind: 'timeout', method: 'LIST_SUBSCRIPTIONS' });
  });

  it('routes pushes to the handlers of their stream and every message to onMessage', async () => {
    const sched = new ManualScheduler();
    const { c } = makeClient(sched);
    const depth: unknown[] = [];
    const all: unknown[] = [];
    c.on('depth_update@BTCUSDT', (d) => depth.push(d));
    const off = c.on('trade@BTCUSDT', () => {
      throw new Error('unsubscribed handler must not run');
    });
    off();
    c.onMessage((m) => all.push(m));
    c.connect();
    await c.whenReady();
    await c.subscribe(['depth_update@BTCUSDT']);
    const gotTrade = next<unknown>((fn) =>
      c.onMessage((m) => (m as { stream?: string }).stream === 'trade@BTCUSDT' && fn(m)),
    );
    server.push(0, 'depth_update@BTCUSDT', { U: 1, u: 2 });
    server.push(0, 'trade@BTCUSDT', { p: '1' });
    await gotTrade;
    expect(depth).toEqual([{ U: 1, u: 2 }]);
    expect(all).toHaveLength(3); // subscribe answer + two pushes
  });

  it('reconnects with exponential backoff and jitter, then re-logs in and re-subscribes before onReconnect', async () => {
    const sched = new ManualScheduler();
    // random(): 0 -> half the delay, 1 -> the full delay.
    const { c } = makeClient(sched, [0, 1, 0.5, 1]);
    c.connect();
    await c.whenReady();
    let signed = 0;
    // A params function: each LOGIN, including the re-login, gets freshly signed params.
    await c.login(async () => ({ key: 'good', sig: `sig${++signed}` }));
    expect(server.received[0].msg.params).toEqual({ key: 'good', sig: 'sig1' });
    await c.subscribe(['depth_update@BTCUSDT', 'depth@BTCUSDT,20']);
    expect(constructed).toBe(1);

    server.refuse = true;
    let closed = next<WsCloseInfo>((fn) => c.onClose(fn));
    server.sockets[0].terminate();
    expect((await closed).willReconnect).toBe(true);
    expect(c.state).toBe('reconnecting');
    expect(sched.shortDelays()).toEqual([50]); // 100 x (0.5 + 0.5 x 0)

    // Made while disconnected: queued, sent after the restore.
    const late = c.subscribe(['trade@BTCUSDT']);

    closed = next((fn) => c.onClose(fn));
    sched.fire(50);
    expect(constructed).toBe(2);
    await closed; // refused
    expect(sched.shortDelays()).toEqual([200]); // 200 x (0.5 + 0.5 x 1)

    closed = next((fn) => c.onClose(fn));
    sched.fire(200);
    await closed;
    expect(sched.shortDelays()).toEqual([300]); // 400 x (0.5 + 0.5 x 0.5)

    server.refuse = false;
    const reconnected = next<void>((fn) => c.onReconnect(() => fn()));
    const before = server.received.length;
    sched.fire(300);
    await reconnected;
    await late;
    const onNew = server.received.slice(before);
    expect(onNew.every((r) => r.conn === 1)).toBe(true);
    expect(onNew.map((r) => r.msg.method)).toEqual(['LOGIN', 'SUBSCRIBE', 'SUBSCRIBE']);
    expect(onNew[0].msg.params).toEqual({ key: 'good', sig: 'sig2' });
    expect(onNew[1].msg.params).toEqual(['depth_update@BTCUSDT', 'depth@BTCUSDT,20']);
    expect(onNew[2].msg.params).toEqual(['trade@BTCUSDT']);
    expect(c.subscriptions).toEqual(['depth_update@BTCUSDT', 'depth@BTCUSDT,20', 'trade@BTCUSDT']);

    // The backoff starts over after a restored connection.
    closed = next((fn) => c.onClose(fn));
    server.sockets[1].terminate();
    await closed;
    expect(sched.shortDelays()).toEqual([100]);

    // Pushes on the new connection reach the handlers.
    const reconnected2 = next<void>((fn) => c.onReconnect(() => fn()));
    sched.fire(100);
    await reconnected2;
    const got = new Promise<unknown>((r) => c.on('depth_update@BTCUSDT', r));
    server.push(2, 'depth_update@BTCUSDT', { u: 9 });
    expect(await got).toEqual({ u: 9 });
  });

  it('re-sends a request that was in flight when the connection dropped', async () => {
    const sched = new ManualScheduler();
    const { c } = makeClient(sched);
    c.connect();
    await c.whenReady();
    server.mute.add('UNSUBSCRIBE');
    const p = c.unsubscribe(['depth@BTCUSDT,20']);
    await server.waitReceived(1);
    const closed = next<WsCloseInfo>((fn) => c.onClose(fn));
    server.sockets[0].terminate();
    await closed;
    server.mute.clear();
    sched.fire(100);
    await expect(p).resolves.toBeNull();
    expect(server.received.map((r) => [r.conn, r.msg.method, r.msg.id])).toEqual([
      [0, 'UNSUBSCRIBE', 1],
      [1, 'UNSUBSCRIBE', 1],
    ]);
  });

  it('keeps the streams of a refused UNSUBSCRIBE (the server unsubscribed none) and restores them after a reconnect', async () => {
    const sched = new ManualScheduler();
    const { c } = makeClient(sched);
    c.connect();
    await c.whenReady();
    await c.subscribe(['trade@BTCUSDT', 'depth_update@BTCUSDT']);
    // one name the server refuses (a typo): the whole request is refused, trade@BTCUSDT still pushes
    await expect(c.unsubscribe(['trade@BTCUSDT', 'bad@X'])).rejects.toMatchObject({ kind: 'server', code: 1101 });
    expect(await c.listSubscriptions()).toEqual(['trade@BTCUSDT', 'depth_update@BTCUSDT']);
    expect([...c.subscriptions].sort()).toEqual(['depth_update@BTCUSDT', 'trade@BTCUSDT']);
    // after a reconnect the server pushes it again (before: it was taken for unsubscribed and lost)
    const closed = next<WsCloseInfo>((fn) => c.onClose(fn));
    server.sockets[0].terminate();
    await closed;
    const reconnected = next<void>((fn) => c.onReconnect(() => fn()));
    sched.fire(100);
    await reconnected;
    expect([...((await c.listSubscriptions()) as string[])].sort()).toEqual(['depth_update@BTCUSDT', 'trade@BTCUSDT']);
    // an accepted UNSUBSCRIBE still forgets them
    await c.unsubscribe(['trade@BTCUSDT']);
    expect(c.subscriptions).toEqual(['depth_update@BTCUSDT']);
  });

  it('does not keep a stream unsubscribed while its SUBSCRIBE was in flight (switching a chart fast)', async () => {
    const sched = new ManualScheduler();
    const { c } = makeClient(sched);
    c.connect();
    await c.whenReady();
    // the server answers SUBSCRIBE 1m, then UNSUBSCRIBE 1m: it no longer pushes 1m
    await Promise.all([
      c.subscribe(['kline@BTCUSDT,1m']),
      c.unsubscribe(['kline@BTCUSDT,1m']),
      c.subscribe(['kline@BTCUSDT,5m']),
    ]);
    expect(await c.listSubscriptions()).toEqual(['kline@BTCUSDT,5m']);
    expect(c.subscriptions).toEqual(['kline@BTCUSDT,5m']);
    // unsubscribed and subscribed again before the answers: subscribed
    await Promise.all([c.unsubscribe(['kline@BTCUSDT,5m']), c.subscribe(['kline@BTCUSDT,5m'])]);
    expect(c.subscriptions).toEqual(['kline@BTCUSDT,5m']);
    // a reconnect restores what the server had, no more (before: 1m came back too)
    const closed = next<WsCloseInfo>((fn) => c.onClose(fn));
    server.sockets[0].terminate();
    await closed;
    const reconnected = next<void>((fn) => c.onReconnect(() => fn()));
    sched.fire(100);
    await reconnected;
    expect(await c.listSubscriptions()).toEqual(['kline@BTCUSDT,5m']);
  });

  it('forgets a LOGIN the server rejects and does not resend it', async () => {
    const sched = new ManualScheduler();
    const { c } = makeClient(sched);
    c.connect();
    await c.whenReady();
    await expect(c.login({ key: 'nope' })).rejects.toMatchObject({ kind: 'server', code: 2001 });
    await c.subscribe(['depth_update@BTCUSDT']);
    const closed = next<WsCloseInfo>((fn) => c.onClose(fn));
    server.sockets[0].terminate();
    await closed;
    const reconnected = next<void>((fn) => c.onReconnect(() => fn()));
    const before = server.received.length;
    sched.fire(100);
    await reconnected;
    expect(server.received.slice(before).map((r) => r.msg.method)).toEqual(['SUBSCRIBE']);
  });

  it('close() stops reconnecting, also while waiting for the backoff, and rejects later requests', async () => {
    const sched = new ManualScheduler();
    const { c } = makeClient(sched);
    const states: string[] = [];
    c.onStateChange((s) => states.push(s));
    c.connect();
    await c.whenReady();

    const closedOnServer = new Promise<number>((r) => server.sockets[0].once('close', (code) => r(code)));
    const info = next<WsCloseInfo>((fn) => c.onClose(fn));
    c.close();
    expect(await info).toEqual({ code: 1000, reason: '', willReconnect: false });
    expect(await closedOnServer).toBe(1000);
    expect(c.state).toBe('closed');
    expect(sched.shortDelays()).toEqual([]);
    expect(constructed).toBe(1);
    await expect(c.subscribe(['depth_update@BTCUSDT'])).rejects.toMatchObject({ kind: 'closed' });
    expect(states).toEqual(['connecting', 'open', 'closed']);

    // Second client: closed while a reconnect is pending.
    const sched2 = new ManualScheduler();
    const { c: c2 } = makeClient(sched2);
    c2.connect();
    await c2.whenReady();
    const lost = next<WsCloseInfo>((fn) => c2.onClose(fn));
    server.sockets[1].terminate();
    expect((await lost).willReconnect).toBe(true);
    expect(sched2.shortDelays()).toEqual([100]);
    c2.close();
    expect(sched2.shortDelays()).toEqual([]);
    expect(constructed).toBe(2);
  });

  it('retryNow() cuts a reconnect delay short and starts the backoff over, once the service is back', async () => {
    const sched = new ManualScheduler();
    const { c } = makeClient(sched, [], { reconnectJitter: 0 });
    c.connect();
    await c.whenReady();
    await c.subscribe(['depth_update@BTCUSDT']);
    expect(c.retryNow()).toBe(false); // open: nothing to cut short
    const port = (server.wss.address() as AddressInfo).port;

    // The service goes away: the delays grow while it stays away.
    let closed = next<WsCloseInfo>((fn) => c.onClose(fn));
    await server.close();
    await closed;
    for (const ms of [100, 200, 400]) {
      expect(sched.shortDelays()).toEqual([ms]);
      closed = next((fn) => c.onClose(fn));
      sched.fire(ms);
      await closed; // refused: nothing listens on the port
    }
    expect(sched.shortDelays()).toEqual([800]);

    // A sign it is back while it is not: one attempt now, then the delays start over.
    closed = next((fn) => c.onClose(fn));
    expect(c.retryNow()).toBe(true);
    expect(sched.shortDelays()).toEqual([]);
    await closed;
    expect(sched.shortDelays()).toEqual([100]);
    expect(constructed).toBe(5);

    // It is back on its port: retryNow() reconnects with no delay run out, and restores the streams.
    server = new TestServer(port);
    await new Promise<void>((r) => server.wss.once('listening', () => r()));
    const reconnected = next<void>((fn) => c.onReconnect(() => fn()));
    expect(c.retryNow()).toBe(true);
    expect(c.retryNow()).toBe(false); // an attempt is under way: no second socket
    await reconnected;
    expect(constructed).toBe(6);
    expect(c.state).toBe('open');
    // no reconnect delay left: only the keep-alive's next ping
    expect(sched.shortDelays()).toEqual([DEFAULT_PING_INTERVAL_MS]);
    expect(server.received.map((r) => [r.conn, r.msg.method, r.msg.params])).toEqual([
      [0, 'SUBSCRIBE', ['depth_update@BTCUSDT']],
    ]);

    c.close();
    expect(c.retryNow()).toBe(false);
  });

  it('pings on an interval and drops a connection that stays silent past the timeout', async () => {
    const sched = new ManualScheduler();
    const { c } = makeClient(sched, [], { pingIntervalMs: 1000, pingTimeoutMs: 2500 });
    c.connect();
    await c.whenReady();
    sched.fire(1000);
    const [ping] = await server.waitReceived(1);
    expect(ping.msg).toMatchObject({ method: 'PING' });
    expect(typeof ping.msg.id).toBe('number');
    // The PING answer is a message: it counts as liveness.
    const answered = next<unknown>((fn) => c.onMessage(fn));
    await answered;
    expect(c.state).toBe('open');

    server.mute.add('PING');
    sched.fire(1000); // t = 2000, silent since t = 1000
    await server.waitReceived(2);
    const lost = next<WsCloseInfo>((fn) => c.onClose(fn));
    sched.fire(1000); // t = 3000: still silent, 2000 ms < 2500
    await server.waitReceived(3);
    expect(c.state).toBe('open');
    sched.fire(1000); // t = 4000: 3000 ms of silence
    expect(await lost).toMatchObject({ code: 4000, willReconnect: true });
    expect(c.state).toBe('reconnecting');
  });
});
