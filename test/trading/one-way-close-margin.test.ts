// One-way mode: an order against the net position first reduces it, so only the part beyond the
// position opens. That part alone freezes margin (initial margin + taker fee) and counts against
// the leverage's notional cap (3013); a plain order that only closes freezes nothing, whatever
// the available balance (risk report, defects 1 and 2). Several orders against the position share
// it oldest first; fills, cancels, amendments and leverage changes re-margin them. Figures worked
// by hand; the accounting identity holds after each case.
import { refusal, venueKit } from './venues.ts';
import {
  cancelOrder,
  placeBotOrder,
  placeOrder,
  setLeverage,
  setPositionMode,
  setPrices,
} from '../helpers/exchange-commands.ts';

import { describe, expect, it } from 'vitest';
import { CloseType } from '../../src-shared/enums.ts';
import { Errors } from '../../src-shared/errors.ts';
import { HOUSE_ACCOUNT, type OrderInput } from '../../src-main/trading/exchange.ts';
import { type LocalVenue as Venue } from '../../src-main/venue.ts';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const USDT = 100_000_000n;
const { venue, user, dataDir, fundedVenue, oneWayLong } = venueKit({ wall: T0, balance: 10_000n * USDT });

/** A resting (or crossing) house limit order. */
function bot(v: Venue, symbol: string, side: 1 | 2, price: string, qty: string) {
  return placeBotOrder(
    v.exchange,
    { symbol, side, position_side: side, position_action: 1, type: 1, price, qty, time_in_force: 1 },
    HOUSE_ACCOUNT,
  );
}

/** A plain one-way order (position_action 1, not reduce-only): a limit unless no price is given. */
function plain(symbol: string, side: 1 | 2, qty: string, price?: string): OrderInput {
  return {
    symbol,
    side,
    position_side: 1,
    position_action: 1,
    qty,
    ...(price === undefined ? { type: 2 } : { type: 1, price }),
  };
}

/**
 * deposits = wallet + fees - realized PnL (no funding, no liquidation here), and the account's
 * frozen margin is the sum of its open orders', each stored as it is in memory.
 */
async function balanced(v: Venue, u: number): Promise<void> {
  await v.trading.group.durable();
  const acct = v.accounts.byId(u)!;
  const totals = v.trading.accountTotals(u);
  expect(v.exchange.walletOf(u)).toBe(acct.walletBalance);
  expect(acct.totalDeposits).toBe(acct.walletBalance + totals.fees + totals.liquidationFees - totals.realized);
  let sum = 0n;
  for (const o of v.exchange.openOrders(u)) {
    const frozen = v.exchange.liveOrder(u, Number(o.id))!.frozen;
    expect(v.trading.order(Number(o.id))!.frozen).toBe(frozen);
    sum += frozen;
  }
  expect(v.exchange.summary(u).frozen_margin).toBe((Number(sum) / 1e8).toFixed(8));
}

/** A one-way account on `symbol` at `leverage` holding a long of `qty` bought at `price` (the mark) as a taker. */
const longAt = (
  v: Venue,
  name: string,
  o: { symbol: string; leverage: number; qty: string; price: string },
  balance?: bigint,
) => oneWayLong(v, name, o, balance).u;

/** A one-way account of 100,000 USDT long `qty` BTCUSDT bought at 96,000 (the mark) at `leverage`. */
const btcLong = (v: Venue, name: string, qty: string, leverage: number) =>
  longAt(v, name, { symbol: 'BTCUSDT', leverage, qty, price: '96000.0' }, 100_000n * USDT);

