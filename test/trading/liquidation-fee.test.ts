// The liquidation clearance fee (trading/liquidation.ts, risk/liquidation-fee.ts), worked by hand:
// a liquidated position pays the insurance fund min(1.25 % x the notional its closes traded, the
// margin they left): isolated, its margin + realized PnL - fees of the close; cross, what is left
// of the cross wallet (never the margin of an isolated position). It is its own ledger item (a
// liquidation_fees row, in the account identity beside the fills' fees), joins the closed
// position's close fee and the liquidation event, and survives a restart.
import { describe, expect, it } from 'vitest';
import { houseLimit, placeOrder, setLeverage, setMarginMode, setPrices } from '../helpers/exchange-commands.ts';
import { CloseType, MarginMode } from '../../src-shared/enums.ts';
import type { AccountEvent } from '../../src-main/trading/events.ts';
import { INITIAL_INSURANCE_FUND } from '../../src-main/trading/exchange.ts';
import { TransferKind } from '../../src-main/trading/ports.ts';
import type { LocalVenue as Venue } from '../../src-main/venue.ts';
import { identityHolds, venueKit } from './venues.ts';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const USDT = 100_000_000n;
/** Paper venues (no simulated market: the books hold only the test's orders; the clock paused) and their folders. */
const kit = venueKit({ wall: T0, balance: 10_000n * USDT, pause: true, simulate: false });
const user = kit.user;
const venue = kit.venue;

/** Opens a long of `qty` on `symbol` with a limit buy at `price` that takes the house's ask there. */
function openLong(v: Venue, u: number, symbol: string, price: string, qty: string): void {
  houseLimit(v.exchange, 2, price, qty, symbol);
  placeOrder(v.exchange, u, { symbol, side: 1, position_side: 1, position_action: 1, type: 1, price, qty });
}

function liquidationEvents(v: Venue, accountId: number): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  v.exchange.events.on('account', (e: AccountEvent) => {
    if (e.accountId === accountId && e.kind === 'liquidation') out.push(e.data as Record<string, unknown>);
  });
  return out;
}

