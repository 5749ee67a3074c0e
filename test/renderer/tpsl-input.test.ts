// The TP/SL dialog's fields: thousands separators accepted and removed before sending, a
// non-number refused locally, PnL signed by direction; and its focus trap's index arithmetic.
import { describe, expect, it } from 'vitest';
import {
  sameTriggers,
  tpslChecks,
  tpslRequest,
  triggerPnl,
  triggerPrices,
  watchedPrice,
  watchOf,
} from '../../src-renderer/src/features/positions/tpsl-input.ts';
import type { TpSl } from '../../src-renderer/src/features/positions/positions-store.ts';
import { trapIndex } from '../../src-renderer/src/layout/focus-order.ts';

describe('triggerPrices', () => {
  it('sends "99,000" as 99000 and an empty field as null', () => {
    expect(triggerPrices('99,000', '')).toEqual({ ok: true, take_profit_price: '99000', stop_loss_price: null });
    expect(triggerPrices(' 101,250.5 ', '88 000.0')).toEqual({
      ok: true,
      take_profit_price: '101250.5',
      stop_loss_price: '88000.0',
    });
  });

  it('refuses a non-number with a message naming the field', () => {
    const r = triggerPrices('99,0000', '');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(/^Take profit "99,0000" is not a price/);
    const s = triggerPrices('', '1,5');
    expect(!s.ok && s.error).toMatch(/^Stop loss "1,5" is not a price/);
  });

  it('refuses a negative or zero price instead of reading it as "remove" (only an empty field removes)', () => {
    expect(triggerPrices('-99000', '93000')).toEqual({
      ok: false,
      error: 'Take profit "-99000" is not a price: a price is above 0 (clear the field to remove the trigger).',
    });
    const neg = triggerPrices('99000', '-1');
    expect(!neg.ok && neg.error).toMatch(/^Stop loss "-1" is not a price: a price is above 0/);
    expect(triggerPrices('−93,000', '').ok).toBe(false);
    expect(triggerPrices('0', '').ok).toBe(false);
    expect(triggerPrices('', '0.0').ok).toBe(false);
    // both fields' reasons at once
    const both = triggerPrices('abc', '-1');
    expect(!both.ok && both.error).toMatch(/^Take profit "abc" is not a price: .* Stop loss "-1" is not a price: /);
    // empty still removes, both at once too
    expect(triggerPrices('', '  ')).toEqual({ ok: true, take_profit_price: null, stop_loss_price: null });
  });
});

describe('tpslChecks', () => {
  const mark = { name: 'mark price', price: 95_000.04 };
  const checks = (tp: string, sl: string, long = true, w = mark) =>
    tpslChecks({ tp, sl }, long, { tp: w, sl: w }, '0.1', 1);

  it('says nothing of triggers on the right side and on the tick, nor of empty fields (a removal)', () => {
    expect(checks('99,000', '90000')).toEqual({ tp: null, sl: null });
    expect(checks('90000', '99000', false)).toEqual({ tp: null, sl: null });
    expect(checks('', '')).toEqual({ tp: null, sl: null });
  });

  it('says both wrong sides at once, naming the price watched and its value', () => {
    expect(checks('90000', '99000')).toEqual({
      tp: 'Not above the mark price (95,000.0): a long’s take profit must be above it.',
      sl: 'Not below the mark price (95,000.0): a long’s stop loss must be below it.',
    });
    expect(checks('99000', '90000', false)).toEqual({
      tp: 'Not below the mark price (95,000.0): a short’s take profit must be below it.',
      sl: 'Not above the mark price (95,000.0): a short’s stop loss must be above it.',
    });
    // at the watched price itself: already reached, refused too
    expect(checks('95100.0', '', true, { name: 'last price', price: 95_100 }).tp).toBe(
      'Not above the last price (95,100.0): a long’s take profit must be above it.',
    );
  });

  it('says off the tick, not a number and not above 0 first', () => {
    expect(checks('99000.55', 'abc')).toEqual({
      tp: 'Not on the tick: the venue takes multiples of 0.1.',
      sl: expect.stringMatching(/^Not a price: use digits/),
    });
    expect(checks('0', '-5').tp).toBe('A price is above 0.');
    expect(checks('0', '-5').sl).toBe('A price is above 0.');
    // no watched price or tick known yet: the side and the tick are not said
    const unknown = { name: 'mark price', price: NaN };
    expect(tpslChecks({ tp: '90000.55', sl: '99000' }, true, { tp: unknown, sl: unknown }, undefined, 1)).toEqual({
      tp: null,
      sl: null,
    });
  });

  it('checks each trigger against the price it watches: a take-profit on the mark, a stop-loss on the last', () => {
    const last = { name: 'last price', price: 94_000 };
    // a long's stop-loss at 94,500.0 is under the mark but over the last price it watches
    expect(tpslChecks({ tp: '95100', sl: '94500' }, true, { tp: mark, sl: last }, '0.1', 1)).toEqual({
      tp: null,
      sl: 'Not below the last price (94,000.0): a long’s stop loss must be below it.',
    });
  });
});

