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
    // isolated: the position locks the margin of its fill, 96,307.6 x 0.1 / 125 (the order's hold
    // was at the limit); the entry is the ask's
    const expected = ((0.1 * 96_307.6) / 125 - 0.1 * 96_307.6) / (0.1 * 0.004 - 0.1);
    expect(at([[96_307.6, 1]], 100_000)).toBeCloseTo(expected, 6);
  });

  it("isolated: the position's margin is of its fills, as the venue locks it", () => {
    // the venue: an isolated short of 400,000 1000PEPE from a sell limit at 0.0125 filled at
    // 0.0133121 to 0.0133123 (entry 0.01331215) has margin 266.24 and liquidation price 0.0138262;
    // the preview, with the margin at the limit (250.00), said 0.0137867
    const p = preview({
      ...base,
      leverage: 20,
      mmr: 0.01,
      marginMode: MarginMode.ISOLATED,
      side: Side.SELL,
      action: 'open',
      price: 0.0125,
      qty: 400_000,
      fills: [
        [0.0133123, 76_731],
        [0.0133122, 38_583],
        [0.0133121, 1_000_000],
      ],
      tiers: [
        { cap: 5_000, mmr: 0.01, cum: 0 },
        { cap: 60_000, mmr: 0.02, cum: 50 },
        { cap: 300_000, mmr: 0.025, cum: 350 },
      ],
    });
    expect(p.liquidation).toBeCloseTo(0.0138262, 7);
    // what the order holds while open stays at its limit: 400,000 x 0.0125 / 20
    expect(p.margin).toBeCloseTo(250, 9);
  });
});
