// The Binance dialect's priceProtect on algo orders (a bot's STOP_MARKET sent as Binance's own
// connectors and most bots send it, priceProtect=TRUE): taken, shown in every answer and in
// ALGO_UPDATE's pP, and honoured: a reached trigger is held back while the last price and the mark
// are more than exchangeInfo's triggerProtect apart, and fires at the first mark within it.
// Prices stand still (clock paused): the mark is moved by the test, liquidity is the house's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { houseLimit, placeOrder, setPrices } from '../../helpers/exchange-commands.ts';
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
const call = (c: Creds, method: 'GET' | 'POST', path: string, p: Record<string, string | number> = {}) =>
  signedCall(svc.base, c, method, path, p);

describe('priceProtect on algo orders', () => {
  it("exchangeInfo's triggerProtect is the threshold the venue applies", async () => {
    const r: any = await fetch(`${svc.base}/binance/fapi/v1/exchangeInfo`).then((x) => x.json());
    expect(r.symbols.find((x: any) => x.symbol === 'BTCUSDT').triggerProtect).toBe('0.0500');
  });

  it('a protected STOP_MARKET is taken, held while the mark is over 5 % from the last price, then fires', async () => {
    const c = account(svc.venue, 'algo-pp', 100_000, 'one_way');
    houseLimit(ex(), 2, MARK.toFixed(1), '0.010');
    placeOrder(ex(), c.id, { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.010' });
    expect(ex().pair('BTCUSDT')!.lastPriceTicks).toBe(MARK * 10);
    const ws = await userStream(svc.base, c);
    try {
      const placed = await call(c, 'POST', '/fapi/v1/algoOrder', {
        algoType: 'CONDITIONAL',
        symbol: 'BTCUSDT',
        side: 'SELL',
        type: 'STOP_MARKET',
        quantity: '0.010',
        triggerPrice: '95000',
        workingType: 'MARK_PRICE',
        priceProtect: 'TRUE',
      });
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      expect(placed.body).toMatchObject({ algoStatus: 'NEW', priceProtect: true, workingType: 'MARK_PRICE' });
      const algoId = placed.body.algoId as number;
      await until(() => ws.got.some((m) => m.e === 'ALGO_UPDATE'));
      expect(ws.got.find((m) => m.e === 'ALGO_UPDATE').o).toMatchObject({ aid: algoId, X: 'NEW', pP: true });

      houseLimit(ex(), 1, '89990.0', '0.010');
      setPrices(ex(), 'BTCUSDT', { mark: 90000 }); // reached, but 6.7 % under the last price 96,000
      const held = await call(c, 'GET', '/fapi/v1/algoOrder', { algoId });
      expect(held.body).toMatchObject({ algoStatus: 'NEW', priceProtect: true, actualOrderId: '' });
      const open = await call(c, 'GET', '/fapi/v1/openAlgoOrders', { symbol: 'BTCUSDT' });
      expect(open.body.map((o: any) => [o.algoId, o.priceProtect])).toEqual([[algoId, true]]);

      // a print near the mark brings the last price within 5 %: the next mark fires it
      houseLimit(ex(), 2, '90100.0', '0.002');
      placeOrder(ex(), account(svc.venue, 'algo-pp-taker', 100_000, 'one_way').id, {
        symbol: 'BTCUSDT',
        side: 1,
        position_side: 1,
        position_action: 1,
        type: 2,
        qty: '0.002',
      });
      setPrices(ex(), 'BTCUSDT', { mark: 90000 });
      const fired = await call(c, 'GET', '/fapi/v1/algoOrder', { algoId });
      expect(fired.body).toMatchObject({ algoStatus: 'FINISHED', priceProtect: true, actualQty: '0.010' });
      expect(ex().positions(c.id)).toHaveLength(0);
      await until(() => ws.got.filter((m) => m.e === 'ALGO_UPDATE').length >= 3);
      expect(ws.got.filter((m) => m.e === 'ALGO_UPDATE').map((m) => [m.o.X, m.o.pP])).toEqual([
        ['NEW', true],
        ['TRIGGERED', true],
        ['FINISHED', true],
      ]);
    } finally {
      await ws.close();
      setPrices(ex(), 'BTCUSDT', { mark: MARK });
    }
  });

  it('FALSE or absent: not protected (priceProtect false); TRUE on a TRAILING_STOP_MARKET is -1130', async () => {
    const c = account(svc.venue, 'algo-pp2', 100_000, 'one_way');
    const base = { algoType: 'CONDITIONAL', symbol: 'BTCUSDT', side: 'SELL', type: 'STOP_MARKET', quantity: '0.010' };
    const off = await call(c, 'POST', '/fapi/v1/algoOrder', { ...base, triggerPrice: '85000', priceProtect: 'FALSE' });
    const none = await call(c, 'POST', '/fapi/v1/algoOrder', { ...base, triggerPrice: '84000' });
    expect([off.body.priceProtect, none.body.priceProtect], JSON.stringify(off.body)).toEqual([false, false]);
    const trailing = await call(c, 'POST', '/fapi/v1/algoOrder', {
      ...base,
      type: 'TRAILING_STOP_MARKET',
      callbackRate: '1',
      priceProtect: 'true',
    });
    expect([trailing.status, trailing.body.code]).toEqual([400, -1130]);
    expect(trailing.body.msg).toMatch(/priceProtect.*STOP and TAKE_PROFIT/);
    expect(ex().openConditionals(c.id)).toHaveLength(2);
  });
});
