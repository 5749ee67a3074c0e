// The order form's Stop kind (stop-order.ts, order-model.ts): the trigger's direction from the
// watched price, the sentence the form says, and the conditional order a click builds: a
// stop-market without a limit price, a stop-limit with one, a Close stop reduce-only; and the
// form's own refusals (no trigger, a trigger at the watched price).
import { describe, expect, it } from 'vitest';
import { parseDecimalInput } from '../../src-renderer/src/lib/decimal-input.ts';
import {
  stopAction,
  stopRefusedAsTyped,
  stopRequest,
  stopSentence,
  stopTrigger,
  stopWhenWords,
  triggerDirection,
} from '../../src-renderer/src/features/order-entry/stop-order.ts';
import { display, FALLS, LAST, long, MARK, RISES, stopModels } from './stop-desk.ts';

const model = stopModels({ last: 94_995, stop: { trigger: '97000' } });

describe('the trigger direction, from the watched price now', () => {
  it('above the price: fires as it rises to it; below: as it falls to it', () => {
    expect(triggerDirection(97_000, 95_000)).toBe(RISES);
    expect(triggerDirection(93_000, 95_000)).toBe(FALLS);
  });

  it('at the price itself, or with no price known, there is no direction (the venue would answer 3026)', () => {
    expect(triggerDirection(95_000, 95_000)).toBeNull();
    expect(triggerDirection(95_000, undefined)).toBeNull();
    expect(stopTrigger(parseDecimalInput('95000'), MARK, 95_000)).toEqual({
      ok: false,
      error: 'The trigger is at the mark price now: set it above or below, where it is to fire.',
    });
  });

  it("an empty or unreadable trigger is the form's own refusal, naming the watched price", () => {
    expect(stopTrigger(parseDecimalInput(''), LAST, 95_000)).toEqual({
      ok: false,
      error: 'Enter a trigger price: the order goes when the last price reaches it.',
    });
    const bad = stopTrigger(parseDecimalInput('97k'), MARK, 95_000);
    expect(bad.ok === false && bad.error.startsWith('Trigger price "97k" is not a number')).toBe(true);
  });
});

