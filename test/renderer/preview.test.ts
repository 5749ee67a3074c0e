// The order form's preview: the liquidation formula against DESIGN section 5's vector, and
// cost / margin / fee arithmetic on a plain case worked by hand.
import { describe, expect, it } from 'vitest';
import { liquidationPrice, maxOpenQty, preview } from '../../src-renderer/src/features/order-entry/preview.ts';

describe('liquidationPrice', () => {
  it('matches the reference: isolated 1 BTC at 60,000, 20x, MMR 0.5%, cum 50', () => {
    expect(
      liquidationPrice({ long: true, qty: 1, entry: 60_000, walletBacking: 3_000, mmr: 0.005, cum: 50 }),
    ).toBeCloseTo(57_236.18, 2);
    expect(
      liquidationPrice({ long: false, qty: 1, entry: 60_000, walletBacking: 3_000, mmr: 0.005, cum: 50 }),
    ).toBeCloseTo(62_736.32, 2);
  });

  it('has no liquidation price when the backing exceeds the position value (long)', () => {
    expect(liquidationPrice({ long: true, qty: 1, entry: 100, walletBacking: 1_000, mmr: 0.005 })).toBeNaN();
  });
});

describe('preview', () => {
  const base = {
    price: 50_000,
    qty: 0.1,
    leverage: 10,
    marginMode: 1 as const,
    makerFee: 0.0002,
    takerFee: 0.0005,
    mmr: 0.005,
    available: 10_000,
  };

  it('opens: margin is notional / leverage, cost adds the fee of the liquidity taken', () => {
    const p = preview({ ...base, side: 1, action: 'open', taker: true });
    expect(p.notional).toBeCloseTo(5_000, 9);
    expect(p.margin).toBeCloseTo(500, 9);
    expect(p.fee).toBeCloseTo(2.5, 9);
    expect(p.cost).toBeCloseTo(502.5, 9);
    // isolated, WB = margin: (500 - 5000) / (0.1 * 0.005 - 0.1) = 45,226.13...
    expect(p.liquidation).toBeCloseTo(4_500 / 0.0995, 6);
    expect(preview({ ...base, side: 1, action: 'open', taker: false }).fee).toBeCloseTo(1, 9);
  });

  it("a resting open's cost is what the venue holds: the margin plus the taker fee, not the maker fee it expects", () => {
    // api.md: opening orders freeze initial margin (notional / leverage) plus the taker fee; the
    // venue refused a 0.01 BTC limit at 95,300 and 100x with 9.90 available, needing 10.01
    const p = preview({ ...base, price: 95_300, qty: 0.01, leverage: 100, side: 1, action: 'open', taker: false });
    expect(p.fee).toBeCloseTo(95_300 * 0.01 * 0.0002, 9);
    expect(p.cost).toBeCloseTo(9.53 + 95_300 * 0.01 * 0.0005, 9);
    expect(p.cost).toBeGreaterThan(9.9);
  });

  it('adds to an existing isolated position at the averaged entry with both margins', () => {
    const p = preview({
      ...base,
      side: 2,
      action: 'open',
      taker: true,
      position: { qty: 0.1, entry: 40_000, margin: 400 },
    });
    // short 0.2 at 45,000 with 900 margin: (900 + 9000) / (0.2 * 0.005 + 0.2)
    expect(p.liquidation).toBeCloseTo(9_900 / 0.201, 6);
  });

  it('closes: estimated PnL of the part closed, no margin', () => {
    const p = preview({
      ...base,
      side: 2,
      action: 'close',
      taker: true,
      qty: 0.3,
      position: { qty: 0.2, entry: 45_000, margin: 900 },
    });
    expect(p.margin).toBe(0);
    expect(p.pnl).toBeCloseTo((50_000 - 45_000) * 0.2, 9);
    // the venue trims the close of 0.3 to the position, 0.2, as it enters: its notional and fee are of 0.2
    expect(p.trimmedTo).toBe(0.2);
    expect(p.notional).toBeCloseTo(10_000, 9);
    expect(p.fee).toBeCloseTo(10_000 * 0.0005, 9);
  });

  it('max open quantity leaves room for the taker fee', () => {
    const q = maxOpenQty(1_000, 50_000, 10, 0.0005);
    expect((q * 50_000) / 10 + q * 50_000 * 0.0005).toBeCloseTo(1_000, 9);
  });
});
