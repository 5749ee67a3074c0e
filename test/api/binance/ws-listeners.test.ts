// The facade's stream hub costs the exchange nothing while no facade WebSocket is open: its level
// and trade listeners come with the first connection and go with the last. A depth stream opened
// after a time without connections starts a fresh window (U = pu + 1), not one with a hole.
import { placeOrder } from '../../helpers/exchange-commands.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { account, startService, type Service } from './helpers.ts';

let svc: Service;
let mm: ReturnType<typeof account>;
let mid: number;
const px = (k: number) => (mid + k).toFixed(1);
/** The market maker's BTCUSDT limit bid of 0.010 at `k` from the mid: a level change. */
const mmBid = (k: number) =>
  placeOrder(svc.venue.exchange, mm.id, {
    symbol: 'BTCUSDT',
    side: 1,
    position_side: 1,
    position_action: 1,
    type: 1,
    price: px(k),
    qty: '0.010',
  });

beforeAll(async () => {
  svc = await startService();
  mm = account(svc.venue, 'lsmm');
  mid = Math.round(svc.venue.exchange.pair('BTCUSDT')!.markPrice);
});
afterAll(async () => svc?.close());

const counts = () => ({
  level: svc.venue.exchange.events.count('level'),
  trade: svc.venue.exchange.events.count('trade'),
});

async function open(path: string): Promise<{ ws: WebSocket; next: () => Promise<any> }> {
  const ws = new WebSocket(`${svc.base.replace(/^http/, 'ws')}/binance${path}`);
  const queue: any[] = [];
  const waiters: Array<(m: any) => void> = [];
  ws.on('message', (d) => {
    const m = JSON.parse(String(d));
    const w = waiters.shift();
    if (w) w(m);
    else queue.push(m);
  });
  await new Promise<void>((res, rej) => (ws.once('open', () => res()), ws.once('error', rej)));
  return { ws, next: () => (queue.length > 0 ? Promise.resolve(queue.shift()) : new Promise((r) => waiters.push(r))) };
}

async function closeWs(ws: WebSocket): Promise<void> {
  const closed = new Promise<void>((r) => ws.once('close', () => r()));
  ws.close();
  await closed;
  // the server's close handler runs on its side of the socket: give it a turn
  for (let i = 0; i < 50 && counts().level !== base.level; i++) await new Promise((r) => setTimeout(r, 10));
}

let base: { level: number; trade: number };

describe('facade stream hub, listeners on demand', () => {
  it('attaches level and trade listeners with the first connection, detaches them with the last', async () => {
    base = counts();
    const a = await open('/ws/btcusdt@depth');
    const withOne = counts();
    expect(withOne.level).toBe(base.level + 1);
    expect(withOne.trade).toBe(base.trade + 1);
    const b = await open('/ws/btcusdt@trade');
    expect(counts()).toEqual(withOne); // one set for the hub, not one per connection
    await closeWs(a.ws);
    expect(counts()).toEqual(withOne); // b still open
    await closeWs(b.ws);
    expect(counts()).toEqual(base);
  });

  it('a depth stream opened after a time without connections has no hole (U = pu + 1)', async () => {
    const first = await open('/ws/btcusdt@depth');
    mmBid(-50);
    const d1 = await first.next();
    expect(d1.U).toBe(d1.pu + 1);
    await closeWs(first.ws);
    // level changes nobody listens to
    for (let i = 1; i <= 3; i++) mmBid(-50 - i);
    const idBefore = svc.venue.exchange.pair('BTCUSDT')!.book.depth(0).updateId;
    expect(idBefore).toBeGreaterThan(d1.u);
    const second = await open('/ws/btcusdt@depth');
    mmBid(-60);
    const d2 = await second.next();
    expect(d2.pu).toBeGreaterThanOrEqual(idBefore);
    expect(d2.U).toBe(d2.pu + 1);
    expect(d2.b).toContainEqual([px(-60), '0.010']);
    await closeWs(second.ws);
  });
});
