import { describe, expect, it } from 'vitest';
import {
  breakEvenPrice,
  estimatedClosingFee,
  initialMargin,
  maintenanceMargin,
  maintenanceMarginAt,
  marginRatio,
  notional,
  roe,
  unrealizedPnl,
} from '../../src-main/risk/margin.ts';
import { BTCUSDT_BRACKETS, makeBrackets } from '../../src-main/risk/tiers.ts';

describe('Binance position-risk check (long 30 ADA, entry 0.385, mark 0.4104759)', () => {
  const upnl = unrealizedPnl(1, 30, 0.385, 0.4104759);
  const n = notional(30, 0.4104759);

  it('UPnL 0.764277 and notional 12.314277', () => {
    expect(upnl).toBeCloseTo(0.764277, 12);
    expect(n).toBeCloseTo(12.314277, 12);
  });

  it('initial margin at 20x is 0.61571385', () => {
    expect(initialMargin(n, 20)).toBeCloseTo(0.61571385, 12);
  });

  it('maintenance at MMR 0.65% is 0.0800428', () => {
    expect(maintenanceMarginAt(n, 0.0065, 0)).toBeCloseTo(0.0800428, 7);
    const ada = makeBrackets([
      { cap: 5_000, mmr: 0.0065, maxLeverage: 75 },
      { cap: 50_000, mmr: 0.01, maxLeverage: 50 },
    ]);
    expect(maintenanceMargin(ada, n)).toBeCloseTo(0.0800428, 7);
  });

  it('ROE is UPnL over initial margin', () => {
    expect(roe(upnl, initialMargin(n, 20))).toBeCloseTo(1.2412860292, 9);
  });
});

describe('unrealized PnL sign', () => {
  it('a short gains when the mark falls and loses when it rises', () => {
    expect(unrealizedPnl(-1, 2, 100, 90)).toBe(20);
    expect(unrealizedPnl(-1, 2, 100, 110)).toBe(-20);
    expect(unrealizedPnl(1, 2, 100, 90)).toBe(-20);
  });
  it('uses |Q| whatever the sign of the quantity passed', () => {
    expect(unrealizedPnl(-1, -2, 100, 90)).toBe(20);
    expect(notional(-2, 100)).toBe(200);
  });
});

describe('tiered maintenance margin (BTCUSDT)', () => {
  it('uses the tier of the notional', () => {
    expect(maintenanceMargin(BTCUSDT_BRACKETS, 10_000)).toBeCloseTo(40, 9); // 0.4%, cum 0
    expect(maintenanceMargin(BTCUSDT_BRACKETS, 60_000)).toBeCloseTo(250, 9); // 0.5% - 50
    expect(maintenanceMargin(BTCUSDT_BRACKETS, 1_000_000)).toBeCloseTo(5_550, 9); // 0.65% - 950
  });
});

describe('marginRatio', () => {
  it('is maintenance over equity', () => {
    expect(marginRatio(250, 3_000, -500)).toBe(0.1);
  });
  it('is Infinity once equity is gone and 0 with nothing to maintain', () => {
    expect(marginRatio(250, 3_000, -3_000)).toBe(Infinity);
    expect(marginRatio(250, 3_000, -4_000)).toBe(Infinity);
    expect(marginRatio(0, -10, 0)).toBe(0);
  });
});

describe('break-even price (Binance examples)', () => {
  it('long at 0.385 with 0.01% paid to open and 0.01% to close -> 0.385077', () => {
    const q = 30;
    const paid = q * 0.385 * 0.0001;
    const closing = estimatedClosingFee(q, 0.385, 0.0001);
    expect(breakEvenPrice(1, q, 0.385, paid, closing)).toBeCloseTo(0.385077, 12);
  });

  it('short at 70.92841 with 0.02% paid to open and 0.02% to close -> 70.900038636', () => {
    const q = 10;
    const paid = q * 70.92841 * 0.0002;
    const closing = estimatedClosingFee(q, 70.92841, 0.0002);
    expect(breakEvenPrice(-1, q, 70.92841, paid, closing)).toBeCloseTo(70.900038636, 9);
  });

  it('rejects a zero quantity', () => {
    expect(() => breakEvenPrice(1, 0, 100, 1, 1)).toThrow(RangeError);
  });
});
