// risk/money.ts: exact money of a pair. Expected values are worked out by hand from the
// decimal definitions, not taken from the code.
import { describe, expect, it } from 'vitest';
import { ceilDiv, formatMoney, mulDivFloor, mulRate, parseRate, SymbolMath } from '../../src-main/risk/money.ts';
import { maintenanceMarginUnits } from '../../src-main/risk/margin.ts';
import { BTCUSDT_BRACKETS } from '../../src-main/risk/tiers.ts';

const btc = new SymbolMath({
  symbol: 'BTCUSDT',
  tickSize: '0.1',
  stepSize: '0.001',
  pricePrecision: 1,
  qtyPrecision: 3,
  makerFeeRate: '0.0002',
  takerFeeRate: '0.0005',
});
const pepe = new SymbolMath({
  symbol: '1000PEPEUSDT',
  tickSize: '0.0000001',
  stepSize: '1',
  pricePrecision: 7,
  qtyPrecision: 0,
  makerFeeRate: '0.0002',
  takerFeeRate: '0.0005',
});

describe('rates', () => {
  it('parses a decimal rate into an exact fraction', () => {
    expect(parseRate('0.0005')).toMatchObject({ num: 5n, den: 10_000n, value: 0.0005 });
    expect(parseRate('2')).toMatchObject({ num: 2n, den: 1n });
    expect(() => parseRate('-0.1')).toThrow();
    expect(() => parseRate('1e-4')).toThrow();
  });

  it('mulRate rounds half away from zero', () => {
    const r = parseRate('0.5');
    expect(mulRate(3n, r)).toBe(2n); // 1.5 -> 2
    expect(mulRate(-3n, r)).toBe(-2n);
    expect(mulRate(5n, parseRate('0.1'))).toBe(1n); // 0.5 -> 1
    expect(mulRate(4n, parseRate('0.1'))).toBe(0n); // 0.4 -> 0
  });

  it('ceilDiv and mulDivFloor round up and down', () => {
    expect(ceilDiv(10n, 3n)).toBe(4n);
    expect(ceilDiv(9n, 3n)).toBe(3n);
    expect(ceilDiv(0n, 7n)).toBe(0n);
    expect(mulDivFloor(10n, 2n, 3n)).toBe(6n);
  });
});

describe('formatMoney', () => {
  it('writes units as an 8-decimal string, or rounded half up to fewer decimals', () => {
    expect(formatMoney(123_456_789n)).toBe('1.23456789');
    expect(formatMoney(-5n)).toBe('-0.00000005');
    expect(formatMoney(0n)).toBe('0.00000000');
    expect(formatMoney(4_797_500_000n, 2)).toBe('47.98');
    expect(formatMoney(-4_000_000n, 2)).toBe('-0.04');
    expect(formatMoney(-400_000n, 2)).toBe('0.00'); // no negative zero
    expect(formatMoney(150_000_000n, 0)).toBe('2');
  });
});

