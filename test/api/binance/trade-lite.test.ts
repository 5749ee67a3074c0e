// TRADE_LITE, Binance's "fast trade stream" of the USD-M user stream: one per fill of a TRADE
// execution, with the order's q / p / c / S / i and the fill's L / l / t / m and time T, sent
// ahead of that fill's ORDER_TRADE_UPDATE (nautilus_trader acts on it); a stream opened with
// `events=TRADE_LITE` gets it alone. Before, the name was taken in `events=` but the event was
// never sent, so such a stream stayed silent. Prices stand still (clock paused); liquidity is the house's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { houseLimit, setPrices } from '../../helpers/exchange-commands.ts';
import { account, listenKeyCall, listenTo, startService, until, userStream, type Service } from './helpers.ts';
import { signedCall } from './raw.ts';

let svc: Service;
const MARK = 96000;

beforeAll(async () => {
  svc = await startService();
  svc.venue.clock.pause();
  setPrices(svc.venue.exchange, 'BTCUSDT', { mark: MARK });
});
afterAll(async () => svc?.close());

describe('TRADE_LITE', () => {
  it('one per fill, ahead of its TRADE, with the fill and the order; alone on events=TRADE_LITE', async () => {
    const ex = svc.venue.exchange;
    const c = account(svc.venue, 'tradelite', 100_000, 'one_way');
    const ws = await userStream(svc.base, c);
    const lite = await listenTo(
      svc.base,
      (await listenKeyCall(svc.base, 'POST', c.apiKey)).listenKey,
      '&events=TRADE_LITE',
    );
    const liteGot = lite.got;
    try {
      houseLimit(ex, 2, '96010.0', '0.004');
      houseLimit(ex, 2, '96020.0', '0.006');
      const buy = await signedCall(svc.base, c, 'POST', '/fapi/v1/order', {
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: 'MARKET',
        quantity: '0.010',
        newClientOrderId: 'lite-1',
      });
      expect(buy.status, JSON.stringify(buy.body)).toBe(200);
      const id = (buy.body as { orderId: number }).orderId;
      await until(() => ws.got.some((m) => m.e === 'ACCOUNT_UPDATE') && liteGot.length >= 2);
      expect(
        ws.got.filter((m) => m.e !== 'ACCOUNT_UPDATE').map((m) => (m.e === 'TRADE_LITE' ? 'LITE' : m.o.x)),
      ).toEqual(['NEW', 'LITE', 'TRADE', 'LITE', 'TRADE']);
      const trades = ws.got.filter((m) => m.e === 'ORDER_TRADE_UPDATE' && m.o.x === 'TRADE');
      const lites = ws.got.filter((m) => m.e === 'TRADE_LITE');
      for (const [n, l] of lites.entries()) {
        const t = trades[n].o;
        expect(l).toEqual({
          e: 'TRADE_LITE',
          E: expect.any(Number),
          T: t.T,
          s: 'BTCUSDT',
          q: '0.010',
          p: '0',
          m: false,
          c: 'lite-1',
          S: 'BUY',
          L: t.L,
          l: t.l,
          t: t.t,
          i: id,
        });
      }
      expect(lites.map((l) => [l.L, l.l])).toEqual([
        ['96010.0', '0.004'],
        ['96020.0', '0.006'],
      ]);
      // the filtered stream: the two TRADE_LITEs and nothing else
      expect(liteGot.map((m) => `${m.e} ${m.l}`)).toEqual(['TRADE_LITE 0.004', 'TRADE_LITE 0.006']);
    } finally {
      await lite.close();
      await ws.close();
    }
  });
});
