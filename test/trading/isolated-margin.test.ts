// Isolated margin by hand (trading/isolated-margin.ts), worked by hand on the reference's own
// example (exchange.md, "Liquidation price": an isolated long of 1 BTC at 60,000, 20x, margin
// 3,000, tier MMR 0.5 %, cum 50, liquidates at 57,236.18): what an addition and a removal move to
// the unit, the liquidation price they give by the formula, Binance's removal rule, the refusals
// (which change nothing), the history rows and pushes, the accounting identity, and a restart.
import { describe, expect, it } from 'vitest';
import { placeBotOrder, placeOrder, setMarginMode, setPositionMode, setPrices } from '../helpers/exchange-commands.ts';
import { CloseType, MarginChangeType, MarginMode } from '../../src-shared/enums.ts';
import { ApiError } from '../../src-shared/errors.ts';
import type { AccountEvent } from '../../src-main/trading/events.ts';
import { HOUSE_ACCOUNT, type Exchange } from '../../src-main/trading/exchange.ts';
import type { MarginChangeResult } from '../../src-shared/types/position-settings.ts';
import type { LocalVenue as Venue } from '../../src-main/venue.ts';
import { identityHolds, venueKit } from './venues.ts';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const USDT = 100_000_000n;
/** Paper venues (no simulated market, the clock paused) and their folders, closed and removed after each test. */
const kit = venueKit({ wall: T0, balance: 10_000n * USDT, pause: true, simulate: false });
const user = kit.user;
const venue = kit.venue;
const folder = () => kit.dataDir('perpdesk-isomargin-');

/** Opens a position of `qty` BTCUSDT at `price` on `side` (1 long, 2 short) against a house order. */
function open(v: Venue, u: number, side: 1 | 2, price: string, qty: string, positionSide: 1 | 2 = side): void {
  const other = side === 1 ? 2 : 1;
  placeBotOrder(
    v.exchange,
    { symbol: 'BTCUSDT', side: other, position_side: other, position_action: 1, type: 1, price, qty },
    HOUSE_ACCOUNT,
  );
  placeOrder(v.exchange, u, {
    symbol: 'BTCUSDT',
    side,
    position_side: positionSide,
    position_action: 1,
    type: 1,
    price,
    qty,
  });
}

function adjust(ex: Exchange, accountId: number, type: number, amount: bigint, positionSide = 1): MarginChangeResult {
  return ex.execute({ kind: 'adjustMargin', accountId, symbol: 'BTCUSDT', positionSide, type, amount });
}

/** The isolated long of the reference: 1 BTC at 60,000, 20x, margin 3,000 (taker fee 30). */
function referenceLong(v: Venue, key = 'iso0001'): number {
  const u = user(v, key);
  setMarginMode(v.exchange, u, 'BTCUSDT', MarginMode.ISOLATED);
  setPrices(v.exchange, 'BTCUSDT', { mark: 60_000 });
  open(v, u, 1, '60000.0', '1.000');
  return u;
}

/** The stored isolated margin of an account's BTCUSDT position on `side`, units. */
function storedMargin(v: Venue, accountId: number, side = 1): bigint {
  const st = v.db.prepare('SELECT isolated_margin AS m FROM positions WHERE account_id = ? AND side = ?');
  st.setReadBigInts(true);
  return (st.get(accountId, side) as { m: bigint }).m;
}

/** Isolated LP by the reference formula, tier 2 of BTCUSDT (MMR 0.5 %, cum 50), for margin `wb` USDT. */
const longLp = (wb: number, qty = 1, entry = 60_000) => (wb + 50 - qty * entry) / (qty * 0.005 - qty);

function refusal(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('not refused');
}

