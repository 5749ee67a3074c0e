// The Modify dialog's fields (src-renderer/src/features/orders/amend-input.ts): what is sent,
// and what is refused before anything is sent.
import { describe, expect, it } from 'vitest';
import { amendFields, cancelsOrder } from '../../src-renderer/src/features/orders/amend-input.ts';

const order = { price: '95000.0', qty: '0.010' };

describe('amendFields', () => {
  it('sends the typed price and total as the API decimals, thousands separators dropped', () => {
    expect(amendFields('94,000.5', '0.020', order)).toEqual({ ok: true, price: '94000.5', qty: '0.020' });
    expect(amendFields(' 95000 ', '0.02', order)).toEqual({ ok: true, price: '95000', qty: '0.02' });
    // one of the two changed is a change
    expect(amendFields('95000.0', '0.011', order)).toEqual({ ok: true, price: '95000.0', qty: '0.011' });
  });

  it('refuses an empty field, what is not a number, 0 or below, and a change of nothing', () => {
    expect(amendFields('', '0.010', order)).toEqual({ ok: false, error: 'Price is empty.' });
    expect(amendFields('94000', '', order)).toEqual({ ok: false, error: 'Amount is empty.' });
    expect(amendFields('94,00', '0.010', order)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Price "94,00" is not a number/),
    });
    expect(amendFields('94000', '-1', order)).toEqual({ ok: false, error: 'Amount must be above 0.' });
    expect(amendFields('0', '0.010', order)).toEqual({ ok: false, error: 'Price must be above 0.' });
    expect(amendFields('95,000', '0.01', order)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/nothing to change/),
    });
  });
});

describe('cancelsOrder', () => {
  it('is true for a total not above the filled part, false otherwise and for what is not a number', () => {
    expect(cancelsOrder('0.004', '0.004')).toBe(true);
    expect(cancelsOrder('0.003', '0.004')).toBe(true);
    expect(cancelsOrder('0.005', '0.004')).toBe(false);
    expect(cancelsOrder('0.001', '0.000')).toBe(false);
    expect(cancelsOrder('abc', '0.004')).toBe(false);
    expect(cancelsOrder('', '0.004')).toBe(false);
  });
});