// Before, the dialog had one Mark / Last choice for both triggers, started from the take-profit's:
// saving a position whose take-profit watches the mark and whose stop-loss the last price sent
// working_type 1 for both and moved the stop-loss onto the mark without a word.
describe("the dialog's triggers each keep the price they watch", () => {
  const apart: TpSl = {
    takeProfit: '99000.0',
    stopLoss: '93000.0',
    workingType: 1,
    tpWorkingType: 1,
    slWorkingType: 2,
  };

  it('starts each choice from its own trigger (the mark when none)', () => {
    expect(watchOf(apart)).toEqual({ tp: 1, sl: 2 });
    expect(watchOf({ ...apart, tpWorkingType: 2, slWorkingType: 1 })).toEqual({ tp: 2, sl: 1 });
    expect(watchOf(null)).toEqual({ tp: 1, sl: 1 });
  });

  it('sends each trigger with its own working type, both in one request', () => {
    const prices = { take_profit_price: '99500.0', stop_loss_price: '93000.0' };
    expect(tpslRequest({ symbol: 'BTCUSDT', position_side: 1 }, prices, watchOf(apart))).toEqual({
      symbol: 'BTCUSDT',
      position_side: 1,
      take_profit_price: '99500.0',
      stop_loss_price: '93000.0',
      working_type: 1,
      take_profit_working_type: 1,
      stop_loss_working_type: 2,
    });
  });

  it('finds a trigger moved to the other price meanwhile (Save does not overwrite it unseen)', () => {
    expect(sameTriggers(apart, { ...apart })).toBe(true);
    expect(sameTriggers(apart, { ...apart, slWorkingType: 1 })).toBe(false);
    // a trigger that is not set watches nothing: its working type is no change
    const none: TpSl = { ...apart, takeProfit: null };
    expect(sameTriggers(none, { ...none, tpWorkingType: 2 })).toBe(true);
  });
});

describe('watchedPrice', () => {
  it('is the last price with Last chosen (the mark until the pair has traded), else the mark', () => {
    expect(watchedPrice(1, 95_000, 95_100)).toEqual({ name: 'mark price', price: 95_000 });
    expect(watchedPrice(2, 95_000, 95_100)).toEqual({ name: 'last price', price: 95_100 });
    expect(watchedPrice(2, 95_000, 0)).toEqual({ name: 'mark price', price: 95_000 });
    expect(watchedPrice(2, 95_000, undefined)).toEqual({ name: 'mark price', price: 95_000 });
    expect(watchedPrice(1, undefined, 95_100).price).toBeNaN();
  });
});

describe('triggerPnl', () => {
  it('reads separators and signs by direction', () => {
    expect(triggerPnl('99,000', 98_000, { size: 0.5, sign: 1 })).toBe(500);
    expect(triggerPnl('99,000', 98_000, { size: 0.5, sign: -1 })).toBe(-500);
    expect(triggerPnl('abc', 98_000, { size: 0.5, sign: 1 })).toBeNaN();
    expect(triggerPnl('', 98_000, { size: 0.5, sign: 1 })).toBeNaN();
  });
});

describe('trapIndex', () => {
  it('wraps at both ends, enters from outside, and leaves the middle to the browser', () => {
    expect(trapIndex(4, 5, false)).toBe(0);
    expect(trapIndex(0, 5, true)).toBe(4);
    expect(trapIndex(-1, 5, false)).toBe(0);
    expect(trapIndex(-1, 5, true)).toBe(4);
    expect(trapIndex(2, 5, false)).toBeNull();
    expect(trapIndex(2, 5, true)).toBeNull();
    expect(trapIndex(-1, 0, false)).toBeNull();
  });

  it('goes on from a stop that is not in the list (a scroll box) in the browser order, wrapping only at an end', () => {
    // the bot panel: Tab from the request box (3 controls before it) goes on to the answer and the Cancel buttons
    expect(trapIndex(-1, 5, false, 3)).toBeNull();
    expect(trapIndex(-1, 5, true, 3)).toBeNull();
    // after every control: Tab wraps to the first; before every control: Shift+Tab wraps to the last
    expect(trapIndex(-1, 5, false, 5)).toBe(0);
    expect(trapIndex(-1, 5, true, 0)).toBe(4);
    expect(trapIndex(-1, 5, true, 5)).toBeNull();
    expect(trapIndex(-1, 5, false, 0)).toBeNull();
  });
});