describe('isolated margin: add', () => {
  it('moves the exact amount from the available balance into the position; the wallet does not move; LP by the formula', () => {
    const v = venue(folder());
    const u = referenceLong(v);
    const ex = v.exchange;
    v.trading.group.commitNow();
    expect(ex.walletOf(u)).toBe(9_970n * USDT);
    expect(storedMargin(v, u)).toBe(3_000n * USDT);
    const [before] = ex.positions(u);
    expect(before.margin).toBe(3000);
    expect(before.liquidation_price).toBe(57_236.2); // 57,236.18 on the tick
    const availableBefore = ex.summary(u).available_balance;
    expect(availableBefore).toBe('6970.00000000');

    const events: AccountEvent[] = [];
    ex.events.on('account', (e) => e.accountId === u && events.push(e));
    const amount = 1_000n * USDT + 12_345_678n; // 1000.12345678
    const r = adjust(ex, u, MarginChangeType.ADD, amount);
    expect(r).toMatchObject({
      symbol: 'BTCUSDT',
      position_side: 1,
      type: 1,
      amount: '1000.12345678',
      margin: '4000.12345678',
    });
    expect(r.position.margin).toBe(4000.12345678);
    expect(r.position.liquidation_price).toBe(Number(longLp(4000.12345678).toFixed(1)));
    expect(r.position.liquidation_price).toBe(56_231.0);
    // the wallet holds the isolated margin already: it stays; the available balance gives the amount
    expect(ex.walletOf(u)).toBe(9_970n * USDT);
    expect(ex.summary(u).available_balance).toBe('5969.87654322');
    expect(ex.summary(u).position_margin).toBe('4000.12345678');
    // nothing is announced before the commit; then the position list, the balance and the change
    expect(events).toEqual([]);
    v.trading.group.commitNow();
    expect(events.map((e) => e.kind)).toEqual(['position', 'balance', 'margin']);
    expect(events[2].data).toEqual({
      symbol: 'BTCUSDT',
      position_side: 1,
      type: 1,
      amount: '1000.12345678',
      margin: '4000.12345678',
      time: T0,
    });
    expect(storedMargin(v, u)).toBe(3_000n * USDT + amount);
    expect(v.accounts.byId(u)!.walletBalance).toBe(9_970n * USDT);
    expect(identityHolds(v, u)).toBe(true);
    expect(v.trading.marginChanges({ accountId: u, limit: 10 })).toEqual([
      {
        id: expect.any(Number),
        accountId: u,
        symbol: 'BTCUSDT',
        positionSide: 1,
        positionId: expect.any(Number),
        type: 1,
        amount,
        margin: 3_000n * USDT + amount,
        time: T0,
      },
    ]);
  });

  it('the added margin holds a mark that liquidates the position without it; liquidation at the new price', () => {
    const v = venue();
    const plain = referenceLong(v, 'iso-plain');
    const added = user(v, 'iso-added');
    setMarginMode(v.exchange, added, 'BTCUSDT', MarginMode.ISOLATED);
    open(v, added, 1, '60000.0', '1.000');
    adjust(v.exchange, added, MarginChangeType.ADD, 1_000n * USDT);
    expect(v.exchange.positions(added)[0].liquidation_price).toBe(Number(longLp(4000).toFixed(1)));
    // 57,000: below 57,236.18, above 56,231.16
    setPrices(v.exchange, 'BTCUSDT', { mark: 57_000 });
    expect(v.exchange.positions(plain)).toEqual([]);
    expect(v.exchange.positions(added)).toHaveLength(1);
    setPrices(v.exchange, 'BTCUSDT', { mark: 56_240 });
    expect(v.exchange.positions(added)).toHaveLength(1);
    setPrices(v.exchange, 'BTCUSDT', { mark: 56_230 });
    expect(v.exchange.positions(added)).toEqual([]);
    v.trading.group.commitNow();
    expect(identityHolds(v, added)).toBe(true);
    expect(identityHolds(v, plain)).toBe(true);
  });

  it("the reference's prices exactly: the long liquidates below 57,236.18 and not above, the short above 62,736.32; both at their bankruptcy prices 57,000 and 63,000", () => {
    const v = venue();
    const long = referenceLong(v, 'iso-ref-l');
    const short = user(v, 'iso-ref-s');
    setMarginMode(v.exchange, short, 'BTCUSDT', MarginMode.ISOLATED);
    open(v, short, 2, '60000.0', '1.000');
    const notes: Array<Record<string, unknown>> = [];
    v.exchange.events.on('account', (e: AccountEvent) => {
      if (e.kind === 'liquidation') notes.push({ accountId: e.accountId, ...(e.data as object) });
    });
    // shown on the 0.1 tick (the nearest)
    expect(v.exchange.positions(long)).toMatchObject([{ margin: 3000, liquidation_price: 57_236.2 }]);
    expect(v.exchange.positions(short)).toMatchObject([{ margin: 3000, liquidation_price: 62_736.3 }]);
    const fund = v.exchange.insuranceFund();
    // tier 2 (MMR 0.5 %, cum 50) at both: at 57,236.2 the long's equity 3,000 - 2,763.8 = 236.2 is
    // above its maintenance 57,236.2 x 0.5 % - 50 = 236.181; at 57,236.1 (236.1 < 236.1805) it goes
    setPrices(v.exchange, 'BTCUSDT', { mark: 57_236.2 });
    expect(v.exchange.positions(long)).toHaveLength(1);
    setPrices(v.exchange, 'BTCUSDT', { mark: 57_236.1 });
    expect(v.exchange.positions(long)).toEqual([]);
    // the short: at 62,736.3 equity 263.7 > 263.6815; at 62,736.4 equity 263.6 <= 263.682
    setPrices(v.exchange, 'BTCUSDT', { mark: 62_736.3 });
    expect(v.exchange.positions(short)).toHaveLength(1);
    setPrices(v.exchange, 'BTCUSDT', { mark: 62_736.4 });
    expect(v.exchange.positions(short)).toEqual([]);
    v.trading.group.commitNow();
    // no book: each closes whole at its bankruptcy price EP - s x WB / Q = 60,000 -/+ 3,000, losing
    // its margin exactly, against the fund, which marks them: + (57,236.1 - 57,000) + (63,000 - 62,736.4)
    expect(notes).toMatchObject([
      { accountId: long, quantity: 1, bankruptcy_price: '57000.00000000', liquidation_fee: '0.00000000' },
      { accountId: short, quantity: 1, bankruptcy_price: '63000.00000000', liquidation_fee: '0.00000000' },
    ]);
    for (const u of [long, short]) {
      expect(v.trading.closedPositions({ accountId: u, limit: 1 })).toMatchObject([
        { closeType: CloseType.BANKRUPTCY, realizedPnl: -3_000n * USDT },
      ]);
      expect(identityHolds(v, u)).toBe(true);
    }
    expect(v.exchange.insuranceFund()).toBe(fund + 236_10_000_000n + 263_60_000_000n);
  });

  it('at most the available balance: one unit more is 3009 and changes nothing', () => {
    const v = venue();
    const u = referenceLong(v);
    const ex = v.exchange;
    const all = 6_970n * USDT;
    const e = refusal(() => adjust(ex, u, MarginChangeType.ADD, all + 1n));
    expect(e.code).toBe(3009);
    expect(e.message).toContain('6970.00000000 USDT available');
    expect(ex.positions(u)[0].margin).toBe(3000);
    expect(v.trading.marginChanges({ accountId: u, limit: 10 })).toEqual([]);
    expect(adjust(ex, u, MarginChangeType.ADD, all).margin).toBe('9970.00000000');
    expect(ex.summary(u).available_balance).toBe('0.00000000');
  });
});

