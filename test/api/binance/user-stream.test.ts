// The facade's user data stream over a real socket: DELETE /fapi/v1/listenKey ends the stream
// (the socket closes and nothing more is delivered), and an order placement sends only what
// Binance sends for one (ORDER_TRADE_UPDATE NEW), no ACCOUNT_UPDATE with reason DEPOSIT. A
// TRADE's running totals are the order's own, fills made while no stream was open included; a
// modification that trades at once is an AMENDMENT before its TRADE; a closed isolated position
// is reported isolated. `events=` picks the user events a stream sends; /private/ws without a
// listenKey is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { dataOf, signed, type Creds } from '../../helpers/signed.ts';
import {
  account,
  limitOrder,
  listenKeyCall,
  listenTo,
  quiet,
  startService,
  until,
  userStream,
  type Collected,
  type Service,
} from './helpers.ts';
import { signedCall } from './raw.ts';

let svc: Service;
let mid: number;

beforeAll(async () => {
  svc = await startService();
  mid = Math.round(svc.venue.exchange.pair('BTCUSDT')!.markPrice);
});
afterAll(async () => svc?.close());

type Stream = Collected;

const listen = (key: string, extra = '') => listenTo(svc.base, key, extra);
const keyCall = (method: 'POST' | 'DELETE', apiKey: string) => listenKeyCall(svc.base, method, apiKey);
const settle = quiet;
/** A user stream of a new key of `c`. */
const streamOf = (c: Creds) => userStream(svc.base, c);
const closeStream = (s: Stream) => s.close();

/** The stream's ORDER_TRADE_UPDATE events of order `id`, once `n` of them came (or 2 s passed). */
async function updates(s: Stream, id: number, n: number): Promise<any[]> {
  const of = () => s.got.filter((m) => m.e === 'ORDER_TRADE_UPDATE' && m.o.i === id).map((m) => m.o);
  await until(() => of().length >= n);
  await settle(); // and nothing more after them
  return of();
}

/** A one-way LIMIT order of `c` (GTC unless `tif`), its answer's orderId. */
const order = (c: Creds, side: 'BUY' | 'SELL', qty: string, price: number, tif = 'GTC') =>
  limitOrder(svc.base, c, side, qty, price, tif);

const pick = (o: any) => ({ x: o.x, X: o.X, p: o.p, l: o.l, z: o.z, ap: o.ap });
/** The average price `ap` of fills all at `price`: that price to 8 decimals (not rounded to the tick). */
const avg = (price: string) => Number(price).toFixed(8);

