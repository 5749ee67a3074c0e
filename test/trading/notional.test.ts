// The exact notional a fill books (risk/money.ts SymbolMath.notional): it takes a Number product
// while that is a safe integer and BigInts past it. Expected values worked out by hand.
import { describe, expect, it } from 'vitest';
import { SymbolMath } from '../../src-main/risk/money.ts';

const btc = new SymbolMath({
  symbol: 'BTCUSDT',
  tickSize: '0.1',
  stepSize: '0.001',
  pricePrecision: 1,
  qtyPrecision: 3,
  makerFeeRate: '0.0002',
  takerFeeRate: '0.0005',
});

describe('a fill notional', () => {
  it('is exact below, at and past 2^53 units', () => {
    // 95,000.0 x 0.010 = 950 USDT (a tick x lot is 10^4 units for BTCUSDT)
    expect(btc.notional(950_000, 10)).toBe(95_000_000_000n);
    // the products at and around 2^53 units
    expect(btc.notional(900_719_925, 1)).toBe(9_007_199_250_000n);
    expect(btc.notional(2 ** 26, 2 ** 27)).toBe(2n ** 53n * 10_000n);
    // 9,999,999.9 x 9,999,999.999 = 99,999,998,990,000.0001 USDT, far past what a Number holds exactly
    expect(btc.notional(99_999_999, 9_999_999_999)).toBe(9_999_999_899_000_000_010_000n);
  });
});
