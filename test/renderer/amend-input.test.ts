// The Modify dialog's fields (src-renderer/src/features/orders/amend-input.ts): what is sent,
// and what is refused before anything is sent.
import { describe, expect, it } from 'vitest';
import { amendFields, amendedTitle, cancelsOrder } from '../../src-renderer/src/features/orders/amend-input.ts';
import type { OrderRecord } from '../../src-shared/types.ts';
import { OrderStatus } from '../../src-shared/enums.ts';

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

describe('amendedTitle', () => {
  const rec = (over: Partial<OrderRecord>): OrderRecord =>
    ({
      id: '7',
      price: '94000.5',
      qty: '0.020',
      filled_qty: '0',
      avg_price: '0',
      status: OrderStatus.NEW,
      ...over,
    }) as OrderRecord;

  it('says the new terms of an order still resting, in the pair decimals', () => {
    expect(amendedTitle(rec({}), 1, 3, 'BTC')).toBe('Order #7 modified: 0.020 BTC at 94,000.5');
    expect(amendedTitle(rec({ status: OrderStatus.PARTIALLY_FILLED, qty: '1' }), 2, 1, 'ETH')).toBe(
      'Order #7 modified: 1.0 ETH at 94,000.50',
    );
  });

  it('says when the new price crossed and the order filled, or the total cancelled it', () => {
    expect(amendedTitle(rec({ status: OrderStatus.FILLED, avg_price: '93990' }), 1, 3, 'BTC')).toBe(
      'Order #7 filled at once at 93,990.0',
    );
    expect(amendedTitle(rec({ status: OrderStatus.CANCELED, filled_qty: '0.005' }), 1, 3, 'BTC')).toBe(
      'Order #7 cancelled: its total was not above the 0.005 filled',
    );
  });
});