describe('one-way: a plain order against the position is margined only for what it opens', () => {
  it("an order whose leverage lowers the pair's: its 3009 says the available is counted at that leverage", async () => {
    const v = venue();
    const u = longAt(v, 'owsol002', { symbol: 'SOLUSDT', leverage: 10, qty: '400', price: '185' });
    // 400 x 185 = 74,000: fee 37, margin 7,400 at 10x; at 8x it would be 9,250
    expect(v.exchange.summary(u)).toMatchObject({ available_balance: '2563.00000000' });
    // 100 more at 8x: 2,312.50 + 9.25 against the 713.00 left at 8x (at 10x 1,859.25 would fit)
    const e = refusal(() => placeOrder(v.exchange, u, { ...plain('SOLUSDT', 1, '100', '185'), leverage: 8 }));
    expect(e.code).toBe(Errors.INSUFFICIENT_MARGIN.code);
    expect(e.message).toBe(
      'Order needs 2321.75 USDT of margin and fees; available is 713.00 USDT at 8x ' +
        "(the pair's positions and orders counted at the order's leverage; the pair is at 10x)",
    );
    // refused whole: the pair's leverage (and so the available) is unchanged
    expect(v.exchange.summary(u)).toMatchObject({ available_balance: '2563.00000000' });
    await balanced(v, u);
  });

  it('SOLUSDT 10x: a plain sell of the whole long is accepted with 703.75 available and freezes nothing', async () => {
    const v = venue();
    const u = longAt(v, 'owsol001', { symbol: 'SOLUSDT', leverage: 10, qty: '500', price: '185' });
    // 500 x 185 = 92,500: fee 46.25, margin 9,250 at 10x
    expect(v.exchange.summary(u)).toMatchObject({
      wallet_balance: '9953.75000000',
      position_margin: '9250.00000000',
      available_balance: '703.75000000',
    });
    // the close opens nothing: no margin, no fee held (it was 3009, "needs 9346.50")
    const close = placeOrder(v.exchange, u, plain('SOLUSDT', 2, '500', '186'));
    expect(close.status).toBe(1);
    expect(v.exchange.summary(u)).toMatchObject({ frozen_margin: '0.00000000', available_balance: '703.75000000' });
    await balanced(v, u);

    // a second plain sell: the position is the first one's, so this one opens all of it
    // (500 x 187 / 10 + 500 x 187 x 0.0005 = 9,350 + 46.75)
    const e = refusal(() => placeOrder(v.exchange, u, plain('SOLUSDT', 2, '500', '187')));
    expect(e.code).toBe(Errors.INSUFFICIENT_MARGIN.code);
    expect(e.message).toBe('Order needs 9396.75 USDT of margin and fees; available is 703.75 USDT');

    // the close fills: the long is gone, nothing is frozen, +500 PnL less the 18.6 maker fee
    bot(v, 'SOLUSDT', 1, '186', '500');
    expect(v.exchange.positions(u)).toEqual([]);
    expect(v.exchange.summary(u)).toMatchObject({
      wallet_balance: '10435.15000000',
      frozen_margin: '0.00000000',
      available_balance: '10435.15000000',
    });
    await balanced(v, u);
  });

  it('SOLUSDT 10x: a plain market sell of the whole long is accepted and closes it', async () => {
    const v = venue();
    const u = longAt(v, 'owsol002', { symbol: 'SOLUSDT', leverage: 10, qty: '500', price: '185' });
    bot(v, 'SOLUSDT', 1, '184', '500');
    // it was 3009, "needs 9296.25" (500 x 185 at the mark, margin and fee)
    expect(placeOrder(v.exchange, u, plain('SOLUSDT', 2, '500'))).toMatchObject({ status: 3, filled_qty: '500.00' });
    expect(v.exchange.positions(u)).toEqual([]);
    // 9,953.75 - 500 PnL - 46 taker fee (92,000 x 0.0005)
    expect(v.exchange.summary(u)).toMatchObject({ wallet_balance: '9407.75000000', frozen_margin: '0.00000000' });
    await balanced(v, u);
  });

  it('BTCUSDT 10x: a sell of 1.0 against a long of 0.5 freezes for the 0.5 it flips; fills and a cancel re-margin it', async () => {
    const v = venue();
    const u = btcLong(v, 'owbtc001', '0.500', 10);
    // a close of exactly the long freezes nothing (it froze 4,874.25)
    const exact = placeOrder(v.exchange, u, plain('BTCUSDT', 2, '0.500', '97000.0'));
    expect(v.exchange.summary(u).frozen_margin).toBe('0.00000000');
    cancelOrder(v.exchange, u, { orderId: Number(exact.order_id) });

    // 0.5 x 97,000 = 48,500: 4,850 at 10x + 24.25 fee (it froze 9,748.50 for the whole 1.0)
    const s = placeOrder(v.exchange, u, plain('BTCUSDT', 2, '1.000', '97000.0'));
    expect(v.exchange.summary(u).frozen_margin).toBe('4874.25000000');
    await balanced(v, u);

    // 0.3 fills, closing 0.3 of the long: 0.7 left, 0.2 of it closes, still 0.5 to open
    bot(v, 'BTCUSDT', 1, '97000.0', '0.300');
    expect(v.exchange.positions(u)).toMatchObject([{ position_side: 1, quantity: 0.2 }]);
    expect(v.exchange.summary(u).frozen_margin).toBe('4874.25000000');
    await balanced(v, u);

    // 0.4 more: 0.2 closes the long, 0.2 opens the short; the 0.3 left all opens:
    // 29,100 / 10 + 14.55
    bot(v, 'BTCUSDT', 1, '97000.0', '0.400');
    expect(v.exchange.positions(u)).toMatchObject([{ position_side: 2, quantity: 0.2 }]);
    expect(v.exchange.summary(u).frozen_margin).toBe('2924.55000000');
    await balanced(v, u);

    // a cancel releases what is left, to the unit
    cancelOrder(v.exchange, u, { orderId: Number(s.order_id) });
    expect(v.exchange.summary(u).frozen_margin).toBe('0.00000000');
    await balanced(v, u);
  });

  it('several orders against the long share it oldest first; a cancel, a buy, an amendment and a leverage change re-margin them', async () => {
    const v = venue();
    const u = btcLong(v, 'owbtc002', '0.500', 10);
    const first = placeOrder(v.exchange, u, plain('BTCUSDT', 2, '0.500', '98000.0'));
    expect(v.exchange.summary(u).frozen_margin).toBe('0.00000000');
    // the long is the first sell's: the second opens all its 0.4 (38,800 / 10 + 19.4)
    const second = placeOrder(v.exchange, u, plain('BTCUSDT', 2, '0.400', '97000.0'));
    /** An order's frozen margin as stored (once the turn is committed), units. */
    const frozenOf = async (r: { order_id: string }) => {
      await v.trading.group.durable();
      return v.trading.order(Number(r.order_id))!.frozen;
    };
    expect(await frozenOf(first)).toBe(0n);
    expect(await frozenOf(second)).toBe(389_940_000_000n);
    expect(v.exchange.summary(u).frozen_margin).toBe('3899.40000000');
    // a reduce-only sell takes no part: it never opens
    const ro = placeOrder(v.exchange, u, { ...plain('BTCUSDT', 2, '0.500', '99000.0'), reduce_only: true });
    expect(v.exchange.summary(u).frozen_margin).toBe('3899.40000000');
    cancelOrder(v.exchange, u, { orderId: Number(ro.order_id) });

    // the first amended down to 0.3: 0.2 of the long is the second's now (0.2 x 97,000: 1,940 + 9.7)
    v.exchange.execute({
      kind: 'amend',
      accountId: u,
      orderId: Number(first.order_id),
      price: '98000.0',
      qty: '0.300',
    });
    expect(await frozenOf(first)).toBe(0n);
    expect(await frozenOf(second)).toBe(194_970_000_000n);
    await balanced(v, u);

    // the first cancelled: the long covers the second whole
    cancelOrder(v.exchange, u, { orderId: Number(first.order_id) });
    expect(await frozenOf(second)).toBe(0n);
    // a third sell of 0.5: 0.1 of the long is left for it, 0.4 opens (38,800 / 10 + 19.4)
    const third = placeOrder(v.exchange, u, plain('BTCUSDT', 2, '0.500', '97000.0'));
    expect(await frozenOf(third)).toBe(389_940_000_000n);

    // a buy grows the long to 0.7: 0.3 of it for the third, 0.2 opens (19,400 / 10 + 9.7)
    bot(v, 'BTCUSDT', 2, '96000.0', '0.200');
    placeOrder(v.exchange, u, plain('BTCUSDT', 1, '0.200'));
    expect(v.exchange.positions(u)).toMatchObject([{ position_side: 1, quantity: 0.7 }]);
    expect(await frozenOf(second)).toBe(0n);
    expect(await frozenOf(third)).toBe(194_970_000_000n);

    // 20x: 19,400 / 20 + 9.7
    setLeverage(v.exchange, u, 'BTCUSDT', 20);
    expect(await frozenOf(third)).toBe(97_970_000_000n);
    expect(await frozenOf(second)).toBe(0n);
    await balanced(v, u);
  });

  it('the re-margined orders are what a restart restores', async () => {
    const dir = dataDir('perpdesk-owclose-');
    const v1 = venue(dir);
    const u = btcLong(v1, 'owbtc003', '0.500', 10);
    placeOrder(v1.exchange, u, plain('BTCUSDT', 2, '1.000', '97000.0'));
    bot(v1, 'BTCUSDT', 1, '97000.0', '0.300');
    // 0.7 left against a long of 0.2: 0.5 opens, 4,850 + 24.25 (a release in proportion would leave 0.7 of 9,748.50)
    expect(v1.exchange.summary(u).frozen_margin).toBe('4874.25000000');
    v1.close();

    const v2 = venue(dir);
    expect(v2.exchange.summary(u).frozen_margin).toBe('4874.25000000');
    setPrices(v2.exchange, 'BTCUSDT', { mark: 96000 });
    bot(v2, 'BTCUSDT', 1, '97000.0', '0.700');
    expect(v2.exchange.positions(u)).toMatchObject([{ position_side: 2, quantity: 0.5 }]);
    expect(v2.exchange.summary(u).frozen_margin).toBe('0.00000000');
    await balanced(v2, u);
  });
});

