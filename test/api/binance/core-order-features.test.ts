// Order features the core keeps so both surfaces agree: time in force and reduce-only
// of natively placed orders as the facade reports them, post-only / FOK refusals that leave no
// record, EXPIRED_IN_MATCH for a self-trade, the open-order limit (-2025), and
// ACCOUNT_CONFIG_UPDATE for a leverage change made natively. Real ccxt where it applies.
import { placeOrder } from '../../helpers/exchange-commands.ts';
import ccxt from 'ccxt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_OPEN_ORDERS_PER_PAIR } from '../../../src-main/trading/order-checks.ts';
import { ladder, midOf } from './book.ts';
import { account, binanceusdm, collect, startService, until, type Service } from './helpers.ts';

const BTC = 'BTC/USDT:USDT';
let svc: Service;
let mid: number;
const px = (k: number) => (mid + k).toFixed(1);

beforeAll(async () => {
  svc = await startService();
  ladder(svc.venue, 'cmm');
  mid = midOf(svc.venue);
});
afterAll(async () => svc?.close());

const ordersOf = (id: number) =>
  Number((svc.venue.db.prepare('SELECT COUNT(*) AS n FROM orders WHERE account_id = ?').get(id) as { n: number }).n);

describe('orders placed natively, read through the facade', () => {
  it('report their time in force and reduce-only', async () => {
    const c = account(svc.venue, 'ctif', 100_000, 'one_way');
    const ex = binanceusdm(svc.base, c);
    const x = svc.venue.exchange;
    placeOrder(x, c.id, { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.010' });
    const gtx = placeOrder(x, c.id, {
      symbol: 'BTCUSDT',
      side: 1,
      position_side: 1,
      position_action: 1,
      type: 1,
      price: px(-100),
      qty: '0.010',
      time_in_force: 4,
    });
    const ro = placeOrder(x, c.id, {
      symbol: 'BTCUSDT',
      side: 2,
      position_side: 1,
      position_action: 2,
      type: 1,
      price: px(100),
      qty: '0.010',
      reduce_only: true,
    });
    const g = await ex.fetchOrder(gtx.order_id, BTC);
    expect(g.info.timeInForce).toBe('GTX');
    expect(g.postOnly).toBe(true);
    expect(g.info.reduceOnly).toBe(false);
    const r = await ex.fetchOrder(ro.order_id, BTC);
    expect(r.info.timeInForce).toBe('GTC');
    expect(r.reduceOnly).toBe(true);
    const open = await ex.fetchOpenOrders(BTC);
    expect(open.map((o: any) => [o.id, o.info.timeInForce, o.info.reduceOnly]).sort()).toEqual(
      [
        [gtx.order_id, 'GTX', false],
        [ro.order_id, 'GTC', true],
      ].sort(),
    );
    await ex.cancelAllOrders(BTC);
    await ex.createOrder(BTC, 'market', 'sell', 0.01, undefined, { reduceOnly: true });
  });
});

describe('refusals', () => {
  it('post-only that would take and FOK that cannot fill: OrderNotFillable on ccxt, 3022 / 3023 natively, no record on either', async () => {
    const c = account(svc.venue, 'cref');
    const ex = binanceusdm(svc.base, c);
    await expect(
      ex.createOrder(BTC, 'limit', 'buy', 0.01, Number(px(10)), { postOnly: true, positionSide: 'LONG' }),
    ).rejects.toBeInstanceOf(ccxt.OrderNotFillable);
    await expect(
      ex.createOrder(BTC, 'limit', 'buy', 5, Number(px(30)), { timeInForce: 'FOK', positionSide: 'LONG' }),
    ).rejects.toBeInstanceOf(ccxt.OrderNotFillable);
    expect(ordersOf(c.id)).toBe(0);
    expect(await ex.fetchOrders(BTC)).toHaveLength(0);
    const x = svc.venue.exchange;
    expect(() =>
      placeOrder(x, c.id, {
        symbol: 'BTCUSDT',
        side: 1,
        position_side: 1,
        position_action: 1,
        type: 1,
        price: px(10),
        qty: '0.010',
        time_in_force: 4,
      }),
    ).toThrow(expect.objectContaining({ code: 3022 }));
    expect(() =>
      placeOrder(x, c.id, {
        symbol: 'BTCUSDT',
        side: 1,
        position_side: 1,
        position_action: 1,
        type: 1,
        price: px(30),
        qty: '5.000',
        time_in_force: 3,
      }),
    ).toThrow(expect.objectContaining({ code: 3023 }));
    expect(ordersOf(c.id)).toBe(0);
  });

  it(`the ${MAX_OPEN_ORDERS_PER_PAIR + 1}th open order on a pair is -2025 (OperationRejected)`, async () => {
    const c = account(svc.venue, 'cmax', 1_000_000);
    const ex = binanceusdm(svc.base, c);
    for (let i = 0; i < MAX_OPEN_ORDERS_PER_PAIR; i++) {
      placeOrder(svc.venue.exchange, c.id, {
        symbol: 'BTCUSDT',
        side: 1,
        position_side: 1,
        position_action: 1,
        type: 1,
        price: px(-200 - i),
        qty: '0.002',
      });
    }
    const err = await ex
      .createOrder(BTC, 'limit', 'buy', 0.002, Number(px(-500)), { positionSide: 'LONG' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ccxt.OperationRejected);
    expect(String(err)).toContain('-2025');
    await ex.cancelAllOrders(BTC);
  });
});

describe('client order ids', () => {
  it("Binance's characters pass through to the native record; the venue's generated form is BadRequest", async () => {
    const c = account(svc.venue, 'ccid');
    const ex = binanceusdm(svc.base, c);
    const o = await ex.createOrder(BTC, 'limit', 'buy', 0.01, Number(px(-80)), {
      positionSide: 'LONG',
      clientOrderId: 'my.bot:1/a',
    });
    expect(o.clientOrderId).toBe('my.bot:1/a');
    expect(svc.venue.exchange.openOrders(c.id, 'BTCUSDT').map((r) => r.client_order_id)).toEqual(['my.bot:1/a']);
    await expect(
      ex.createOrder(BTC, 'limit', 'buy', 0.01, Number(px(-80)), { positionSide: 'LONG', clientOrderId: 'api.77' }),
    ).rejects.toBeInstanceOf(ccxt.BadRequest);
    await ex.cancelOrder(undefined, BTC, { origClientOrderId: 'my.bot:1/a' });
    expect(svc.venue.exchange.openOrders(c.id, 'BTCUSDT')).toHaveLength(0);
  });
});

describe('self-trade prevention', () => {
  it('the taker that meets its own resting order is EXPIRED_IN_MATCH, in the answer and in GET order', async () => {
    const c = account(svc.venue, 'cstp');
    const ex = binanceusdm(svc.base, c);
    const ask = await ex.createOrder(BTC, 'limit', 'sell', 0.01, Number(px(5)), { positionSide: 'SHORT' });
    const taker = await ex.createOrder(BTC, 'limit', 'buy', 0.01, Number(px(5)), {
      positionSide: 'LONG',
      newOrderRespType: 'RESULT',
    });
    expect(taker.info.status).toBe('EXPIRED_IN_MATCH');
    expect(taker.status).toBe('expired');
    const got = await ex.fetchOrder(taker.id, BTC);
    expect(got.info.status).toBe('EXPIRED_IN_MATCH');
    // the maker rests untouched, and an IOC leftover stays plain EXPIRED
    expect((await ex.fetchOrder(ask.id, BTC)).info.status).toBe('NEW');
    await ex.cancelOrder(ask.id, BTC);
    const ioc = await ex.createOrder(BTC, 'limit', 'buy', 0.01, Number(px(-50)), {
      positionSide: 'LONG',
      timeInForce: 'IOC',
      newOrderRespType: 'RESULT',
    });
    expect(ioc.info.status).toBe('EXPIRED');
  });
});

describe('user stream', () => {
  it('ORDER_TRADE_UPDATE: NEW, then X EXPIRED_IN_MATCH for the taker a self-trade expired', async () => {
    const c = account(svc.venue, 'cstw');
    const ex = binanceusdm(svc.base, c);
    const { listenKey } = await ex.fapiPrivatePostListenKey();
    const s = await collect(`${svc.base.replace('http', 'ws')}/binance/ws/${listenKey}`);
    const got = s.got;
    try {
      const x = svc.venue.exchange;
      placeOrder(x, c.id, {
        symbol: 'BTCUSDT',
        side: 2,
        position_side: 2,
        position_action: 1,
        type: 1,
        price: px(5),
        qty: '0.010',
      });
      const taker = placeOrder(x, c.id, {
        symbol: 'BTCUSDT',
        side: 1,
        position_side: 1,
        position_action: 1,
        type: 1,
        price: px(5),
        qty: '0.010',
      });
      expect(taker.status).toBe(6);
      const mine = () => got.filter((m) => m.e === 'ORDER_TRADE_UPDATE' && m.o.i === Number(taker.order_id));
      await until(() => mine().length >= 2);
      expect(mine().map((m) => [m.o.x, m.o.X])).toEqual([
        ['NEW', 'NEW'],
        ['EXPIRED', 'EXPIRED_IN_MATCH'],
      ]);
      await ex.cancelAllOrders(BTC);
    } finally {
      await s.close();
    }
  });

  it('ACCOUNT_CONFIG_UPDATE for a leverage change made through the native API', async () => {
    const c = account(svc.venue, 'ccfg');
    const ex = binanceusdm(svc.base, c);
    const { listenKey } = await ex.fapiPrivatePostListenKey();
    const s = await collect(`${svc.base.replace('http', 'ws')}/binance/ws/${listenKey}`);
    const got = s.got;
    try {
      svc.venue.exchange.execute({ kind: 'setLeverage', accountId: c.id, symbol: 'BTCUSDT', leverage: 9 });
      await until(() => got.length > 0);
      expect(got.filter((m) => m.e === 'ACCOUNT_CONFIG_UPDATE').map((m) => m.ac)).toEqual([{ s: 'BTCUSDT', l: 9 }]);
      // the same leverage again changes nothing and says nothing; through the facade it is announced too
      svc.venue.exchange.execute({ kind: 'setLeverage', accountId: c.id, symbol: 'BTCUSDT', leverage: 9 });
      await ex.setLeverage(11, BTC);
      await until(() => got.length >= 2);
      expect(got.filter((m) => m.e === 'ACCOUNT_CONFIG_UPDATE').map((m) => m.ac.l)).toEqual([9, 11]);
    } finally {
      await s.close();
    }
  });
});
