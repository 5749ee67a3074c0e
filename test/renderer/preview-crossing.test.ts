// A limit order that crosses the book trades at the levels it reaches, not at its limit: the
// preview's PnL and the entry its liquidation price is worked from are of those prices (its cost
// stays at its limit, where the venue values it). Before, they were at the limit: a one-way short
// of 0.517 BTC at 96,335.52 and a buy limit of 0.010 at 100,000 (asks from 96,307.6) showed
// "Est. PnL -36.64"; the venue filled it at 96,307.6 and realized +0.28.
import { describe, expect, it } from 'vitest';
import { preview } from '../../src-renderer/src/features/order-entry/preview.ts';
import { MarginMode, Side } from '../../src-shared/enums.ts';

const base = {
  taker: true,
  leverage: 125,
  marginMode: MarginMode.CROSS,
  makerFee: 0.0002,
  takerFee: 0.0005,
  mmr: 0.004,
  available: 9_000,
  crossBacking: 9_700,
};

describe('a limit order crossing the book', () => {
  it("one-way, against the net short: the closed part's PnL at the ask it takes", () => {
    const p = preview({
      ...base,
      side: Side.BUY,
      action: 'open',
      price: 100_000,
      qty: 0.01,
      fills: [[96_307.6, 0.5]],
      against: { qty: 0.517, entry: 96_335.51624759, margin: 398.45 },
      covered: 0.01,
    });
    // the venue's realized_pnl of that fill: 0.27916247
    expect(p.pnl).toBeCloseTo(0.27916247, 6);
    expect(p.fee).toBeCloseTo(96_307.6 * 0.01 * 0.0005, 9);
  });

  it('a close: its PnL at the bids it reaches, the rest at its limit', () => {
    const p = preview({
      ...base,
      side: Side.SELL,
      action: 'close',
      price: 96_280,
      qty: 0.02,
      fills: [
        [96_300, 0.005],
        [96_290, 0.01],
        [96_270, 1],
      ],
      position: { qty: 0.02, entry: 96_000, margin: 15 },
    });
    // 0.005 x 300 + 0.01 x 290 + 0.005 x 280 (the rest rests at 96,280)
    expect(p.pnl).toBeCloseTo(1.5 + 2.9 + 1.4, 9);
  });

  it('an open: the liquidation price of the position at the average price it trades at', () => {
    const at = (fills?: [number, number][], price = 96_307.6) =>
      preview({
        ...base,
        marginMode: MarginMode.ISOLATED,
        side: Side.BUY,
        action: 'open',
        price,
        qty: 0.1,
        fills,
      }).liquidation;
    // isolated: the margin is held at the limit, 100,000 x 0.1 / 125 = 80; the entry is the ask's
    const expected = (80 - 0.1 * 96_307.6) / (0.1 * 0.004 - 0.1);
    expect(at([[96_307.6, 1]], 100_000)).toBeCloseTo(expected, 6);
  });
});
