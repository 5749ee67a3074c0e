// Real ccxt (npm, pinned) placing, listing, reading and cancelling stop orders through the
// facade's algo order routes, as ccxt 4.5 does on Binance USD-M (POST /fapi/v1/algoOrder with
// algoType=CONDITIONAL; { trigger: true } for the reads and cancels), and a stop that fires and
// closes the position. Prices stand still (clock paused): the test moves the mark and the house
// gives the liquidity.
import ccxt from 'ccxt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { houseLimit, setPrices } from '../../helpers/exchange-commands.ts';
import type { Creds } from '../../helpers/signed.ts';
import { account, binanceusdm, startService, type Service } from './helpers.ts';

const BTC = 'BTC/USDT:USDT';
const MARK = 96000;
let svc: Service;

beforeAll(async () => {
  svc = await startService();
  svc.venue.clock.pause();
  setPrices(svc.venue.exchange, 'BTCUSDT', { mark: MARK });
});
afterAll(async () => svc?.close());

describe('ccxt stop orders (one-way account)', () => {
  let c: Creds;
  let ex: any;
  beforeAll(async () => {
    c = account(svc.venue, 'ccxtalgo', 100_000, 'one_way');
    ex = binanceusdm(svc.base, c);
    await ex.loadMarkets();
    houseLimit(svc.venue.exchange, 2, MARK.toFixed(1), '0.020');
    const buy = await ex.createOrder(BTC, 'market', 'buy', 0.02);
    expect(buy.status).toBe('closed');
  });

  it('stopLossPrice: a STOP_MARKET algo order; fetchOpenOrders / fetchOrder / cancelOrder with { trigger: true }', async () => {
    const o = await ex.createOrder(BTC, 'market', 'sell', 0.02, undefined, { stopLossPrice: 95000, reduceOnly: true });
    // ccxt's unified type of a STOP_MARKET is market (its trigger price says it is a stop)
    expect(o).toMatchObject({ status: 'open', type: 'market', side: 'sell', amount: 0.02, triggerPrice: 95000 });
    expect(o.info).toMatchObject({ algoType: 'CONDITIONAL', orderType: 'STOP_MARKET', workingType: 'CONTRACT_PRICE' });
    expect(o.reduceOnly).toBe(true);
    const native = svc.venue.exchange.openConditionals(c.id, 'BTCUSDT');
    expect(native.map((n) => [n.id, n.trigger_direction, n.working_type, n.reduce_only])).toEqual([[o.id, 2, 2, true]]);
    // the plain open orders do not list it; the trigger ones do
    expect(await ex.fetchOpenOrders(BTC)).toEqual([]);
    const open = await ex.fetchOpenOrders(BTC, undefined, undefined, { trigger: true });
    expect(open.map((x: any) => [x.id, x.status, x.triggerPrice])).toEqual([[o.id, 'open', 95000]]);
    const got = await ex.fetchOrder(o.id, BTC, { trigger: true });
    expect(got).toMatchObject({ id: o.id, clientOrderId: o.clientOrderId, status: 'open' });
    const cancelled = await ex.cancelOrder(o.id, BTC, { trigger: true });
    expect(cancelled.id).toBe(o.id);
    expect(svc.venue.exchange.openConditionals(c.id)).toEqual([]);
    expect((await ex.fetchOrder(o.id, BTC, { trigger: true })).status).toBe('canceled');
    await expect(ex.cancelOrder(o.id, BTC, { trigger: true })).rejects.toThrow(/-2011/);
  });

  it('a trigger already reached is OrderImmediatelyFillable (-2021); a take-profit and a trailing stop are taken; cancelAllOrders', async () => {
    await expect(
      ex.createOrder(BTC, 'market', 'sell', 0.02, undefined, { stopLossPrice: 97000, reduceOnly: true }),
    ).rejects.toBeInstanceOf(ccxt.OrderImmediatelyFillable);
    const tp = await ex.createOrder(BTC, 'limit', 'sell', 0.02, 98000, { takeProfitPrice: 97500, reduceOnly: true });
    expect(tp).toMatchObject({ type: 'limit', price: 98000, triggerPrice: 97500, status: 'open' });
    expect(tp.info.orderType).toBe('TAKE_PROFIT');
    // trailingPercent: a TRAILING_STOP_MARKET (ccxt sends its activation as activationPrice)
    const trail = await ex.createOrder(BTC, 'market', 'sell', 0.02, undefined, {
      trailingPercent: 1,
      trailingTriggerPrice: 97000,
      reduceOnly: true,
      workingType: 'MARK_PRICE',
    });
    expect(trail.info).toMatchObject({
      orderType: 'TRAILING_STOP_MARKET',
      callbackRate: '1.0',
      activatePrice: '97000.0',
    });
    expect(svc.venue.exchange.conditional(c.id, { id: Number(trail.id) })).toMatchObject({
      callback_rate: '1.0',
      activation_price: '97000.0',
    });
    await ex.cancelAllOrders(BTC, { trigger: true });
    expect(svc.venue.exchange.openConditionals(c.id)).toEqual([]);
  });

  it('triggerPrice + reduceOnly on the mark fires when the mark falls through it: the long closes', async () => {
    const o = await ex.createOrder(BTC, 'market', 'sell', 0.02, undefined, {
      triggerPrice: 95500,
      reduceOnly: true,
      workingType: 'MARK_PRICE',
    });
    expect(o).toMatchObject({
      type: 'market',
      status: 'open',
      info: { orderType: 'STOP_MARKET', workingType: 'MARK_PRICE' },
    });
    houseLimit(svc.venue.exchange, 1, '95400.0', '0.020');
    setPrices(svc.venue.exchange, 'BTCUSDT', { mark: 95450 });
    const done = await ex.fetchOrder(o.id, BTC, { trigger: true });
    expect(done.status).toBe('closed');
    expect(done.info).toMatchObject({ algoStatus: 'FINISHED', actualType: 'MARKET', actualQty: '0.020' });
    const positions = await ex.fetchPositions([BTC]);
    expect(positions.filter((p: any) => p.contracts > 0)).toEqual([]);
    expect(svc.venue.exchange.positions(c.id)).toEqual([]);
    const fill = await ex.fetchOrder(done.info.actualOrderId, BTC);
    expect(fill).toMatchObject({ status: 'closed', side: 'sell', filled: 0.02, average: 95400, reduceOnly: true });
    const history = await ex.fetchOrders(BTC, undefined, undefined, { trigger: true });
    expect(history.map((x: any) => [x.id, x.status])).toContainEqual([o.id, 'closed']);
  });
});
