// Take-profit / stop-loss on the last price (working type 2): they fire on the trades that reach
// them, whoever trades (users, bots, the house), after the command that made those trades, on the
// highest and lowest price the command traded at; triggers on the mark still wait for a mark.
import { btc, venueKit } from './venues.ts';
import { placeBotOrder, placeOrder, setPrices, setTpSl } from '../helpers/exchange-commands.ts';

import { describe, expect, it } from 'vitest';
import { CloseType, OrderStatus, PositionSide, WorkingType } from '../../src-shared/enums.ts';
import { Errors } from '../../src-shared/errors.ts';
import type { TriggerSpec } from '../../src-main/trading/commands.ts';
import { HOUSE_ACCOUNT } from '../../src-main/trading/exchange.ts';
import { type LocalVenue as Venue } from '../../src-main/venue.ts';
import { Simulator } from '../../src-main/market/sim/simulator.ts';
import { testVenue } from '../market/sim/helpers.ts';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const USDT = 100_000_000n;
const { venue, user, dataDir } = venueKit({ wall: T0, balance: 100_000n * USDT });

const LAST = WorkingType.LAST_PRICE;
const MARK = WorkingType.MARK_PRICE;

/** A bot (house) BTCUSDT limit order: GTC (rests or crosses) unless `tif` says otherwise. */
function bot(v: Venue, side: 1 | 2, price: string, qty: string, account = HOUSE_ACCOUNT, tif = 1) {
  return placeBotOrder(
    v.exchange,
    { symbol: 'BTCUSDT', side, position_side: side, position_action: 1, type: 1, price, qty, time_in_force: tif },
    account,
  );
}

/** Opens a position of `qty` at market on `side` (1 long, 2 short) against a bot order of that size at `price`. */
function open(v: Venue, u: number, side: 1 | 2, price: string, qty: string): void {
  bot(v, side === 1 ? 2 : 1, price, qty);
  placeOrder(v.exchange, u, btc({ side, position_side: side, position_action: 1, type: 2, qty }));
}

/** One print of `qty` at `price` between two house accounts that hold no position (a sell rests, a buy takes it). */
function print(v: Venue, price: string, qty = '0.002'): void {
  bot(v, 2, price, qty, HOUSE_ACCOUNT + 2);
  bot(v, 1, price, qty, HOUSE_ACCOUNT + 3, 2);
}

/** deposits = wallet + fees paid + liquidation fees - realized PnL (no funding here), exactly. */
function checkIdentity(v: Venue, accountId: number): void {
  const acct = v.accounts.byId(accountId)!;
  const totals = v.trading.accountTotals(accountId);
  expect(v.exchange.walletOf(accountId)).toBe(acct.walletBalance);
  expect(acct.totalDeposits).toBe(acct.walletBalance + totals.fees + totals.liquidationFees - totals.realized);
}

const closeTypeOf = (v: Venue, u: number) => v.trading.closedPositions({ accountId: u, limit: 5 })[0]?.closeType;
/** The account's fills, oldest first, as [price ticks, lots]. */
const fills = (v: Venue, u: number) =>
  v.trading
    .trades({ accountId: u, limit: 20 })
    .reverse()
    .map((t) => [t.priceTicks, t.qtyLots]);

