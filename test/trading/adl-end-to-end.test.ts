// Auto-deleveraging end to end on a real in-process venue (trading/liquidation.ts, risk/adl.ts),
// every figure worked by hand from reference/exchange.md: a liquidation whose IOC finds no book
// closes the rest at the bankruptcy price; the fund cannot take the loss (mark beyond BP), so the
// opposite positions are closed at the bankruptcy price in ADL order, score = PnL% x effective
// leverage, effective leverage = |mark value| / (mark value - bankruptcy value). A counterparty's
// bankruptcy price is where its margin is gone: an isolated position's own margin, a cross
// position's the cross wallet (and the account's other cross PnL), not its leverage setting.
import { describe, expect, it } from 'vitest';
import { placeOrder, setLeverage, setMarginMode, setPositionMode, setPrices } from '../helpers/exchange-commands.ts';
import { CloseType, MarginMode, OrderStatus, OrderType, TimeInForce } from '../../src-shared/enums.ts';
import type { OrderInput } from '../../src-main/trading/exchange.ts';
import type { AccountEvent } from '../../src-main/trading/events.ts';
import type { LocalVenue as Venue } from '../../src-main/venue.ts';
import { identityHolds, venueKit } from './venues.ts';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const USDT = 100_000_000n;
/** Paper venues (no simulated market: the book holds only the test's orders; the clock paused) and their folders. */
const kit = venueKit({ wall: T0, balance: 10_000n * USDT, pause: true, simulate: false });
const user = kit.user;

/** A paper venue whose fund holds `fund` units. */
async function venueWithFund(fund: bigint): Promise<Venue> {
  const { v } = await kit.fundedVenue('perpdesk-adl-e2e-', fund);
  setPrices(v.exchange, 'BTCUSDT', { mark: 96_000 });
  return v;
}

/** An opening order in hedge mode (a limit at `price`, else a market order). */
function open(side: 1 | 2, qty: string, price?: string): OrderInput {
  return { symbol: 'BTCUSDT', side, position_side: side, position_action: 1, type: price ? 1 : 2, qty, price };
}

/** A one-way order (position side 1, action 1: it may open, close or flip the net position). */
function oneWay(side: 1 | 2, qty: string, price?: string): OrderInput {
  return { symbol: 'BTCUSDT', side, position_side: 1, position_action: 1, type: price ? 1 : 2, qty, price };
}

/** Every account event the venue announces, per account. */
function recordEvents(v: Venue): Map<number, AccountEvent[]> {
  const by = new Map<number, AccountEvent[]>();
  v.exchange.events.on('account', (e: AccountEvent) => {
    if (!by.has(e.accountId)) by.set(e.accountId, []);
    by.get(e.accountId)!.push(e);
  });
  return by;
}

/** The account's newest order (a liquidation's close order, or an ADL's). */
function lastOrder(v: Venue, accountId: number) {
  return v.trading.orders({ accountId, limit: 1 })[0];
}

/**
 * What an ADL close order of `lots` at `ticks` is: adl_autoclose, reduce-only, a LIMIT IOC at the
 * bankruptcy price, filled whole at once (its one trade the close).
 */
function adlOrder(lots: number, ticks: number, side: number) {
  return {
    clientOrderId: 'adl_autoclose',
    status: OrderStatus.FILLED,
    type: OrderType.LIMIT,
    tif: TimeInForce.IOC,
    side,
    priceTicks: ticks,
    qtyLots: lots,
    filledLots: lots,
    reduceOnly: true,
    totalFee: 0n,
  };
}

/** The account's trades of the liquidation (newest first in the store): [price, qty, realized PnL, fee, order id]. */
function closes(v: Venue, accountId: number, n: number): Array<[number, number, bigint, bigint, number]> {
  return v.trading
    .trades({ accountId, limit: n })
    .reverse()
    .map((t) => [t.priceTicks, t.qtyLots, t.realizedPnl, t.fee, t.orderId]);
}

