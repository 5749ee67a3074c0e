// GET /fapi/v1/openOrder (ccxt fetchOpenOrder): one open order of the account by orderId or
// origClientOrderId on a symbol; an order that is no longer open, another account's, or one on
// another symbol does not exist here (-2013), as on Binance.
import { cancelOrder, placeOrder } from '../../helpers/exchange-commands.ts';
import ccxt from 'ccxt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Side } from '../../../src-shared/enums.ts';
import type { Creds } from '../../helpers/signed.ts';
import { limit, pausedWithAsk } from './book.ts';
import { account, binanceusdm, type Service } from './helpers.ts';
import { signedCall } from './raw.ts';

const BTC = 'BTC/USDT:USDT';
let svc: Service;
let mid: number;
const px = (k: number) => (mid + k).toFixed(1);

beforeAll(async () => {
  ({ svc, mid } = await pausedWithAsk('oomm', '1.000'));
});
afterAll(async () => svc?.close());

const get = (c: Creds, params: Record<string, string | number>) =>
  signedCall(svc.base, c, 'GET', '/fapi/v1/openOrder', params);

describe('GET /fapi/v1/openOrder', () => {
  it('answers an open order by id or client id; a finished, foreign or other-symbol one is -2013', async () => {
    const c = account(svc.venue, 'oo1', 100_000, 'one_way');
    const other = account(svc.venue, 'oo2', 100_000, 'one_way');
    const ex = svc.venue.exchange;
    const id = Number(limit(svc.venue, c, { side: Side.BUY, price: px(-50), qty: '0.010', clientId: 'oo.1' }).order_id);
    const byId = await get(c, { symbol: 'BTCUSDT', orderId: id });
    expect(byId.status).toBe(200);
    expect(byId.body).toMatchObject({
      orderId: id,
      clientOrderId: 'oo.1',
      status: 'NEW',
      price: px(-50),
      origQty: '0.010',
      symbol: 'BTCUSDT',
    });
    expect((await get(c, { symbol: 'BTCUSDT', origClientOrderId: 'oo.1' })).body.orderId).toBe(id);
    const none = { code: -2013, msg: 'Order does not exist.' };
    expect((await get(c, { symbol: 'ETHUSDT', orderId: id })).body).toEqual(none);
    expect((await get(other, { symbol: 'BTCUSDT', orderId: id })).body).toEqual(none);
    expect((await get(c, { symbol: 'BTCUSDT', orderId: 999999 })).body).toEqual(none);
    expect((await get(c, { symbol: 'BTCUSDT' })).body.code).toBe(-1102);
    // filled: GET order still has it, openOrder no longer
    const filled = Number(
      placeOrder(ex, c.id, { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.010' })
        .order_id,
    );
    expect((await get(c, { symbol: 'BTCUSDT', orderId: filled })).body).toEqual(none);
    cancelOrder(ex, c.id, { orderId: id });
    expect((await get(c, { symbol: 'BTCUSDT', origClientOrderId: 'oo.1' })).body).toEqual(none);
  });

  it('ccxt fetchOpenOrder', async () => {
    const c = account(svc.venue, 'oo3', 100_000, 'one_way');
    const cx = binanceusdm(svc.base, c);
    await cx.loadMarkets();
    const o = await cx.createOrder(BTC, 'limit', 'buy', 0.02, Number(px(-40)));
    const got = await cx.fetchOpenOrder(o.id, BTC);
    expect([got.id, got.status, got.price, got.amount]).toEqual([o.id, 'open', Number(px(-40)), 0.02]);
    await cx.cancelOrder(o.id, BTC);
    await expect(cx.fetchOpenOrder(o.id, BTC)).rejects.toBeInstanceOf(ccxt.OrderNotFound);
  });
});