describe('last-price take-profit / stop-loss', () => {
  it('a trigger is checked when set against the price it watches: the last trade for type 2, the mark for type 1', () => {
    const v = venue();
    const u = user(v, 'tpcheck01');
    open(v, u, 1, '96000.0', '0.010');
    setPrices(v.exchange, 'BTCUSDT', { mark: 96000 });
    print(v, '96600.0'); // the last price is now above the mark
    const set = (tp: TriggerSpec, sl: TriggerSpec) => () =>
      setTpSl(v.exchange, u, 'BTCUSDT', PositionSide.LONG, tp, sl);
    // a last-price take-profit the last trade has already passed would fire at once: refused, naming the last price
    expect(set({ price: '96500.0', trigger: LAST }, undefined)).toThrow(
      expect.objectContaining({
        code: Errors.INVALID_PARAMETER.code,
        message: "take_profit_price must be above the last price 96600.0 for a long (got '96500.0')",
      }),
    );
    // the same price on the mark is beyond the mark: taken
    set({ price: '96500.0', trigger: MARK }, undefined)();
    expect(v.exchange.tpsl(u, 'BTCUSDT', PositionSide.LONG).take_profit_price).toBe('96500.0');
    // a last-price stop-loss between the mark and the last trade is below the price it watches: taken
    set(undefined, { price: '96550.0', trigger: LAST })();
    expect(v.exchange.tpsl(u, 'BTCUSDT', PositionSide.LONG).stop_loss_price).toBe('96550.0');
    // on the mark it is above the mark: refused, naming the mark, and nothing changed
    expect(set(undefined, { price: '96550.0', trigger: MARK })).toThrow(
      expect.objectContaining({
        message: "stop_loss_price must be below the mark price 96000.0 for a long (got '96550.0')",
      }),
    );
    expect(v.exchange.tpslList(u)).toEqual([
      expect.objectContaining({ take_profit_price: '96500.0', stop_loss_price: '96550.0' }),
    ]);
  });

  it('a trade at the trigger between two other accounts fires a take-profit; one on the mark waits for the mark', () => {
    const v = venue();
    const u = user(v, 'tplast001');
    const w = user(v, 'tpmark001');
    open(v, u, 1, '96000.0', '0.680');
    open(v, w, 1, '96000.0', '0.010');
    setTpSl(v.exchange, u, 'BTCUSDT', PositionSide.LONG, { price: '96500.0', trigger: LAST }, undefined);
    setTpSl(v.exchange, w, 'BTCUSDT', PositionSide.LONG, { price: '96500.0', trigger: MARK }, undefined);
    bot(v, 1, '96400.0', '1.000'); // the bid the closes meet
    print(v, '96499.9');
    expect(v.exchange.positions(u)).toHaveLength(1);
    print(v, '96500.0');
    // no mark has come: the trade alone fired it, and the whole position closed at market
    expect(v.exchange.positions(u)).toEqual([]);
    expect(closeTypeOf(v, u)).toBe(CloseType.TAKE_PROFIT);
    expect(fills(v, u)).toEqual([
      [960_000, 680],
      [964_000, 680],
    ]);
    expect(v.exchange.tpslList(u)).toEqual([]);
    // the mark trigger did not move on the trade; the mark reaching it fires it as before
    expect(v.exchange.tpsl(w, 'BTCUSDT', PositionSide.LONG).take_profit_price).toBe('96500.0');
    setPrices(v.exchange, 'BTCUSDT', { mark: 96499.9 });
    expect(v.exchange.positions(w)).toHaveLength(1);
    setPrices(v.exchange, 'BTCUSDT', { mark: 96500 });
    expect(v.exchange.positions(w)).toEqual([]);
    expect(closeTypeOf(v, w)).toBe(CloseType.TAKE_PROFIT);
    checkIdentity(v, u);
    checkIdentity(v, w);
  });

  it("a user's order sweeping the asks up to the trigger fires it at once, with the market standing still", () => {
    const v = venue();
    const u = user(v, 'tplast002');
    const taker = user(v, 'sweeper02');
    open(v, u, 1, '96000.0', '0.100');
    setTpSl(v.exchange, u, 'BTCUSDT', PositionSide.LONG, { price: '96568.5', trigger: LAST }, undefined);
    bot(v, 2, '96550.0', '0.002');
    bot(v, 2, '96568.5', '0.002');
    bot(v, 1, '96300.0', '1.000');
    const r = placeOrder(
      v.exchange,
      taker,
      btc({ side: 1, position_side: 1, position_action: 1, price: '96568.5', qty: '0.004', time_in_force: 2 }),
    );
    expect(r.status).toBe(OrderStatus.FILLED);
    expect(v.exchange.positions(u)).toEqual([]);
    expect(closeTypeOf(v, u)).toBe(CloseType.TAKE_PROFIT);
    expect(fills(v, u)).toEqual([
      [960_000, 100],
      [963_000, 100],
    ]);
    checkIdentity(v, u);
    checkIdentity(v, taker);
  });

  it('a command whose trades go through the trigger and come back fires it (the low, not the last price, counts)', () => {
    const v = venue();
    // y first: a check of every position at the command's end in account order would see y before
    // the trades below and miss the low between them
    const y = user(v, 'sllast003');
    const x = user(v, 'slmark003');
    const z = user(v, 'tpmark003');
    open(v, y, 1, '96000.0', '0.010');
    open(v, x, 1, '96000.0', '0.500');
    open(v, z, 2, '96000.0', '0.500');
    setTpSl(v.exchange, y, 'BTCUSDT', PositionSide.LONG, undefined, { price: '95600.0', trigger: LAST });
    setTpSl(v.exchange, x, 'BTCUSDT', PositionSide.LONG, undefined, { price: '95900.0', trigger: MARK });
    setTpSl(v.exchange, z, 'BTCUSDT', PositionSide.SHORT, { price: '95900.0', trigger: MARK }, undefined);
    for (const px of ['95700.0', '95600.0', '95500.0']) bot(v, 1, px, '0.200');
    bot(v, 2, '96100.0', '0.500');
    // one mark: x's stop-loss sells down to 95500, then z's take-profit buys back up at 96100
    setPrices(v.exchange, 'BTCUSDT', { mark: 95_800 });
    expect(v.exchange.positions(x)).toEqual([]);
    expect(v.exchange.positions(z)).toEqual([]);
    // the last price was back above y's stop when the command's closes were done, but the command
    // traded at 95500: y's stop fired after them
    const zClose = v.trading.trades({ accountId: z, limit: 1 })[0];
    expect([zClose.priceTicks, zClose.qtyLots]).toEqual([961_000, 500]);
    expect(v.exchange.positions(y)).toEqual([]);
    expect(closeTypeOf(v, y)).toBe(CloseType.STOP_LOSS);
    expect(fills(v, y)).toEqual([
      [960_000, 10],
      [955_000, 10],
    ]);
    expect(v.trading.trades({ accountId: y, limit: 1 })[0].id).toBeGreaterThan(zClose.id);
    for (const id of [x, y, z]) checkIdentity(v, id);
  });

  it("a trade made by the account's own order fires its take-profit after that order: the rest of the position closes", () => {
    const v = venue();
    const u = user(v, 'tplast004');
    open(v, u, 1, '96000.0', '0.500');
    setTpSl(v.exchange, u, 'BTCUSDT', PositionSide.LONG, { price: '96500.0', trigger: LAST }, undefined);
    bot(v, 1, '96500.0', '0.100');
    bot(v, 1, '96400.0', '1.000');
    const r = placeOrder(
      v.exchange,
      u,
      btc({ side: 2, position_side: 1, position_action: 2, price: '96500.0', qty: '0.100', time_in_force: 2 }),
    );
    // the answer is the order's own, as it ended; the take-profit came after it
    expect(r).toMatchObject({ status: OrderStatus.FILLED, filled_qty: '0.100' });
    expect(v.exchange.positions(u)).toEqual([]);
    expect(closeTypeOf(v, u)).toBe(CloseType.TAKE_PROFIT);
    expect(fills(v, u)).toEqual([
      [960_000, 500],
      [965_000, 100],
      [964_000, 400],
    ]);
    expect(v.exchange.openOrders(u)).toEqual([]);
    checkIdentity(v, u);
  });

  it('a short: the stop-loss fires on a trade at or above it, the take-profit on one at or below it', () => {
    const v = venue();
    const s = user(v, 'short0005');
    const t = user(v, 'short0006');
    open(v, s, 2, '96000.0', '0.050');
    open(v, t, 2, '96000.0', '0.050');
    setTpSl(v.exchange, s, 'BTCUSDT', PositionSide.SHORT, undefined, { price: '96300.0', trigger: LAST });
    setTpSl(v.exchange, t, 'BTCUSDT', PositionSide.SHORT, { price: '95700.0', trigger: LAST }, undefined);
    bot(v, 2, '96400.0', '1.000');
    print(v, '96300.0');
    expect(v.exchange.positions(s)).toEqual([]);
    expect(closeTypeOf(v, s)).toBe(CloseType.STOP_LOSS);
    expect(v.exchange.positions(t)).toHaveLength(1);
    bot(v, 2, '95800.0', '1.000'); // the ask t's close meets
    print(v, '95700.0');
    expect(v.exchange.positions(t)).toEqual([]);
    expect(closeTypeOf(v, t)).toBe(CloseType.TAKE_PROFIT);
    checkIdentity(v, s);
    checkIdentity(v, t);
  });

  it("one stop's close trades through the next stop: that one fires too, after it", () => {
    const v = venue();
    const a = user(v, 'cascade01');
    const b = user(v, 'cascade02');
    open(v, a, 1, '96000.0', '0.500');
    open(v, b, 1, '96000.0', '0.010');
    setTpSl(v.exchange, a, 'BTCUSDT', PositionSide.LONG, undefined, { price: '95600.0', trigger: LAST });
    setTpSl(v.exchange, b, 'BTCUSDT', PositionSide.LONG, undefined, { price: '95500.0', trigger: LAST });
    bot(v, 1, '95600.0', '0.010');
    bot(v, 1, '95400.0', '1.000');
    bot(v, 2, '95600.0', '0.002', HOUSE_ACCOUNT + 2, 2); // a house sell takes 0.002 of the bid at 95600
    expect(fills(v, a)).toEqual([
      [960_000, 500],
      [956_000, 8],
      [954_000, 492],
    ]);
    expect(fills(v, b)).toEqual([
      [960_000, 10],
      [954_000, 10],
    ]);
    expect([closeTypeOf(v, a), closeTypeOf(v, b)]).toEqual([CloseType.STOP_LOSS, CloseType.STOP_LOSS]);
    expect(v.trading.trades({ accountId: b, limit: 1 })[0].id).toBeGreaterThan(
      v.trading.trades({ accountId: a, limit: 1 })[0].id,
    );
    checkIdentity(v, a);
    checkIdentity(v, b);
  });

  it('a trigger moved nearer after trades were looked at is watched at its new price; one moved to the mark is not', () => {
    const v = venue();
    const u = user(v, 'tplast009');
    const w = user(v, 'tplast010');
    open(v, u, 1, '96000.0', '0.100');
    open(v, w, 1, '96000.0', '0.100');
    setTpSl(v.exchange, u, 'BTCUSDT', PositionSide.LONG, { price: '97000.0', trigger: LAST }, undefined);
    setTpSl(v.exchange, w, 'BTCUSDT', PositionSide.LONG, { price: '96600.0', trigger: LAST }, undefined);
    setTpSl(v.exchange, w, 'BTCUSDT', PositionSide.LONG, { price: '96600.0', trigger: MARK }, undefined);
    bot(v, 1, '96400.0', '1.000');
    print(v, '96450.0'); // looked at: nothing up to 96450 fires
    expect(v.exchange.positions(u)).toHaveLength(1);
    setTpSl(v.exchange, u, 'BTCUSDT', PositionSide.LONG, { price: '96500.0', trigger: LAST }, undefined);
    print(v, '96500.0');
    expect(v.exchange.positions(u)).toEqual([]);
    expect(closeTypeOf(v, u)).toBe(CloseType.TAKE_PROFIT);
    print(v, '96600.0');
    expect(v.exchange.positions(w)).toHaveLength(1);
    expect(v.exchange.tpsl(w, 'BTCUSDT', PositionSide.LONG).take_profit_price).toBe('96600.0');
  });

  it("a house desk's trades (a replay's prints) fire it once the caller's print is over, never inside it", () => {
    const v = venue();
    const u = user(v, 'tplast008');
    open(v, u, 1, '96000.0', '0.100');
    setTpSl(v.exchange, u, 'BTCUSDT', PositionSide.LONG, { price: '96500.0', trigger: LAST }, undefined);
    bot(v, 1, '96400.0', '1.000');
    const desk = v.exchange.houseDesk('BTCUSDT', { book: HOUSE_ACCOUNT + 11, taker: HOUSE_ACCOUNT + 12 });
    desk.place(2, 965_000, 5, false);
    desk.place(2, 965_010, 5, false);
    expect(desk.take(1, 965_010, 10)).toBe(10); // through the trigger
    expect(v.exchange.positions(u)).toHaveLength(1); // the print may still be under way
    v.exchange.fireTradeTriggers();
    expect(v.exchange.positions(u)).toEqual([]);
    expect(closeTypeOf(v, u)).toBe(CloseType.TAKE_PROFIT);
    checkIdentity(v, u);
  });

  it('a last-price trigger restored after a restart fires on the next trade', () => {
    const dir = dataDir('perpdesk-tpsl-');
    const v1 = venue(dir);
    const u = user(v1, 'tplast007');
    open(v1, u, 1, '96000.0', '0.020');
    setTpSl(v1.exchange, u, 'BTCUSDT', PositionSide.LONG, { price: '96500.0', trigger: LAST }, undefined);
    v1.close(); // stays listed: afterEach awaits its worker before the folder goes

    const v2 = venue(dir);
    bot(v2, 1, '96400.0', '1.000');
    print(v2, '96500.0');
    expect(v2.exchange.positions(u)).toEqual([]);
    expect(closeTypeOf(v2, u)).toBe(CloseType.TAKE_PROFIT);
    checkIdentity(v2, u);
  });
});

