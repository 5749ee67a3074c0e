// The Modify dialog's fields (src-renderer/src/features/orders/amend-input.ts): what is sent,
// and what is refused before anything is sent.
import { describe, expect, it } from 'vitest';
import {
  amendedTitle,
  amendFieldChecks,
  amendFields,
  cancelsOrder,
  crossesBook,
} from '../../src-renderer/src/features/orders/amend-input.ts';
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
    expect(amendFields('94000', '-1', order)).toEqual({
      ok: false,
      error: 'Amount must be above 0: to cancel the order, use its Cancel.',
    });
    // an amount of 0 is no way to cancel: said under the field as typed and on Modify
    expect(amendFields('94000', '0', order)).toEqual({
      ok: false,
      error: 'Amount must be above 0: to cancel the order, use its Cancel.',
    });
    expect(amendFieldChecks('94000', '0', { position_action: 1 }, undefined).qty).toBe(
      'Amount must be above 0: to cancel the order, use its Cancel.',
    );
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

describe('amendFieldChecks', () => {
  const BTC = { price_step: '0.1', qty_step: '0.001', min_qty: '0.002', max_qty: '120', min_notional: '100' };
  const opens = { position_action: 1 as const };
  const closes = { position_action: 2 as const };

  it('says nothing of fields the venue takes', () => {
    expect(amendFieldChecks('95,000.5', '0.010', opens, BTC)).toEqual({ price: null, qty: null });
  });

  it('says the price off the tick and the total off the step, under the minimum or over the maximum, as typed', () => {
    expect(amendFieldChecks('95000.55', '0.0105', opens, BTC)).toEqual({
      price: 'Not on the tick: the venue takes multiples of 0.1.',
      qty: 'Not on the step: the venue takes multiples of 0.001.',
    });
    expect(amendFieldChecks('95000', '0.001', opens, BTC).qty).toBe(
      'Under the minimum of 0.002: the venue refuses it.',
    );
    expect(amendFieldChecks('95000', '121', opens, BTC).qty).toBe(
      'Over the maximum of 120 in one order: the venue refuses it.',
    );
  });

  it('says what is not a number or not above 0; an empty field is left to Modify', () => {
    expect(amendFieldChecks('abc', '-1', opens, BTC)).toEqual({
      price: expect.stringMatching(/^Not a price: use digits/),
      qty: 'Amount must be above 0: to cancel the order, use its Cancel.',
    });
    expect(amendFieldChecks('0', 'x', opens, BTC)).toEqual({
      price: 'A price is above 0.',
      qty: expect.stringMatching(/^Not an amount/),
    });
    expect(amendFieldChecks('', '', opens, BTC)).toEqual({ price: null, qty: null });
  });

  it('says an opening order worth less than the minimum notional at the typed price; a close is not held to it', () => {
    expect(amendFieldChecks('40000', '0.002', opens, BTC).qty).toBe(
      'Worth 80.00 USDT at this price: the venue takes at least 100 USDT for an order that is not reduce-only.',
    );
    expect(amendFieldChecks('50000', '0.002', opens, BTC).qty).toBeNull();
    expect(amendFieldChecks('40000', '0.002', closes, BTC).qty).toBeNull();
  });
});

describe('crossesBook', () => {
  const book = { bestBid: 94_999.9, bestAsk: 95_000.1 };

  it('warns of a buy at or above the best ask, naming it', () => {
    expect(crossesBook('95,000.1', 1, book, 1)).toBe(
      'At or above the best ask (95,000.1): it would trade at once, as a taker.',
    );
    expect(crossesBook('96000', 1, book, 1)).not.toBeNull();
    expect(crossesBook('95000.0', 1, book, 1)).toBeNull();
  });

  it('warns of a sell at or below the best bid, naming it', () => {
    expect(crossesBook('94999.9', 2, book, 1)).toBe(
      'At or below the best bid (94,999.9): it would trade at once, as a taker.',
    );
    expect(crossesBook('90000', 2, book, 1)).not.toBeNull();
    expect(crossesBook('95000.0', 2, book, 1)).toBeNull();
  });

  it('says nothing while the price is not a number or the book side is unknown', () => {
    expect(crossesBook('abc', 1, book, 1)).toBeNull();
    expect(crossesBook('', 2, book, 1)).toBeNull();
    expect(crossesBook('-1', 2, book, 1)).toBeNull();
    expect(crossesBook('99000', 1, { bestBid: NaN, bestAsk: NaN }, 1)).toBeNull();
  });
});
