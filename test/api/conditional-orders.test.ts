// The conditional order routes (/fapi/v1/conditional/...) through the SDK's client on the real
// application: place, read, list, page, cancel one and all, a trigger that fires and the order it
// placed; and bad input answered with the registry's codes, nothing placed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConditionalStatus,
  OrderStatus,
  OrderType,
  PositionAction,
  PositionSide,
  Side,
  TriggerDirection,
} from '../../src-shared/enums.ts';
import { Errors } from '../../src-shared/errors.ts';
import { PerpdeskApiError, RestClient } from '../../src-shared/sdk/rest-client.ts';
import type { ConditionalOrderRequest } from '../../src-shared/types.ts';
import { houseLimit, setPrices } from '../helpers/exchange-commands.ts';
import { injectFetch, makeApp, type TestApp } from '../helpers/app.ts';
import { expectError, makeAccount, signed } from '../helpers/signed.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeApp({ simulate: false });
  setPrices(t.venue.exchange, 'BTCUSDT', { mark: 96000 });
});
afterAll(() => t.close());

function client(name: string): RestClient {
  const c = makeAccount(t.venue, name);
  return new RestClient({ baseUrl: 'http://127.0.0.1:1', fetch: injectFetch(t.app), ...c });
}

const stop = (o: Partial<ConditionalOrderRequest> = {}): ConditionalOrderRequest => ({
  symbol: 'BTCUSDT',
  side: 1,
  position_side: 1,
  position_action: 1,
  type: 2,
  qty: '0.010',
  trigger_price: '97000.0',
  trigger_direction: TriggerDirection.RISES_TO,
  ...o,
});

/** The API error a call answers (fails the test when it succeeds). */
async function apiError(p: Promise<unknown>): Promise<PerpdeskApiError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PerpdeskApiError);
  return err as PerpdeskApiError;
}

