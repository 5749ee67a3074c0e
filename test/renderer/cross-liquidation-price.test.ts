// Estimated liquidation price of a cross position (reference exchange.md, "Liquidation
// price": LP = (WB - TMM1 + UPNL1 + cum - s x Q x EP) / (Q x MMR - s x Q)), worked by hand,
// and the rule that a price more than 100% away from the entry is none, for both sides alike;
// in hedge mode the symbol's other side is solved with the position (Binance's hedge-mode formula).
import { describe, expect, it } from 'vitest';
import {
  crossBacking,
  liquidationPrice,
  preview,
  type BackingPosition,
} from '../../src-renderer/src/features/order-entry/preview.ts';

const cross = {
  action: 'open' as const,
  taker: false,
  leverage: 20,
  marginMode: 2 as const,
  makerFee: 0,
  takerFee: 0.0005,
  mmr: 0.004,
  available: 9_000,
};

describe('cross liquidation price', () => {
  it('a tiny short backed by a large wallet has none, like the same long (no more 5,075,617.5)', () => {
    // short: (10,000 + 0.002 x 95,000) / (0.002 x 0.004 + 0.002) = 10,190 / 0.002008 = 5,074,701 > 2 x entry
    const short = preview({ ...cross, side: 2, price: 95_000, qty: 0.002, crossBacking: 10_000 });
    // long: (10,000 - 190) / (0.000008 - 0.002) < 0
    const long = preview({ ...cross, side: 1, price: 95_000, qty: 0.002, crossBacking: 10_000 });
    expect(short.liquidation).toBeNaN();
    expect(long.liquidation).toBeNaN();
  });

  it('1 BTC at 95,000 on a 10,000 cross wallet: long 85,341.37, short 104,581.67', () => {
    // long: (10,000 - 95,000) / (0.004 - 1) = 85,341.365...; short: (10,000 + 95,000) / 1.004 = 104,581.673...
    expect(preview({ ...cross, side: 1, price: 95_000, qty: 1, crossBacking: 10_000 }).liquidation).toBeCloseTo(
      85_341.365,
      2,
    );
    expect(preview({ ...cross, side: 2, price: 95_000, qty: 1, crossBacking: 10_000 }).liquidation).toBeCloseTo(
      104_581.673,
      2,
    );
  });

  it('the opening fee leaves the cross wallet first', () => {
    // taker fee 95,000 x 0.0005 = 47.5: (9,952.5 - 95,000) / -0.996 = 85,389.06
    expect(
      preview({ ...cross, side: 1, price: 95_000, qty: 1, taker: true, crossBacking: 10_000 }).liquidation,
    ).toBeCloseTo(85_389.06, 2);
  });

  it('the 100% range holds for isolated too: a 1x short keeps its price just under twice the entry', () => {
    // (1 x 60,000 + 60,000) / (0.005 + 1) = 119,402.99
    expect(liquidationPrice({ long: false, qty: 1, entry: 60_000, walletBacking: 60_000, mmr: 0.005 })).toBeCloseTo(
      119_402.99,
      2,
    );
    expect(liquidationPrice({ long: false, qty: 1, entry: 60_000, walletBacking: 61_000, mmr: 0.005 })).toBeNaN();
  });
});

describe('hedge mode, cross: the other side of the symbol solved with this one', () => {
  // Binance's hedge-mode formula in the first tier (MMR 0.4 %, cum 0), as the venue solves it:
  // LP = (WB - s x Q x EP + s x Qo x EPo) / (Q x MMR + Qo x MMR - s x Q + s x Qo)
  it('long 1 and short 0.3 at 96,000 on 9,937.6: 82,415.66 for either side', () => {
    // (9,937.6 - 96,000 + 28,800) / (0.004 + 0.0012 - 1 + 0.3) = -57,262.4 / -0.6948
    const long = { long: true, qty: 1, entry: 96_000, walletBacking: 9_937.6, mmr: 0.004 };
    expect(liquidationPrice({ ...long, opposite: { qty: 0.3, entry: 96_000 } })).toBeCloseTo(82_415.659, 2);
    const short = { long: false, qty: 0.3, entry: 96_000, walletBacking: 9_937.6, mmr: 0.004 };
    expect(liquidationPrice({ ...short, opposite: { qty: 1, entry: 96_000 } })).toBeCloseTo(82_415.659, 2);
  });

  it("the risk tester's long 1, short 0.9 on 9,908.8: none (308.8 / -0.0924 < 0)", () => {
    const long = { long: true, qty: 1, entry: 96_000, walletBacking: 9_908.8, mmr: 0.004 };
    expect(liquidationPrice({ ...long, opposite: { qty: 0.9, entry: 96_000 } })).toBeNaN();
    const short = { long: false, qty: 0.9, entry: 96_000, walletBacking: 9_908.8, mmr: 0.004 };
    expect(liquidationPrice({ ...short, opposite: { qty: 1, entry: 96_000 } })).toBeNaN();
  });
});

describe('crossBacking', () => {
  const pos = (p: Partial<BackingPosition>): BackingPosition => ({
    symbol: 'ETHUSDT',
    position_side: 1,
    margin_mode: 2,
    quantity: 2,
    entry_price: 3_000,
    mark_price: 3_000,
    maintenance_margin_rate: 0.005,
    margin: 0,
    ...p,
  });

  it('wallet less isolated margins, less the other cross positions maintenance, plus their PnL', () => {
    const list = [
      pos({}), // ETH long 2 @ 3,000, live mark 3,100: PnL +200, maintenance 2 x 3,100 x 0.5% = 31
      pos({ symbol: 'SOLUSDT', margin_mode: 1, margin: 500, quantity: 10, entry_price: 150, mark_price: 150 }), // isolated: -500
      pos({ symbol: 'BTCUSDT', quantity: 0.5, entry_price: 90_000, mark_price: 80_000 }), // this position: left to the formula
    ];
    const marks: Record<string, number> = { ETHUSDT: 3_100 };
    expect(
      crossBacking(
        10_000,
        list,
        (p) => p.symbol === 'BTCUSDT',
        (s) => marks[s],
      ),
    ).toBeCloseTo(10_000 - 500 + 200 - 31, 9);
  });

  it('reads a one-way short as a negative quantity, and the record mark when no live one is known', () => {
    // short 1 @ 3,000, record mark 3,100: PnL -100, maintenance 15.5
    const list = [pos({ quantity: -1, mark_price: 3_100 })];
    expect(
      crossBacking(
        10_000,
        list,
        () => false,
        () => undefined,
      ),
    ).toBeCloseTo(10_000 - 100 - 15.5, 9);
    // hedge: side 2 with a positive quantity is the same short
    expect(
      crossBacking(
        10_000,
        [pos({ position_side: 2, quantity: 1, mark_price: 3_100 })],
        () => false,
        () => undefined,
      ),
    ).toBeCloseTo(9_884.5, 9);
  });
});
