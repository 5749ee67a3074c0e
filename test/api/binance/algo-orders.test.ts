// The Binance dialect's algo (conditional) orders over HTTP: POST / GET / DELETE algoOrder,
// openAlgoOrders, allAlgoOrders, DELETE algoOpenOrders, each answer's fields in Binance's order,
// the mapping onto the native conditional orders (direction, working type, position side,
// reduce-only), the statuses through a fire (NEW, TRIGGERED while its order rests, FINISHED once
// it ended, REJECTED, CANCELED), the refusals, and ALGO_UPDATE on the user stream. Prices stand
// still (clock paused): the mark is moved by the test, liquidity is the house's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { houseLimit, placeOrder, setPrices } from '../../helpers/exchange-commands.ts';
import type { Creds } from '../../helpers/signed.ts';
import { account, quiet, startService, until, userStream, type Service } from './helpers.ts';
import { signedCall } from './raw.ts';

let svc: Service;
const MARK = 96000;

/** POST algoOrder's answer fields, in Binance's order (its New Algo Order example). */
const NEW_FIELDS =
  'algoId clientAlgoId algoType orderType symbol side positionSide timeInForce quantity algoStatus triggerPrice price icebergQuantity selfTradePreventionMode workingType priceMatch closePosition priceProtect reduceOnly activatePrice callbackRate createTime updateTime triggerTime goodTillDate'.split(
    ' ',
  );
/** GET algoOrder's (Query Algo Order). */
const QUERY_FIELDS =
  'algoId clientAlgoId algoType orderType symbol side positionSide timeInForce quantity algoStatus actualOrderId actualPrice actualType actualQty triggerPrice price icebergQuantity tpOrderType selfTradePreventionMode workingType priceMatch closePosition priceProtect reduceOnly createTime updateTime triggerTime goodTillDate'.split(
    ' ',
  );
/** An openAlgoOrders / allAlgoOrders entry's. */
const LIST_FIELDS =
  'algoId clientAlgoId algoType orderType symbol side positionSide timeInForce quantity algoStatus actualOrderId actualPrice triggerPrice price icebergQuantity tpTriggerPrice tpPrice slTriggerPrice slPrice tpOrderType selfTradePreventionMode workingType priceMatch closePosition priceProtect reduceOnly createTime updateTime triggerTime goodTillDate'.split(
    ' ',
  );
/** ALGO_UPDATE's `o`. */
const UPDATE_FIELDS = 'caid aid at o s S ps f q X ai ap aq act tp p V wt pm cp pP R tt gtd rm'.split(' ');

beforeAll(async () => {
  svc = await startService();
  svc.venue.clock.pause();
  setPrices(svc.venue.exchange, 'BTCUSDT', { mark: MARK });
});
afterAll(async () => svc?.close());

const ex = () => svc.venue.exchange;
const call = (c: Creds, method: 'GET' | 'POST' | 'DELETE', path: string, p: Record<string, string | number> = {}) =>
  signedCall(svc.base, c, method, path, p);
const algo = (c: Creds, p: Record<string, string | number>) =>
  call(c, 'POST', '/fapi/v1/algoOrder', { algoType: 'CONDITIONAL', symbol: 'BTCUSDT', ...p });
const expectCode = (r: { status: number; body: any }, code: number) =>
  expect([r.status, r.body.code], JSON.stringify(r.body)).toEqual([400, code]);

