// The user stream of a batch (POST / PUT batchOrders): the entries run one after another and their
// events reach the stream together (one commit), yet the stream says each change in turn as
// Binance does: one event per change, the same order's second modification its own AMENDMENT, and
// each event's figures (`b` / `a`, `p` / `q`, ACCOUNT_UPDATE's position) as they stood right after
// that change, not after the whole batch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Creds } from '../../helpers/signed.ts';
import { account, limitOrder, startService, until, userStream, type Service } from './helpers.ts';
import { signedCall } from './raw.ts';

let svc: Service;
let mid: number;

beforeAll(async () => {
  svc = await startService();
  svc.venue.clock.pause();
  mid = Math.round(svc.venue.exchange.pair('BTCUSDT')!.markPrice);
});
afterAll(async () => svc?.close());

const money = (x: number) => x.toFixed(8);
const px = (x: number) => x.toFixed(1);

/** The events of kind `e` once `n` of them came (or 2 s passed). */
async function events(s: { got: any[] }, e: string, n: number): Promise<any[]> {
  const of = () => s.got.filter((m) => m.e === e);
  await until(() => of().length >= n);
  return of();
}

const batch = (c: Creds, method: 'POST' | 'PUT', entries: object[]) =>
  signedCall(svc.base, c, method, '/fapi/v1/batchOrders', { batchOrders: JSON.stringify(entries) });

describe('a batch on the user stream', () => {
  it('PUT batchOrders modifying one order twice: two AMENDMENTs, each with its own terms and notionals', async () => {
    const a = account(svc.venue, 'bsamend', 50_000, 'one_way');
    const id = await limitOrder(svc.base, a, 'BUY', '0.010', mid - 300);
    const other = await limitOrder(svc.base, a, 'BUY', '0.002', mid - 400);
    const s = await userStream(svc.base, a);
    const r = await batch(a, 'PUT', [
      { symbol: 'BTCUSDT', side: 'BUY', orderId: id, quantity: '0.020', price: px(mid - 310) },
      { symbol: 'BTCUSDT', side: 'BUY', orderId: other, quantity: '0.004', price: px(mid - 400) },
      { symbol: 'BTCUSDT', side: 'BUY', orderId: id, quantity: '0.030', price: px(mid - 320) },
    ]);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.map((x: any) => x.status)).toEqual(['NEW', 'NEW', 'NEW']);
    const got = (await events(s, 'ORDER_TRADE_UPDATE', 3)).map((m) => m.o);
    const otherBefore = 0.002 * (mid - 400);
    const otherAfter = 0.004 * (mid - 400);
    expect(got.map((o) => ({ i: o.i, x: o.x, p: o.p, q: o.q, b: o.b, a: o.a }))).toEqual([
      { i: id, x: 'AMENDMENT', p: px(mid - 310), q: '0.020', b: money(0.02 * (mid - 310) + otherBefore), a: money(0) },
      {
        i: other,
        x: 'AMENDMENT',
        p: px(mid - 400),
        q: '0.004',
        b: money(0.02 * (mid - 310) + otherAfter),
        a: money(0),
      },
      { i: id, x: 'AMENDMENT', p: px(mid - 320), q: '0.030', b: money(0.03 * (mid - 320) + otherAfter), a: money(0) },
    ]);
    await s.close();
  });

  it('POST batchOrders: each NEW with the notionals of the orders placed so far', async () => {
    const a = account(svc.venue, 'bsnew', 50_000, 'one_way');
    const s = await userStream(svc.base, a);
    const entries = [
      { side: 'BUY', quantity: '0.010', price: px(mid - 300) },
      { side: 'SELL', quantity: '0.005', price: px(mid + 300) },
      { side: 'BUY', quantity: '0.003', price: px(mid - 400) },
    ].map((e) => ({ symbol: 'BTCUSDT', type: 'LIMIT', timeInForce: 'GTC', ...e }));
    const r = await batch(a, 'POST', entries);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const ids = r.body.map((x: any) => x.orderId);
    const got = (await events(s, 'ORDER_TRADE_UPDATE', 3)).map((m) => m.o);
    const b1 = 0.01 * (mid - 300);
    const a2 = 0.005 * (mid + 300);
    const b3 = b1 + 0.003 * (mid - 400);
    expect(got.map((o) => ({ i: o.i, x: o.x, b: o.b, a: o.a }))).toEqual([
      { i: ids[0], x: 'NEW', b: money(b1), a: money(0) },
      { i: ids[1], x: 'NEW', b: money(b1), a: money(a2) },
      { i: ids[2], x: 'NEW', b: money(b3), a: money(a2) },
    ]);
    await s.close();
  });

  it('POST batchOrders of two takers: each order NEW, TRADE, then the ACCOUNT_UPDATE of its own fill', async () => {
    const a = account(svc.venue, 'bstake', 50_000, 'one_way');
    const maker = account(svc.venue, 'bstakem', 50_000, 'one_way');
    await limitOrder(svc.base, maker, 'SELL', '0.010', mid + 20);
    const s = await userStream(svc.base, a);
    const entry = {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'IOC',
      price: px(mid + 20),
      newOrderRespType: 'RESULT',
    };
    const r = await batch(a, 'POST', [
      { ...entry, quantity: '0.004' },
      { ...entry, quantity: '0.006' },
    ]);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.map((x: any) => x.status)).toEqual(['FILLED', 'FILLED']);
    await events(s, 'ACCOUNT_UPDATE', 2);
    const said = s.got
      .filter((m) => m.e === 'ORDER_TRADE_UPDATE' || m.e === 'ACCOUNT_UPDATE')
      .map((m) => (m.e === 'ACCOUNT_UPDATE' ? `ACCOUNT_UPDATE ${m.a.P[0]?.pa}` : `${m.o.x} ${m.o.i} ${m.o.z}`));
    const [x, y] = r.body.map((o: any) => o.orderId);
    expect(said).toEqual([
      `NEW ${x} 0`,
      `TRADE ${x} 0.004`,
      'ACCOUNT_UPDATE 0.004',
      `NEW ${y} 0`,
      `TRADE ${y} 0.006`,
      'ACCOUNT_UPDATE 0.010',
    ]);
    await s.close();
  });
});
