// The insurance fund never goes below zero (trading/liquidation.ts): a loss it cannot take whole
// sends a bankrupt close to ADL; what nothing can take, because no opposite position exists (the
// house market maker, the other side of every bot trade, holds none) or because the position is
// already gone (a wallet a liquidation's close fee left below zero), the fund pays down to zero
// and the house backstop (Exchange.houseBackstop, stored as the 'house_backstop' setting) the rest.
// So fund - backstop moves by exactly the loss, and each account's identity still holds. Real
// in-process venues with a data folder, every figure worked by hand (BTCUSDT, tier 1: MMR 0.4 %,
// taker fee 0.05 %, isolated leverage 20x).
import { describe, expect, it } from 'vitest';
import { houseLimit, placeOrder, setMarginMode, setPrices } from '../helpers/exchange-commands.ts';
import { CloseType, MarginMode } from '../../src-shared/enums.ts';
import { TransferKind } from '../../src-main/trading/ports.ts';
import type { LocalVenue as Venue } from '../../src-main/venue.ts';
import { identityHolds, venueKit } from './venues.ts';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const USDT = 100_000_000n;
/** Paper venues (no simulated market: the book holds only the test's orders; the clock paused) and their folders. */
const kit = venueKit({ wall: T0, balance: 10_000n * USDT, pause: true, simulate: false });
const user = kit.user;

/** A paper venue (the book holds only the test's orders) in a fresh folder whose fund holds `fund` units. */
async function venueWithFund(fund: bigint): Promise<{ v: Venue; dir: string }> {
  const { v, dir } = await kit.fundedVenue('perpdesk-backstop-', fund);
  expect(v.exchange.houseBackstop()).toBe(0n);
  setPrices(v.exchange, 'BTCUSDT', { mark: 96_000 });
  return { v, dir };
}

/** A market buy opening a long of `qty`. */
function buy(v: Venue, u: number, qty: string): void {
  placeOrder(v.exchange, u, { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty });
}

describe('the insurance fund never goes below zero', () => {
  it('a bankrupt close with nobody to deleverage: the fund pays down to zero, the house backstop the rest', async () => {
    const { v, dir } = await venueWithFund(50n * USDT);
    const u = user(v, 'bkstop001', 10_000n * USDT);
    setMarginMode(v.exchange, u, 'BTCUSDT', MarginMode.ISOLATED);
    houseLimit(v.exchange, 2, '96000.0', '1.000');
    buy(v, u, '0.100');
    // taker fee 9,600 x 0.05 % = 4.8; isolated margin 9,600 / 20 = 480, bankruptcy price
    // 96,000 - 480 / 0.1 = 91,200
    expect(v.exchange.walletOf(u)).toBe(9_995_20_000_000n);
    expect(v.exchange.positions(u)).toMatchObject([{ quantity: 0.1, margin: 480 }]);

    // the mark gaps to 88,000 with no bid: the IOC finds nothing; the fund would take the long
    // over at 91,200 and lose (91,200 - 88,000) x 0.1 = 320, more than its 50; ADL finds no
    // opposite position (the house holds none)
    setPrices(v.exchange, 'BTCUSDT', { mark: 88_000 });
    expect(v.exchange.positions(u)).toEqual([]);
    const [closed] = v.trading.closedPositions({ accountId: u, limit: 5 });
    expect(closed).toMatchObject({ closeType: CloseType.BANKRUPTCY, realizedPnl: -480n * USDT });
    // the fund pays its 50 and stops at zero; the backstop pays 320 - 50 = 270
    expect(v.exchange.insuranceFund()).toBe(0n);
    expect(v.exchange.houseBackstop()).toBe(270n * USDT);
    // the account lost its margin, nothing more: 9,995.2 - 480 = 9,515.2
    expect(v.exchange.walletOf(u)).toBe(9_515_20_000_000n);
    expect(identityHolds(v, u)).toBe(true);

    // both survive a restart
    await v.close();
    const again = kit.venue(dir);
    expect(again.exchange.insuranceFund()).toBe(0n);
    expect(again.exchange.houseBackstop()).toBe(270n * USDT);
  });

  it('a cross wallet the close fee left below zero: the fund covers what it holds, the house backstop the rest', async () => {
    const { v } = await venueWithFund(1n * USDT);
    const u = user(v, 'bkstop002', 500n * USDT);
    houseLimit(v.exchange, 2, '96000.0', '1.000');
    buy(v, u, '0.100');
    // cross: wallet 500 - taker fee 4.8 = 495.2; bankruptcy price 96,000 - 495.2 / 0.1 = 91,048
    expect(v.exchange.walletOf(u)).toBe(495_20_000_000n);
    // the only bid 10 above it; at a mark of 91,058: equity 495.2 + 0.1 x (91,058 - 96,000) = 1.0,
    // maintenance 9,105.8 x 0.4 % = 36.4232: liquidated
    houseLimit(v.exchange, 1, '91058.0', '1.000');
    setPrices(v.exchange, 'BTCUSDT', { mark: 91_058 });
    expect(v.exchange.positions(u)).toEqual([]);
    // sold 0.1 at 91,058: realized -494.2, taker fee 9,105.8 x 0.05 % = 4.5529, so the wallet
    // ends at 1.0 - 4.5529 = -3.5529; no clearance fee (nothing left); the cover is 3.5529
    const [closed] = v.trading.closedPositions({ accountId: u, limit: 5 });
    expect(closed).toMatchObject({ closeType: CloseType.LIQUIDATION, realizedPnl: -494_20_000_000n });
    expect(v.exchange.walletOf(u)).toBe(0n);
    const rows = v.trading.transfers({ accountId: u, limit: 10, order: 'asc' });
    expect(rows.map((t) => [t.kind, t.amount])).toEqual([
      [TransferKind.ACCOUNT_SET, 500n * USDT],
      [TransferKind.INSURANCE_COVER, 3_55_290_000n],
    ]);
    // the fund pays its 1 and stops at zero; the backstop pays 3.5529 - 1 = 2.5529
    expect(v.exchange.insuranceFund()).toBe(0n);
    expect(v.exchange.houseBackstop()).toBe(2_55_290_000n);
    expect(identityHolds(v, u)).toBe(true);
  });
});