/** A one-way account long 0.010 BTCUSDT bought from the house at the mark. */
function longAccount(name: string): Creds {
  const c = account(svc.venue, name, 100_000, 'one_way');
  houseLimit(ex(), 2, MARK.toFixed(1), '0.010');
  placeOrder(ex(), c.id, { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.010' });
  expect(ex().positions(c.id)[0]?.quantity).toBe(0.01);
  return c;
}

describe('exchangeInfo and POST order', () => {
  it('lists the conditional order types and MAX_NUM_ALGO_ORDERS 10', async () => {
    const r: any = await fetch(`${svc.base}/binance/fapi/v1/exchangeInfo`).then((x) => x.json());
    const s = r.symbols.find((x: any) => x.symbol === 'BTCUSDT');
    expect(s.orderTypes).toEqual([
      'LIMIT',
      'MARKET',
      'STOP',
      'STOP_MARKET',
      'TAKE_PROFIT',
      'TAKE_PROFIT_MARKET',
      'TRAILING_STOP_MARKET',
    ]);
    expect(s.filters).toContainEqual({ filterType: 'MAX_NUM_ALGO_ORDERS', limit: 10 });
  });

  it('a conditional type sent to POST order is -4120, as Binance answers since its Algo Service move', async () => {
    const c = account(svc.venue, 'algo4120', 10_000, 'one_way');
    for (const type of ['STOP_MARKET', 'STOP', 'TAKE_PROFIT', 'TAKE_PROFIT_MARKET', 'TRAILING_STOP_MARKET']) {
      const r = await call(c, 'POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'SELL', type, quantity: '0.010' });
      expectCode(r, -4120);
      expect(r.body.msg).toMatch(/^Order type not supported for this endpoint\. Please use the Algo Order API/);
    }
    const batch = await call(c, 'POST', '/fapi/v1/batchOrders', {
      batchOrders: JSON.stringify([{ symbol: 'BTCUSDT', side: 'SELL', type: 'STOP_MARKET', quantity: '0.010' }]),
    });
    expect(batch.body[0].code).toBe(-4120);
    expect(ex().openConditionals(c.id)).toHaveLength(0);
  });
});

describe('one-way account', () => {
  let c: Creds;
  beforeAll(() => {
    c = account(svc.venue, 'algoow', 100_000, 'one_way');
  });

  it('POST algoOrder: a STOP_MARKET sell, reduce-only, on the mark; answered in Binance fields and order', async () => {
    const r = await algo(c, {
      side: 'SELL',
      type: 'STOP_MARKET',
      quantity: '0.010',
      triggerPrice: '95000',
      workingType: 'MARK_PRICE',
      reduceOnly: 'true',
      clientAlgoId: 'sl-1',
      newOrderRespType: 'RESULT',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(Object.keys(r.body)).toEqual(NEW_FIELDS);
    const native = ex().openConditionals(c.id, 'BTCUSDT');
    expect(native).toHaveLength(1);
    const n = native[0];
    expect(n).toMatchObject({
      side: 2,
      position_action: 2,
      type: 2,
      qty: '0.010',
      reduce_only: true,
      trigger_price: '95000.0',
      trigger_direction: 2,
      working_type: 1,
      client_order_id: 'sl-1',
    });
    expect(r.body).toEqual({
      algoId: Number(n.id),
      clientAlgoId: 'sl-1',
      algoType: 'CONDITIONAL',
      orderType: 'STOP_MARKET',
      symbol: 'BTCUSDT',
      side: 'SELL',
      positionSide: 'BOTH',
      timeInForce: 'GTC',
      quantity: '0.010',
      algoStatus: 'NEW',
      triggerPrice: '95000.0',
      price: n.price,
      icebergQuantity: null,
      selfTradePreventionMode: 'EXPIRE_TAKER',
      workingType: 'MARK_PRICE',
      priceMatch: 'NONE',
      closePosition: false,
      priceProtect: false,
      reduceOnly: true,
      activatePrice: '',
      callbackRate: '',
      createTime: n.created_at,
      updateTime: n.updated_at,
      triggerTime: 0,
      goodTillDate: 0,
    });

    const byId = await call(c, 'GET', '/fapi/v1/algoOrder', { algoId: n.id });
    expect(Object.keys(byId.body)).toEqual(QUERY_FIELDS);
    expect(byId.body).toMatchObject({ algoStatus: 'NEW', actualOrderId: '', actualType: '', actualQty: '0' });
    const byCid = await call(c, 'GET', '/fapi/v1/algoOrder', { clientAlgoId: 'sl-1' });
    expect(byCid.body).toEqual(byId.body);
    const open = await call(c, 'GET', '/fapi/v1/openAlgoOrders', { symbol: 'BTCUSDT' });
    expect(open.body).toHaveLength(1);
    expect(Object.keys(open.body[0])).toEqual(LIST_FIELDS);
    expect(open.body[0]).toMatchObject({ algoId: Number(n.id), tpTriggerPrice: '0.0', tpOrderType: '' });
    const all = await call(c, 'GET', '/fapi/v1/openAlgoOrders');
    expect(all.body.map((x: any) => x.algoId)).toEqual([Number(n.id)]);

    const del = await call(c, 'DELETE', '/fapi/v1/algoOrder', { algoId: n.id });
    expect(del.body).toEqual({ algoId: Number(n.id), clientAlgoId: 'sl-1', code: '200', msg: 'success' });
    expect(ex().openConditionals(c.id)).toHaveLength(0);
    expect((await call(c, 'GET', '/fapi/v1/algoOrder', { algoId: n.id })).body.algoStatus).toBe('CANCELED');
    expectCode(await call(c, 'DELETE', '/fapi/v1/algoOrder', { algoId: n.id }), -2011);
  });

  it('maps each type and side to its direction, CONTRACT_PRICE (the default) to the last price', async () => {
    const cases: Array<[string, string, string, number, string]> = [
      ['STOP', 'BUY', '97000', 1, 'STOP'],
      ['STOP_MARKET', 'SELL', '95000', 2, 'STOP_MARKET'],
      ['TAKE_PROFIT', 'SELL', '97000', 1, 'TAKE_PROFIT'],
      ['TAKE_PROFIT_MARKET', 'BUY', '95000', 2, 'TAKE_PROFIT_MARKET'],
    ];
    for (const [type, side, trigger, direction, shown] of cases) {
      const limit = type === 'STOP' || type === 'TAKE_PROFIT';
      const r = await algo(c, {
        side,
        type,
        quantity: '0.010',
        triggerPrice: trigger,
        ...(limit ? { price: trigger, timeInForce: 'IOC' } : {}),
      });
      expect(r.status, `${type} ${side}: ${JSON.stringify(r.body)}`).toBe(200);
      const n = ex().conditional(c.id, { id: r.body.algoId })!;
      expect([n.trigger_direction, n.working_type, n.type], type).toEqual([direction, 2, limit ? 1 : 2]);
      expect(r.body).toMatchObject({ orderType: shown, workingType: 'CONTRACT_PRICE', reduceOnly: false });
      expect(r.body.timeInForce).toBe(limit ? 'IOC' : 'GTC');
      if (limit) expect([n.price, n.time_in_force]).toEqual([`${trigger}.0`, 2]);
    }
    const cancelled = await call(c, 'DELETE', '/fapi/v1/algoOpenOrders', { symbol: 'BTCUSDT' });
    expect(cancelled.body).toEqual({ code: 200, msg: 'The operation of cancel all open order is done.' });
    expect(ex().openConditionals(c.id)).toHaveLength(0);
  });

  it('a TRAILING_STOP_MARKET is the venue trailing stop: callbackRate, activatePrice (activationPrice, as ccxt sends it)', async () => {
    const r = await algo(c, {
      side: 'SELL',
      type: 'TRAILING_STOP_MARKET',
      quantity: '0.010',
      callbackRate: '1',
      activationPrice: '97000',
      workingType: 'MARK_PRICE',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const n = ex().conditional(c.id, { id: r.body.algoId })!;
    expect(n).toMatchObject({ callback_rate: '1.0', activation_price: '97000.0', trigger_direction: 2 });
    expect(r.body).toMatchObject({ orderType: 'TRAILING_STOP_MARKET', activatePrice: '97000.0', callbackRate: '1.0' });
    const q = await call(c, 'GET', '/fapi/v1/algoOrder', { algoId: r.body.algoId });
    expect(q.body).toMatchObject({ orderType: 'TRAILING_STOP_MARKET', callbackRate: '1.0' });
    // a buy's activation at or below the mark would trigger at once
    const now = await algo(c, {
      side: 'BUY',
      type: 'TRAILING_STOP_MARKET',
      quantity: '0.010',
      callbackRate: '1',
      activatePrice: '97000',
      workingType: 'MARK_PRICE',
    });
    expectCode(now, -2021);
    await call(c, 'DELETE', '/fapi/v1/algoOpenOrders', { symbol: 'BTCUSDT' });
  });

  it('refusals: each names its parameter in Binance terms and leaves nothing waiting', async () => {
    const base = { side: 'SELL', type: 'STOP_MARKET', quantity: '0.010', triggerPrice: '95000' };
    const refused: Array<[Record<string, string>, number, RegExp?]> = [
      [{ triggerPrice: '97000', workingType: 'MARK_PRICE' }, -2021, /^Order would immediately trigger\./],
      [{ type: 'LIMIT' }, -1116],
      [{ type: 'MARKET' }, -1116],
      [{ type: 'TRAILING_STOP' }, -1116],
      [{ algoType: 'VP' }, -1130],
      [{ triggerPrice: '' }, -1102, /triggerPrice/],
      [{ quantity: '' }, -1102, /quantity/],
      [{ type: 'STOP' }, -1102, /'price'/],
      [{ price: '95000' }, -1106, /'price'/],
      [{ type: 'TRAILING_STOP_MARKET' }, -1106, /'triggerPrice'/],
      [{ callbackRate: '1' }, -1106, /'callbackRate'/],
      [
        { type: 'TRAILING_STOP_MARKET', triggerPrice: '', callbackRate: '1', priceProtect: 'TRUE' },
        -1130,
        /Price protection is for STOP and TAKE_PROFIT/,
      ],
      [{ priceMatch: 'OPPONENT' }, -1130, /priceMatch is not supported/],
      [{ type: 'STOP', price: '95000', timeInForce: 'GTD' }, -1115, /GTD is not supported/],
      [{ closePosition: 'true' }, -4137],
      [{ closePosition: 'true', quantity: '', type: 'STOP', price: '95000' }, -4136],
      [{ positionSide: 'LONG' }, -4061, /one-way mode/],
      [{ triggerPrice: '95000.05' }, -4014, /triggerPrice/],
      [{ clientAlgoId: 'api.7' }, -1130],
      // an opening stop worth under the minimum (100 USDT) at its trigger: known now, not when it fires
      [{ quantity: '0.001' }, -4164, /^Order's notional must be no smaller than 100 /],
    ];
    for (const [over, code, msg] of refused) {
      const p: Record<string, string> = { ...base, ...over };
      for (const k of Object.keys(p)) if (p[k] === '') delete p[k];
      const r = await algo(c, p);
      expect([r.status, r.body.code], `${JSON.stringify(over)}: ${JSON.stringify(r.body)}`).toEqual([400, code]);
      if (msg) expect(r.body.msg).toMatch(msg);
    }
    expect(ex().openConditionals(c.id)).toHaveLength(0);
  });

  it('algoId / clientAlgoId: neither is -1102; both must name the same order; unknown is -2013 / -2011', async () => {
    const r = await algo(c, {
      side: 'SELL',
      type: 'STOP_MARKET',
      quantity: '0.010',
      triggerPrice: '95000',
      clientAlgoId: 'two-ids',
    });
    const id = r.body.algoId;
    expectCode(await call(c, 'GET', '/fapi/v1/algoOrder'), -1102);
    expectCode(await call(c, 'DELETE', '/fapi/v1/algoOrder'), -1102);
    const both = await call(c, 'GET', '/fapi/v1/algoOrder', { algoId: id, clientAlgoId: 'two-ids' });
    expect(both.body.algoId).toBe(id);
    expectCode(await call(c, 'GET', '/fapi/v1/algoOrder', { algoId: id, clientAlgoId: 'other' }), -2013);
    expectCode(await call(c, 'DELETE', '/fapi/v1/algoOrder', { algoId: id, clientAlgoId: 'other' }), -2011);
    expectCode(await call(c, 'GET', '/fapi/v1/algoOrder', { algoId: 999_999_999 }), -2013);
    expectCode(await call(c, 'DELETE', '/fapi/v1/algoOrder', { clientAlgoId: 'nope' }), -2011);
    // another account's algo order is unknown to this one
    const other = account(svc.venue, 'algoother', 1_000, 'one_way');
    expectCode(await call(other, 'GET', '/fapi/v1/algoOrder', { algoId: id }), -2013);
    const del = await call(c, 'DELETE', '/fapi/v1/algoOrder', { clientAlgoId: 'two-ids' });
    expect(del.body).toMatchObject({ algoId: id, code: '200' });
  });

  it('past 10 waiting on a pair is -4045', async () => {
    const d = account(svc.venue, 'algomax', 100_000, 'one_way');
    for (let i = 0; i < 10; i++) {
      const r = await algo(d, {
        side: 'SELL',
        type: 'STOP_MARKET',
        quantity: '0.010',
        triggerPrice: String(90000 + i),
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    const r = await algo(d, { side: 'SELL', type: 'STOP_MARKET', quantity: '0.010', triggerPrice: '89000' });
    expectCode(r, -4045);
    expect(r.body.msg).toMatch(/^Reach max stop order limit\./);
  });
});

describe('through a fire', () => {
  it('a Close-All STOP_MARKET fires at the mark: the long closes, FINISHED with its order; allAlgoOrders lists it', async () => {
    const c = longAccount('algofire');
    const r = await algo(c, {
      side: 'SELL',
      type: 'STOP_MARKET',
      closePosition: 'true',
      triggerPrice: '95500',
      workingType: 'MARK_PRICE',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ closePosition: true, quantity: '0.000', reduceOnly: true });
    houseLimit(ex(), 1, '95400.0', '0.010');
    setPrices(ex(), 'BTCUSDT', { mark: 95450 });
    expect(ex().positions(c.id)).toHaveLength(0);
    const q = await call(c, 'GET', '/fapi/v1/algoOrder', { algoId: r.body.algoId });
    const n = ex().conditional(c.id, { id: r.body.algoId })!;
    expect(n.status).toBe(2);
    expect(q.body).toMatchObject({
      algoStatus: 'FINISHED',
      actualOrderId: n.order_id,
      actualPrice: '95400.00000000',
      actualType: 'MARKET',
      actualQty: '0.010',
      triggerTime: n.triggered_at,
    });
    const hist = await call(c, 'GET', '/fapi/v1/allAlgoOrders', { symbol: 'BTCUSDT' });
    expect(hist.body.map((x: any) => [x.algoId, x.algoStatus])).toEqual([[r.body.algoId, 'FINISHED']]);
    expect(Object.keys(hist.body[0])).toEqual(LIST_FIELDS);
    expect((await call(c, 'GET', '/fapi/v1/openAlgoOrders')).body).toEqual([]);
    setPrices(ex(), 'BTCUSDT', { mark: MARK });
  });

  it('TRIGGERED while the STOP order it placed rests, FINISHED once it is cancelled; allAlgoOrders from algoId', async () => {
    const c = account(svc.venue, 'algorest', 100_000, 'one_way');
    const first = await algo(c, {
      side: 'BUY',
      type: 'STOP_MARKET',
      quantity: '0.010',
      triggerPrice: '99000',
      workingType: 'MARK_PRICE',
    });
    const r = await algo(c, {
      side: 'BUY',
      type: 'STOP',
      quantity: '0.010',
      price: '96400',
      triggerPrice: '96500',
      workingType: 'MARK_PRICE',
    });
    setPrices(ex(), 'BTCUSDT', { mark: 96600 });
    const q = await call(c, 'GET', '/fapi/v1/algoOrder', { algoId: r.body.algoId });
    expect(q.body).toMatchObject({ algoStatus: 'TRIGGERED', actualType: 'LIMIT', actualQty: '0.000' });
    const orderId = Number(q.body.actualOrderId);
    expect(
      ex()
        .openOrders(c.id)
        .map((o) => Number(o.id)),
    ).toEqual([orderId]);
    await call(c, 'DELETE', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId });
    expect((await call(c, 'GET', '/fapi/v1/algoOrder', { algoId: r.body.algoId })).body.algoStatus).toBe('FINISHED');
    const from = await call(c, 'GET', '/fapi/v1/allAlgoOrders', { symbol: 'BTCUSDT', algoId: r.body.algoId });
    expect(from.body.map((x: any) => x.algoId)).toEqual([r.body.algoId]);
    const newest = await call(c, 'GET', '/fapi/v1/allAlgoOrders', { symbol: 'BTCUSDT', limit: 1 });
    expect(newest.body.map((x: any) => x.algoId)).toEqual([r.body.algoId]);
    const both = await call(c, 'GET', '/fapi/v1/allAlgoOrders', { symbol: 'BTCUSDT' });
    expect(both.body.map((x: any) => x.algoId)).toEqual([first.body.algoId, r.body.algoId]);
    await call(c, 'DELETE', '/fapi/v1/algoOpenOrders', { symbol: 'BTCUSDT' });
    setPrices(ex(), 'BTCUSDT', { mark: MARK });
  });

  it('REJECTED when its order is refused as it fires (a reduce-only stop with no position): rm the order route refusal', async () => {
    const c = account(svc.venue, 'algorej', 100_000, 'one_way');
    const ws = await userStream(svc.base, c);
    try {
      const r = await algo(c, {
        side: 'SELL',
        type: 'STOP_MARKET',
        quantity: '0.010',
        triggerPrice: '95500',
        reduceOnly: 'true',
        workingType: 'MARK_PRICE',
      });
      setPrices(ex(), 'BTCUSDT', { mark: 95450 });
      const q = await call(c, 'GET', '/fapi/v1/algoOrder', { algoId: r.body.algoId });
      expect(q.body).toMatchObject({ algoStatus: 'REJECTED', actualOrderId: '' });
      await until(() => ws.got.filter((m) => m.e === 'ALGO_UPDATE').length === 2);
      const rejected = ws.got.filter((m) => m.e === 'ALGO_UPDATE')[1].o;
      expect(rejected).toMatchObject({ aid: r.body.algoId, X: 'REJECTED', ai: '' });
      expect(rejected.rm).toMatch(/^-2022 ReduceOnly Order is rejected\./);
    } finally {
      await ws.close();
      setPrices(ex(), 'BTCUSDT', { mark: MARK });
    }
  });
});

describe('hedge account', () => {
  it('positionSide LONG / SHORT and the side say open or close; reduceOnly is -1106, BOTH -4061', async () => {
    const c = account(svc.venue, 'algohedge', 100_000);
    const r = await algo(c, {
      side: 'SELL',
      positionSide: 'LONG',
      type: 'STOP_MARKET',
      quantity: '0.010',
      triggerPrice: '95000',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ positionSide: 'LONG', reduceOnly: false });
    const n = ex().conditional(c.id, { id: r.body.algoId })!;
    expect([n.position_side, n.position_action, n.trigger_direction]).toEqual([1, 2, 2]);
    const open = await algo(c, {
      side: 'SELL',
      positionSide: 'SHORT',
      type: 'STOP_MARKET',
      quantity: '0.010',
      triggerPrice: '95000',
    });
    expect(open.status, JSON.stringify(open.body)).toBe(200);
    const o = ex().conditional(c.id, { id: open.body.algoId })!;
    expect([o.position_side, o.position_action]).toEqual([2, 1]);
    expectCode(await algo(c, { side: 'SELL', type: 'STOP_MARKET', quantity: '0.010', triggerPrice: '95000' }), -4061);
    expectCode(
      await algo(c, {
        side: 'SELL',
        positionSide: 'LONG',
        type: 'STOP_MARKET',
        quantity: '0.010',
        triggerPrice: '95000',
        reduceOnly: 'false',
      }),
      -1106,
    );
    // a Close-All closes the position its side reduces
    const wrong = await algo(c, {
      side: 'BUY',
      positionSide: 'LONG',
      type: 'STOP_MARKET',
      closePosition: 'true',
      triggerPrice: '97000',
    });
    expectCode(wrong, -1130);
    const close = await algo(c, {
      side: 'BUY',
      positionSide: 'SHORT',
      type: 'STOP_MARKET',
      closePosition: 'true',
      triggerPrice: '97000',
    });
    expect(close.status, JSON.stringify(close.body)).toBe(200);
    expect(close.body).toMatchObject({ positionSide: 'SHORT', closePosition: true });
  });
});

describe('the user stream', () => {
  it('ALGO_UPDATE: NEW when placed, CANCELED when cancelled; TRIGGERED before its order, FINISHED after it', async () => {
    const c = longAccount('algostream');
    const ws = await userStream(svc.base, c);
    try {
      const algoEvents = () => ws.got.filter((m) => m.e === 'ALGO_UPDATE');
      const placed = await algo(c, {
        side: 'SELL',
        type: 'STOP_MARKET',
        quantity: '0.010',
        triggerPrice: '95000',
        clientAlgoId: 'st-a',
      });
      await until(() => algoEvents().length === 1);
      const [nw] = algoEvents();
      expect(Object.keys(nw)).toEqual(['e', 'T', 'E', 'o']);
      expect(Object.keys(nw.o)).toEqual(UPDATE_FIELDS);
      expect(nw.o).toEqual({
        caid: 'st-a',
        aid: placed.body.algoId,
        at: 'CONDITIONAL',
        o: 'STOP_MARKET',
        s: 'BTCUSDT',
        S: 'SELL',
        ps: 'BOTH',
        f: 'GTC',
        q: '0.010',
        X: 'NEW',
        ai: '',
        ap: '0',
        aq: '0',
        act: '0',
        tp: '95000.0',
        p: placed.body.price,
        V: 'EXPIRE_TAKER',
        wt: 'CONTRACT_PRICE',
        pm: 'NONE',
        cp: false,
        pP: false,
        R: false,
        tt: 0,
        gtd: 0,
        rm: '',
      });
      await call(c, 'DELETE', '/fapi/v1/algoOrder', { algoId: placed.body.algoId });
      await until(() => algoEvents().length === 2);
      expect(algoEvents()[1].o).toMatchObject({ aid: placed.body.algoId, X: 'CANCELED' });

      const stop = await algo(c, {
        side: 'SELL',
        type: 'STOP_MARKET',
        closePosition: 'true',
        triggerPrice: '95500',
        workingType: 'MARK_PRICE',
      });
      houseLimit(ex(), 1, '95400.0', '0.010');
      setPrices(ex(), 'BTCUSDT', { mark: 95450 });
      await until(() => algoEvents().length === 5);
      await quiet();
      const seq = ws.got
        .slice(ws.got.indexOf(algoEvents()[2]))
        .filter((m) => m.e === 'ALGO_UPDATE' || m.e === 'ORDER_TRADE_UPDATE')
        .map((m) => (m.e === 'ALGO_UPDATE' ? `ALGO ${m.o.X}` : `ORDER ${m.o.x} ${m.o.X}`));
      expect(seq).toEqual(['ALGO NEW', 'ALGO TRIGGERED', 'ORDER NEW NEW', 'ORDER TRADE FILLED', 'ALGO FINISHED']);
      const [, triggered, finished] = algoEvents().slice(2);
      const n = ex().conditional(c.id, { id: stop.body.algoId })!;
      expect(triggered.o).toMatchObject({
        aid: stop.body.algoId,
        ai: n.order_id,
        act: 'MARKET',
        cp: true,
        tt: n.triggered_at,
      });
      expect(finished.o).toMatchObject({ X: 'FINISHED', ai: n.order_id, ap: '95400.00000000', aq: '0.010' });
      expect(ex().positions(c.id)).toHaveLength(0);
    } finally {
      await ws.close();
      setPrices(ex(), 'BTCUSDT', { mark: MARK });
    }
  });
});