describe('one-way: an auto-deleveraging close re-margins the orders against the position it closes', () => {
  it('a plain buy resting against a short opens all of it once ADL closes the short', async () => {
    // an empty insurance fund, read as the exchange starts: a bankruptcy close goes to ADL
    const { v } = await fundedVenue('perpdesk-owadl-', 0n);
    setPrices(v.exchange, 'BTCUSDT', { mark: 96000 });
    const w = user(v, 'owadlwin', 100_000n * USDT);
    const l = user(v, 'owadllos', 100_000n * USDT);
    setPositionMode(v.exchange, w, 'one_way');
    setPositionMode(v.exchange, l, 'one_way');
    // W shorts 0.1 to L, whose long is isolated at 100x (96 of margin, bankruptcy at about 95,040)
    placeOrder(v.exchange, w, plain('BTCUSDT', 2, '0.100', '96000.0'));
    placeOrder(v.exchange, l, { ...plain('BTCUSDT', 1, '0.100'), leverage: 100, margin_mode: 1 });
    // W's plain buy of 0.1 below L's bankruptcy price: it only closes the short, so it freezes nothing
    const buy = placeOrder(v.exchange, w, plain('BTCUSDT', 1, '0.100', '95000.0'));
    expect(v.exchange.summary(w).frozen_margin).toBe('0.00000000');

    // the mark falls through L's bankruptcy price: the IOC finds no bid above it, the fund has
    // nothing, so W's short is deleveraged and W's buy now opens 0.1: 9,500 / 20 + 4.75
    setPrices(v.exchange, 'BTCUSDT', { mark: 94000 });
    expect(v.exchange.positions(l)).toEqual([]);
    expect(v.exchange.positions(w)).toEqual([]);
    expect(v.trading.closedPositions({ accountId: w, limit: 1 })[0].closeType).toBe(CloseType.ADL);
    expect(v.exchange.openOrders(w).map((o) => o.id)).toEqual([buy.order_id]);
    expect(v.exchange.summary(w).frozen_margin).toBe('479.75000000');
    await balanced(v, w);
  });
});

