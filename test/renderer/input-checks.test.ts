// The order form's checks of a typed price and size (input-checks.ts): what the venue's own step
// arithmetic calls off the tick or step, a size under the pair's minimum or over its maximum, an
// opening order worth less than the minimum notional; nothing for what is
// fine, empty, not a number or not above 0 (those have their own messages); and the dialogs' field
// checks, which say those too, one message a field.
import { describe, expect, it } from 'vitest';
import {
  amountFieldCheck,
  notionalCheck,
  postOnlyCheck,
  priceCheck,
  priceFieldCheck,
  sizeCheck,
} from '../../src-renderer/src/features/order-entry/input-checks.ts';
import { parseDecimalInput } from '../../src-renderer/src/lib/decimal-input.ts';

const typed = parseDecimalInput;
const BTC = { qty_step: '0.001', min_qty: '0.001' };
const SOL = { qty_step: '0.01', min_qty: '0.01' };

describe('the order form’s input checks', () => {
  it('says a price off the tick, as the venue reckons it', () => {
    expect(priceCheck(typed('96000.1'), '0.1')).toBeNull();
    expect(priceCheck(typed('96,000.10'), '0.1')).toBeNull();
    expect(priceCheck(typed('180.123'), '0.01')).toBe('Not on the tick: the venue takes multiples of 0.01.');
    expect(priceCheck(typed('96000.15'), '0.1')).toBe('Not on the tick: the venue takes multiples of 0.1.');
    // a tick that is not a power of ten
    expect(priceCheck(typed('1.5'), '0.5')).toBeNull();
    expect(priceCheck(typed('1.25'), '0.5')).toBe('Not on the tick: the venue takes multiples of 0.5.');
    // a long price on a 1e-7 tick
    expect(priceCheck(typed('0.0123456'), '0.0000001')).toBeNull();
    expect(priceCheck(typed('0.01234561'), '0.0000001')).not.toBeNull();
    // nothing to say: empty, not a number, negative, zero
    for (const t of ['', 'abc', '-5', '0']) expect(priceCheck(typed(t), '0.1')).toBeNull();
  });

  it('says a size off the step, then one under the minimum', () => {
    expect(sizeCheck(typed('0.050'), BTC)).toBeNull();
    expect(sizeCheck(typed('0.0505'), BTC)).toBe('Not on the step: the venue takes multiples of 0.001.');
    expect(sizeCheck(typed('0.005'), SOL)).toBe('Not on the step: the venue takes multiples of 0.01.');
    expect(sizeCheck(typed('0.02'), { qty_step: '0.01', min_qty: '0.05' })).toBe(
      'Under the minimum of 0.05: the venue refuses it.',
    );
    expect(sizeCheck(typed('0.05'), { qty_step: '0.01', min_qty: '0.05' })).toBeNull();
    expect(sizeCheck(typed('1,000'), { qty_step: '1', min_qty: '1' })).toBeNull();
    for (const t of ['', 'x', '-1', '0', '0.000']) expect(sizeCheck(typed(t), BTC)).toBeNull();
  });

  it('says a size over the maximum of one order', () => {
    const capped = { ...BTC, max_qty: '120' };
    expect(sizeCheck(typed('120'), capped)).toBeNull();
    expect(sizeCheck(typed('120.001'), capped)).toBe('Over the maximum of 120 in one order: the venue refuses it.');
    // grouped as the screen writes amounts (1000PEPEUSDT's cap read "800000000")
    expect(sizeCheck(typed('800000001'), { qty_step: '1', min_qty: '1', max_qty: '800000000' })).toBe(
      'Over the maximum of 800,000,000 in one order: the venue refuses it.',
    );
    // off the step is said first
    expect(sizeCheck(typed('120.0005'), capped)).toBe('Not on the step: the venue takes multiples of 0.001.');
  });

  it('says an opening order worth less than the minimum notional, with its value', () => {
    expect(notionalCheck(95.5, '100')).toBe(
      'Worth 95.50 USDT at this price: the venue takes at least 100 USDT for an order that is not reduce-only.',
    );
    expect(notionalCheck(100, '100')).toBeNull();
    // no price yet (NaN), nothing typed (0), or no minimum known: nothing to say
    for (const n of [NaN, 0]) expect(notionalCheck(n, '100')).toBeNull();
    expect(notionalCheck(5, undefined)).toBeNull();
  });

  it('says a dialog’s price field as typed: not a number, not above 0, then the tick', () => {
    expect(priceFieldCheck(typed('97000.5'), '0.1')).toBeNull();
    expect(priceFieldCheck(typed('97,000.50'), '0.1')).toBeNull();
    expect(priceFieldCheck(typed('97000.55'), '0.1')).toBe('Not on the tick: the venue takes multiples of 0.1.');
    expect(priceFieldCheck(typed('abc'), '0.1')).toMatch(/^Not a price: use digits and a decimal point/);
    expect(priceFieldCheck(typed('12,34.5'), '0.1')).toMatch(/^Not a price/);
    for (const t of ['0', '0.0', '-1', '−97,000']) expect(priceFieldCheck(typed(t), '0.1')).toBe('A price is above 0.');
    // empty: the caller's to judge; no tick known yet: the rest still said
    expect(priceFieldCheck(typed(''), '0.1')).toBeNull();
    expect(priceFieldCheck(typed('97000.55'), undefined)).toBeNull();
    expect(priceFieldCheck(typed('x'), undefined)).toMatch(/^Not a price/);
  });

  it('says a dialog’s amount field as typed: not a number, not above 0, then the step, minimum and maximum', () => {
    const capped = { ...BTC, min_qty: '0.002', max_qty: '120' };
    expect(amountFieldCheck(typed('0.010'), capped)).toBeNull();
    expect(amountFieldCheck(typed('0.0105'), capped)).toBe('Not on the step: the venue takes multiples of 0.001.');
    expect(amountFieldCheck(typed('0.001'), capped)).toBe('Under the minimum of 0.002: the venue refuses it.');
    expect(amountFieldCheck(typed('121'), capped)).toBe('Over the maximum of 120 in one order: the venue refuses it.');
    expect(amountFieldCheck(typed('abc'), capped)).toMatch(/^Not an amount: use digits and a decimal point/);
    for (const t of ['0', '-1']) expect(amountFieldCheck(typed(t), capped)).toBe('Amount must be above 0.');
    expect(amountFieldCheck(typed(''), capped)).toBeNull();
    expect(amountFieldCheck(typed('0.0105'), undefined)).toBeNull();
  });
});

describe('a post-only price that would take (3022)', () => {
  it('names the side, the best price it reaches and the refusal; nothing when it rests', () => {
    expect(postOnlyCheck({ side: 1, best: 96_040.1 }, 1)).toBe(
      'Post-only: a buy at or above the best ask (96,040.1) would take liquidity, and the venue refuses it.',
    );
    expect(postOnlyCheck({ side: 2, best: 95_000 }, 1)).toBe(
      'Post-only: a sell at or below the best bid (95,000.0) would take liquidity, and the venue refuses it.',
    );
    expect(postOnlyCheck(null, 1)).toBeNull();
  });
});
