// The TP/SL dialog's fields: thousands separators accepted and removed before sending, a
// non-number refused locally, PnL signed by direction; and its focus trap's index arithmetic.
import { describe, expect, it } from 'vitest';
import { triggerPnl, triggerPrices } from '../../src-renderer/src/features/positions/tpsl-input.ts';
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
    // empty still removes, both at once too
    expect(triggerPrices('', '  ')).toEqual({ ok: true, take_profit_price: null, stop_loss_price: null });
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
});