describe('isolated margin: remove', () => {
  it('down to the initial margin at the mark, less any unrealized loss (Binance); profit stays in the position', () => {
    const v = venue();
    const u = referenceLong(v);
    const ex = v.exchange;
    adjust(ex, u, MarginChangeType.ADD, 1_000n * USDT);
    expect(ex.isolatedMargin(u, 'BTCUSDT', 1)).toEqual({
      symbol: 'BTCUSDT',
      position_side: 1,
      margin: '4000.00000000',
      initial_margin: '3000.00000000',
      max_add: '5970.00000000',
      max_remove: '1000.00000000',
    });
    // a loss of 1,000 at 59,000: 4,000 - 1,000 - 2,950
    setPrices(ex, 'BTCUSDT', { mark: 59_000 });
    expect(ex.isolatedMargin(u, 'BTCUSDT', 1).max_remove).toBe('50.00000000');
    // a profit of 1,000 at 61,000 is not removable: 4,000 - 3,050
    setPrices(ex, 'BTCUSDT', { mark: 61_000 });
    expect(ex.isolatedMargin(u, 'BTCUSDT', 1).max_remove).toBe('950.00000000');
    const e = refusal(() => adjust(ex, u, MarginChangeType.REDUCE, 950n * USDT + 1n));
    expect(e.code).toBe(3025);
    expect(e.message).toContain('At most 950.00000000 USDT can be removed');
    expect(e.message).toContain('initial margin 3050.00000000 USDT');

    const walletBefore = ex.walletOf(u);
    const availableBefore = ex.summary(u).available_balance;
    const r = adjust(ex, u, MarginChangeType.REDUCE, 950n * USDT);
    expect(r.margin).toBe('3050.00000000');
    expect(r.position.liquidation_price).toBe(Number(longLp(3050).toFixed(1)));
    expect(ex.walletOf(u)).toBe(walletBefore);
    expect(Number(ex.summary(u).available_balance) - Number(availableBefore)).toBeCloseTo(950, 8);
    expect(ex.isolatedMargin(u, 'BTCUSDT', 1).max_remove).toBe('0.00000000');
    // not liquidatable: the same mark again leaves it open
    setPrices(ex, 'BTCUSDT', { mark: 61_000 });
    expect(ex.positions(u)).toHaveLength(1);
    v.trading.group.commitNow();
    expect(identityHolds(v, u)).toBe(true);
    expect(v.trading.marginChanges({ accountId: u, limit: 10 }).map((c) => [c.type, c.amount, c.margin])).toEqual([
      [2, 950n * USDT, 3_050n * USDT],
      [1, 1_000n * USDT, 4_000n * USDT],
    ]);
  });

  it('nothing from a position at its initial margin (the margin it opened with)', () => {
    const v = venue();
    const u = referenceLong(v);
    const e = refusal(() => adjust(v.exchange, u, MarginChangeType.REDUCE, 1n));
    expect(e.code).toBe(3025);
    expect(e.message).toContain('At most 0.00000000 USDT');
  });
});

