// The accurate-mode contract end to end: thousands of random book changes (bot orders,
// crossing orders, cancels) through a real service while the SDK's WsClient + LocalOrderBook
// follow over a real WebSocket, joined to REST snapshots (/fapi/v1/depth?with_id=true).
// Disruptions: a depth_update push dropped for the client (a gap), and server-side terminated
// connections (reconnect). At each checkpoint, once the feed has flushed, the local book
// equals the server's book level for level. Periodic verification is off, so only the deltas
// and the spec's resync rules keep the local book right.
import { cancelBotOrder, placeBotOrder } from '../../helpers/exchange-commands.ts';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toPriceLevels } from '../../../src-main/api/ws/depth-feed.ts';
import { dropNextPushes } from '../../../src-main/api/ws/test-hooks.ts';
import { startService, type ServiceHandle } from '../../../src-main/service.ts';
import { HOUSE_ACCOUNT } from '../../../src-main/trading/exchange.ts';
import type { PairState } from '../../../src-main/trading/pair-state.ts';
import { LocalOrderBook, type DepthSnapshot, type DepthUpdate } from '../../../src-shared/sdk/local-order-book.ts';
import { WsClient, type WebSocketConstructor } from '../../../src-shared/sdk/ws-client.ts';
import { until } from './ws-test-client.ts';
import { mulberry32 } from '../../helpers/seeded-random.ts';

const SYMBOL = 'BTCUSDT';
const STREAM = `depth_update@${SYMBOL}`;
const MID = 960_000; // ticks of 0.1

let svc: ServiceHandle;
let pair: PairState;
let ws: WsClient;
let book: LocalOrderBook;
/** Events received, with the connection they came on. */
const received: Array<{ conn: number; U: number; u: number; pu: number }> = [];
let conn = 0;
let snapshots = 0;
const errors: unknown[] = [];

// ------------------------------------------------------------------ seeded order flow

const rnd = mulberry32(20261125);
const int = (n: number): number => Math.floor(rnd() * n);
const live: number[] = [];
let levelChangesDriven = 0;

function step(): void {
  const ex = svc.venue.exchange;
  const before = pair.book.updateId;
  if (live.length > 0 && rnd() < 0.35) {
    const i = int(live.length);
    const id = live[i];
    live[i] = live[live.length - 1];
    live.pop();
    try {
      cancelBotOrder(ex, SYMBOL, id);
    } catch {
      // already filled
    }
  } else {
    const side = rnd() < 0.5 ? 1 : 2;
    const aggressive = rnd() < 0.15;
    const ticks = aggressive
      ? side === 1
        ? MID + int(40)
        : MID - int(40)
      : side === 1
        ? MID - 1 - int(150)
        : MID + 1 + int(150);
    const account = aggressive || rnd() < 0.5 ? HOUSE_ACCOUNT + 1 : HOUSE_ACCOUNT;
    const r = placeBotOrder(
      ex,
      {
        symbol: SYMBOL,
        side,
        position_side: side,
        position_action: 1,
        type: 1,
        price: (ticks / 10).toFixed(1),
        qty: ((2 + int(50)) / 1000).toFixed(3), // 2 lots and up: the min notional (100 USDT)
        time_in_force: aggressive && rnd() < 0.5 ? 2 : 1,
      },
      account,
    );
    if (r.status === 1 || r.status === 2) live.push(Number(r.order_id));
  }
  levelChangesDriven += pair.book.updateId - before;
}

/** `ops` commands, a few per timer turn so the feed, the socket and REST run in between. */
async function drive(ops: number, onOp?: (i: number) => void): Promise<void> {
  for (let i = 0; i < ops;) {
    for (let k = 0; k < 8 && i < ops; k++, i++) {
      step();
      onOp?.(i);
    }
    await new Promise((r) => setTimeout(r, 4));
  }
}

// ------------------------------------------------------------------ checks

async function checkpoint(label: string): Promise<void> {
  await until(
    () => book.state === 'live' && book.lastUpdateId === pair.book.updateId,
    8000,
    `${label}: local book to reach id ${pair.book.updateId}`,
  );
  // The engine's own consistency check first: a failure here is the engine's, not the feed's.
  expect(pair.book.audit(), `${label}: engine self-check`).toEqual([]);
  const view = pair.book.depth();
  expect(view.bids.length + view.asks.length, `${label}: the book is not empty`).toBeGreaterThan(20);
  expect(book.bids(), `${label}: bids`).toEqual(toPriceLevels(pair.math, view.bids));
  expect(book.asks(), `${label}: asks`).toEqual(toPriceLevels(pair.math, view.asks));
}

