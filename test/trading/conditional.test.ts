// Conditional orders (trading/conditional.ts): held until the mark or the last price reaches the
// trigger, then placed as the order route places one; refused on placement when the trigger is
// already reached; a refusal when it fires ends it REJECTED with the route's code; kept across a
// restart; cancelled one by one, all at once and by a paper reset.
import { describe, expect, it } from 'vitest';
import {
  ConditionalStatus,
  MarginMode,
  OrderStatus,
  PositionSide,
  TriggerDirection,
  WorkingType,
} from '../../src-shared/enums.ts';
import { Errors } from '../../src-shared/errors.ts';
import type { ConditionalOrderRecord } from '../../src-shared/types.ts';
import type { ConditionalInput } from '../../src-main/trading/commands.ts';
import {
  cancelOrder,
  houseLimit,
  placeOrder,
  resetAccount,
  setMarginMode,
  setPositionMode,
  setPrices,
} from '../helpers/exchange-commands.ts';
import { longQty, openLong, placeStop as place, print } from './conditional-kit.ts';
import { btc, refusal, venueKit } from './venues.ts';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const USDT = 100_000_000n;
const { venue, user, dataDir } = venueKit({ wall: T0, balance: 100_000n * USDT, simulate: false });

const RISES = TriggerDirection.RISES_TO;
const FALLS = TriggerDirection.FALLS_TO;

