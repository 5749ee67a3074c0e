// Figures of the user stream that come from the account's state, over a real socket:
// ORDER_TRADE_UPDATE `b` / `a` are the open bid / ask notional of the order's positionRisk entry
// (as positionRisk's bidNotional / askNotional), and ACCOUNT_UPDATE `cr` is the realized PnL the
// position accumulated, the closed position's entry (pa "0") included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Creds } from '../../helpers/signed.ts';
import {
  account,
  limitOrder,
  ORDER_UPDATE_ALIKE,
  ORDER_UPDATE_FIELDS,
  startService,
  until,
  userStream,
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

const stream = (c: Creds) => userStream(svc.base, c);
const order = (c: Creds, side: 'BUY' | 'SELL', qty: string, price: number, tif = 'GTC') =>
  limitOrder(svc.base, c, side, qty, price, tif);

/** The events of kind `e` once `n` of them came (or 2 s passed). */
async function events(s: { got: any[] }, e: string, n: number): Promise<any[]> {
  const of = () => s.got.filter((m) => m.e === e);
  await until(() => of().length >= n);
  return of();
}

const money = (x: number) => x.toFixed(8);

describe('user stream figures', () => {
  it('ORDER_TRADE_UPDATE b / a: the open bid and ask notional, as positionRisk reports them', async () => {
    const a = account(svc.venue, 'ufnot', 50_000, 'one_way');
    const s = await stream(a);
    const buy = await order(a, 'BUY', '0.010', mid - 300);
    const sell = await order(a, 'SELL', '0.005', mid + 300);
    const got = (await events(s, 'ORDER_TRADE_UPDATE', 2)).map((m) => m.o);
    const bid = money(0.01 * (mid - 300));
    expect(got.map((o) => ({ i: o.i, x: o.x, b: o.b, a: o.a }))).toEqual([
      { i: buy, x: 'NEW', b: bid, a: money(0) },
      { i: sell, x: 'NEW', b: bid, a: money(0.005 * (mid + 300)) },
    ]);
    const risk = await signedCall(svc.base, a, 'GET', '/fapi/v3/positionRisk', { symbol: 'BTCUSDT' });
    expect(risk.body).toEqual([expect.objectContaining({ bidNotional: got[1].b, askNotional: got[1].a })]);
    s.ws.close();
  });

  it("ORDER_TRADE_UPDATE o: Binance's fields in Binance's order, for a NEW, a TRADE and a CANCELED alike", async () => {
    const a = account(svc.venue, 'ufkeys', 50_000, 'one_way');
    const b = account(svc.venue, 'ufkeysb', 50_000, 'one_way');
    const s = await stream(a);
    await order(b, 'SELL', '0.010', mid + 20);
    const taker = await order(a, 'BUY', '0.010', mid + 20, 'IOC'); // NEW, TRADE
    const resting = await order(a, 'BUY', '0.010', mid - 300); // NEW
    await signedCall(svc.base, a, 'DELETE', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: String(resting) });
    const got = await events(s, 'ORDER_TRADE_UPDATE', 4);
    expect(got.map((m) => m.o.x)).toEqual(['NEW', 'TRADE', 'NEW', 'CANCELED']);
    for (const m of got) {
      expect(Object.keys(m.o)).toEqual(ORDER_UPDATE_FIELDS);
      expect(m.o).toMatchObject({ ...ORDER_UPDATE_ALIKE, T: m.T, ps: 'BOTH' });
    }
    // T / o.T: the times REST gives the same order and fill (time, the fill's time, updateTime)
    const rest = async (path: string, id: number) =>
      (await signedCall(svc.base, a, 'GET', path, { symbol: 'BTCUSDT', orderId: String(id) })).body;
    const [fill] = await rest('/fapi/v1/userTrades', taker);
    const [takerOrder, restingOrder] = [await rest('/fapi/v1/order', taker), await rest('/fapi/v1/order', resting)];
    expect(got.map((m) => m.o.T)).toEqual([takerOrder.time, fill.time, restingOrder.time, restingOrder.updateTime]);
    s.ws.close();
  });

  it('ACCOUNT_UPDATE cr: the realized PnL the position accumulated, its close included', async () => {
    const a = account(svc.venue, 'ufcr', 50_000, 'one_way');
    const b = account(svc.venue, 'ufcrb', 50_000, 'one_way');
    const s = await stream(a);
    await order(b, 'SELL', '0.010', mid + 20);
    await order(a, 'BUY', '0.010', mid + 20, 'IOC');
    await order(b, 'BUY', '0.004', mid + 40);
    await order(a, 'SELL', '0.004', mid + 40, 'IOC'); // realizes 0.004 x 20
    await order(b, 'BUY', '0.006', mid + 50);
    await order(a, 'SELL', '0.006', mid + 50, 'IOC'); // 0.006 x 30 more, and closes it
    const P = (await events(s, 'ACCOUNT_UPDATE', 3)).flatMap((m) => m.a.P);
    expect(P.map((p: any) => ({ pa: p.pa, cr: p.cr }))).toEqual([
      { pa: '0.010', cr: '0' },
      { pa: '0.006', cr: '0.08' },
      { pa: '0', cr: '0.26' },
    ]);
    s.ws.close();
  });
});

