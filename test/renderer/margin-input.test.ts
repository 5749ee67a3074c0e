// The isolated margin dialog's figures: the amount as the API takes it (separators accepted, at
// most 8 decimals, above 0, within the most the service allows) and the liquidation price a new
// margin gives, which within a tier moves by the formula's slope (exchange.md: LP = (WB + cum -
// s x Q x EP) / (Q x MMR - s x Q)), cum included.
import { describe, expect, it } from 'vitest';
import {
  liquidationAtMargin,
  marginAmountInput,
  moneyDown,
  trimZeros,
  type MarginPosition,
} from '../../src-renderer/src/features/positions/margin-input.ts';

describe('marginAmountInput', () => {
  it('takes what the screen shows and sends the API decimal', () => {
    expect(marginAmountInput('1,250.5', null)).toEqual({ ok: true, value: '1250.5', n: 1250.5 });
    expect(marginAmountInput('0.00000001', '1.00000000')).toEqual({ ok: true, value: '0.00000001', n: 1e-8 });
    expect(marginAmountInput('596.50000000', '596.50000000')).toMatchObject({ ok: true });
  });

  it('says what is wrong, and nothing for an empty field', () => {
    expect(marginAmountInput('', null)).toEqual({ ok: false, error: null });
    expect(marginAmountInput('0', null)).toEqual({ ok: false, error: 'The amount must be above 0.' });
    expect(marginAmountInput('-5', null)).toEqual({ ok: false, error: 'The amount must be above 0.' });
    expect(marginAmountInput('1.123456789', null)).toEqual({ ok: false, error: 'At most 8 decimals (USDT).' });
    expect(marginAmountInput('1,5', null)).toMatchObject({ ok: false, error: expect.stringContaining('"1,5"') });
    expect(marginAmountInput('600', '596.50000000')).toEqual({ ok: false, error: 'At most 596.50 USDT can move now.' });
  });

  it('says the most as money, grouped with 2 decimals, cut down to the cent so it can move', () => {
    expect(marginAmountInput('10000', '9881.19850258')).toEqual({
      ok: false,
      error: 'At most 9,881.19 USDT can move now.',
    });
    // 9,881.20 would be more than may move
    expect(marginAmountInput('9881.2', '9881.19850258')).toMatchObject({
      error: 'At most 9,881.19 USDT can move now.',
    });
    expect(marginAmountInput('9881.1985', '9881.19850258')).toMatchObject({ ok: true });
    expect(moneyDown('1234567.999')).toBe('1,234,567.99');
    expect(moneyDown('0.29000000')).toBe('0.29');
    expect(moneyDown('25')).toBe('25.00');
    expect(moneyDown('0.00000000')).toBe('0.00');
  });

  it('the most exactly as the API takes it, to the unit: one unit more is refused however large the figure', () => {
    // a 1e9 paper balance: its available balance, and one unit (1e-8 USDT) above it, which the
    // route refuses (3009) and the dialog sent (as doubles the two are the same number)
    expect(marginAmountInput('999,999,951.02', '999999951.02000000')).toMatchObject({ ok: true });
    expect(marginAmountInput('999999951.02000001', '999999951.02000000')).toEqual({
      ok: false,
      error: 'At most 999,999,951.02 USDT can move now.',
    });
    expect(marginAmountInput('9999999999.99999999', '9999999999.99999998')).toMatchObject({ ok: false });
    expect(marginAmountInput('9999999999.99999998', '9999999999.99999998')).toMatchObject({ ok: true });
    expect(marginAmountInput('123456789.12345679', '123456789.12345678')).toMatchObject({ ok: false });
    // trailing zeros and separators are the same amount
    expect(marginAmountInput('5,152.00000000', '5152.00000000')).toMatchObject({ ok: true });
    expect(marginAmountInput('0.00000001', '0.00000000')).toMatchObject({ ok: false });
  });

  it('trimZeros', () => {
    expect(trimZeros('596.50000000')).toBe('596.5');
    expect(trimZeros('100.00000000')).toBe('100');
    expect(trimZeros('100')).toBe('100');
  });
});

describe('liquidationAtMargin', () => {
  // the reference's isolated position: 1 BTC at 60,000, 20x, tier MMR 0.5 %, cum 50
  const lp = (s: 1 | -1, wb: number) => (wb + 50 - s * 60_000) / (0.005 - s);
  const long: MarginPosition = {
    position_side: 1,
    quantity: 1,
    entry_price: 60_000,
    margin: 3_000,
    liquidation_price: lp(1, 3_000),
    maintenance_margin_rate: 0.005,
  };

  it("moves the record's own price by the formula's slope, the tier's cum included", () => {
    expect(long.liquidation_price).toBeCloseTo(57_236.18, 2);
    expect(liquidationAtMargin(long, 4_000)).toBeCloseTo(lp(1, 4_000), 6);
    expect(liquidationAtMargin(long, 4_000)).toBeCloseTo(56_231.16, 2);
    expect(liquidationAtMargin(long, 3_000)).toBeCloseTo(long.liquidation_price, 9);
    const short: MarginPosition = { ...long, position_side: 2, liquidation_price: lp(-1, 3_000) };
    expect(short.liquidation_price).toBeCloseTo(62_736.32, 2);
    expect(liquidationAtMargin(short, 3_500)).toBeCloseTo(lp(-1, 3_500), 6);
  });

  it('none when the margin would carry the long to zero; the first tier without a price of its own', () => {
    expect(liquidationAtMargin(long, 60_000)).toBeNaN();
    const none = { ...long, liquidation_price: 0, maintenance_margin_rate: 0.004 };
    expect(liquidationAtMargin(none, 3_000)).toBeCloseTo((3_000 - 60_000) / (0.004 - 1), 6);
  });
});