describe('conditional orders', () => {
  it('a stop-market on the mark waits, fires when the mark falls to it, and its order closes the long', () => {
    const v = venue();
    const u = user(v, 'cond-stop1');
    openLong(v, u);
    const events: unknown[] = [];
    v.exchange.events.on('account', (e) => {
      if (e.kind === 'conditional') events.push(e.data);
    });
    const c = place(v.exchange, u, { client_order_id: 'my-stop' });
    expect(c).toMatchObject({
      status: ConditionalStatus.NEW,
      client_order_id: 'my-stop',
      qty: '0.010',
      close_position: false,
      reduce_only: true,
      trigger_price: '95000.0',
      trigger_direction: FALLS,
      working_type: WorkingType.MARK_PRICE,
      order_id: null,
      triggered_at: null,
    });
    expect(v.exchange.openConditionals(u)).toEqual([c]);
    houseLimit(v.exchange, 1, '94990.0', '0.010'); // a bid for the stop to sell into
    setPrices(v.exchange, 'BTCUSDT', { mark: 95000.1 });
    expect(v.exchange.openConditionals(u)).toHaveLength(1); // a tick above: still waiting
    expect(longQty(v, u)).toBe(0.01);
    setPrices(v.exchange, 'BTCUSDT', { mark: 95000 });
    expect(v.exchange.openConditionals(u)).toEqual([]);
    const fired = v.exchange.conditional(u, { id: Number(c.id) })!;
    expect(fired.status).toBe(ConditionalStatus.TRIGGERED);
    expect(fired.triggered_at).toBe(T0);
    const order = v.exchange.liveOrder(u, Number(fired.order_id))!;
    expect(order).toMatchObject({ side: 2, type: 2, status: OrderStatus.FILLED, qtyLots: 10, reduceOnly: true });
    expect(order.clientOrderId).toBe(`api.${order.id}`);
    expect(longQty(v, u)).toBe(0);
    // announced when placed and when it fired (after the commit)
    return new Promise<void>((done) =>
      setImmediate(() => {
        expect(events.map((e) => (e as ConditionalOrderRecord).status)).toEqual([1, 2]);
        done();
      }),
    );
  });

  it('close_position closes what the position holds when it fires, and a take-profit rises to its trigger', () => {
    const v = venue();
    const u = user(v, 'cond-close');
    openLong(v, u, '96000.0', '0.010');
    const tp = place(v.exchange, u, {
      qty: undefined,
      close_position: true,
      trigger_price: '97000.0',
      trigger_direction: RISES,
    });
    expect(tp).toMatchObject({ qty: null, close_position: true, reduce_only: true });
    openLong(v, u, '96000.0', '0.005'); // the long grows to 0.015 after the order was placed
    houseLimit(v.exchange, 1, '96990.0', '0.020');
    setPrices(v.exchange, 'BTCUSDT', { mark: 97000 });
    const fired = v.exchange.conditional(u, { id: Number(tp.id) })!;
    expect(fired.status).toBe(ConditionalStatus.TRIGGERED);
    expect(v.exchange.liveOrder(u, Number(fired.order_id))!.qtyLots).toBe(15);
    expect(longQty(v, u)).toBe(0);
  });

  it('a stop-limit places its limit order when it fires: a price outside the band now is taken, and it rests', () => {
    const v = venue();
    const u = user(v, 'cond-limit');
    setPrices(v.exchange, 'BTCUSDT', { mark: 96000 });
    // a buy stop to open a long at 99,000 (the band today ends near 96000 x 1.05 only when it is a plain order)
    const c = place(v.exchange, u, {
      side: 1,
      position_side: 1,
      position_action: 1,
      type: 1,
      price: '99000.0',
      qty: '0.010',
      trigger_price: '98900.0',
      trigger_direction: RISES,
    });
    expect(c).toMatchObject({ type: 1, price: '99000.0', time_in_force: 1, reduce_only: false });
    setPrices(v.exchange, 'BTCUSDT', { mark: 98950 });
    const fired = v.exchange.conditional(u, { id: Number(c.id) })!;
    expect(fired.status).toBe(ConditionalStatus.TRIGGERED);
    expect(v.exchange.openOrders(u)).toMatchObject([{ id: fired.order_id, price: '99000.0', status: OrderStatus.NEW }]);
  });

  it('is refused on placement as its order would be, and when its trigger is already reached (3026)', () => {
    const v = venue();
    const u = user(v, 'cond-refuse');
    setPrices(v.exchange, 'BTCUSDT', { mark: 96000 });
    const code = (o: Partial<ConditionalInput>) => refusal(() => place(v.exchange, u, o)).def.code;
    const reached = refusal(() => place(v.exchange, u, { trigger_price: '96000.0' }));
    expect(reached.def).toBe(Errors.TRIGGER_ALREADY_REACHED);
    expect(reached.message).toBe('The mark price 96000.0 is already at or below the trigger 96000.0');
    // rising to a price under the mark is reached too, and named so
    expect(refusal(() => place(v.exchange, u, { trigger_price: '95000.0', trigger_direction: RISES })).message).toBe(
      'The mark price 96000.0 is already at or above the trigger 95000.0',
    );
    expect(code({ trigger_price: '95000.05' })).toBe(Errors.PRICE_OFF_TICK.code);
    // above the highest price a book takes (as a limit price is): 1001, not a stop that can never fire
    expect(code({ trigger_price: '99999999999.0', trigger_direction: RISES, side: 1, position_side: 2 })).toBe(
      Errors.INVALID_PARAMETER.code,
    );
    expect(code({ qty: '0.0105' })).toBe(Errors.QTY_OFF_STEP.code);
    expect(code({ close_position: true })).toBe(Errors.INVALID_PARAMETER.code); // qty with close_position
    expect(code({ qty: undefined })).toBe(Errors.MISSING_PARAMETER.code);
    expect(code({ qty: undefined, close_position: true, type: 1, price: '95000.0' })).toBe(
      Errors.INVALID_PARAMETER.code,
    );
    expect(code({ side: 1 })).toBe(Errors.POSITION_SIDE_MISMATCH.code); // closing a long is a sell
    expect(code({ type: 2, price: '95000.0' })).toBe(Errors.PRICE_NOT_ALLOWED.code);
    expect(code({ trigger_direction: 3 })).toBe(Errors.INVALID_PARAMETER.code);
    expect(code({ working_type: 3 })).toBe(Errors.INVALID_PARAMETER.code);
    expect(code({ leverage: 1000 })).toBe(Errors.LEVERAGE_INVALID.code);
    expect(code({ client_order_id: 'api.12' })).toBe(Errors.INVALID_PARAMETER.code);
    // the minimum notional (100 USDT) of an opening order, at the price it will go at: the trigger
    // of a stop-market, the limit of a stop-limit, a trailing stop's activation or the mark
    const buy = { side: 1, position_side: 1, position_action: 1, trigger_direction: RISES } as const;
    const small = refusal(() => place(v.exchange, u, { ...buy, qty: '0.001', trigger_price: '97000.0' }));
    expect(small.def).toBe(Errors.NOTIONAL_BELOW_MIN);
    expect(small.message).toBe('Order notional 97.00 is below the minimum 100 USDT');
    expect(code({ ...buy, qty: '0.001', trigger_price: '97000.0', type: 1, price: '99000.0' })).toBe(
      Errors.NOTIONAL_BELOW_MIN.code,
    );
    expect(code({ ...buy, qty: '0.001', trigger_price: undefined, callback_rate: '1.0' })).toBe(
      Errors.NOTIONAL_BELOW_MIN.code,
    );
    const trailing = {
      ...buy,
      qty: '0.001',
      trigger_price: undefined,
      callback_rate: '1.0',
      activation_price: '95000.0',
    };
    expect(code({ ...trailing, trigger_direction: undefined })).toBe(Errors.NOTIONAL_BELOW_MIN.code);
    expect(v.exchange.openConditionals(u)).toEqual([]);
    // ... passed at a price where it is worth the minimum; a reduce-only one is not held to it
    const dear = place(v.exchange, u, { ...buy, qty: '0.001', trigger_price: '100000.0' });
    const stopLimit = place(v.exchange, u, {
      ...buy,
      qty: '0.001',
      trigger_price: '97000.0',
      type: 1,
      price: '100100.0',
    });
    const close = place(v.exchange, u, { qty: '0.001' }); // the default: a sell that closes a long, at 95 USDT
    for (const c of [dear, stopLimit, close])
      v.exchange.execute({ kind: 'cancelConditional', accountId: u, orderId: Number(c.id) });
    expect(v.exchange.openConditionals(u)).toEqual([]);
    // a client id is unique among the waiting ones; ten wait on a pair at most
    place(v.exchange, u, { client_order_id: 'dup' });
    expect(code({ client_order_id: 'dup' })).toBe(Errors.DUPLICATE_CLIENT_ORDER_ID.code);
    for (let i = 0; i < 9; i++) place(v.exchange, u, { trigger_price: String(90000 + i) });
    expect(code({ trigger_price: '89000.0' })).toBe(Errors.TOO_MANY_CONDITIONAL_ORDERS.code);
    expect(v.exchange.openConditionals(u)).toHaveLength(10);
    // another pair has room of its own
    place(v.exchange, u, {
      symbol: 'ETHUSDT',
      qty: '0.10',
      trigger_price: '100.00',
    });
  });

  it('a refusal when it fires ends it REJECTED with the code and message the order route would answer', () => {
    const v = venue();
    const u = user(v, 'cond-rej01', 100n * USDT);
    setPrices(v.exchange, 'BTCUSDT', { mark: 96000 });
    // nothing to close when it fires
    const close = place(v.exchange, u, { qty: undefined, close_position: true });
    // an opening buy stop worth far more than the wallet: margin
    const big = place(v.exchange, u, {
      side: 1,
      position_side: 1,
      position_action: 1,
      qty: '1.000',
      trigger_price: '97000.0',
      trigger_direction: RISES,
    });
    setPrices(v.exchange, 'BTCUSDT', { mark: 94000 });
    expect(v.exchange.conditional(u, { id: Number(close.id) })).toMatchObject({
      status: ConditionalStatus.REJECTED,
      order_id: null,
      reject_code: Errors.NO_POSITION_TO_CLOSE.code,
      reject_reason: 'No long position on BTCUSDT for this close-position stop to reduce',
    });
    houseLimit(v.exchange, 2, '97000.0', '1.000');
    setPrices(v.exchange, 'BTCUSDT', { mark: 97000 });
    const rejected = v.exchange.conditional(u, { id: Number(big.id) })!;
    expect(rejected).toMatchObject({
      status: ConditionalStatus.REJECTED,
      reject_code: Errors.INSUFFICIENT_MARGIN.code,
    });
    expect(rejected.reject_reason).toMatch(/^Order needs .* USDT of margin and fees; available is 100\.00 USDT$/);
    expect(v.exchange.openOrders(u)).toEqual([]);
    expect(v.exchange.positions(u)).toEqual([]);
  });

  it('one-way: a stop closing the long, fired once the position has flipped short, says which position it lacks', () => {
    const v = venue();
    const u = user(v, 'cond-flip1');
    setPositionMode(v.exchange, u, 'one_way');
    openLong(v, u, '96000.0', '0.030');
    const close = place(v.exchange, u, { qty: undefined, close_position: true });
    const trimmed = place(v.exchange, u, { qty: '0.050', position_action: 1, reduce_only: true });
    // a sell of 0.060 flips the long of 0.030 into a short of 0.030
    houseLimit(v.exchange, 1, '96000.0', '0.060');
    placeOrder(v.exchange, u, btc({ side: 2, position_side: 1, position_action: 1, type: 2, qty: '0.060' }));
    houseLimit(v.exchange, 1, '94900.0', '1.000');
    setPrices(v.exchange, 'BTCUSDT', { mark: 94_990 });
    // both as the order route refuses a reduce-only sell against a short (the close-position stop
    // said 3018 'No position on BTCUSDT to close', beside the short the positions list shows)
    for (const c of [close, trimmed])
      expect(v.exchange.conditional(u, { id: Number(c.id) })).toMatchObject({
        status: ConditionalStatus.REJECTED,
        reject_code: Errors.REDUCE_ONLY_REJECTED.code,
        reject_reason: 'The position on BTCUSDT is short: a reduce-only sell would increase it',
      });
    expect(v.exchange.positions(u)).toMatchObject([{ position_side: PositionSide.SHORT, quantity: 0.03 }]);
  });

  it('on the last price it fires on a trade that reaches it, whoever trades, once, in the order placed', () => {
    const v = venue();
    const u = user(v, 'cond-last1');
    openLong(v, u, '96000.0', '0.030');
    const last = (trigger: string) =>
      place(v.exchange, u, { working_type: WorkingType.LAST_PRICE, trigger_price: trigger });
    const first = last('95500.0');
    const second = last('95400.0');
    const third = last('95350.0');
    const status = (c: ConditionalOrderRecord) => v.exchange.conditional(u, { id: Number(c.id) })!;
    setPrices(v.exchange, 'BTCUSDT', { mark: 95000 }); // the mark is not what they watch
    expect(v.exchange.openConditionals(u)).toHaveLength(3);
    houseLimit(v.exchange, 1, '95440.0', '0.010');
    print(v, '95450.0'); // the house trades through the first only; its sale at 95,440 reaches no other
    expect(status(first).status).toBe(ConditionalStatus.TRIGGERED);
    expect([status(second).status, status(third).status]).toEqual([ConditionalStatus.NEW, ConditionalStatus.NEW]);
    expect(longQty(v, u)).toBe(0.02);
    houseLimit(v.exchange, 1, '95300.0', '0.020');
    print(v, '95400.0'); // reaches the second; its own sale at 95,300 goes through the third, which fires in turn
    const [a, b] = [status(second), status(third)];
    expect([a.status, b.status]).toEqual([ConditionalStatus.TRIGGERED, ConditionalStatus.TRIGGERED]);
    expect(Number(b.order_id)).toBeGreaterThan(Number(a.order_id));
    expect(longQty(v, u)).toBe(0);
    // spent: nothing waits, and the first fired once
    expect(v.exchange.openConditionals(u)).toEqual([]);
    expect(v.exchange.openOrders(u)).toEqual([]);
  });

  it('is cancelled by id or client id, all at once, and by a paper reset; a cancel of a spent one is 3019', () => {
    const v = venue();
    const u = user(v, 'cond-cancl');
    const other = user(v, 'cond-other');
    setPrices(v.exchange, 'BTCUSDT', { mark: 96000 });
    const a = place(v.exchange, u, { client_order_id: 'a' });
    place(v.exchange, u, { client_order_id: 'b', trigger_price: '94000.0' });
    const ex = v.exchange;
    const cancel = (accountId: number, by: object) => ex.execute({ kind: 'cancelConditional', accountId, ...by });
    expect(refusal(() => cancel(other, { orderId: Number(a.id) })).def).toBe(Errors.ORDER_NOT_FOUND);
    expect(cancel(u, { orderId: Number(a.id) })).toMatchObject({ id: a.id, status: ConditionalStatus.CANCELED });
    expect(refusal(() => cancel(u, { orderId: Number(a.id) })).def).toBe(Errors.ORDER_NOT_CANCELLABLE);
    expect(cancel(u, { clientOrderId: 'b' })).toMatchObject({ client_order_id: 'b', status: 3 });
    place(v.exchange, u, {});
    place(v.exchange, u, { symbol: 'ETHUSDT', qty: '0.10', trigger_price: '100.00' });
    expect(ex.execute({ kind: 'cancelAllConditionals', accountId: u, symbol: 'BTCUSDT' })).toBe(1);
    expect(ex.openConditionals(u).map((c) => c.symbol)).toEqual(['ETHUSDT']);
    resetAccount(ex, u, 1000n * USDT);
    expect(ex.openConditionals(u)).toEqual([]);
    expect(ex.conditionalHistory({ accountId: u, limit: 10 }).map((c) => c.status)).toEqual([3, 3, 3, 3]);
  });

  it('counts as an open order against a position mode change, which it was checked for', () => {
    const v = venue();
    const u = user(v, 'cond-mode1');
    setPrices(v.exchange, 'BTCUSDT', { mark: 96000 });
    const c = place(v.exchange, u, { side: 1, position_side: 2, trigger_price: '97000.0', trigger_direction: RISES });
    const change = () => v.exchange.execute({ kind: 'setPositionMode', accountId: u, mode: 'one_way' });
    const err = refusal(change);
    expect(err.def).toBe(Errors.POSITION_MODE_CHANGE_REFUSED);
    expect(err.message).toBe(
      'Position mode cannot change while the account has 1 open order (a waiting conditional order)',
    );
    // beside a resting limit order: the message says which of them the Open orders tab does not list
    const limit = placeOrder(v.exchange, u, {
      symbol: 'BTCUSDT',
      side: 1,
      position_side: 1,
      position_action: 1,
      type: 1,
      price: '90000.0',
      qty: '0.010',
    });
    expect(refusal(change).message).toBe(
      'Position mode cannot change while the account has 2 open orders (1 of them a waiting conditional order)',
    );
    cancelOrder(v.exchange, u, { symbol: 'BTCUSDT', orderId: Number(limit.order_id) });
    v.exchange.execute({ kind: 'cancelConditional', accountId: u, orderId: Number(c.id) });
    expect(change()).toEqual({ position_mode: 'one_way' });
  });

  it("counts as an open order against a margin mode change of its pair (Binance's -4047), not of another pair", () => {
    const v = venue();
    const u = user(v, 'cond-mmode');
    setPrices(v.exchange, 'BTCUSDT', { mark: 96000 });
    const c = place(v.exchange, u, { side: 1, position_side: 2, trigger_price: '97000.0', trigger_direction: RISES });
    const change = (symbol: string, mode: number) => () => setMarginMode(v.exchange, u, symbol, mode);
    const err = refusal(change('BTCUSDT', MarginMode.ISOLATED));
    expect(err.def).toBe(Errors.MARGIN_MODE_CHANGE_REFUSED);
    expect(err.message).toBe(
      'Margin mode of BTCUSDT cannot change while the account has 1 open order (a waiting conditional order) on it',
    );
    // an order that sets the pair's margin mode is that change too
    const order = () =>
      placeOrder(
        v.exchange,
        u,
        btc({ side: 1, position_side: 1, position_action: 1, price: '90000.0', margin_mode: MarginMode.ISOLATED }),
      );
    expect(refusal(order).def).toBe(Errors.MARGIN_MODE_CHANGE_REFUSED);
    expect(change('ETHUSDT', MarginMode.ISOLATED)()).toEqual({ symbol: 'ETHUSDT', margin_mode: MarginMode.ISOLATED });
    v.exchange.execute({ kind: 'cancelConditional', accountId: u, orderId: Number(c.id) });
    expect(change('BTCUSDT', MarginMode.ISOLATED)()).toEqual({ symbol: 'BTCUSDT', margin_mode: MarginMode.ISOLATED });
  });

  it('two isolated breakout stops on a cross pair: the first to fire opens isolated, the other waiting one naming isolated too', () => {
    const v = venue();
    const u = user(v, 'cond-mmode2');
    setPrices(v.exchange, 'BTCUSDT', { mark: 96000 });
    const open = { position_action: 1, reduce_only: false, margin_mode: MarginMode.ISOLATED };
    const up = place(v.exchange, u, { ...open, side: 1, trigger_price: '97000.0', trigger_direction: RISES });
    const down = place(v.exchange, u, { ...open, side: 2, position_side: 2, trigger_direction: FALLS });
    houseLimit(v.exchange, 2, '97010.0', '0.010');
    setPrices(v.exchange, 'BTCUSDT', { mark: 97000 });
    // (before: refused when it fired, 3014 'Margin mode of BTCUSDT cannot change while the account
    // has 1 open order (a waiting conditional order) on it', the other breakout stop)
    expect(v.exchange.conditional(u, { id: Number(up.id) })).toMatchObject({
      status: ConditionalStatus.TRIGGERED,
      reject_code: null,
    });
    expect(v.exchange.positions(u)).toMatchObject([
      { position_side: 1, margin_mode: MarginMode.ISOLATED, quantity: 0.01 },
    ]);
    // the other, naming isolated, still holds a change to cross, as one on the account's setting does
    const closeLong = btc({ side: 2, position_side: 1, position_action: 2, type: 2 });
    houseLimit(v.exchange, 1, '96990.0', '0.010');
    placeOrder(v.exchange, u, closeLong);
    expect(refusal(() => setMarginMode(v.exchange, u, 'BTCUSDT', MarginMode.CROSS)).message).toBe(
      'Margin mode of BTCUSDT cannot change while the account has 1 open order (a waiting conditional order) on it',
    );
    v.exchange.execute({ kind: 'cancelConditional', accountId: u, orderId: Number(down.id) });
    place(v.exchange, u, { side: 1, trigger_price: '98000.0', trigger_direction: RISES, position_action: 1 });
    expect(refusal(() => setMarginMode(v.exchange, u, 'BTCUSDT', MarginMode.CROSS)).def).toBe(
      Errors.MARGIN_MODE_CHANGE_REFUSED,
    );
  });

  it("on the last price, after a restart it waits for a trade: the last price is the stored tape's, and a mark is no trade", async () => {
    const dir = dataDir('perpdesk-cond-last-');
    const v1 = venue(dir);
    const u = user(v1, 'cond-keep2');
    openLong(v1, u, '96000.0', '0.010');
    print(v1, '96800.0');
    const c = place(v1.exchange, u, { working_type: WorkingType.LAST_PRICE, trigger_price: '96500.0' });
    await v1.close();
    const v2 = venue(dir);
    // the listing price (96,000) would be under the trigger: the newest stored trade is not
    expect(v2.exchange.pair('BTCUSDT')!.lastPriceTicks).toBe(968_000);
    setPrices(v2.exchange, 'BTCUSDT', { mark: 96000 });
    expect(v2.exchange.conditional(u, { id: Number(c.id) })!.status).toBe(ConditionalStatus.NEW);
    houseLimit(v2.exchange, 1, '96400.0', '0.010');
    print(v2, '96450.0');
    expect(v2.exchange.conditional(u, { id: Number(c.id) })!.status).toBe(ConditionalStatus.TRIGGERED);
    expect(longQty(v2, u)).toBe(0);
  });

  it('a modified stop keeps its new qty, limit price and trigger in the store: its history and a restart', async () => {
    const dir = dataDir('perpdesk-cond-amend-');
    const v1 = venue(dir);
    const u = user(v1, 'cond-amend-keep1');
    openLong(v1, u, '96000.0', '0.050');
    const c = place(v1.exchange, u, { type: 1, price: '95000.0', time_in_force: 1, qty: '0.010' });
    const amend = { kind: 'amendConditional', accountId: u, orderId: Number(c.id) } as const;
    v1.exchange.execute({ ...amend, trigger_price: '95400.0', price: '95100.0', qty: '0.004' });
    const modified = { price: '95100.0', qty: '0.004', trigger_price: '95400.0' };
    // the history reads the store (before, it said 95000.0 and 0.010 beside the waiting 0.004)
    const [stored] = v1.exchange.conditionalHistory({ accountId: u, limit: 10 });
    expect(stored).toMatchObject(modified);
    await v1.close();
    const v2 = venue(dir);
    // (before, the restart brought back the stop as placed: a sell of 0.010 at 95000.0)
    expect(v2.exchange.openConditionals(u)).toEqual([expect.objectContaining(modified)]);
    houseLimit(v2.exchange, 1, '95100.0', '0.050');
    setPrices(v2.exchange, 'BTCUSDT', { mark: 95400 });
    expect(longQty(v2, u)).toBeCloseTo(0.046, 9);
  });

  it('waits across a restart, fires after it, and the ids go on past it', async () => {
    const dir = dataDir('perpdesk-cond-');
    const v1 = venue(dir);
    const u = user(v1, 'cond-keep1');
    openLong(v1, u);
    const c = place(v1.exchange, u, { client_order_id: 'keep' });
    await v1.close();
    const v2 = venue(dir);
    expect(v2.exchange.openConditionals(u)).toEqual([c]);
    houseLimit(v2.exchange, 1, '94990.0', '0.010');
    setPrices(v2.exchange, 'BTCUSDT', { mark: 94999 });
    const fired = v2.exchange.conditional(u, { clientOrderId: 'keep' })!;
    expect(fired.status).toBe(ConditionalStatus.TRIGGERED);
    expect(Number(fired.order_id)).toBeGreaterThan(Number(c.id));
    expect(longQty(v2, u)).toBe(0);
  });
});