describe('liquidation clearance fee', () => {
  it('isolated: 1.25 % of the notional closed when the close leaves more margin than that, to the fund', async () => {
    const dir = kit.dataDir('perpdesk-liqfee-');
    const v = venue(dir);
    const u = user(v, 'liqfee001', 10_000n * USDT);
    setMarginMode(v.exchange, u, 'BTCUSDT', MarginMode.ISOLATED);
    setPrices(v.exchange, 'BTCUSDT', { mark: 96_000 });
    // long 0.1 at 96,000, 20x: margin 480, taker fee 9,600 x 0.0005 = 4.8
    openLong(v, u, 'BTCUSDT', '96000.0', '0.100');
    expect(v.exchange.walletOf(u)).toBe(9_995_20_000_000n);
    expect(v.exchange.positions(u)[0].liquidation_price).toBe(91_566.3);
    // a bid well above the liquidation price (the book, not the mark, sets the close price)
    houseLimit(v.exchange, 1, '93000.0', '1.000');
    const events = liquidationEvents(v, u);
    const fund = v.exchange.insuranceFund();
    expect(fund).toBe(INITIAL_INSURANCE_FUND);

    setPrices(v.exchange, 'BTCUSDT', { mark: 91_560 });
    v.trading.group.commitNow();
    expect(v.exchange.positions(u)).toEqual([]);
    // the IOC sold 0.1 at 93,000: notional 9,300, realized -300, taker fee 4.65; it left
    // 480 - 300 - 4.65 = 175.35 of the margin, more than 9,300 x 0.0125 = 116.25: the fee is 116.25
    const fee = 116_25_000_000n;
    expect(v.exchange.walletOf(u)).toBe(9_995_20_000_000n - 300n * USDT - 4_65_000_000n - fee);
    expect(v.exchange.walletOf(u)).toBe(9_574_30_000_000n);
    expect(v.exchange.insuranceFund()).toBe(fund + fee);
    const [closed] = v.trading.closedPositions({ accountId: u, limit: 5 });
    expect(closed).toMatchObject({ closeType: CloseType.LIQUIDATION, realizedPnl: -300n * USDT });
    // the position's close fee: the IOC's taker fee and the clearance fee
    expect(closed.closeFee).toBe(4_65_000_000n + fee);
    const rows = v.trading.liquidationFees({ accountId: u, limit: 10 });
    expect(rows).toEqual([
      {
        id: rows[0].id,
        accountId: u,
        symbol: 'BTCUSDT',
        positionSide: 1,
        positionId: closed.positionId,
        time: T0,
        fee,
      },
    ]);
    expect(events).toEqual([
      expect.objectContaining({ symbol: 'BTCUSDT', position_side: 1, quantity: 0.1, liquidation_fee: '116.25000000' }),
    ]);
    // prices as the price record writes them, decimal strings: 96,000 - 480 / 0.1 = 91,200
    expect(events[0]).toMatchObject({ mark_price: '91560.00000000', bankruptcy_price: '91200.00000000' });
    // a fee, not a withdrawal: the deposits total and the transfers do not move
    expect(v.accounts.byId(u)!.totalDeposits).toBe(10_000n * USDT);
    expect(v.trading.transfers({ accountId: u, limit: 10 }).map((t) => t.kind)).toEqual([TransferKind.ACCOUNT_SET]);
    expect(identityHolds(v, u)).toBe(true);
    expect(v.trading.accountTotals(u).liquidationFees).toBe(fee);

    // stored with the wallet and the fund: a restart finds all three
    await v.close(); // stays listed: afterEach awaits it again before the folder goes
    const again = venue(dir);
    expect(again.exchange.walletOf(u)).toBe(9_574_30_000_000n);
    expect(again.exchange.insuranceFund()).toBe(fund + fee);
    expect(again.trading.liquidationFees({ accountId: u, limit: 10 })).toEqual(rows);
    expect(again.trading.closedPositions({ accountId: u, limit: 5 })[0].closeFee).toBe(4_65_000_000n + fee);
    expect(identityHolds(again, u)).toBe(true);
  });

  it("isolated, capped: the tester's DOGEUSDT 75x long pays what the close left of its margin, and keeps none of it", () => {
    const v = venue();
    const u = user(v, 'liqfee002', 1_000n * USDT);
    setMarginMode(v.exchange, u, 'DOGEUSDT', MarginMode.ISOLATED);
    setLeverage(v.exchange, u, 'DOGEUSDT', 75);
    setPrices(v.exchange, 'DOGEUSDT', { mark: 0.3233 });
    // long 30,931 DOGE at 0.32330: notional 9,999.9923, margin ceil(/75) = 133.33323067,
    // taker fee 4.99999615
    openLong(v, u, 'DOGEUSDT', '0.32330', '30931');
    const [pos] = v.exchange.positions(u);
    expect(pos.margin).toBe(133.33323067);
    const wallet = 1_000n * USDT - 4_99_999_615n;
    expect(v.exchange.walletOf(u)).toBe(wallet);
    // LP = (133.33323067 - 9,999.9923) / (30,931 x 0.006667 - 30,931) = 0.32113 (tier 1: MMR 0.6667 %)
    expect(pos.liquidation_price).toBe(0.32113);
    houseLimit(v.exchange, 1, '0.32106', '15000', 'DOGEUSDT');
    houseLimit(v.exchange, 1, '0.32104', '20000', 'DOGEUSDT');
    const fund = v.exchange.insuranceFund();

    setPrices(v.exchange, 'DOGEUSDT', { mark: 0.3211 });
    expect(v.exchange.positions(u)).toEqual([]);
    // the IOC: 15,000 at 0.32106 (4,815.90) and 15,931 at 0.32104 (5,114.48824): notional
    // 9,930.38824, realized 9,930.38824 - 9,999.9923 = -69.60406, taker fees 2.40795 + 2.55724412
    const closes = v.trading.trades({ accountId: u, limit: 5 }).filter((t) => t.isClose);
    expect(closes.map((t) => [t.quote, t.fee, t.realizedPnl])).toEqual([
      [511_448_824_000n, 255_724_412n, expect.any(BigInt)],
      [481_590_000_000n, 240_795_000n, expect.any(BigInt)],
    ]);
    expect(closes[0].realizedPnl + closes[1].realizedPnl).toBe(-6_960_406_000n);
    // left of the margin: 133.33323067 - 69.60406 - 4.96519412 = 58.76397655, under
    // 9,930.38824 x 0.0125 = 124.129853: the fee is all of it
    const fee = 58_76_397_655n;
    expect(v.trading.liquidationFees({ accountId: u, limit: 5 }).map((f) => f.fee)).toEqual([fee]);
    expect(v.exchange.insuranceFund()).toBe(fund + fee);
    // the trader loses exactly the isolated margin: nothing of it comes back to the wallet
    expect(v.exchange.walletOf(u)).toBe(wallet - 133_33_323_067n);
    expect(v.exchange.walletOf(u)).toBe(861_66_677_318n);
    expect(v.trading.closedPositions({ accountId: u, limit: 5 })[0].closeFee).toBe(4_96_519_412n + fee);
    expect(identityHolds(v, u)).toBe(true);
  });

  it('cross: capped by what the close left of the cross wallet; an isolated position keeps its margin', () => {
    const v = venue();
    const u = user(v, 'liqfee003', 681_55_000_000n);
    // an isolated ETH long: margin 3,500 / 20 = 175, taker fee 1.75
    setMarginMode(v.exchange, u, 'ETHUSDT', MarginMode.ISOLATED);
    setPrices(v.exchange, 'ETHUSDT', { mark: 3_500 });
    openLong(v, u, 'ETHUSDT', '3500.00', '1.000');
    // a cross BTC long 0.1 at 96,000, 20x: taker fee 4.8; the cross wallet is then
    // 681.55 - 1.75 - 4.8 - 175 = 500
    setPrices(v.exchange, 'BTCUSDT', { mark: 96_000 });
    openLong(v, u, 'BTCUSDT', '96000.0', '0.100');
    const btc = v.exchange.positions(u).find((p) => p.symbol === 'BTCUSDT')!;
    expect(btc.margin_mode).toBe(MarginMode.CROSS);
    // LP = (500 - 9,600) / (0.1 x 0.004 - 0.1) = 91,365.46
    expect(btc.liquidation_price).toBeCloseTo(91_365.46, 1);
    houseLimit(v.exchange, 1, '91300.0', '1.000');
    const fund = v.exchange.insuranceFund();

    setPrices(v.exchange, 'BTCUSDT', { mark: 91_360 });
    expect(v.exchange.positions(u).map((p) => p.symbol)).toEqual(['ETHUSDT']);
    // the IOC sold 0.1 at 91,300: realized -470, taker fee 4.565, leaving 500 - 474.565 = 25.435
    // of the cross wallet, under 9,130 x 0.0125 = 114.125: the fee is 25.435 (not 114.125, which
    // the wallet holds only with the ETH margin)
    const fee = 25_43_500_000n;
    expect(v.trading.liquidationFees({ accountId: u, limit: 5 })).toMatchObject([
      { symbol: 'BTCUSDT', positionSide: 1, fee },
    ]);
    expect(v.exchange.insuranceFund()).toBe(fund + fee);
    expect(v.exchange.walletOf(u)).toBe(175n * USDT);
    expect(v.exchange.positions(u)[0].margin).toBe(175);
    expect(v.trading.closedPositions({ accountId: u, limit: 5 })[0]).toMatchObject({
      closeType: CloseType.LIQUIDATION,
      closeFee: 456_500_000n + fee,
    });
    expect(identityHolds(v, u)).toBe(true);
  });
});
