// Modify (PUT /fapi/v1/order, ccxt editOrder): a resting LIMIT order's price and total quantity
// through the exchange's amend command, answered as Binance's order; -5027 for no change,
// -2013 for an order that is not open, the core's refusals in Binance's codes; the user stream
// reports the modification as ORDER_TRADE_UPDATE x AMENDMENT.
import { cancelOrder } from '../../helpers/exchange-commands.ts';
import ccxt from 'ccxt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Side } from '../../../src-shared/enums.ts';
import type { Creds } from '../../helpers/signed.ts';
import { limit, pausedWithAsk } from './book.ts';
import { account, binanceusdm, collect, until, type Service } from './helpers.ts';
import { signedCall } from './raw.ts';

const BTC = 'BTC/USDT:USDT';
let svc: Service;
let mid: number;
const px = (k: number) => (mid + k).toFixed(1);

beforeAll(async () => {
  ({ svc, mid } = await pausedWithAsk('modmm', '0.050'));
});
afterAll(async () => svc?.close());

const put = (c: Creds, params: Record<string, string | number>) =>
  signedCall(svc.base, c, 'PUT', '/fapi/v1/order', params);

describe('PUT /fapi/v1/order', () => {
  it('modifies price and quantity in place; the native views agree', async () => {
    const c = account(svc.venue, 'mod1', 100_000, 'one_way');
    const ex = svc.venue.exchange;
    const id = Number(
      limit(svc.venue, c, { side: Side.BUY, price: px(-50), qty: '0.010', clientId: 'mod.1' }).order_id,
    );
    const r = await put(c, { symbol: 'BTCUSDT', side: 'BUY', orderId: id, quantity: '0.020', price: px(-60) });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({
      orderId: id,
      clientOrderId: 'mod.1',
      status: 'NEW',
      price: px(-60),
      origQty: '0.020',
      executedQty: '0.000',
      type: 'LIMIT',
      origType: 'LIMIT',
      positionSide: 'BOTH',
      timeInForce: 'GTC',
    });
    expect(ex.openOrders(c.id)[0]).toMatchObject({ id: String(id), price: px(-60), qty: '0.020' });
    // by client id, to a crossing price: it trades at once, against the resting ask
    const x = await put(c, {
      symbol: 'BTCUSDT',
      side: 'BUY',
      origClientOrderId: 'mod.1',
      quantity: '0.020',
      price: px(10),
    });
    expect(x.body).toMatchObject({
      orderId: id,
      status: 'FILLED',
      executedQty: '0.020',
      avgPrice: (mid + 5).toFixed(8),
    });
    expect(ex.positions(c.id)[0].quantity).toBe(0.02);
  });

  it('refusals in Binance terms; a refused modification leaves the order as it was', async () => {
    const c = account(svc.venue, 'mod2', 1_000, 'one_way');
    const ex = svc.venue.exchange;
    const id = Number(limit(svc.venue, c, { side: Side.BUY, price: px(-50), qty: '0.010' }).order_id);
    const before = ex.openOrders(c.id);
    const base = { symbol: 'BTCUSDT', side: 'BUY', orderId: id };
    expect((await put(c, { ...base, quantity: '0.010', price: px(-50) })).body).toEqual({
      code: -5027,
      msg: 'No need to modify the order.',
    });
    expect((await put(c, { ...base, quantity: '0.010', price: `${px(-50)}5` })).body.code).toBe(-4014);
    expect((await put(c, { ...base, quantity: '5.000', price: px(-50) })).body).toEqual({
      code: -2019,
      msg: 'Margin is insufficient.',
    });
    expect((await put(c, { ...base, quantity: '0.010', price: (mid * 2).toFixed(1) })).body.code).toBe(-4016);
    expect((await put(c, { ...base, side: 'SELL', quantity: '0.020', price: px(-50) })).body.code).toBe(-1130);
    expect((await put(c, { ...base, quantity: '0.020' })).body.code).toBe(-1102);
    expect((await put(c, { ...base, quantity: '0.020', price: px(-50), priceMatch: 'QUEUE' })).body.code).toBe(-1130);
    expect((await put(c, { ...base, orderId: 999999, quantity: '0.020', price: px(-50) })).body).toEqual({
      code: -2013,
      msg: 'Order does not exist.',
    });
    expect(ex.openOrders(c.id)).toEqual(before);
    cancelOrder(ex, c.id, { orderId: id });
    expect((await put(c, { ...base, quantity: '0.020', price: px(-50) })).body).toEqual({
      code: -2013,
      msg: 'Order does not exist.',
    });
  });

  it("a positionSide other than the order's is -4061, in either mode, and the order stays as it was", async () => {
    const ex = svc.venue.exchange;
    const shown = (c: Creds, id: number) => ex.openOrders(c.id).find((o) => Number(o.id) === id);
    const check = async (c: Creds, id: number, good: string, bad: string[], mode: string) => {
      const base = { symbol: 'BTCUSDT', side: 'BUY', orderId: id, quantity: '0.020', price: px(-55) };
      const before = shown(c, id);
      for (const positionSide of bad) {
        const r = await put(c, { ...base, positionSide });
        expect([r.status, r.body.code], `${mode} ${positionSide}`).toEqual([400, -4061]);
        expect(r.body.msg).toMatch(/^Order's position side does not match user's setting\./);
        expect(shown(c, id), `${mode} ${positionSide}`).toEqual(before);
      }
      const ok = await put(c, { ...base, positionSide: good });
      expect(ok.body).toMatchObject({ orderId: id, positionSide: good, price: px(-55), origQty: '0.020' });
    };
    const one = account(svc.venue, 'modps1', 100_000, 'one_way');
    await check(
      one,
      Number(limit(svc.venue, one, { side: Side.BUY, price: px(-50), qty: '0.010' }).order_id),
      'BOTH',
      ['LONG', 'SHORT'],
      'one-way',
    );
    const hedge = account(svc.venue, 'modps2', 100_000);
    await check(
      hedge,
      Number(limit(svc.venue, hedge, { side: Side.BUY, price: px(-50), qty: '0.010' }).order_id),
      'LONG',
      ['SHORT', 'BOTH'],
      'hedge',
    );
  });

  it("a reduce-only order's larger quantity trimmed back to its position is -5027, not a bad parameter", async () => {
    const c = account(svc.venue, 'mod4', 100_000, 'one_way');
    const long = await signedCall(svc.base, c, 'POST', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '0.010',
    });
    expect(long.status, JSON.stringify(long.body)).toBe(200);
    const close = await signedCall(svc.base, c, 'POST', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'LIMIT',
      timeInForce: 'GTC',
      quantity: '0.010',
      price: px(300),
      reduceOnly: 'true',
    });
    const base = { symbol: 'BTCUSDT', side: 'SELL', orderId: close.body.orderId };
    // 0.020 is trimmed to the 0.010 position: the order would rest as it does
    const r = await put(c, { ...base, quantity: '0.020', price: px(300) });
    expect([r.status, r.body]).toEqual([400, { code: -5027, msg: 'No need to modify the order.' }]);
    expect(svc.venue.exchange.openOrders(c.id)[0]).toMatchObject({ price: px(300), qty: '0.010' });
    // at a new price the same quantity is a modification, trimmed as ever
    const moved = await put(c, { ...base, quantity: '0.020', price: px(310) });
    expect(moved.body).toMatchObject({ status: 'NEW', price: px(310), origQty: '0.010', reduceOnly: true });
  });

  it('ccxt editOrder, and the AMENDMENT event on the user stream', async () => {
    const c = account(svc.venue, 'mod3', 100_000, 'one_way');
    const cx = binanceusdm(svc.base, c);
    await cx.loadMarkets();
    // the raw user stream, to see Binance's execution types
    const { listenKey } = await cx.fapiPrivatePostListenKey();
    const s = await collect(`${svc.base.replace('http', 'ws')}/binance/ws/${listenKey}`);
    const of = () => s.got.filter((x) => x.e === 'ORDER_TRADE_UPDATE');
    const updates = async (n: number) => {
      await until(() => of().length >= n);
      return of();
    };
    try {
      const o = await cx.createOrder(BTC, 'limit', 'buy', 0.01, Number(px(-80)));
      expect((await updates(1))[0].o).toMatchObject({ i: Number(o.id), x: 'NEW', X: 'NEW' });
      const e = await cx.editOrder(o.id, BTC, 'limit', 'buy', 0.03, Number(px(-90)));
      expect(e.id).toBe(o.id);
      expect(e.price).toBe(Number(px(-90)));
      expect(e.amount).toBe(0.03);
      expect(e.status).toBe('open');
      const got = await cx.fetchOrder(o.id, BTC);
      expect([got.price, got.amount]).toEqual([Number(px(-90)), 0.03]);
      await expect(cx.editOrder(o.id, BTC, 'limit', 'buy', 0.03, Number(px(-90)))).rejects.toBeInstanceOf(
        ccxt.OperationRejected,
      );
      await expect(cx.editOrder('999999', BTC, 'limit', 'buy', 0.03, Number(px(-90)))).rejects.toBeInstanceOf(
        ccxt.OrderNotFound,
      );
      const upd = await updates(2);
      expect(upd).toHaveLength(2);
      expect(upd[1].o).toMatchObject({ i: Number(o.id), x: 'AMENDMENT', X: 'NEW', p: px(-90), q: '0.030', z: '0' });
    } finally {
      await s.close();
    }
  });
});
