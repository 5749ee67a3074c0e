// The facade's user data stream over a real socket: DELETE /fapi/v1/listenKey ends the stream
// (the socket closes and nothing more is delivered), and an order placement sends only what
// Binance sends for one (ORDER_TRADE_UPDATE NEW), no ACCOUNT_UPDATE with reason DEPOSIT.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { account, startService, type Service } from './helpers.ts';
import { signedCall } from './raw.ts';

let svc: Service;
let mid: number;

beforeAll(async () => {
  svc = await startService();
  mid = Math.round(svc.venue.exchange.pair('BTCUSDT')!.markPrice);
});
afterAll(async () => svc?.close());

interface Stream {
  ws: WebSocket;
  got: any[];
  closed: Promise<number>;
}

async function listen(key: string): Promise<Stream> {
  const ws = new WebSocket(`${svc.base.replace(/^http/, 'ws')}/binance/private/ws?listenKey=${key}`);
  const got: any[] = [];
  ws.on('message', (d) => got.push(JSON.parse(String(d))));
  const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
  await new Promise<void>((res, rej) => (ws.once('open', () => res()), ws.once('error', rej)));
  return { ws, got, closed };
}

async function keyCall(method: 'POST' | 'DELETE', apiKey: string): Promise<any> {
  const r = await fetch(`${svc.base}/binance/fapi/v1/listenKey`, { method, headers: { 'x-mbx-apikey': apiKey } });
  return r.json();
}

const settle = () => new Promise((r) => setTimeout(r, 150));

describe('user data stream', () => {
  it('DELETE listenKey closes the stream: no event after it', async () => {
    const c = account(svc.venue, 'usdel', 50_000, 'one_way');
    const { listenKey } = await keyCall('POST', c.apiKey);
    const s = await listen(listenKey);
    expect(await keyCall('DELETE', c.apiKey)).toEqual({});
    const code = await Promise.race([s.closed, new Promise<number>((r) => setTimeout(() => r(-1), 2000))]);
    expect(code, 'the socket closes').not.toBe(-1);
    const before = s.got.length;
    const r = await signedCall(svc.base, c, 'POST', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.010',
      price: (mid - 200).toFixed(1),
      timeInForce: 'GTC',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    await settle();
    expect(s.got.length).toBe(before);
  });

  it('a limit order placement sends ORDER_TRADE_UPDATE NEW and no ACCOUNT_UPDATE', async () => {
    const c = account(svc.venue, 'usnew', 50_000, 'one_way');
    const { listenKey } = await keyCall('POST', c.apiKey);
    const s = await listen(listenKey);
    const r = await signedCall(svc.base, c, 'POST', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.010',
      price: (mid - 200).toFixed(1),
      timeInForce: 'GTC',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    await settle();
    expect(s.got.map((m) => m.e)).toEqual(['ORDER_TRADE_UPDATE']);
    expect(s.got[0].o).toMatchObject({ x: 'NEW', X: 'NEW', i: r.body.orderId });
    s.ws.close();
    await s.closed;
  });
});