describe('conditional order routes', () => {
  it('place, read by id and client id, list, page the history, cancel one and all', async () => {
    const api = client('cond-api-1');
    const other = client('cond-api-2');
    const a = await api.conditionals.place(stop({ client_order_id: 'breakout' }));
    expect(a).toMatchObject({ status: ConditionalStatus.NEW, client_order_id: 'breakout', trigger_price: '97000.0' });
    const b = await api.conditionals.place(stop({ symbol: 'ethusdt', qty: '0.10', trigger_price: '4000.00' }));
    expect(b.symbol).toBe('ETHUSDT');
    expect(await api.conditionals.get({ clientOrderId: 'breakout' })).toEqual(a);
    expect(await api.conditionals.open()).toEqual([a, b]);
    expect(await api.conditionals.open('BTCUSDT')).toEqual([a]);
    expect(await other.conditionals.open()).toEqual([]);
    expect((await apiError(other.conditionals.get({ id: a.id }))).code).toBe(Errors.ORDER_NOT_FOUND.code);
    // a 1102 names what was asked for (it said 'has that id' for a client id too)
    expect((await apiError(other.conditionals.get({ id: a.id }))).message).toBe(
      `No conditional order of yours has id ${a.id}`,
    );
    expect((await apiError(other.conditionals.get({ clientOrderId: 'breakout' }))).message).toBe(
      "No conditional order of yours has client_order_id 'breakout'",
    );
    expect((await apiError(other.conditionals.cancel({ clientOrderId: 'breakout' }))).message).toBe(
      "No waiting conditional order of this account has client_order_id 'breakout'",
    );
    // one asked for on another pair is not there, and the 1102 says which pair was searched
    // (it read 'No conditional order of yours has id ...', beside the account's own order of that id)
    expect((await apiError(api.conditionals.get({ id: a.id }, 'ETHUSDT'))).message).toBe(
      `No conditional order of yours on ETHUSDT has id ${a.id}`,
    );
    expect((await apiError(api.conditionals.cancel({ clientOrderId: 'breakout' }, 'ETHUSDT'))).message).toBe(
      "No waiting conditional order of this account on ETHUSDT has client_order_id 'breakout'",
    );
    expect(await api.conditionals.open()).toEqual([a, b]);
    expect(await api.conditionals.cancel({ id: a.id })).toMatchObject({ id: a.id, status: ConditionalStatus.CANCELED });
    expect((await apiError(api.conditionals.cancel({ id: a.id }))).code).toBe(Errors.ORDER_NOT_CANCELLABLE.code);
    // newest first, a page at a time
    const first = await api.conditionals.history({ limit: 1 });
    expect(first).toMatchObject({ has_more: true, items: [{ id: b.id }] });
    const second = await api.conditionals.history({ limit: 1, cursor: first.next_cursor });
    expect(second).toEqual({
      has_more: false,
      next_cursor: '',
      items: [{ ...a, status: 3, updated_at: second.items[0].updated_at }],
    });
    expect((await api.conditionals.history({ status: ConditionalStatus.CANCELED })).items.map((c) => c.id)).toEqual([
      a.id,
    ]);
    expect(await api.conditionals.cancelAll()).toEqual({ symbol: null, cancelled: 1 });
    expect(await api.conditionals.open()).toEqual([]);
  });

  it('fires when the mark reaches it: the record names the order it placed, which allOrders lists', async () => {
    const api = client('cond-api-3');
    const c = await api.conditionals.place(stop({ trigger_price: '96500.0' }));
    houseLimit(t.venue.exchange, 2, '96510.0', '0.010');
    setPrices(t.venue.exchange, 'BTCUSDT', { mark: 96500 });
    const fired = await api.conditionals.get({ id: c.id });
    expect(fired).toMatchObject({ status: ConditionalStatus.TRIGGERED, reject_code: null });
    const orders = await api.allOrders({ symbol: 'BTCUSDT' });
    expect(orders.items).toMatchObject([{ id: fired.order_id, status: OrderStatus.FILLED, qty: '0.010', side: 1 }]);
    expect((await api.positions())[0]).toMatchObject({ symbol: 'BTCUSDT', quantity: 0.01 });
    // docs/sdk.md's example: a stop that closes the long when the mark falls to 95,000
    const close = await api.conditionals.place({
      symbol: 'BTCUSDT',
      side: Side.SELL,
      position_side: PositionSide.LONG,
      position_action: PositionAction.CLOSE,
      type: OrderType.MARKET,
      close_position: true,
      trigger_price: '95000.0',
      trigger_direction: TriggerDirection.FALLS_TO,
    });
    houseLimit(t.venue.exchange, 1, '94990.0', '0.010');
    setPrices(t.venue.exchange, 'BTCUSDT', { mark: 95000 });
    expect((await api.conditionals.get({ id: close.id })).status).toBe(ConditionalStatus.TRIGGERED);
    expect(await api.positions()).toEqual([]);
    setPrices(t.venue.exchange, 'BTCUSDT', { mark: 96000 });
  });

  it('a trailing stop through the route: its trigger follows the mark and the record says where it fires', async () => {
    const api = client('cond-api-5');
    const c = await api.conditionals.place({
      symbol: 'BTCUSDT',
      side: Side.BUY,
      position_side: PositionSide.LONG,
      position_action: PositionAction.OPEN,
      type: OrderType.MARKET,
      qty: '0.010',
      callback_rate: '0.5',
    });
    expect(c).toMatchObject({
      callback_rate: '0.5',
      activation_price: null,
      peak_price: '96000.0',
      trigger_price: '96480.0',
      trigger_direction: TriggerDirection.RISES_TO,
    });
    setPrices(t.venue.exchange, 'BTCUSDT', { mark: 95500 });
    expect(await api.conditionals.get({ id: c.id })).toMatchObject({ peak_price: '95500.0', trigger_price: '95977.5' });
    setPrices(t.venue.exchange, 'BTCUSDT', { mark: 95900 }); // back up, short of the trigger
    expect(await api.conditionals.get({ id: c.id })).toMatchObject({
      status: ConditionalStatus.NEW,
      peak_price: '95500.0',
    });
    setPrices(t.venue.exchange, 'BTCUSDT', { mark: 96000 }); // through it
    expect((await api.conditionals.get({ id: c.id })).status).toBe(ConditionalStatus.TRIGGERED);
    const u = makeAccount(t.venue, 'cond-api-6');
    const bad = await signed(t.app, u, 'POST', '/fapi/v1/conditional/order', {
      json: { ...stop(), trigger_price: undefined, trigger_direction: undefined, callback_rate: '1.25' },
    });
    expectError(bad, Errors.INVALID_PARAMETER);
    expect(bad.body.message).toContain('callback_rate');
  });

  it('modify: a new trigger, limit price or qty in place, all or nothing; it fires at the new trigger', async () => {
    const api = client('cond-api-7');
    const c = await api.conditionals.place(stop({ client_order_id: 'moving', trigger_price: '97000.0' }));
    const moved = await api.conditionals.amend(
      { clientOrderId: 'moving' },
      { trigger_price: '96800.0', qty: '0.020' },
      'BTCUSDT',
    );
    // another pair does not name it
    expect((await apiError(api.conditionals.amend({ id: c.id }, { qty: '0.030' }, 'ETHUSDT'))).code).toBe(1102);
    expect(moved).toMatchObject({ id: c.id, client_order_id: 'moving', trigger_price: '96800.0', qty: '0.020' });
    expect(moved.created_at).toBe(c.created_at);
    const code = async (p: Promise<unknown>) => (await apiError(p)).code;
    // its direction stays: rising to a price under the mark is reached; refused, it stays as it was
    expect(await code(api.conditionals.amend({ id: c.id }, { trigger_price: '95000.0' }))).toBe(3026);
    expect(await code(api.conditionals.amend({ id: c.id }, { trigger_price: '96800.0' }))).toBe(1001); // no change
    expect(await code(api.conditionals.amend({ id: c.id }, { price: '97000.0' }))).toBe(3017); // a stop-market
    expect(await code(api.conditionals.amend({ id: c.id }, { qty: '0.0105' }))).toBe(3004);
    expect(await code(api.conditionals.amend({ id: c.id }, {}))).toBe(1002);
    expect(await api.conditionals.get({ id: c.id })).toEqual(moved);
    // a stop-limit's limit price; a trailing stop is not modified
    const limit = await api.conditionals.place(stop({ type: 1, price: '97100.0' }));
    expect(await api.conditionals.amend({ id: limit.id }, { price: '97200.0' })).toMatchObject({ price: '97200.0' });
    const trail = await api.conditionals.place(
      stop({ trigger_price: undefined, trigger_direction: undefined, callback_rate: '1.0' }),
    );
    expect(await code(api.conditionals.amend({ id: trail.id }, { qty: '0.020' }))).toBe(1001);
    await api.conditionals.cancelAll();
    expect(await code(api.conditionals.amend({ id: c.id }, { trigger_price: '96900.0' }))).toBe(3019);
    // placed again, moved down and fired there
    const again = await api.conditionals.place(stop({ trigger_price: '97500.0' }));
    await api.conditionals.amend({ id: again.id }, { trigger_price: '96200.0' });
    houseLimit(t.venue.exchange, 2, '96210.0', '0.010');
    setPrices(t.venue.exchange, 'BTCUSDT', { mark: 96200 });
    expect(await api.conditionals.get({ id: again.id })).toMatchObject({ status: ConditionalStatus.TRIGGERED });
    setPrices(t.venue.exchange, 'BTCUSDT', { mark: 96000 });
  });

  it("a stop's close is a stop loss in the position history (closeType=3), a take-profit's a take profit (2), a market close a user close (1)", async () => {
    const api = client('cond-api-close-type');
    const ex = t.venue.exchange;
    const long = async () => {
      houseLimit(ex, 2, '96000.0', '0.010');
      await api.placeOrder({ symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.010' });
    };
    const close = { side: Side.SELL, position_side: PositionSide.LONG, position_action: PositionAction.CLOSE };
    await long();
    await api.conditionals.place(
      stop({ ...close, trigger_price: '95000.0', trigger_direction: TriggerDirection.FALLS_TO }),
    );
    houseLimit(ex, 1, '94990.0', '0.010');
    setPrices(ex, 'BTCUSDT', { mark: 95000 });
    setPrices(ex, 'BTCUSDT', { mark: 96000 });
    await long();
    await api.conditionals.place(
      stop({ ...close, trigger_price: '97000.0', trigger_direction: TriggerDirection.RISES_TO }),
    );
    houseLimit(ex, 1, '96990.0', '0.010');
    setPrices(ex, 'BTCUSDT', { mark: 97000 });
    setPrices(ex, 'BTCUSDT', { mark: 96000 });
    await long();
    houseLimit(ex, 1, '96000.0', '0.010');
    await api.placeOrder({ symbol: 'BTCUSDT', ...close, type: OrderType.MARKET, qty: '0.010' });
    expect((await api.positionHistory()).list.map((p) => p.close_type)).toEqual([1, 2, 3]);
    expect((await api.positionHistory({ closeType: 3 })).list).toMatchObject([{ close_type: 3, exit_price: 94990 }]);
    expect((await api.positionHistory({ closeType: 2 })).list).toMatchObject([{ close_type: 2, exit_price: 96990 }]);
  });

  it('bad input: typed fields, unknown fields, a missing trigger, a reached trigger; nothing is placed', async () => {
    const u = makeAccount(t.venue, 'cond-api-4');
    const body = { ...stop() } as Record<string, unknown>;
    const post = (json: Record<string, unknown>) => signed(t.app, u, 'POST', '/fapi/v1/conditional/order', { json });
    expectError(await post({ ...body, trigger_direction: '1' }), Errors.INVALID_PARAMETER);
    expectError(await post({ ...body, trigger_direction: 3 }), Errors.INVALID_PARAMETER);
    expectError(await post({ ...body, stop_price: '97000.0' }), Errors.UNKNOWN_PARAMETER);
    const { trigger_price: _t, ...noTrigger } = body;
    expectError(await post(noTrigger), Errors.MISSING_PARAMETER);
    expectError(await post({ ...body, trigger_price: '-1' }), Errors.INVALID_PARAMETER);
    const reached = await post({ ...body, trigger_price: '95000.0' });
    expectError(reached, Errors.TRIGGER_ALREADY_REACHED);
    expect(reached.body.message).toBe('The mark price 96000.0 is already at or above the trigger 95000.0');
    const del = await signed(t.app, u, 'DELETE', '/fapi/v1/conditional/order', {
      query: { id: '1', client_order_id: 'x' },
    });
    expectError(del, Errors.INVALID_PARAMETER);
    expectError(await signed(t.app, u, 'DELETE', '/fapi/v1/conditional/order'), Errors.MISSING_PARAMETER);
    const open = await signed(t.app, u, 'GET', '/fapi/v1/conditional/openOrders');
    expect(open.body.data).toEqual([]);
  });
});