describe('one-way: the notional cap counts the position an order would leave', () => {
  it('BTCUSDT 125x (cap 50,000): plain sells that close or flip a long of 0.52 are accepted; what passes the cap is not', async () => {
    const v = venue();
    const u = btcLong(v, 'owtier01', '0.520', 125);
    // each was 3013 ("would make it 99892.00", 107,580, 146,020): the sell was added to the long
    for (const qty of ['0.520', '0.600', '1.000']) {
      const r = placeOrder(v.exchange, u, plain('BTCUSDT', 2, qty, '96100.0'));
      expect(r.status).toBe(1);
      cancelOrder(v.exchange, u, { orderId: Number(r.order_id) });
    }
    // a flip of 0.08 freezes for it: 7,688 / 125 + 3.844
    const flip = placeOrder(v.exchange, u, plain('BTCUSDT', 2, '0.600', '96100.0'));
    expect(v.exchange.summary(u).frozen_margin).toBe('65.34800000');
    cancelOrder(v.exchange, u, { orderId: Number(flip.order_id) });

    // a flip of 0.53: 50,933 > 50,000
    const e = refusal(() => placeOrder(v.exchange, u, plain('BTCUSDT', 2, '1.050', '96100.0')));
    expect(e.code).toBe(Errors.LEVERAGE_INVALID.code);
    expect(e.message).toBe(
      'At 125x the position may hold at most 50000 USDT notional on BTCUSDT; this order would make it 50933.00',
    );
    // two sells that flip together past the cap: the second counts what the first leaves it
    placeOrder(v.exchange, u, plain('BTCUSDT', 2, '1.000', '96100.0')); // flips 0.48: 46,128
    const e2 = refusal(() => placeOrder(v.exchange, u, plain('BTCUSDT', 2, '0.050', '96100.0')));
    expect(e2.message).toMatch(/this order would make it 50933\.00$/);
    // adding to the long is counted with the long, as before: 49,920 + 960
    const e3 = refusal(() => placeOrder(v.exchange, u, plain('BTCUSDT', 1, '0.010', '96000.0')));
    expect(e3.message).toMatch(/this order would make it 50880\.00$/);
    await balanced(v, u);
  });
});