describe('a cancel of several orders', () => {
  // Binance sends one CANCELED per order, in turn: each one's b / a are the open notionals right
  // after that order's cancel, the last one's what is left of the pair's orders
  for (const [name, cancel] of [
    [
      'DELETE allOpenOrders',
      (c: Creds) => signedCall(svc.base, c, 'DELETE', '/fapi/v1/allOpenOrders', { symbol: 'BTCUSDT' }),
    ],
    [
      'DELETE batchOrders',
      (c: Creds, ids: number[]) =>
        signedCall(svc.base, c, 'DELETE', '/fapi/v1/batchOrders', {
          symbol: 'BTCUSDT',
          orderIdList: JSON.stringify(ids),
        }),
    ],
  ] as const)
    it(`${name}: each CANCELED's b / a as they stand right after that order's cancel`, async () => {
      const a = account(svc.venue, `ufcancel-${name.length}`, 50_000, 'one_way');
      const kept = await order(a, 'BUY', '0.002', mid - 500);
      const ids = [
        await order(a, 'BUY', '0.010', mid - 300),
        await order(a, 'SELL', '0.005', mid + 300),
        await order(a, 'BUY', '0.003', mid - 400),
      ];
      const s = await stream(a);
      if (name === 'DELETE allOpenOrders') ids.unshift(kept);
      const r = await cancel(a, ids);
      expect(r.status).toBe(200);
      const got = (await events(s, 'ORDER_TRADE_UPDATE', ids.length)).map((m) => m.o);
      expect(got.map((o) => o.x)).toEqual(ids.map(() => 'CANCELED'));
      // the notionals left after each cancel, in the order the events came
      const open = new Map<number, { side: string; n: number }>([
        [kept, { side: 'BUY', n: 0.002 * (mid - 500) }],
        [ids.at(-3)!, { side: 'BUY', n: 0.01 * (mid - 300) }],
        [ids.at(-2)!, { side: 'SELL', n: 0.005 * (mid + 300) }],
        [ids.at(-1)!, { side: 'BUY', n: 0.003 * (mid - 400) }],
      ]);
      const expected = got.map((o) => {
        open.delete(o.i);
        const sum = (side: string) => [...open.values()].filter((x) => x.side === side).reduce((t, x) => t + x.n, 0);
        return { i: o.i, b: money(sum('BUY')), a: money(sum('SELL')) };
      });
      expect(new Set(got.map((o) => o.i))).toEqual(new Set(ids));
      expect(got.map((o) => ({ i: o.i, b: o.b, a: o.a }))).toEqual(expected);
      s.ws.close();
    });
});