describe('isolated margin: which position, and refusals', () => {
  it('hedge mode: each side on its own; a short by the formula too', () => {
    const v = venue();
    const u = referenceLong(v);
    open(v, u, 2, '60000.0', '1.000');
    const ex = v.exchange;
    const r = adjust(ex, u, MarginChangeType.ADD, 500n * USDT, 2);
    expect(r.position_side).toBe(2);
    expect(r.margin).toBe('3500.00000000');
    const [long, short] = ex.positions(u);
    expect(long.margin).toBe(3000);
    expect(short.margin).toBe(3500);
    // short: LP = (WB + cum + Q x EP) / (Q x MMR + Q)
    expect(short.liquidation_price).toBe(Number(((3500 + 50 + 60_000) / 1.005).toFixed(1)));
  });

  it('one-way mode: the net position, whichever side it is on (a short named with position_side 1)', () => {
    const v = venue();
    const u = user(v, 'iso-oneway');
    setPositionMode(v.exchange, u, 'one_way');
    setMarginMode(v.exchange, u, 'BTCUSDT', MarginMode.ISOLATED);
    setPrices(v.exchange, 'BTCUSDT', { mark: 60_000 });
    open(v, u, 2, '60000.0', '1.000', 1);
    expect(v.exchange.positions(u)[0].position_side).toBe(2);
    const r = adjust(v.exchange, u, MarginChangeType.ADD, 250n * USDT, 1);
    expect(r).toMatchObject({ position_side: 2, margin: '3250.00000000' });
  });

  it('refusals change nothing: no position 1103, cross 3024, bad type or amount 1001', () => {
    const v = venue();
    const ex = v.exchange;
    const u = referenceLong(v);
    const cross = user(v, 'iso-cross');
    setPrices(ex, 'BTCUSDT', { mark: 60_000 });
    open(v, cross, 1, '60000.0', '0.100');
    v.trading.group.commitNow();
    const events: AccountEvent[] = [];
    ex.events.on('account', (e) => events.push(e));
    const before = JSON.stringify([ex.positions(u), ex.summary(u), ex.positions(cross), ex.summary(cross)]);
    const cases: Array<[() => unknown, number, string]> = [
      [() => adjust(ex, u, MarginChangeType.ADD, USDT, 2), 1103, 'No open short position on BTCUSDT'],
      [() => adjust(ex, cross, MarginChangeType.ADD, USDT), 3024, 'cross margin'],
      [() => adjust(ex, cross, MarginChangeType.REDUCE, USDT), 3024, 'cross margin'],
      // the check names the parameter (ApiError.param); REST words it "Invalid body parameter 'type'"
      [() => adjust(ex, u, 3, USDT), 1001, 'type must be 1 (add) or 2 (remove)'],
      [() => adjust(ex, u, MarginChangeType.ADD, 0n), 1001, 'greater than 0'],
      [() => adjust(ex, u, MarginChangeType.REDUCE, -USDT), 1001, 'greater than 0'],
      [
        () =>
          ex.execute({ kind: 'adjustMargin', accountId: u, symbol: 'NOPEUSDT', positionSide: 1, type: 1, amount: 1n }),
        1101,
        'NOPEUSDT',
      ],
    ];
    for (const [fn, code, text] of cases) {
      const e = refusal(fn);
      expect([e.code, e.message], text).toEqual([code, expect.stringContaining(text)]);
    }
    v.trading.group.commitNow();
    expect(JSON.stringify([ex.positions(u), ex.summary(u), ex.positions(cross), ex.summary(cross)])).toBe(before);
    expect(events).toEqual([]);
    expect(v.trading.marginChanges({ accountId: u, limit: 10 })).toEqual([]);
    expect(v.trading.marginChanges({ accountId: cross, limit: 10 })).toEqual([]);
  });
});

describe('isolated margin: durability', () => {
  it('a restart restores the margin, the liquidation price and the history; the identity holds', async () => {
    const dir = folder();
    let v = venue(dir);
    const u = referenceLong(v);
    adjust(v.exchange, u, MarginChangeType.ADD, 1_234_56_789_012n);
    adjust(v.exchange, u, MarginChangeType.REDUCE, 34_56_789_012n);
    v.trading.group.commitNow();
    const positions = v.exchange.positions(u);
    expect(positions[0].margin).toBe(4200);
    await v.close(); // stays listed: closing again after the test does nothing

    v = venue(dir);
    setPrices(v.exchange, 'BTCUSDT', { mark: 60_000 });
    expect(v.exchange.positions(u)).toEqual(positions);
    expect(storedMargin(v, u)).toBe(4_200n * USDT);
    expect(v.exchange.isolatedMargin(u, 'BTCUSDT', 1).max_remove).toBe('1200.00000000');
    expect(v.trading.marginChanges({ accountId: u, limit: 10 }).map((c) => c.margin)).toEqual([
      4_200n * USDT,
      4_234_56_789_012n,
    ]);
    expect(identityHolds(v, u)).toBe(true);
  });
});