describe('last-price take-profit in the simulated market', () => {
  it('with the market standing still (no step), a sweep of the asks up to the trigger fires it at once', () => {
    const tv = testVenue({ seed: 3 });
    try {
      const v = tv.venue;
      const ex = v.exchange;
      const sim = new Simulator({ exchange: ex, clock: v.clock, seed: 3 });
      for (let i = 0; i < 40; i++) sim.step(); // 10 s of market: quotes and prices settle
      const u = user(v, 'simtp0001');
      const taker = user(v, 'simsweep1');
      placeOrder(ex, u, btc({ side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.680' }));
      const pair = ex.pair('BTCUSDT')!;
      // the trigger: an ask level above the mark, at least the second; the sweep takes every ask up to it
      const asks = pair.book.depth(20).asks;
      const k = asks.findIndex(([t], i) => i >= 1 && t * pair.math.tickValue > pair.markPrice);
      expect(k).toBeGreaterThan(0);
      const trigger = pair.math.formatPrice(asks[k][0]);
      const lots = asks.slice(0, k + 1).reduce((n, [, l]) => n + l, 0);
      setTpSl(ex, u, 'BTCUSDT', PositionSide.LONG, { price: trigger, trigger: LAST }, undefined);
      const mark = pair.markPrice;
      const r = placeOrder(
        ex,
        taker,
        btc({
          side: 1,
          position_side: 1,
          position_action: 1,
          qty: pair.math.formatQty(lots),
          price: trigger,
          time_in_force: 2,
        }),
      );
      expect(r.filled_qty).toBe(pair.math.formatQty(lots));
      expect(pair.markPrice).toBe(mark); // no step, no mark
      expect(ex.positions(u)).toEqual([]);
      expect(closeTypeOf(v, u)).toBe(CloseType.TAKE_PROFIT);
      checkIdentity(v, u);
    } finally {
      tv.close();
    }
  });
});
