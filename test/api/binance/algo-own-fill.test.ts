// A conditional order fired by its own account's fill: the user stream tells the fill first (the
// order's NEW and TRADE), then the ALGO_UPDATE TRIGGERED and the order the fire placed, as it
// happened. Before, the batch's ALGO_UPDATEs went out before every ORDER_TRADE_UPDATE of it, so the
// TRIGGERED and the placed order's NEW came before the TRADE that caused the fire.
// Prices stand still (clock paused); liquidity is the house's.
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

describe('a conditional order fired by its own account fill', () => {
  it('TRADE of the fill, then ALGO TRIGGERED, then the placed order', async () => {
    const ex = svc.venue.exchange;
    const c = account(svc.venue, 'ownfire', 100_000, 'one_way');
    houseLimit(ex, 2, MARK.toFixed(1), '0.010');
    placeOrder(ex, c.id, { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.010' });
    expect(ex.positions(c.id)[0]?.quantity).toBe(0.01);
    const ws = await userStream(svc.base, c);
    try {
      // a stop on the last price at 95500 closing 0.010; the account's own buy at 95400 trades
      // the last price down to it
      const stop = await signedCall(svc.base, c, 'POST', '/fapi/v1/algoOrder', {
        algoType: 'CONDITIONAL',
        symbol: 'BTCUSDT',
        side: 'SELL',
        type: 'STOP_MARKET',
        quantity: '0.010',
        reduceOnly: 'true',
        triggerPrice: '95500',
        workingType: 'CONTRACT_PRICE',
      });
      expect(stop.status, JSON.stringify(stop.body)).toBe(200);
      await until(() => ws.got.some((m) => m.e === 'ALGO_UPDATE'));
      const from = ws.got.length;
      houseLimit(ex, 2, '95400.0', '0.010');
      houseLimit(ex, 1, '95300.0', '0.010');
      const buy = await signedCall(svc.base, c, 'POST', '/fapi/v1/order', {
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: 'LIMIT',
        timeInForce: 'GTC',
        price: '95400',
        quantity: '0.010',
      });
      expect(buy.status, JSON.stringify(buy.body)).toBe(200);
      const seq = () =>
        ws.got
          .slice(from)
          .filter((m) => m.e === 'ALGO_UPDATE' || m.e === 'ORDER_TRADE_UPDATE')
          .map((m) =>
            m.e === 'ALGO_UPDATE'
              ? `ALGO ${m.o.X}`
              : `ORDER ${m.o.i === buy.body.orderId ? 'buy' : 'stop'} ${m.o.x} ${m.o.X}`,
          );
      await until(() => seq().includes('ALGO FINISHED'));
      expect(seq()).toEqual([
        'ORDER buy NEW NEW',
        'ORDER buy TRADE FILLED',
        'ALGO TRIGGERED',
        'ORDER stop NEW NEW',
        'ORDER stop TRADE FILLED',
        'ALGO FINISHED',
      ]);
      // the fill that fired it first, at its price; the stop's at the house bid
      const trades = ws.got.slice(from).filter((m) => m.e === 'ORDER_TRADE_UPDATE' && m.o.x === 'TRADE');
      expect(trades.map((m) => m.o.L)).toEqual(['95400.0', '95300.0']);
    } finally {
      await ws.close();
    }
  });
});