describe('ADL when the fund cannot cover a bankrupt close', () => {
  it('hedge: an isolated long gapped below its bankruptcy price is taken by the cross shorts in ADL order, the thinly margined first', async () => {
    const v = await venueWithFund(50n * USDT);
    const rich = user(v, 'adlrich01', 10_000n * USDT);
    const thin = user(v, 'adlthin01', 300n * USDT);
    const loser = user(v, 'adlloser1', 10_000n * USDT);
    const other = user(v, 'adlother1', 10_000n * USDT);
    // the rich short at 50x: by its leverage setting it would look the more levered, but its
    // wallet of 10,000 backs it; the thin one's 300 is all that stands behind it
    setLeverage(v.exchange, rich, 'BTCUSDT', 50);
    placeOrder(v.exchange, rich, open(2, '0.030', '96000.0'));
    placeOrder(v.exchange, thin, open(2, '0.030', '96000.0'));
    setMarginMode(v.exchange, loser, 'BTCUSDT', MarginMode.ISOLATED);
    placeOrder(v.exchange, loser, open(1, '0.050')); // takes rich's 0.03 and 0.02 of thin's
    placeOrder(v.exchange, other, open(1, '0.010')); // the rest of thin's
    // fees: makers 0.03 x 96,000 x 0.02 % = 0.576; the loser's taker fee 4,800 x 0.05 % = 2.4
    expect(v.exchange.walletOf(rich)).toBe(9_999_42_400_000n);
    expect(v.exchange.walletOf(thin)).toBe(299_42_400_000n);
    expect(v.exchange.walletOf(loser)).toBe(9_997_60_000_000n);
    // isolated 20x: margin 240, bankruptcy price 96,000 - 240 / 0.05 = 91,200
    expect(v.exchange.positions(loser)).toMatchObject([{ position_side: 1, quantity: 0.05, margin: 240 }]);
    const events = recordEvents(v);

    // the mark gaps to 88,000 with no bid in the book: the fund would take the long over at
    // 91,200 and lose (91,200 - 88,000) x 0.05 = 160, more than its 50
    setPrices(v.exchange, 'BTCUSDT', { mark: 88_000 });
    v.trading.group.commitNow(); // the user channel hears of a command once it is stored
    expect(v.exchange.positions(loser)).toEqual([]);
    // ADL order at 88,000, both shorts PnL% = 8,000 / 96,000:
    // thin: BP = 96,000 + 299.424 / 0.03 = 105,980.8, effective leverage 88,000 / 17,980.8 = 4.89
    // rich: BP = 96,000 + 9,999.424 / 0.03 = 429,314.13, effective leverage 0.26
    // so thin's whole 0.03 goes first at 91,200 (realized 4,800 x 0.03 = 144), then 0.02 of rich's (96)
    // each counterparty's close fills an ADL order of its own (Binance's adl_autoclose)
    const thinAdl = lastOrder(v, thin);
    const richAdl = lastOrder(v, rich);
    expect(thinAdl).toMatchObject(adlOrder(30, 912_000, 1));
    expect(richAdl).toMatchObject(adlOrder(20, 912_000, 1));
    expect(closes(v, thin, 1)).toEqual([[912_000, 30, 144n * USDT, 0n, thinAdl.id]]);
    expect(closes(v, rich, 1)).toEqual([[912_000, 20, 96n * USDT, 0n, richAdl.id]]);
    expect(v.exchange.positions(thin)).toEqual([]);
    expect(v.exchange.positions(rich)).toMatchObject([{ position_side: 2, quantity: 0.01, entry_price: 96_000 }]);
    expect(v.exchange.positions(other)).toMatchObject([{ position_side: 1, quantity: 0.01 }]);
    // the loser's two bankruptcy closes mirror them: its liquidation IOC found nothing, the closes
    // fill that order, which so reads what closed (0.05 at 91,200), FILLED
    const liq = lastOrder(v, loser);
    expect(closes(v, loser, 2)).toEqual([
      [912_000, 30, -144n * USDT, 0n, liq.id],
      [912_000, 20, -96n * USDT, 0n, liq.id],
    ]);
    expect(liq).toMatchObject({
      status: OrderStatus.FILLED,
      type: OrderType.LIMIT,
      tif: TimeInForce.IOC,
      priceTicks: 912_000,
      qtyLots: 50,
      filledLots: 50,
      filledQuote: 4_560n * USDT,
      reduceOnly: true,
      side: 2,
    });
    expect(liq.clientOrderId).toBe(`autoclose-${liq.id}`);
    // the liquidation event names that order; the bankruptcy closes' fill events are its fills
    const loserEvents = events.get(loser) ?? [];
    expect(
      loserEvents.filter((e) => e.kind === 'liquidation').map((e) => (e.data as { order_id: string }).order_id),
    ).toEqual([String(liq.id)]);
    expect(loserEvents.filter((e) => e.kind === 'fill').map((e) => (e.data as { order_id: string }).order_id)).toEqual([
      String(liq.id),
      String(liq.id),
    ]);
    // close types: the loser's position bankrupt (6), thin's deleveraged (5)
    const [lc] = v.trading.closedPositions({ accountId: loser, limit: 5 });
    expect(lc).toMatchObject({ closeType: CloseType.BANKRUPTCY, realizedPnl: -240n * USDT, closeQuantity: 50 });
    const [tc] = v.trading.closedPositions({ accountId: thin, limit: 5 });
    expect(tc).toMatchObject({ closeType: CloseType.ADL, realizedPnl: 144n * USDT, closeFee: 0n });
    expect(v.trading.closedPositions({ accountId: rich, limit: 5 })).toEqual([]);
    // wallets: the loser lost its isolated margin and paid no clearance fee (its close left it
    // nothing); the shorts got their PnL at 91,200 and paid no fee; the fund did not move
    expect(v.exchange.walletOf(loser)).toBe(9_757_60_000_000n);
    expect(v.exchange.walletOf(thin)).toBe(443_42_400_000n);
    expect(v.exchange.walletOf(rich)).toBe(10_095_42_400_000n);
    expect(v.exchange.insuranceFund()).toBe(50n * USDT);
    for (const id of [rich, thin, loser, other]) expect(identityHolds(v, id)).toBe(true);

    // the user channel: the loser hears of its liquidation, its order, both closes, an empty
    // position list and its balance; each counterparty its ADL order, its close, its positions and balance
    const kinds = (id: number) => [...new Set((events.get(id) ?? []).map((e) => e.kind))].sort();
    expect(kinds(loser)).toEqual(['balance', 'fill', 'liquidation', 'order', 'position']);
    expect(kinds(thin)).toEqual(['balance', 'fill', 'order', 'position']);
    expect(kinds(rich)).toEqual(['balance', 'fill', 'order', 'position']);
    expect(events.get(other)).toBeUndefined();
    const data = (id: number, kind: string) =>
      events
        .get(id)!
        .filter((e) => e.kind === kind)
        .map((e) => e.data);
    expect(data(loser, 'liquidation')).toEqual([
      {
        symbol: 'BTCUSDT',
        position_side: 1,
        quantity: 0.05,
        mark_price: '88000.00000000',
        bankruptcy_price: '91200.00000000',
        order_id: String(liq.id),
        liquidation_fee: '0.00000000',
        time: T0,
      },
    ]);
    expect(data(loser, 'order')).toMatchObject([
      { id: String(liq.id), status: OrderStatus.FILLED, filled_qty: '0.050', price: '91200.0' },
    ]);
    expect(data(thin, 'order')).toMatchObject([
      { id: String(thinAdl.id), client_order_id: 'adl_autoclose', status: OrderStatus.FILLED, filled_qty: '0.030' },
    ]);
    const fill = (price: string, qty: string, pnl: string, side: number, orderId: number) => ({
      order_id: String(orderId),
      price,
      qty,
      side,
      fee: '0.00000000',
      is_close: true,
      realized_pnl: pnl,
    });
    expect(data(loser, 'fill')).toMatchObject([
      fill('91200.0', '0.030', '-144.00000000', 2, liq.id),
      fill('91200.0', '0.020', '-96.00000000', 2, liq.id),
    ]);
    expect(data(thin, 'fill')).toMatchObject([fill('91200.0', '0.030', '144.00000000', 1, thinAdl.id)]);
    expect(data(rich, 'fill')).toMatchObject([fill('91200.0', '0.020', '96.00000000', 1, richAdl.id)]);
    expect(data(thin, 'position').at(-1)).toEqual([]);
    expect(data(rich, 'position').at(-1)).toMatchObject([{ quantity: 0.01 }]);
    expect(data(loser, 'balance').at(-1)).toMatchObject({ wallet_balance: '9757.60000000' });
    expect(data(thin, 'balance').at(-1)).toMatchObject({ wallet_balance: '443.42400000' });
  });

  it('one-way: a cross short gapped above its bankruptcy price is taken by an isolated long before a richly backed cross long', async () => {
    const v = await venueWithFund(50n * USDT);
    const iso = user(v, 'owadliso1', 10_000n * USDT);
    const crossL = user(v, 'owadlcrs1', 10_000n * USDT);
    const loser = user(v, 'owadllos1', 500n * USDT);
    const other = user(v, 'owadloth1', 10_000n * USDT);
    for (const id of [iso, crossL, loser, other]) setPositionMode(v.exchange, id, 'one_way');
    // the cross long's resting bid first, so it is filled first; the isolated one's at 10x
    placeOrder(v.exchange, crossL, oneWay(1, '0.040', '96000.0'));
    placeOrder(v.exchange, iso, { ...oneWay(1, '0.060', '96000.0'), leverage: 10, margin_mode: MarginMode.ISOLATED });
    placeOrder(v.exchange, loser, oneWay(2, '0.080')); // cross 20x: 0.04 of each
    placeOrder(v.exchange, other, oneWay(2, '0.020')); // the rest of the isolated long's bid
    // loser: 500 - 7,680 x 0.05 % = 496.16, cross bankruptcy price 96,000 + 496.16 / 0.08 = 102,202
    expect(v.exchange.walletOf(loser)).toBe(496_16_000_000n);
    expect(v.exchange.positions(iso)).toMatchObject([{ quantity: 0.06, margin: 576 }]);
    const events = recordEvents(v);

    // mark 104,000, no ask: the fund would lose (104,000 - 102,202) x 0.08 = 143.84 > 50
    setPrices(v.exchange, 'BTCUSDT', { mark: 104_000 });
    v.trading.group.commitNow();
    expect(v.exchange.positions(loser)).toEqual([]);
    // ADL order, both longs PnL% 8,000 / 96,000:
    // iso: BP = 96,000 - 576 / 0.06 = 86,400, effective leverage 104,000 / 17,600 = 5.9
    // crossL: BP = 96,000 - 9,999.232 / 0.04 < 0, effective leverage 104,000 / 257,980.8 = 0.4
    // so iso's whole 0.06 at 102,202 (realized 6,202 x 0.06 = 372.12), then 0.02 of crossL's (124.04)
    expect(lastOrder(v, iso)).toMatchObject(adlOrder(60, 1_022_020, 2));
    expect(lastOrder(v, crossL)).toMatchObject(adlOrder(20, 1_022_020, 2));
    expect(closes(v, iso, 1)).toEqual([[1_022_020, 60, 372_12_000_000n, 0n, lastOrder(v, iso).id]]);
    expect(closes(v, crossL, 1)).toEqual([[1_022_020, 20, 124_04_000_000n, 0n, lastOrder(v, crossL).id]]);
    expect(v.exchange.positions(iso)).toEqual([]);
    expect(v.exchange.positions(crossL)).toMatchObject([{ position_side: 1, quantity: 0.02 }]);
    const liqOrder = lastOrder(v, loser);
    expect(closes(v, loser, 2)).toEqual([
      [1_022_020, 60, -372_12_000_000n, 0n, liqOrder.id],
      [1_022_020, 20, -124_04_000_000n, 0n, liqOrder.id],
    ]);
    // one-way: the order's position side is the net one (1), its quantity the 0.08 that closed
    expect(liqOrder).toMatchObject({ status: OrderStatus.FILLED, qtyLots: 80, filledLots: 80, positionSide: 1 });
    expect(v.trading.closedPositions({ accountId: loser, limit: 5 })[0]).toMatchObject({
      closeType: CloseType.BANKRUPTCY,
      positionSide: 2,
      marginMode: MarginMode.CROSS,
      realizedPnl: -496_16_000_000n,
    });
    expect(v.trading.closedPositions({ accountId: iso, limit: 5 })[0]).toMatchObject({
      closeType: CloseType.ADL,
      marginMode: MarginMode.ISOLATED,
      realizedPnl: 372_12_000_000n,
    });
    // the isolated winner gets its margin back with the PnL: 10,000 - 1.152 fee + 372.12;
    // the loser's cross wallet is exactly spent, so no clearance fee and no cover
    expect(v.exchange.walletOf(iso)).toBe(10_370_96_800_000n);
    expect(v.exchange.walletOf(crossL)).toBe(10_123_27_200_000n);
    expect(v.exchange.walletOf(loser)).toBe(0n);
    expect(v.exchange.insuranceFund()).toBe(50n * USDT);
    for (const id of [iso, crossL, loser, other]) expect(identityHolds(v, id)).toBe(true);
    const liq = events.get(loser)!.find((e) => e.kind === 'liquidation')!.data;
    expect(liq).toMatchObject({ position_side: 2, quantity: 0.08, bankruptcy_price: '102202.00000000' });
  });
  it('hedge: the IOC fills part above the bankruptcy price, the rest goes to ADL, the clearance fee takes what the closes left', async () => {
    const v = await venueWithFund(50n * USDT);
    const short = user(v, 'adlpshort', 10_000n * USDT);
    const loser = user(v, 'adlploser', 10_000n * USDT);
    const bidder = user(v, 'adlpbid01', 10_000n * USDT);
    placeOrder(v.exchange, short, open(2, '0.050', '96000.0'));
    setMarginMode(v.exchange, loser, 'BTCUSDT', MarginMode.ISOLATED);
    placeOrder(v.exchange, loser, open(1, '0.050')); // isolated 20x: margin 240, BP 91,200
    placeOrder(v.exchange, bidder, open(1, '0.020', '92000.0')); // a bid above the BP, for 0.02 only
    const events = recordEvents(v);

    setPrices(v.exchange, 'BTCUSDT', { mark: 88_000 });
    v.trading.group.commitNow();
    expect(v.exchange.positions(loser)).toEqual([]);
    // the IOC sells 0.02 to the bid at 92,000 (realized -80, taker fee 1,840 x 0.05 % = 0.92); the
    // rest 0.03 would cost the fund (91,200 - 88,000) x 0.03 = 96 > 50: ADL of the short at 91,200
    // both are fills of the liquidation order: 0.05 filled, 1,840 + 2,736 quote, no longer EXPIRED
    const liqOrder = lastOrder(v, loser);
    expect(closes(v, loser, 2)).toEqual([
      [920_000, 20, -80n * USDT, 92_000_000n, liqOrder.id],
      [912_000, 30, -144n * USDT, 0n, liqOrder.id],
    ]);
    expect(liqOrder).toMatchObject({
      status: OrderStatus.FILLED,
      qtyLots: 50,
      filledLots: 50,
      filledQuote: 4_576n * USDT,
      totalFee: 92_000_000n,
    });
    expect(closes(v, short, 1)).toEqual([[912_000, 30, 144n * USDT, 0n, lastOrder(v, short).id]]);
    expect(lastOrder(v, short)).toMatchObject(adlOrder(30, 912_000, 1));
    expect(v.exchange.positions(short)).toMatchObject([{ position_side: 2, quantity: 0.02 }]);
    expect(v.exchange.positions(bidder)).toMatchObject([{ position_side: 1, quantity: 0.02, entry_price: 92_000 }]);
    // clearance fee: 1.25 % x (1,840 + 2,736) = 57.2, more than the 240 - 80 - 144 - 0.92 = 15.08
    // the closes left of the margin: 15.08, to the fund, which the ADL spared
    const [lc] = v.trading.closedPositions({ accountId: loser, limit: 5 });
    expect(lc).toMatchObject({ closeType: CloseType.BANKRUPTCY, realizedPnl: -224n * USDT });
    expect(lc.closeFee).toBe(92_000_000n + 15_08_000_000n);
    expect(v.exchange.walletOf(loser)).toBe(9_757_60_000_000n);
    expect(v.exchange.insuranceFund()).toBe(50n * USDT + 15_08_000_000n);
    const liq = events
      .get(loser)!
      .filter((e) => e.kind === 'liquidation')
      .map((e) => e.data);
    expect(liq).toMatchObject([{ quantity: 0.05, bankruptcy_price: '91200.00000000', liquidation_fee: '15.08000000' }]);
    for (const id of [short, loser, bidder]) expect(identityHolds(v, id)).toBe(true);
  });
  it("a client may not choose a liquidation's or an ADL's close order client id (autoclose-<n>, adl_autoclose): 1001, nothing placed", async () => {
    const v = await venueWithFund(50n * USDT);
    const u = user(v, 'adlcid001', 10_000n * USDT);
    expect(() => placeOrder(v.exchange, u, { ...open(1, '0.010', '95000.0'), client_order_id: 'autoclose-7' })).toThrow(
      expect.objectContaining({ code: 1001 }),
    );
    expect(() =>
      placeOrder(v.exchange, u, { ...open(1, '0.010', '95000.0'), client_order_id: 'adl_autoclose' }),
    ).toThrow(expect.objectContaining({ code: 1001 }));
    expect(v.exchange.openOrders(u)).toEqual([]);
    // a name that only starts so is the client's to choose
    placeOrder(v.exchange, u, { ...open(1, '0.010', '95000.0'), client_order_id: 'autoclose-me' });
    expect(v.exchange.openOrders(u).map((o) => o.client_order_id)).toEqual(['autoclose-me']);
  });
});