/** Each connection's events continue each other (U = previous u + 1, pu = previous u), except where noted. */
function holes(): Array<{ conn: number; expected: number; got: number }> {
  const out: Array<{ conn: number; expected: number; got: number }> = [];
  for (let i = 1; i < received.length; i++) {
    const a = received[i - 1];
    const b = received[i];
    if (a.conn === b.conn && b.U !== a.u + 1) out.push({ conn: b.conn, expected: a.u + 1, got: b.U });
  }
  return out;
}

beforeAll(async () => {
  svc = await startService({ dataDir: ':memory:', host: '127.0.0.1', port: 0 });
  pair = svc.venue.exchange.pairs.get(SYMBOL)!;
  for (let i = 0; i < 300; i++) step(); // a book to start from

  ws = new WsClient({
    url: `${svc.url.replace('http', 'ws')}/ws`,
    WebSocket: WebSocket as unknown as WebSocketConstructor,
    reconnectBaseMs: 20,
    reconnectJitter: 0,
    requestTimeoutMs: 5000,
  });
  book = new LocalOrderBook({
    symbol: SYMBOL,
    verifyIdleMs: 0,
    retryBaseMs: 20,
    onError: (e) => errors.push(e),
    fetchSnapshot: async (): Promise<DepthSnapshot> => {
      snapshots++;
      const r = await fetch(`${svc.url}/fapi/v1/depth?symbol=${SYMBOL}&with_id=true&limit=1000`);
      const body = (await r.json()) as { code: number; data: DepthSnapshot };
      if (body.code !== 0) throw new Error(`depth answered code ${body.code}`);
      return body.data;
    },
  });
  ws.onOpen(() => conn++);
  ws.on(STREAM, (data) => {
    const d = data as DepthUpdate;
    received.push({ conn, U: d.U, u: d.u, pu: d.pu ?? NaN });
    book.handleDelta(d);
  });
  ws.onReconnect(() => book.onReconnect());
  ws.onError((e) => errors.push(e));
  ws.connect();
  await ws.subscribe([STREAM]);
  book.start();
  await until(() => book.state === 'live', 5000, 'first sync');
});

afterAll(async () => {
  book?.dispose();
  ws?.close();
  await svc?.close();
});

describe('depth_update + REST snapshot keep a local book equal to the venue', () => {
  it('follows thousands of changes, a dropped event and forced disconnects', { timeout: 30_000 }, async () => {
    // 1. plain following: the deltas alone keep the book right
    await drive(1500);
    await checkpoint('after 1500 commands');
    expect(book.resyncCount).toBe(0);
    expect(snapshots).toBe(1);
    expect(holes()).toEqual([]);
    expect(received.every((e) => e.pu === e.U - 1 && e.u >= e.U)).toBe(true);
    const eventsSoFar = received.length;
    expect(eventsSoFar).toBeGreaterThan(5);

    // 2. one depth_update push is lost for this client: the next event reveals the gap,
    //    the book fetches a new snapshot and rejoins
    expect(dropNextPushes(svc.app.wsHub, STREAM, 1)).toBe(1);
    await drive(1200);
    await checkpoint('after a dropped event');
    expect(book.resyncCount).toBe(1);
    expect(snapshots).toBe(2);
    const gap = holes();
    expect(gap).toHaveLength(1);
    expect(gap[0].got).toBeGreaterThan(gap[0].expected);

    // 3. the server terminates the connection in the middle of the flow, twice; the flow goes
    //    on while the client is away and while it reconnects
    const connsBefore = conn;
    const terminateAll = (): void => {
      for (const c of svc.app.websocketServer.clients) c.terminate();
    };
    await drive(300);
    terminateAll();
    await drive(500);
    await until(() => conn === connsBefore + 1 && ws.state === 'open', 8000, 'first reconnect');
    await drive(200);
    terminateAll();
    await drive(500);
    await checkpoint('after two forced disconnects');
    expect(conn).toBe(connsBefore + 2);
    expect(book.resyncCount).toBeGreaterThanOrEqual(3);
    // within each connection the events stay contiguous
    expect(holes().filter((h) => h.conn > connsBefore)).toEqual([]);

    // 4. and keeps following afterwards without any further resync
    const resyncs = book.resyncCount;
    await drive(1500);
    await checkpoint('final');
    expect(book.resyncCount).toBe(resyncs);
    expect(levelChangesDriven).toBeGreaterThan(5000);
    expect(errors.filter((e) => !(e instanceof Error && /connection lost|closed/i.test(e.message)))).toEqual([]);
  });
});
