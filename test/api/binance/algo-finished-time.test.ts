// When a fired algo order's order ends later than the fire (a STOP whose limit order rests, then is
// cancelled), the algo order changed to FINISHED then: ALGO_UPDATE FINISHED's T and the REST
// answers' updateTime are that end, not the fire, so the stream's T never goes back for one event
// type (Binance's ordering guarantee). The clock is paused and moved by the test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPrices } from '../../helpers/exchange-commands.ts';
import type { Creds } from '../../helpers/signed.ts';
import { account, startService, until, userStream, type Service } from './helpers.ts';
import { signedCall } from './raw.ts';

let svc: Service;
const MARK = 96000;

beforeAll(async () => {
  svc = await startService();
  svc.venue.clock.pause();
  setPrices(svc.venue.exchange, 'BTCUSDT', { mark: MARK });
});
afterAll(async () => svc?.close());

const ex = () => svc.venue.exchange;
const call = (c: Creds, method: 'GET' | 'POST' | 'DELETE', path: string, p: Record<string, string | number> = {}) =>
  signedCall(svc.base, c, method, path, p);

describe('a fired algo order whose order ends later', () => {
  it('FINISHED carries the time its order ended, on the stream and in GET algoOrder / allAlgoOrders', async () => {
    const c: Creds = account(svc.venue, 'algofintime', 100_000, 'one_way');
    const ws = await userStream(svc.base, c);
    try {
      const placed = await call(c, 'POST', '/fapi/v1/algoOrder', {
        algoType: 'CONDITIONAL',
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: 'STOP',
        quantity: '0.010',
        price: '96400',
        triggerPrice: '96500',
        workingType: 'MARK_PRICE',
      });
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      const algoId = placed.body.algoId as number;
      setPrices(ex(), 'BTCUSDT', { mark: 96600 });
      const fired = await call(c, 'GET', '/fapi/v1/algoOrder', { algoId });
      expect(fired.body).toMatchObject({ algoStatus: 'TRIGGERED', actualType: 'LIMIT' });
      const firedAt = fired.body.triggerTime as number;
      expect(fired.body.updateTime).toBe(firedAt);

      svc.venue.clock.advance(5_000);
      const cancelled = await call(c, 'DELETE', '/fapi/v1/order', {
        symbol: 'BTCUSDT',
        orderId: Number(fired.body.actualOrderId),
      });
      expect(cancelled.body.status).toBe('CANCELED');
      const endedAt = cancelled.body.updateTime as number;
      expect(endedAt).toBe(firedAt + 5_000);

      const algoEvents = () => ws.got.filter((m) => m.e === 'ALGO_UPDATE');
      await until(() => algoEvents().some((m) => m.o.X === 'FINISHED'));
      const finished = algoEvents().find((m) => m.o.X === 'FINISHED');
      const triggered = algoEvents().find((m) => m.o.X === 'TRIGGERED');
      expect([triggered.T, finished.T]).toEqual([firedAt, endedAt]);
      expect(finished.o).toMatchObject({ aid: algoId, tt: firedAt });

      const q = await call(c, 'GET', '/fapi/v1/algoOrder', { algoId });
      expect(q.body).toMatchObject({ algoStatus: 'FINISHED', triggerTime: firedAt, updateTime: endedAt });
      const all = await call(c, 'GET', '/fapi/v1/allAlgoOrders', { symbol: 'BTCUSDT' });
      expect(all.body.map((x: any) => [x.algoId, x.algoStatus, x.updateTime])).toEqual([[algoId, 'FINISHED', endedAt]]);
    } finally {
      await ws.close();
      setPrices(ex(), 'BTCUSDT', { mark: MARK });
    }
  });
});
