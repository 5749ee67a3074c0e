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
import { CloseType, MarginMode, OrderStatus } from '../../src-shared/enums.ts';
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

/** The account's newest `n` trades, oldest first: [price ticks, lots, realized PnL, fee]. */
function closes(v: Venue, accountId: number, n: number): Array<[number, number, bigint, bigint]> {
  return v.trading
    .trades({ accountId, limit: n })
    .reverse()
    .map((t) => [t.priceTicks, t.qtyLots, t.realizedPnl, t.fee]);
}

/** The fund holds `fund` units and the house backstop `backstop`. */
function expectCovers(v: Venue, fund: bigint, backstop: bigint): void {
  expect(v.exchange.insuranceFund()).toBe(fund);
  expect(v.exchange.houseBackstop()).toBe(backstop);
}

/** The fund and the house backstop hold `fund` and `backstop`, and both survive a restart of the venue in `dir`. */
async function expectCoversKept(v: Venue, dir: string, fund: bigint, backstop: bigint): Promise<void> {
  expectCovers(v, fund, backstop);
  await v.close();
  expectCovers(kit.venue(dir), fund, backstop);
}

/**
 * Account `key` (10,000 USDT) buys an isolated 20x long of 0.1 at 96,000 from the house: taker
 * fee 9,600 x 0.05 % = 4.8, isolated margin 9,600 / 20 = 480, bankruptcy price 96,000 - 480 / 0.1
 * = 91,200.
 */
function isolatedLong(v: Venue, key: string): number {
  const u = user(v, key, 10_000n * USDT);
  setMarginMode(v.exchange, u, 'BTCUSDT', MarginMode.ISOLATED);
  houseLimit(v.exchange, 2, '96000.0', '1.000');
  buy(v, u, '0.100');
  expect(v.exchange.walletOf(u)).toBe(9_995_20_000_000n);
  expect(v.exchange.positions(u)).toMatchObject([{ quantity: 0.1, margin: 480 }]);
  return u;
}

/**
 * The partial cover's start: the isolated long of 0.1 at 96,000 (`isolatedLong`), one bid of 0.04
 * at 91,500 (above the bankruptcy price) from a bot, and the mark gapping to 88,000: the
 * liquidation's IOC sells 0.04 to that bid, the other 0.06 closes at 91,200 (`rest`: its fills,
 * lots) against the backstop.
 */
function partialLiquidation(v: Venue, key: string, rest = [60]): number {
  const u = isolatedLong(v, key);
  houseLimit(v.exchange, 1, '91500.0', '0.040');
  setPrices(v.exchange, 'BTCUSDT', { mark: 88_000 });
  v.trading.group.commitNow();
  expect(v.exchange.positions(u)).toEqual([]);
  // the IOC: 0.04 at 91,500, realized 0.04 x (91,500 - 96,000) = -180, taker fee 3,660 x 0.05 % =
  // 1.83; the rest: 0.06 at 91,200, realized 0.06 x (91,200 - 96,000) = -288, no fee; all of them
  // fills of the liquidation's order, which is filled whole
  const liqOrder = v.trading.orders({ accountId: u, limit: 1 })[0];
  expect(liqOrder).toMatchObject({ status: OrderStatus.FILLED, filledLots: 100, totalFee: 1_83_000_000n });
  expect(closes(v, u, 1 + rest.length)).toEqual([
    [915_000, 40, -180n * USDT, 1_83_000_000n],
    ...rest.map((lots) => [912_000, lots, BigInt(-lots) * 4_80_000_000n, 0n]),
  ]);
  expect(v.trading.trades({ accountId: u, limit: 1 + rest.length }).every((t) => t.orderId === liqOrder.id)).toBe(true);
  // clearance fee: 1.25 % x (3,660 + 5,472) = 114.15, more than the 480 - 180 - 288 - 1.83 = 10.17
  // the closes left of the margin: 10.17. The account loses its margin, nothing more: 9,995.2 - 480
  const [closed] = v.trading.closedPositions({ accountId: u, limit: 5 });
  expect(closed).toMatchObject({ closeType: CloseType.BANKRUPTCY, realizedPnl: -468n * USDT });
  expect(closed.closeFee).toBe(1_83_000_000n + 10_17_000_000n);
  expect(v.exchange.walletOf(u)).toBe(9_515_20_000_000n);
  expect(identityHolds(v, u)).toBe(true);
  return u;
}