describe('SymbolMath', () => {
  it('a notional is price x quantity exactly, in 1e-8 USDT', () => {
    // 95,000.0 x 0.010 = 950 USDT
    expect(btc.notional(950_000, 10)).toBe(95_000_000_000n);
    // 0.0000123 x 1,000,000 = 12.3 USDT
    expect(pepe.notional(123, 1_000_000)).toBe(1_230_000_000n);
  });

  it('fees round half up to 1e-8 USDT', () => {
    expect(btc.fee(38_000_000_000n, true)).toBe(7_600_000n); // 380 x 0.02% = 0.076
    expect(btc.fee(95_000_000_000n, false)).toBe(47_500_000n); // 950 x 0.05% = 0.475
    expect(btc.fee(1n, false)).toBe(0n); // 0.0005 units
    expect(btc.fee(1_000n, false)).toBe(1n); // 0.5 units -> 1
  });

  it('valueAt: the mark rounded to 1e-8, times the quantity, exactly', () => {
    expect(btc.valueAt(96_000, 2)).toBe(19_200_000_000n); // 0.002 BTC at 96,000 = 192
    expect(btc.valueAt(96_123.456789, 3)).toBe(28_837_037_037n); // 288.370370367 -> ...037
    expect(pepe.valueAt(0.0000123, 1_000_000)).toBe(1_230_000_000n);
  });

  it('refuses a pair whose tick and step decimals exceed the money precision', () => {
    expect(
      () =>
        new SymbolMath({
          symbol: 'X',
          tickSize: '0.00001',
          stepSize: '0.0001',
          pricePrecision: 5,
          qtyPrecision: 4,
          makerFeeRate: '0',
          takerFeeRate: '0',
        }),
    ).toThrow(/exceed/);
  });

  it("averagePrice: filled quote / quantity exactly, half up at 8 decimals; the shortest text keeps the price's precision", () => {
    // 0.300 + 0.700 BTC at 96,080.8 and 96,081.0 = 96,080.94 quote ... worked by hand:
    // 28,824.24 + 67,256.70 = 96,080.94 USDT for 1.000 BTC: 96,080.94
    expect(btc.averagePrice(9_608_094_000_000n, 1_000, true)).toBe('96080.94');
    expect(btc.averagePrice(9_608_094_000_000n, 1_000)).toBe('96080.94000000');
    // at a tick: the price's own precision, no more
    expect(btc.averagePrice(95_000_000_000n, 10, true)).toBe('95000.0');
    // 1 unit over 3 lots of 0.001: 0.00000001 / 0.003 = 0.0000033333... -> 0.00000333
    expect(btc.averagePrice(1n, 3)).toBe('0.00000333');
    // 2 units over 3 lots: 0.0000066666... rounds half up to 0.00000667
    expect(btc.averagePrice(2n, 3)).toBe('0.00000667');
    // 0.5e-8 per base unit rounds up: 1 unit over 2 BTC (2,000 lots) = 0.000000005 -> 0.00000001
    expect(btc.averagePrice(1n, 2_000)).toBe('0.00000001');
    // before any fill
    expect(btc.averagePrice(0n, 0, true)).toBe('0.0');
    expect(btc.averagePrice(0n, 0)).toBe('0');
    // a pair of whole-number quantities and 7 price decimals: 12.3 USDT over 1,000,000 = 0.0000123
    expect(pepe.averagePrice(1_230_000_000n, 1_000_000, true)).toBe('0.0000123');
    // 12.30000005 USDT over 1,000,000 = 0.0000123000000... -> 8 decimals 0.00001230
    expect(pepe.averagePrice(1_230_000_005n, 1_000_000, true)).toBe('0.0000123');
    // 12.305 USDT over 1,000,000 = 0.000012305 -> 0.00001231 (half up), past the tick's 7 decimals
    expect(pepe.averagePrice(1_230_500_000n, 1_000_000, true)).toBe('0.00001231');
  });

  it('ticks from float prices: floor, ceil and round with float noise tolerated', () => {
    expect(btc.ticksFloor(95_000.1)).toBe(950_001);
    expect(btc.ticksCeil(95_000.1)).toBe(950_001);
    expect(btc.ticksFloor(95_000.19)).toBe(950_001);
    expect(btc.ticksCeil(95_000.11)).toBe(950_002);
    expect(btc.ticksRound(95_000.16)).toBe(950_002);
    expect(btc.formatPrice(950_001)).toBe('95000.1');
    expect(btc.formatQty(350)).toBe('0.350');
    expect(btc.qtyOf(350)).toBe(0.35);
  });
});

describe('maintenanceMarginUnits', () => {
  it('is notional x MMR - cum of the tier, in units', () => {
    const first = BTCUSDT_BRACKETS[0];
    // 1,000 USDT in the first tier: 1,000 x mmr
    expect(maintenanceMarginUnits(BTCUSDT_BRACKETS, 100_000_000_000n)).toBe(
      BigInt(Math.round(1_000 * first.mmr * 1e8)),
    );
    const second = BTCUSDT_BRACKETS[1];
    const n = second.floor + 1_000;
    expect(maintenanceMarginUnits(BTCUSDT_BRACKETS, BigInt(n) * 100_000_000n)).toBe(
      BigInt(Math.round((n * second.mmr - second.cum) * 1e8)),
    );
  });
});