describe('user data stream', () => {
  it('DELETE listenKey closes the stream: no event after it', async () => {
    const c = account(svc.venue, 'usdel', 50_000, 'one_way');
    const { listenKey } = await keyCall('POST', c.apiKey);
    const s = await listen(listenKey);
    expect(await keyCall('DELETE', c.apiKey)).toEqual({});
    const code = await Promise.race([s.closed, new Promise<number>((r) => setTimeout(() => r(-1), 2000))]);
    expect(code, 'the socket closes').not.toBe(-1);
    const before = s.got.length;
    await order(c, 'BUY', '0.010', mid - 200);
    await settle();
    expect(s.got.length).toBe(before);
  });

  it('regenerating the API key ends the listenKey made with the old one: listenKeyExpired, then the socket closes', async () => {
    const c = account(svc.venue, 'usregen', 50_000, 'one_way');
    const { listenKey } = await keyCall('POST', c.apiKey);
    const s = await listen(listenKey);
    const fresh = dataOf(await signed(svc.app, c, 'POST', '/fapi/v1/account/apiKey/regenerate'));
    const code = await Promise.race([s.closed, new Promise<number>((r) => setTimeout(() => r(-1), 2000))]);
    expect(code, 'the socket closes').toBe(1000);
    expect(s.got.filter((m) => m.e === 'listenKeyExpired').map((m) => m.listenKey)).toEqual([listenKey]);
    // the old key can neither keep it alive nor make another; the new key gets a new one
    expect((await keyCall('POST', c.apiKey)).code).toBe(-2015);
    const next = (await keyCall('POST', fresh.api_key)).listenKey;
    expect(next).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(next).not.toBe(listenKey);
    // and the old listenKey no longer opens a stream
    const old = new WebSocket(`${svc.base.replace(/^http/, 'ws')}/binance/private/ws?listenKey=${listenKey}`);
    const refused = await new Promise<string>((r) => old.once('close', (code, why) => r(`${code} ${String(why)}`)));
    expect(refused).toBe('1008 This listenKey does not exist.');
  });

  it('a limit order placement sends ORDER_TRADE_UPDATE NEW and no ACCOUNT_UPDATE', async () => {
    const c = account(svc.venue, 'usnew', 50_000, 'one_way');
    const { listenKey } = await keyCall('POST', c.apiKey);
    const s = await listen(listenKey);
    const id = await order(c, 'BUY', '0.010', mid - 200);
    await settle();
    expect(s.got.map((m) => m.e)).toEqual(['ORDER_TRADE_UPDATE']);
    expect(s.got[0].o).toMatchObject({ x: 'NEW', X: 'NEW', i: id });
    s.ws.close();
    await s.closed;
  });

  it('an order partly filled before the stream opened: no NEW, and its TRADE carries the whole fill (FILLED)', async () => {
    const a = account(svc.venue, 'uspre', 50_000, 'one_way');
    const b = account(svc.venue, 'uspreb', 50_000, 'one_way');
    const price = mid + 100;
    const id = await order(a, 'SELL', '0.010', price);
    await order(b, 'BUY', '0.004', price, 'IOC');
    const s = await streamOf(a);
    await order(b, 'BUY', '0.006', price, 'IOC');
    const got = await updates(s, id, 1);
    const p = price.toFixed(1);
    expect(got.map(pick)).toEqual([{ x: 'TRADE', X: 'FILLED', p, l: '0.006', z: '0.010', ap: avg(p) }]);
    await closeStream(s);
  });

  it('a fill made between two streams counts in the next TRADE of the order', async () => {
    const a = account(svc.venue, 'usgap', 50_000, 'one_way');
    const b = account(svc.venue, 'usgapb', 50_000, 'one_way');
    const price = mid + 110;
    const p = price.toFixed(1);
    const first = await streamOf(a);
    const id = await order(a, 'SELL', '0.010', price);
    await order(b, 'BUY', '0.004', price, 'IOC');
    expect((await updates(first, id, 2)).map(pick)).toEqual([
      { x: 'NEW', X: 'NEW', p, l: '0', z: '0', ap: '0' },
      { x: 'TRADE', X: 'PARTIALLY_FILLED', p, l: '0.004', z: '0.004', ap: avg(p) },
    ]);
    await closeStream(first);
    await order(b, 'BUY', '0.003', price, 'IOC'); // no stream open
    const second = await streamOf(a);
    await order(b, 'BUY', '0.003', price, 'IOC');
    expect((await updates(second, id, 1)).map(pick)).toEqual([
      { x: 'TRADE', X: 'FILLED', p, l: '0.003', z: '0.010', ap: avg(p) },
    ]);
    await closeStream(second);
  });

  it('a modification that trades at once: AMENDMENT at the new price, then its TRADE', async () => {
    const a = account(svc.venue, 'usamend', 50_000, 'one_way');
    const b = account(svc.venue, 'usamendb', 50_000, 'one_way');
    const s = await streamOf(a);
    const low = (mid - 100).toFixed(1);
    const put = (id: number, qty: string, price: number) =>
      signedCall(svc.base, a, 'PUT', '/fapi/v1/order', {
        symbol: 'BTCUSDT',
        side: 'BUY',
        orderId: id,
        quantity: qty,
        price: price.toFixed(1),
      });
    // the whole order at once
    await order(b, 'SELL', '0.010', mid + 50);
    const whole = await order(a, 'BUY', '0.010', mid - 100);
    expect((await put(whole, '0.010', mid + 50)).status).toBe(200);
    const at = (mid + 50).toFixed(1);
    expect((await updates(s, whole, 3)).map(pick)).toEqual([
      { x: 'NEW', X: 'NEW', p: low, l: '0', z: '0', ap: '0' },
      { x: 'AMENDMENT', X: 'NEW', p: at, l: '0', z: '0', ap: '0' },
      { x: 'TRADE', X: 'FILLED', p: at, l: '0.010', z: '0.010', ap: avg(at) },
    ]);
    // part of it at once, the rest resting at the new price
    await order(b, 'SELL', '0.004', mid + 60);
    const part = await order(a, 'BUY', '0.010', mid - 100);
    expect((await put(part, '0.010', mid + 60)).status).toBe(200);
    const at2 = (mid + 60).toFixed(1);
    expect((await updates(s, part, 3)).map(pick)).toEqual([
      { x: 'NEW', X: 'NEW', p: low, l: '0', z: '0', ap: '0' },
      { x: 'AMENDMENT', X: 'NEW', p: at2, l: '0', z: '0', ap: '0' },
      { x: 'TRADE', X: 'PARTIALLY_FILLED', p: at2, l: '0.004', z: '0.004', ap: avg(at2) },
    ]);
    // a partly filled order modified: the AMENDMENT carries what it had filled
    expect((await put(part, '0.008', mid - 100)).status).toBe(200);
    expect((await updates(s, part, 4))[3]).toMatchObject({
      x: 'AMENDMENT',
      X: 'PARTIALLY_FILLED',
      q: '0.008',
      z: '0.004',
    });
    await closeStream(s);
  });

  it('a closed isolated position: ACCOUNT_UPDATE pa "0" with mt "isolated"', async () => {
    const a = account(svc.venue, 'usiso', 50_000, 'one_way');
    const b = account(svc.venue, 'usisob', 50_000, 'one_way');
    const mt = await signedCall(svc.base, a, 'POST', '/fapi/v1/marginType', {
      symbol: 'BTCUSDT',
      marginType: 'ISOLATED',
    });
    expect(mt.status, JSON.stringify(mt.body)).toBe(200);
    const s = await streamOf(a);
    const positions = () => s.got.filter((m) => m.e === 'ACCOUNT_UPDATE').flatMap((m) => m.a.P);
    await order(b, 'SELL', '0.010', mid + 20);
    await order(a, 'BUY', '0.010', mid + 20, 'IOC');
    await settle();
    expect(positions()).toEqual([expect.objectContaining({ s: 'BTCUSDT', pa: '0.010', mt: 'isolated', ps: 'BOTH' })]);
    await order(b, 'BUY', '0.010', mid - 20);
    await order(a, 'SELL', '0.010', mid - 20, 'IOC');
    await settle();
    expect(positions()[1]).toEqual(
      expect.objectContaining({ s: 'BTCUSDT', pa: '0', mt: 'isolated', iw: '0', ps: 'BOTH' }),
    );
    await closeStream(s);
  });

  it('events=A/B sends only the named user events; without events= all of them', async () => {
    const a = account(svc.venue, 'usevents', 50_000, 'one_way');
    const b = account(svc.venue, 'useventsb', 50_000, 'one_way');
    const { listenKey } = await keyCall('POST', a.apiKey);
    const orders = await listen(listenKey, '&events=ORDER_TRADE_UPDATE');
    const account_ = await listen(listenKey, '&events=ACCOUNT_UPDATE');
    const both = await listen(listenKey, '&events=ORDER_TRADE_UPDATE/ACCOUNT_UPDATE');
    const all = await listen(listenKey);
    await order(b, 'SELL', '0.010', mid + 30);
    const id = await order(a, 'BUY', '0.010', mid + 30, 'IOC');
    await updates(all, id, 2);
    const kinds = (s: Stream) => s.got.map((m) => m.e);
    expect(kinds(all)).toEqual(['ORDER_TRADE_UPDATE', 'TRADE_LITE', 'ORDER_TRADE_UPDATE', 'ACCOUNT_UPDATE']);
    expect(kinds(both)).toEqual(kinds(all).filter((e) => e !== 'TRADE_LITE'));
    expect(kinds(orders)).toEqual(['ORDER_TRADE_UPDATE', 'ORDER_TRADE_UPDATE']);
    expect(kinds(account_)).toEqual(['ACCOUNT_UPDATE']);
    for (const s of [orders, account_, both, all]) await closeStream(s);
  });

  it('events= naming an event the user stream does not have is refused: close 1008 naming it', async () => {
    const a = account(svc.venue, 'useventsx', 50_000, 'one_way');
    const { listenKey } = await keyCall('POST', a.apiKey);
    for (const [q, bad] of [
      ['&events=BOGUS', 'BOGUS'],
      ['&events=ORDER_TRADE_UPDATE/order_trade_update', 'order_trade_update'],
    ]) {
      const ws = new WebSocket(`${svc.base.replace(/^http/, 'ws')}/binance/private/ws?listenKey=${listenKey}${q}`);
      const closed = await Promise.race([
        new Promise<string>((r) => ws.once('close', (code, why) => r(`${code} ${String(why)}`))),
        new Promise<string>((r) => setTimeout(() => r('still open'), 2000)),
      ]);
      ws.terminate();
      expect(closed, q).toBe(`1008 Unknown user event '${bad}' in events=.`);
    }
  });

  it('/private/ws without a listenKey is refused: close 1008 with a reason', async () => {
    for (const q of ['', '?foo=1', '?events=ACCOUNT_UPDATE']) {
      const ws = new WebSocket(`${svc.base.replace(/^http/, 'ws')}/binance/private/ws${q}`);
      const closed = await Promise.race([
        new Promise<string>((r) => ws.once('close', (code, why) => r(`${code} ${String(why)}`))),
        new Promise<string>((r) => setTimeout(() => r('still open'), 2000)),
      ]);
      ws.terminate();
      expect(closed, q).toBe('1008 A listenKey is required: /private/ws?listenKey=<listenKey>.');
    }
  });
});
