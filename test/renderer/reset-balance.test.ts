// Settings' "Reset balance" field says what the venue would refuse (reset-balance.ts): before, "-5",
// "0" or a ninth decimal only disabled "Reset account…", with no message and no aria-invalid.
import { describe, expect, it } from 'vitest';
import { parseDecimalInput } from '../../src-renderer/src/lib/decimal-input.ts';
import { resetBalanceCheck } from '../../src-renderer/src/features/settings/reset-balance.ts';

const check = (t: string) => resetBalanceCheck(parseDecimalInput(t));

describe('the reset balance check', () => {
  it('says a negative or zero balance must be above 0', () => {
    for (const t of ['-5', '−5', '0', '0.00000000', '0.000000000'])
      expect(check(t), t).toBe('A balance must be above 0.');
  });

  it('says more than 8 decimals, and more than the venue’s most', () => {
    expect(check('10.123456789')).toBe('At most 8 decimals: the venue refuses more.');
    expect(check('10.123456780')).toBeNull(); // a trailing zero is the same amount
    expect(check('1000000000.00000001')).toBe('At most 1,000,000,000 USDT: the venue refuses more.');
    expect(check('1,000,000,001')).toBe('At most 1,000,000,000 USDT: the venue refuses more.');
    expect(check('1,000,000,000')).toBeNull();
  });

  it('says what is not a number, and nothing for a fine or empty field', () => {
    expect(check('1,5')).toMatch(/^Not an amount: use digits and a decimal point/);
    expect(check('-abc')).toMatch(/^Not an amount/);
    for (const t of ['', '10000', '25,000', '0.00000001', '12346.361697']) expect(check(t), t).toBeNull();
  });
});
