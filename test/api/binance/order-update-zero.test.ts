// ORDER_TRADE_UPDATE's `z` (the order's cumulative filled quantity) is "0" when nothing filled, on
// every execution type, as Binance writes it: NEW, CANCELED, EXPIRED and AMENDMENT alike (an
// order that filled shows its quantity at the pair's precision). Before, NEW said "0" and the
// others "0.000".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

describe('ORDER_TRADE_UPDATE z with nothing filled', () => {
  it('is "0" on NEW, AMENDMENT, CANCELED and EXPIRED', async () => {
    const c = account(svc.venue, 'zzero', 50_000, 'one_way');
    const s = await userStream(svc.base, c);
    try {
      const of = (id: number) =>
        s.got.filter((m) => m.e === 'ORDER_TRADE_UPDATE' && m.o.i === id).map((m) => `${m.o.x} z=${m.o.z}`);
      // resting, modified, cancelled
      const rest = await limitOrder(svc.base, c, 'BUY', '0.010', mid - 2_000);
      const put = await signedCall(svc.base, c, 'PUT', '/fapi/v1/order', {
        symbol: 'BTCUSDT',
        side: 'BUY',
        orderId: rest,
        quantity: '0.010',
        price: (mid - 2_100).toFixed(1),
      });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      const del = await signedCall(svc.base, c, 'DELETE', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: rest });
      expect(del.status, JSON.stringify(del.body)).toBe(200);
      await until(() => of(rest).length === 3);
      expect(of(rest)).toEqual(['NEW z=0', 'AMENDMENT z=0', 'CANCELED z=0']);
      // an IOC far from the book: expired at once with nothing filled
      const ioc = await limitOrder(svc.base, c, 'BUY', '0.010', mid - 2_000, 'IOC');
      await until(() => of(ioc).length === 2);
      expect(of(ioc)).toEqual(['NEW z=0', 'EXPIRED z=0']);
    } finally {
      await s.close();
    }
  });
});
