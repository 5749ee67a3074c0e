// LocalOrderBook following a WsClient's connection: the book leaves 'live' the moment the
// socket drops, fetches no snapshot while it is down, and is 'live' again only after the
// client has reconnected, re-subscribed and a new snapshot has been joined to new deltas.
// The WsClient runs over a fake socket the test opens and drops explicitly; every timer
// (reconnect backoff, request timeouts) is on a manual scheduler.

import { describe, expect, it } from 'vitest';
import {
  LocalOrderBook,
  type BookState,
  type DepthSnapshot,
  type DepthUpdate,
  type PriceLevel,
} from '../../../src-shared/sdk/local-order-book.ts';
import { WsClient, type WebSocketLike } from '../../../src-shared/sdk/ws-client.ts';
import { ManualScheduler } from '../../helpers/manual-scheduler.ts';

const STREAM = 'depth_update@BTCUSDT';

/** A WebSocket the test drives: it answers every request by id (in a microtask). */
class FakeSocket implements WebSocketLike {
  static all: FakeSocket[] = [];
  readonly url: string;
  readyState = 0;
  binaryType = 'blob';
  readonly sent: Array<{ method: string; params?: unknown; id: number }> = [];
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code?: number; reason?: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;

  constructor(url: string) {
    this.url = url;
    FakeSocket.all.push(this);
  }
  send(data: string): void {
    const m = JSON.parse(data) as { method: string; params?: unknown; id: number };
    this.sent.push(m);
    queueMicrotask(() => this.onmessage?.({ data: JSON.stringify({ id: m.id, result: null }) }));
  }
  close(): void {
    this.readyState = 3;
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  drop(): void {
    this.readyState = 3;
    this.onclose?.({ code: 1006, reason: '' });
  }
  push(stream: string, data: unknown): void {
    this.onmessage?.({ data: JSON.stringify({ stream, data }) });
  }
}

/** Lets promise callbacks run (no time passes). */
const flush = (): Promise<void> => new Promise((r) => setImmediate(r));

function ev(U: number, u: number, b: PriceLevel[] = [], a: PriceLevel[] = []): DepthUpdate {
  return { e: 'depthUpdate', E: 0, s: 'BTCUSDT', U, u, pu: U - 1, b, a };
}

function setup() {
  FakeSocket.all = [];
  const sched = new ManualScheduler();
  const ws = new WsClient({
    url: 'ws://fake/ws',
    WebSocket: FakeSocket,
    scheduler: sched,
    reconnectBaseMs: 100,
    reconnectJitter: 0,
    requestTimeoutMs: 60_000,
  });
  ws.onError(() => {});
  const fetches: Array<(s: DepthSnapshot) => void> = [];
  const book = new LocalOrderBook({
    symbol: 'BTCUSDT',
    fetchSnapshot: () => new Promise<DepthSnapshot>((resolve) => fetches.push(resolve)),
    scheduler: sched,
    verifyIdleMs: 0,
    onError: () => {},
  });
  const states: BookState[] = [];
  book.onStateChange((s) => states.push(s));
  ws.on(STREAM, (d) => book.handleDelta(d as DepthUpdate));
  book.followConnection(ws);
  const socket = (i: number): FakeSocket => FakeSocket.all[i];
  return { sched, ws, book, states, fetches, socket };
}

/** Connected, subscribed, and live at id 7 with bid 100 x 2 and ask 101 x 1. */
async function liveBook() {
  const t = setup();
  t.ws.connect();
  t.socket(0).open();
  await t.ws.subscribe([STREAM]);
  t.book.start();
  t.socket(0).push(STREAM, ev(6, 7, [['100', '2']]));
  t.fetches[0]({ id: 6, bids: [['100', '1']], asks: [['101', '1']] });
  await flush();
  expect(t.book.state).toBe('live');
  return t;
}

describe('LocalOrderBook.followConnection', () => {
  it('leaves live as soon as the socket drops and is live again only after reconnect and a new snapshot', async () => {
    const t = await liveBook();

    t.socket(0).drop();
    expect(t.ws.state).toBe('reconnecting');
    expect(t.book.state).toBe('resyncing');
    // The last content stays visible while it cannot be trusted.
    expect(t.book.bestBid()).toEqual(['100', '2']);

    // First attempt after the backoff is refused: still down, and no snapshot is fetched
    // for a feed that cannot deliver the deltas to join it to.
    t.sched.advance(100);
    expect(FakeSocket.all).toHaveLength(2);
    t.socket(1).drop();
    expect(t.book.state).toBe('resyncing');
    expect(t.fetches).toHaveLength(1);

    // Second attempt opens: the client re-subscribes, and only then the book re-initialises.
    t.sched.advance(200);
    t.socket(2).open();
    expect(t.ws.state).toBe('open');
    expect(t.fetches).toHaveLength(1);
    await flush();
    expect(t.socket(2).sent.map((m) => [m.method, m.params])).toEqual([['SUBSCRIBE', [STREAM]]]);
    expect(t.fetches).toHaveLength(2);
    expect(t.book.state).toBe('resyncing');

    t.socket(2).push(STREAM, ev(20, 21, [['100', '5']]));
    t.fetches[1]({
      id: 20,
      bids: [
        ['100', '3'],
        ['99', '1'],
      ],
      asks: [['101', '4']],
    });
    await flush();
    expect(t.book.state).toBe('live');
    expect(t.book.lastUpdateId).toBe(21);
    expect(t.book.bids()).toEqual([
      ['100', '5'],
      ['99', '1'],
    ]);
    expect(t.states).toEqual(['live', 'resyncing', 'live']);
    expect(t.book.resyncCount).toBe(1);
  });

  it('ignores a snapshot that was in flight when the connection dropped', async () => {
    const t = await liveBook();
    t.socket(0).push(STREAM, ev(9, 9)); // a gap: re-initialisation starts a fetch
    expect(t.book.state).toBe('resyncing');
    expect(t.fetches).toHaveLength(2);
    t.socket(0).drop();
    t.fetches[1]({ id: 9, bids: [['100', '9']], asks: [] });
    await flush();
    expect(t.book.state).toBe('resyncing');
    expect(t.book.bestBid()).toEqual(['100', '2']);
  });

  it('stays out of live after close()', async () => {
    const t = await liveBook();
    t.ws.close();
    expect(t.book.state).toBe('resyncing');
    await flush();
    t.sched.advance(60_000);
    expect(t.book.state).toBe('resyncing');
    expect(t.fetches).toHaveLength(1);
  });

  it('also follows a first connection that failed (WsClient.onReconnect does not fire for it)', async () => {
    const t = setup();
    t.ws.connect();
    t.socket(0).drop();
    expect(t.ws.state).toBe('reconnecting');
    t.sched.advance(100);
    t.socket(1).open();
    await t.ws.subscribe([STREAM]);
    t.book.start();
    expect(t.fetches).toHaveLength(1);
    t.fetches[0]({ id: 3, bids: [['100', '1']], asks: [] });
    await flush();
    expect(t.book.state).toBe('live');
  });

  it('started while the connection is down, it fetches its first snapshot only once it is back', async () => {
    const t = setup();
    t.ws.connect();
    t.socket(0).open();
    await t.ws.subscribe([STREAM]);
    t.socket(0).drop();
    t.book.start();
    expect(t.fetches).toHaveLength(0);
    t.sched.advance(100);
    t.socket(1).open();
    await flush();
    expect(t.fetches).toHaveLength(1);
    t.fetches[0]({ id: 3, bids: [['100', '1']], asks: [] });
    await flush();
    expect(t.book.state).toBe('live');
  });

  it('onDisconnect takes a simple-mode book out of simple mode until the reconnect', async () => {
    const sched = new ManualScheduler();
    const book = new LocalOrderBook({
      fetchSnapshot: () => Promise.reject(new Error('down')),
      scheduler: sched,
      snapshotRetries: 0,
      onError: () => {},
    });
    book.start();
    await flush();
    expect(book.state).toBe('simple');
    book.onDisconnect();
    expect(book.state).toBe('syncing');
    book.handleSnapshotPush({ u: 5, bids: [['1', '1']], asks: [] });
    expect(book.bids()).toEqual([]);
    // No retry timer survives the disconnect.
    expect(sched.timers.size).toBe(0);
  });
});
