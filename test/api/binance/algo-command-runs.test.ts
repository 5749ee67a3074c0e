// A conditional order fired by one entry of a batch and ended by a later entry of the same batch:
// the user stream says each entry in turn (command-runs.ts), the ALGO_UPDATEs too, so FINISHED
// comes with the entry that ended the fired order. Before, the first entry's events already said
// FINISHED (the fired order's state once the whole batch had run), ahead of the entry that
// cancelled it. Prices stand still (clock paused); liquidity is the house's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { houseLimit, placeOrder, setPrices } from '../../helpers/exchange-commands.ts';
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

describe('ALGO_UPDATE of a batch whose entries fire a conditional order and end it', () => {
  it('TRIGGERED with the entry that fired it, FINISHED with the entry that ended its order', async () => {
    const ex = svc.venue.exchange;
    const c = account(svc.venue, 'algoruns', 100_000, 'one_way');
    houseLimit(ex, 2, MARK.toFixed(1), '0.010');
    placeOrder(ex, c.id, { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.010' });
    const ws = await userStream(svc.base, c);
    try {
      // a stop-limit closing the long of 0.010 when the last price falls to 95500, its limit far
      // above the book so that the order it places rests
      const stop = await signedCall(svc.base, c, 'POST', '/fapi/v1/algoOrder', {
        algoType: 'CONDITIONAL',
        symbol: 'BTCUSDT',
        side: 'SELL',
        type: 'STOP',
        timeInForce: 'GTC',
        quantity: '0.010',
        price: '97000',
        reduceOnly: 'true',
        triggerPrice: '95500',
        workingType: 'CONTRACT_PRICE',
      });
      expect(stop.status, JSON.stringify(stop.body)).toBe(200);
      await until(() => ws.got.some((m) => m.e === 'ALGO_UPDATE'));
      const from = ws.got.length;
      houseLimit(ex, 1, '95400.0', '0.002');
      houseLimit(ex, 1, '95300.0', '0.008');
      // entry 1 trades the last price down to the trigger (the stop fires and its order rests,
      // trimmed to the 0.008 left); entry 2 closes the rest, which cancels the fired order
      const batch = await signedCall(svc.base, c, 'POST', '/fapi/v1/batchOrders', {
        batchOrders: JSON.stringify([
          { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.002', reduceOnly: 'true' },
          { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.008', reduceOnly: 'true' },
        ]),
      });
      expect(batch.status, JSON.stringify(batch.body)).toBe(200);
      const ids = (batch.body as Array<{ orderId: number }>).map((b) => b.orderId);
      const seq = () =>
        ws.got
          .slice(from)
          .filter((m) => m.e !== 'TRADE_LITE')
          .map((m) =>
            m.e === 'ALGO_UPDATE'
              ? `ALGO ${m.o.X}`
              : m.e === 'ORDER_TRADE_UPDATE'
                ? `${ids.includes(m.o.i) ? `entry ${ids.indexOf(m.o.i) + 1}` : 'fired'} ${m.o.x}`
                : `${m.e} pa=${m.a.P[0]?.pa}`,
          );
      await until(() => seq().includes('ALGO FINISHED') && seq().at(-1) === 'ACCOUNT_UPDATE pa=0');
      expect(seq()).toEqual([
        'entry 1 NEW',
        'entry 1 TRADE',
        'ALGO TRIGGERED',
        'fired NEW',
        'ACCOUNT_UPDATE pa=0.008',
        'entry 2 NEW',
        'entry 2 TRADE',
        'fired CANCELED',
        'ALGO FINISHED',
        'ACCOUNT_UPDATE pa=0',
      ]);
    } finally {
      await ws.close();
    }
  });
});