describe('the sentence', () => {
  it('says the watched price, the way it moves, the trigger and what is placed', () => {
    const buy = { side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.010' } as const;
    expect(
      stopSentence({ ...buy, trigger_price: '97000', trigger_direction: RISES, working_type: MARK }, display),
    ).toBe('When the mark price rises to 97,000.0: buy 0.010 BTC at market');
    const sell = { side: 2, position_side: 1, position_action: 2, type: 1, price: '92950', qty: '0.05' } as const;
    expect(
      stopSentence({ ...sell, trigger_price: '93000', trigger_direction: FALLS, working_type: LAST }, display),
    ).toBe('When the last price falls to 93,000.0: sell 0.050 BTC at 92,950.0 (limit, reduce-only)');
  });

  it('a stop that closes the whole position says so, with no size', () => {
    expect(
      stopAction(
        { side: 2, position_side: 1, position_action: 2, type: 2, qty: null, close_position: true },
        1,
        3,
        'BTC',
      ),
    ).toBe('close the whole long at market');
  });
});

describe("the form's words: what is sent, never a value rounded to the pair's decimals", () => {
  const pair = { price_step: '0.1', qty_step: '0.001', min_qty: '0.001', max_qty: '1000' };
  const typed = (t: string) => stopWhenWords(MARK, parseDecimalInput(t), 95_000, '0.1', 1);

  it('a trigger on the tick is said; one off it is "—" (the venue refuses it: 3003), not 97,000.1', () => {
    expect(typed('97000.1')).toEqual({ text: 'When the mark price rises to 97,000.1:', muted: false });
    expect(typed('97000.05')).toEqual({ text: '—', muted: true });
    expect(typed('96500.04').text).toBe('—');
  });

  it('a side whose limit price or size the venue refuses as typed is "—", not 97,100.1 or 0.011', () => {
    const buy = { type: 1, price: '97100.1', qty: '5' } as const;
    expect(stopRefusedAsTyped(buy, pair)).toBe(false);
    expect(stopRefusedAsTyped({ ...buy, price: '97100.05' }, pair)).toBe(true);
    expect(stopRefusedAsTyped({ type: 2, qty: '0.0105' }, pair)).toBe(true);
    expect(stopRefusedAsTyped({ type: 2, qty: '1001' }, pair)).toBe(true);
    // a market stop's price is not sent; no size typed yet, or a close of the whole position, is none to refuse
    expect(stopRefusedAsTyped({ type: 2, price: '97100.05', qty: '0.010' }, pair)).toBe(false);
    expect(stopRefusedAsTyped({ type: 2, qty: '' }, pair)).toBe(false);
    expect(stopRefusedAsTyped({ type: 2, qty: null }, pair)).toBe(false);
    // the catalogue not loaded yet: nothing to check against
    expect(stopRefusedAsTyped({ type: 2, qty: '0.0105' }, undefined)).toBe(false);
  });
});

describe('the request a click builds', () => {
  it('no limit price: a stop-market, no price, the trigger above the mark rising to it; the leverage the one in force when it fires', () => {
    const m = model({});
    expect(m.type).toBe(2);
    const r = m.order(1);
    if (!r.ok) throw new Error(r.error);
    const st = stopRequest(r.order, m.triggerIn, MARK, 95_000);
    expect(st).toEqual({
      ok: true,
      request: {
        symbol: 'BTCUSDT',
        side: 1,
        position_side: 1,
        position_action: 1,
        type: 2,
        qty: '0.010',
        trigger_price: '97000',
        trigger_direction: RISES,
        working_type: MARK,
      },
    });
  });

  it('a stop-market is estimated at its trigger (0.010 x 97 000 = 970 notional), not at the book', () => {
    expect(model({}).buy.notional).toBeCloseTo(970, 6);
  });

  it('a limit price typed: a stop-limit at that price with its time in force', () => {
    const m = model({ price: '97100', tif: 3 });
    const r = m.order(1);
    if (!r.ok) throw new Error(r.error);
    const st = stopRequest(r.order, m.triggerIn, LAST, 94_995);
    expect(st.ok && st.request).toMatchObject({
      type: 1,
      price: '97100',
      time_in_force: 3,
      trigger_price: '97000',
      trigger_direction: RISES,
      working_type: LAST,
    });
  });

  it('Close: a reduce-only close of the long, falling to a trigger under the mark', () => {
    const m = model({ action: 'close', trigger: '93000' }, [long]);
    const r = m.order(2);
    if (!r.ok) throw new Error(r.error);
    const st = stopRequest(r.order, m.triggerIn, MARK, 95_000);
    expect(st.ok && st.request).toMatchObject({
      side: 2,
      position_side: 1,
      position_action: 2,
      reduce_only: true,
      type: 2,
      trigger_direction: FALLS,
    });
    expect(st.ok && 'price' in st.request).toBe(false);
  });

  it('Price protection ticked: sent as price_protect true; unticked: not sent (the venue default, false)', () => {
    const m = model({});
    const r = m.order(1);
    if (!r.ok) throw new Error(r.error);
    const on = stopRequest(r.order, m.triggerIn, MARK, 95_000, true);
    expect(on.ok && on.request.price_protect).toBe(true);
    const off = stopRequest(r.order, m.triggerIn, MARK, 95_000, false);
    expect(off.ok && 'price_protect' in off.request).toBe(false);
  });

  it('an open is never sent reduce-only', () => {
    const m = model({});
    const r = m.order(2);
    if (!r.ok) throw new Error(r.error);
    const st = stopRequest(r.order, m.triggerIn, MARK, 95_000);
    expect(st.ok && st.request.reduce_only).toBeUndefined();
  });
});