describe('the insurance fund never goes below zero', () => {
  it('a bankrupt close with nobody to deleverage: the fund pays down to zero, the house backstop the rest', async () => {
    const { v, dir } = await venueWithFund(50n * USDT);
    const u = isolatedLong(v, 'bkstop001');

    // the mark gaps to 88,000 with no bid: the IOC finds nothing; the fund would take the long
    // over at 91,200 and lose (91,200 - 88,000) x 0.1 = 320, more than its 50; ADL finds no
    // opposite position (the house holds none)
    setPrices(v.exchange, 'BTCUSDT', { mark: 88_000 });
    expect(v.exchange.positions(u)).toEqual([]);
    const [closed] = v.trading.closedPositions({ accountId: u, limit: 5 });
    expect(closed).toMatchObject({ closeType: CloseType.BANKRUPTCY, realizedPnl: -480n * USDT });
    // the account lost its margin, nothing more: 9,995.2 - 480 = 9,515.2
    expect(v.exchange.walletOf(u)).toBe(9_515_20_000_000n);
    expect(identityHolds(v, u)).toBe(true);
    // the fund pays its 50 and stops at zero; the backstop pays 320 - 50 = 270; both survive a restart
    await expectCoversKept(v, dir, 0n, 270n * USDT);
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
    expectCovers(v, 0n, 2_55_290_000n);
    expect(identityHolds(v, u)).toBe(true);
  });

  it('a partial cover: the book takes part of the liquidation, the fund the rest at the bankruptcy price', async () => {
    const { v } = await venueWithFund(1_000n * USDT);
    partialLiquidation(v, 'bkstop003');
    // the fund takes 0.06 over at 91,200 and closes it at the mark: (88,000 - 91,200) x 0.06 = -192,
    // then receives the clearance fee: 1,000 - 192 + 10.17; the backstop is untouched
    expectCovers(v, 818_17_000_000n, 0n);
  });

  it('a partial cover the fund cannot take and nobody can deleverage: the fund pays down to zero, the house backstop the rest', async () => {
    const { v, dir } = await venueWithFund(50n * USDT);
    partialLiquidation(v, 'bkstop004');
    // the rest's loss of 192 is more than the fund's 50 and the house holds no short: the fund pays
    // its 50, the backstop 142; then the clearance fee 10.17 goes to the fund. So fund - backstop
    // moved by exactly -192 + 10.17 (from 50 to 10.17 - 142); both survive a restart
    await expectCoversKept(v, dir, 10_17_000_000n, 142n * USDT);
  });

  it('a partial cover whose ADL queue is too short: the book, a short deleveraged at the bankruptcy price, then the backstop', async () => {
    const { v } = await venueWithFund(50n * USDT);
    // a short of 0.02 sold at 96,000 to a bot's bid: the only opposite position
    const short = user(v, 'bkstop005', 10_000n * USDT);
    houseLimit(v.exchange, 1, '96000.0', '0.020');
    placeOrder(v.exchange, short, {
      symbol: 'BTCUSDT',
      side: 2,
      position_side: 2,
      position_action: 1,
      type: 2,
      qty: '0.020',
    });
    expect(v.exchange.walletOf(short)).toBe(9_999_04_000_000n); // taker fee 1,920 x 0.05 % = 0.96
    partialLiquidation(v, 'bkstop006', [20, 40]);
    // of the rest 0.06, the short takes 0.02 at 91,200 (realized 0.02 x (96,000 - 91,200) = 96, no
    // fee); the last 0.04 would cost (91,200 - 88,000) x 0.04 = 128: the fund's 50, the backstop 78;
    // the clearance fee 10.17 then to the fund
    expect(closes(v, short, 2)).toEqual([
      [960_000, 20, 0n, 96_000_000n],
      [912_000, 20, 96n * USDT, 0n],
    ]);
    const [adl] = v.trading.closedPositions({ accountId: short, limit: 1 });
    expect(adl).toMatchObject({ closeType: CloseType.ADL, realizedPnl: 96n * USDT });
    expect(v.exchange.positions(short)).toEqual([]);
    expect(v.exchange.walletOf(short)).toBe(10_095_04_000_000n);
    expect(identityHolds(v, short)).toBe(true);
    expectCovers(v, 10_17_000_000n, 78n * USDT);
  });

  it("a bankruptcy price off the tick closes on the tick on the trader's side of it: the position loses its margin, never more", async () => {
    const { v } = await venueWithFund(1_000n * USDT);
    const trader = (key: string, side: 1 | 2) => {
      houseLimit(v.exchange, side === 1 ? 2 : 1, '96001.1', '0.003');
      const u = user(v, key, 10_000n * USDT);
      setMarginMode(v.exchange, u, 'BTCUSDT', MarginMode.ISOLATED);
      placeOrder(v.exchange, u, {
        symbol: 'BTCUSDT',
        side,
        position_side: side,
        position_action: 1,
        type: 2,
        qty: '0.003',
      });
      // notional 288.0033: taker fee 0.14400165, isolated margin (20x) 14.400165
      expect(v.exchange.walletOf(u)).toBe(9_999_85_599_835n);
      expect(v.exchange.positions(u)).toMatchObject([{ quantity: 0.003, margin: 14.400165 }]);
      return u;
    };
    const long = trader('bkstop007', 1);
    const short = trader('bkstop008', 2);
    // the long's bankruptcy price: 96,001.1 - 14.400165 / 0.003 = 91,201.045, off the 0.1 tick; the
    // short's: 96,001.1 + 4,800.055 = 100,801.155. With no bid (no ask) the whole position closes
    // against the fund there, on the tick that keeps the loss within the margin: 91,201.1 (the
    // nearest, 91,201.0, would lose 0.003 x 4,800.1 = 14.4003, more than the margin) and 100,801.1
    // (not the nearest, 100,801.2). The loss is 0.003 x 4,800 = 14.4 either way; the clearance fee
    // takes the 0.000165 left of the margin: the account loses its margin, nothing of its other money
    setPrices(v.exchange, 'BTCUSDT', { mark: 88_000 });
    setPrices(v.exchange, 'BTCUSDT', { mark: 105_000 });
    v.trading.group.commitNow();
    for (const [u, ticks] of [
      [long, 912_011],
      [short, 1_008_011],
    ]) {
      expect(v.exchange.positions(u)).toEqual([]);
      expect(closes(v, u, 1)).toEqual([[ticks, 3, -14_40_000_000n, 0n]]);
      const [closed] = v.trading.closedPositions({ accountId: u, limit: 1 });
      expect(closed).toMatchObject({ closeType: CloseType.BANKRUPTCY, realizedPnl: -14_40_000_000n });
      expect(closed.closeFee).toBe(16_500n); // no trading fee: the clearance fee only
      expect(v.exchange.walletOf(u)).toBe(9_999_85_599_835n - 14_40_016_500n);
      expect(identityHolds(v, u)).toBe(true);
    }
    // the fund took the long over at 91,201.1 and the short at 100,801.1 and closed them at the
    // marks: (88,000 - 91,201.1) x 0.003 = -9.6033, (100,801.1 - 105,000) x 0.003 = -12.5967; and
    // the two clearance fees
    expectCovers(v, 1_000n * USDT - 9_60_330_000n - 12_59_670_000n + 2n * 16_500n, 0n);
  });

  it("isolated: the IOC's taker fee on a fill at the bankruptcy price is covered, not taken from the cross wallet", async () => {
    const { v, dir } = await venueWithFund(1_000n * USDT);
    const u = isolatedLong(v, 'bkstop010');
    // the only bid at the bankruptcy price, 91,200; the mark at 91,560 liquidates (maintenance
    // 9,156 x 0.4 % = 36.624 against the equity 480 - 444 = 36)
    houseLimit(v.exchange, 1, '91200.0', '1.000');
    setPrices(v.exchange, 'BTCUSDT', { mark: 91_560 });
    v.trading.group.commitNow();
    expect(v.exchange.positions(u)).toEqual([]);
    // the IOC sold 0.1 at 91,200: realized -480, the whole margin, and a taker fee of 9,120 x 0.05 %
    // = 4.56 on top, which the fund covers: the account loses its margin, 480, nothing more (the
    // fee was taken from its cross wallet: 9,510.64)
    expect(closes(v, u, 1)).toEqual([[912_000, 100, -480n * USDT, 4_56_000_000n]]);
    expect(v.exchange.walletOf(u)).toBe(9_995_20_000_000n - 480n * USDT);
    expect(v.trading.transfers({ accountId: u, limit: 10, order: 'asc' }).map((t) => [t.kind, t.amount])).toEqual([
      [TransferKind.ACCOUNT_SET, 10_000n * USDT],
      [TransferKind.INSURANCE_COVER, 4_56_000_000n],
    ]);
    expect(identityHolds(v, u)).toBe(true);
    await expectCoversKept(v, dir, 1_000n * USDT - 4_56_000_000n, 0n);
  });

  it('cross, off the tick: the bankrupt close leaves the wallet at zero, not below (no cover needed)', async () => {
    const { v } = await venueWithFund(1_000n * USDT);
    const u = user(v, 'bkstop009', 15n * USDT);
    houseLimit(v.exchange, 2, '96001.1', '0.003');
    buy(v, u, '0.003');
    // cross: wallet 15 - taker fee 0.14400165 = 14.85599835; bankruptcy price 96,001.1 -
    // 14.85599835 / 0.003 = 91,049.10055, off the tick. At the nearest tick, 91,049.1, the close
    // would lose 0.003 x 4,952 = 14.856, more than the wallet (a cover from the fund); at 91,049.2
    // it loses 14.8557 and the 0.00029835 left goes to the clearance fee
    expect(v.exchange.walletOf(u)).toBe(14_85_599_835n);
    setPrices(v.exchange, 'BTCUSDT', { mark: 88_000 });
    v.trading.group.commitNow();
    expect(v.exchange.positions(u)).toEqual([]);
    expect(closes(v, u, 1)).toEqual([[910_492, 3, -14_85_570_000n, 0n]]);
    const [closed] = v.trading.closedPositions({ accountId: u, limit: 1 });
    expect(closed).toMatchObject({ closeType: CloseType.BANKRUPTCY, closeFee: 29_835n });
    expect(v.exchange.walletOf(u)).toBe(0n);
    expect(v.trading.transfers({ accountId: u, limit: 10, order: 'asc' }).map((t) => t.kind)).toEqual([
      TransferKind.ACCOUNT_SET,
    ]);
    expect(identityHolds(v, u)).toBe(true);
  });
});
