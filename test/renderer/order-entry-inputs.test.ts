// What the order form reads from its fields: prices and sizes as the screen writes them
// (thousands separators), the leverage field as typed, the % size capped at the pair's max_qty
// and kept on the step, and which keys act while an overlay is open.
import { describe, expect, it } from 'vitest';
import { inputNumber, parseDecimalInput } from '../../src-renderer/src/lib/decimal-input.ts';
import { parseLeverage } from '../../src-renderer/src/features/order-entry/leverage-input.ts';
import { pctQty } from '../../src-renderer/src/features/order-entry/size.ts';
import { overlayAllows } from '../../src-renderer/src/features/help/overlay-keys.ts';

describe('parseDecimalInput', () => {
  it('accepts a price written the way the screen shows it, and sends it without separators', () => {
    expect(parseDecimalInput('90,000.0')).toEqual({ kind: 'ok', value: '90000.0', n: 90_000 });
    expect(parseDecimalInput(' 1,234,567.25 ')).toEqual({ kind: 'ok', value: '1234567.25', n: 1_234_567.25 });
    expect(parseDecimalInput('90\u00a0000.5')).toMatchObject({ kind: 'ok', value: '90000.5' });
    expect(parseDecimalInput('0.050')).toMatchObject({ kind: 'ok', value: '0.050' });
  });

  it('writes what the API pattern wants: no leading zeros, no bare dot', () => {
    expect(parseDecimalInput('.5')).toMatchObject({ value: '0.5' });
    expect(parseDecimalInput('007')).toMatchObject({ value: '7' });
    expect(parseDecimalInput('5.')).toMatchObject({ value: '5' });
    for (const t of ['90,000.0', '.5', '007', '5.', '0.050']) {
      const r = parseDecimalInput(t);
      expect(r.kind === 'ok' && /^(0|[1-9][0-9]*)(\.[0-9]+)?$/.test(r.value), t).toBe(true);
    }
  });

  it('refuses what is not a number, a decimal comma included (it would mean ten times the size)', () => {
    for (const t of ['abc', '1,5', '9,0000', '1.2.3', '-', '--5', '-0', '1e3', '90,000,0'])
      expect(parseDecimalInput(t).kind, t).toBe('invalid');
    // a number with a minus sign is one, but never a price or size: the form says so
    expect(parseDecimalInput('-5')).toEqual({ kind: 'negative', text: '-5' });
    expect(parseDecimalInput(' −1,000.5 ')).toEqual({ kind: 'negative', text: '−1,000.5' });
    expect(inputNumber('-5')).toBeNaN();
    expect(parseDecimalInput('   ')).toEqual({ kind: 'empty' });
    expect(inputNumber('1,5')).toBeNaN();
    expect(inputNumber('95,810.5')).toBe(95_810.5);
  });
});

describe('parseLeverage', () => {
  it('keeps an empty field empty (no confirm) and reads 50 as 50', () => {
    expect(parseLeverage('', 125)).toEqual({ ok: false, reason: null });
    expect(parseLeverage('5', 125)).toEqual({ ok: true, value: 5 });
    expect(parseLeverage('50', 125)).toEqual({ ok: true, value: 50 });
    expect(parseLeverage('20x', 125)).toEqual({ ok: true, value: 20 });
  });

  it('says what the range is instead of clamping', () => {
    expect(parseLeverage('150', 125)).toEqual({ ok: false, reason: 'Leverage goes from 1x to 125x' });
    expect(parseLeverage('0', 20)).toEqual({ ok: false, reason: 'Leverage goes from 1x to 20x' });
    expect(parseLeverage('2.5', 125)).toMatchObject({ ok: false });
    expect(parseLeverage('abc', 125)).toMatchObject({ ok: false });
  });
});

describe('pctQty', () => {
  it('caps the quantity at max_qty: 25% of 483,685.8 BTC at price 1 is 1,000 BTC, not 120,921.453', () => {
    expect(pctQty({ pct: 25, base: 483_685.81, qtyStep: '0.001', maxQty: '1000' })).toBe('1000.000');
    expect(pctQty({ pct: 100, base: 483_685.81, qtyStep: '0.001', maxQty: '1000' })).toBe('1000.000');
  });

  it('rounds down to the step, and a cap off the step too', () => {
    expect(pctQty({ pct: 50, base: 0.1234, qtyStep: '0.001', maxQty: '1000' })).toBe('0.061');
    expect(pctQty({ pct: 100, base: 50, qtyStep: '0.01', maxQty: '12.345' })).toBe('12.34');
  });

  it('gives nothing for 0% or nothing to take a share of, and no cap without max_qty', () => {
    expect(pctQty({ pct: 0, base: 10, qtyStep: '0.001', maxQty: '1000' })).toBe('');
    expect(pctQty({ pct: 25, base: 0, qtyStep: '0.001', maxQty: '1000' })).toBe('');
    expect(pctQty({ pct: 25, base: 4000, qtyStep: '0.001', maxQty: '' })).toBe('1000.000');
  });
});

describe('overlayAllows', () => {
  it('lets only ? and Esc act while help (or any overlay) is open', () => {
    for (const key of ['3', 'b', 's', '/', 'l', 'O', ',', '[', 'Enter']) {
      expect(overlayAllows('help', key), key).toBe(false);
      expect(overlayAllows('settings', key), key).toBe(false);
      expect(overlayAllows(null, key), key).toBe(true);
    }
    expect(overlayAllows('help', '?')).toBe(true);
    expect(overlayAllows('help', 'Escape')).toBe(true);
  });
});
