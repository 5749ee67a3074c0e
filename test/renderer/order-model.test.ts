// The order form's trading math (order-model.ts), worked by hand: what each side would send and
// its Max (margin, notional cap, max_qty, step), the preview each side shows, Close with and
// without a position to close, and the request a click builds or the form's reason to refuse.
import { describe, expect, it } from 'vitest';
import type { PositionRecord } from '../../src-shared/types.ts';
import { orderModel, type OrderModelInput } from '../../src-renderer/src/features/order-entry/order-model.ts';
import { fmt } from '../../src-renderer/src/lib/format.ts';
import { BTC_FUTURES } from './futures-row.ts';

const futures = BTC_FUTURES;

function input(change: Partial<OrderModelInput> = {}, form: Partial<OrderModelInput['form']> = {}): OrderModelInput {
  return {
    symbol: 'BTCUSDT',
    form: { action: 'open', type: 2, price: '', qty: '', sizeMode: 'qty', pct: 0, tif: 1, reduceOnly: false, ...form },
    futures,
    summary: { available_balance: '10000', wallet_balance: '10000', position_mode: 'hedge' },
    setting: { leverage: 125, marginMode: 2, maxLeverage: 125 },
    positions: [],
    openOrders: [],
    markOf: () => 95_000,
    bestBid: 94_990,
    bestAsk: 95_000,
    last: 94_995,
    maxNotional: 50_000,
    loggedIn: true,
    positionsLoaded: true,
    ...change,
  };
}

const position = (side: 1 | 2, quantity: number, entry: number): PositionRecord =>
  ({
    symbol: 'BTCUSDT',
    position_side: side,
    margin_mode: 2,
    quantity,
    entry_price: entry,
    mark_price: 95_000,
    maintenance_margin_rate: 0.004,
    margin: 500,
  }) as PositionRecord;

describe('Max and % sizes', () => {
  it('a market open at 125x is capped by the notional cap (50 000 / (95 000 x 1.002) = 0.525 BTC), not by the margin (12.38 BTC)', () => {
    // a market order is valued at the mark, with MARKET_MAX_HEADROOM for it to rise on the way
    const m = orderModel(input());
    expect(m.buy.max).toBe(0.525);
    expect(m.sell.max).toBe(0.525);
  });

  it('without a known cap the margin decides: 10 000 x 10 / (95 000 x 1.002 x 1.005) = 1.0453 BTC, floored to the step', () => {
    const m = orderModel(input({ maxNotional: undefined, setting: { leverage: 10, marginMode: 2, maxLeverage: 125 } }));
    expect(m.buy.max).toBe(1.045);
  });

  it('50% sends half of what each side could open, on the step; max_qty caps it', () => {
    const m = orderModel(input({}, { sizeMode: 'pct', pct: 50 }));
    expect(m.buy.qty).toBe('0.262');
    const capped = orderModel(input({}, { sizeMode: 'pct', pct: 100 }));
    expect(capped.buy.qty).toBe('0.525');
    const small = orderModel(input({ futures: { ...futures, max_qty: '0.1' } }, { sizeMode: 'pct', pct: 100 }));
    expect(small.buy.qty).toBe('0.100');
    expect(small.buy.max).toBe(0.1);
  });

  it('a view-only screen (no account) shows no Max and no % size: not 0 with every size over it', () => {
    const m = orderModel(input({ loggedIn: false, positionsLoaded: false, summary: undefined }, { qty: '0.050' }));
    expect(fmt(m.buy.max, 3)).toBe('—');
    expect(fmt(m.sell.max, 3)).toBe('—');
    const pct = orderModel(
      input({ loggedIn: false, positionsLoaded: false, summary: undefined }, { sizeMode: 'pct', pct: 50 }),
    );
    expect(pct.buy.qty).toBe('');
  });

  it('a limit price that is not a number gives no Max either: not 0 (the cover alone in one-way) with the size over it', () => {
    // one-way, a short of 0.010 against a buy: the screen said "Max 0.010 BTC" on Buy and "Max 0.000 BTC · size over",
    // red, on Sell while the price read "abc", as if the margin were gone
    const short = {
      summary: { available_balance: '10000', wallet_balance: '10000', position_mode: 'one_way' as const },
    };
    const m = orderModel(
      input({ ...short, positions: [position(2, 0.01, 96_000)] }, { type: 1, price: 'abc', qty: '0.001' }),
    );
    expect(fmt(m.buy.max, 3)).toBe('—');
    expect(fmt(m.sell.max, 3)).toBe('—');
    // the price said under its field, and on send
    expect(orderModel(input({}, { type: 1, price: 'abc', qty: '0.001' })).order(1)).toMatchObject({ field: 'price' });
    // a price typed again values it: Max is back
    expect(orderModel(input({}, { type: 1, price: '95000', qty: '0.001' })).sell.max).toBeGreaterThan(0);
  });
});

describe('preview', () => {
  it('a limit buy of 0.010 at 90 000 (below the ask: maker): fee 900 x 0.0002, cost held 900 / 125 + 900 x 0.0005', () => {
    const m = orderModel(input({}, { type: 1, price: '90,000', qty: '0.010' }));
    expect(m.buy.margin).toBeCloseTo(7.2, 9);
    expect(m.buy.fee).toBeCloseTo(0.18, 9);
    // the venue holds the taker fee while the order is open (api.md)
    expect(m.buy.cost).toBeCloseTo(7.65, 9);
    // the same price sells below the bid: a taker, filled at the bid, 94,990 (the book's levels
    // not given: its best price), 949.9 x 0.0005, not at its limit (900 x 0.0005 = 0.45)
    expect(m.sell.fee).toBeCloseTo(0.47495, 9);
  });

  it('a limit sell crossing the bid pays the taker fee at the bids it takes, not at its limit (0.0920 shown, 0.0959 charged)', () => {
    // the tester's order: 0.002 at 92,000 with the best bid 95,916.0
    const bids = [
      ['95916.0', '0.500'],
      ['95915.9', '1.000'],
    ] as const;
    const m = orderModel(
      input({ bestBid: 95_916, bestAsk: 95_916.1, bids }, { type: 1, price: '92000', qty: '0.002' }),
    );
    expect(m.sell.fee).toBeCloseTo(0.002 * 95_916 * 0.0005, 9);
    expect(fmt(m.sell.fee, 4)).toBe('0.0959');
    // the venue freezes an open limit's margin at its own price
    expect(m.sell.margin).toBeCloseTo((0.002 * 92_000) / 125, 9);
  });

  it('a limit crossing more than the best level: each level at its price as a taker, the rest resting at its limit as a maker', () => {
    const asks = [
      ['95000', '0.003'],
      ['95005', '0.002'],
      ['95020', '1.000'],
    ] as const;
    const bids = [
      ['94990', '0.004'],
      ['94980', '0.010'],
    ] as const;
    const m = orderModel(input({ asks, bids }, { type: 1, price: '95,010', qty: '0.010' }));
    // a buy at 95,010: 0.003 at 95,000 and 0.002 at 95,005 taken, 0.005 rests at 95,010 (95,020 is past it)
    expect(m.buy.fee).toBeCloseTo(0.003 * 95_000 * 0.0005 + 0.002 * 95_005 * 0.0005 + 0.005 * 95_010 * 0.0002, 9);
    // a sell at 94,000: 0.004 at 94,990, 0.006 at 94,980, all taken
    const s = orderModel(input({ asks, bids }, { type: 1, price: '94000', qty: '0.010' }));
    expect(s.sell.fee).toBeCloseTo(0.004 * 94_990 * 0.0005 + 0.006 * 94_980 * 0.0005, 9);
    // (a buy at 94,000 rests: the maker fee at its price)
    expect(s.buy.fee).toBeCloseTo(0.01 * 94_000 * 0.0002, 9);
  });

  it('an IOC limit pays no fee on what the book leaves (it expires, never rests), and none when it crosses nothing', () => {
    const asks = [
      ['95000', '0.003'],
      ['95005', '0.002'],
      ['95020', '1.000'],
    ] as const;
    const m = orderModel(input({ asks }, { type: 1, price: '95,010', qty: '0.010', tif: 2 }));
    // 0.003 at 95,000 and 0.002 at 95,005 taken; the 0.005 left at 95,010 expires (GTC charged it 0.0950 as a maker)
    expect(m.buy.fee).toBeCloseTo(0.003 * 95_000 * 0.0005 + 0.002 * 95_005 * 0.0005, 9);
    expect(fmt(m.buy.fee, 4)).toBe('0.2375');
    // a sell at 95,010 is above the best bid: nothing fills, all of it expires
    expect(m.sell.fee).toBe(0);
    // a market order is no IOC limit: its taker fee stands
    const market = orderModel(input({ asks }, { type: 2, qty: '0.010', tif: 2 }));
    expect(market.buy.fee).toBeGreaterThan(0);
  });

  it('a post-only buy at 96,500 over the ask 95,000 pays no taker fee (0.4750 shown) and is said to take; the venue refuses it (3022)', () => {
    const asks = [['95000', '1.000']] as const;
    const m = orderModel(input({ asks }, { type: 1, price: '96500', qty: '0.010', tif: 4 }));
    // never a taker: what it would pay resting at its limit, the maker fee
    expect(m.buy.fee).toBeCloseTo(0.01 * 96_500 * 0.0002, 9);
    expect(m.postOnlyTakes).toEqual({ side: 1, best: 95_000 });
    // the sell at 96,500 rests above the ask: fine
    expect(m.sell.fee).toBeCloseTo(0.01 * 96_500 * 0.0002, 9);
    // a sell at the best bid would take too; one between the bid and the ask rests; GTC says nothing
    expect(orderModel(input({}, { type: 1, price: '94990', qty: '0.010', tif: 4 })).postOnlyTakes).toEqual({
      side: 2,
      best: 94_990,
    });
    expect(orderModel(input({}, { type: 1, price: '94995', qty: '0.010', tif: 4 })).postOnlyTakes).toBeNull();
    expect(orderModel(input({}, { type: 1, price: '96500', qty: '0.010', tif: 1 })).postOnlyTakes).toBeNull();
  });

  it('a fill-or-kill buy of 0.010 at 95,010 that the book fills only 0.005 of is said short (the venue refuses it, 3023)', () => {
    const asks = [
      ['95000', '0.003'],
      ['95005', '0.002'],
      ['95020', '1.000'],
    ] as const;
    const m = orderModel(input({ asks }, { type: 1, price: '95010', qty: '0.010', tif: 3 }));
    expect(m.buy.fokFills).toBeCloseTo(0.005, 9);
    // the sell at 95,010 is above the best bid 94,990: nothing fills
    expect(m.sell.fokFills).toBe(0);
    // 0.005 fills whole; GTC is not held to it; levels that end before the price say nothing
    expect(orderModel(input({ asks }, { type: 1, price: '95010', qty: '0.005', tif: 3 })).buy.fokFills).toBeNaN();
    expect(orderModel(input({ asks }, { type: 1, price: '95010', qty: '0.010', tif: 1 })).buy.fokFills).toBeNaN();
    const shallow = asks.slice(0, 2);
    expect(
      orderModel(input({ asks: shallow }, { type: 1, price: '95010', qty: '0.010', tif: 3 })).buy.fokFills,
    ).toBeNaN();
  });

  it('a limit order with no price estimates nothing (it would not be sent at the market price), and Max still reads the market', () => {
    const m = orderModel(input({}, { type: 1, price: '', qty: '0.010' }));
    expect(m.priceIn.kind).toBe('empty');
    // shown as '—': a cost of 0.00 for an order of 0.010 BTC was a wrong figure
    expect(m.buy.cost).toBeNaN();
    expect(m.buy.margin).toBeNaN();
    expect(m.buy.fee).toBeNaN();
    expect(fmt(m.sell.cost, 2)).toBe('—');
    expect(Number.isNaN(m.buy.liquidation)).toBe(true);
    expect(m.buy.max).toBeGreaterThan(0);
    // at the ask, as a limit buy there would be
    expect(m.buy.max).toBe(orderModel(input({}, { type: 1, price: '95000', qty: '0.010' })).buy.max);
  });

  it('a limit price that is not a number estimates nothing (never the market price in its place)', () => {
    const m = orderModel(input({}, { type: 1, price: '9o000', qty: '0.010' }));
    expect(m.priceIn.kind).toBe('invalid');
    expect(m.buy.cost).toBeNaN();
    expect(Number.isNaN(m.buy.liquidation)).toBe(true);
  });

  it('closing half of a long bought at 90 000 at a market price of 94 990 (the bid) earns 0.5 x 4 990', () => {
    const m = orderModel(input({ positions: [position(1, 1, 90_000)] }, { action: 'close', qty: '0.5' }));
    expect(m.sell.label).toBe('Close long');
    expect(m.sell.pnl).toBeCloseTo(2495, 6);
    expect(m.sell.max).toBe(1);
  });

  it('hedge mode, cross: a long opened beside a short is solved with it, the short not held at the mark', () => {
    // short 0.3 @ 96,000; market buy 1 at the ask 95,000 (taker fee 47.5): WB = 10,000 - 47.5, and
    // LP = (9,952.5 - 95,000 + 0.3 x 96,000) / (0.004 + 0.3 x 0.004 - 1 + 0.3) = 80,954.95
    // (the short held at the mark 95,000, +300 PnL and 114 maintenance, gave 85,202.31)
    const m = orderModel(input({ positions: [position(2, 0.3, 96_000)] }, { qty: '1.000' }));
    expect(m.buy.liquidation).toBeCloseTo(80_954.951, 2);
  });
});

describe('Close', () => {
  it('a side with no position to close is disabled and says so; with none at all both are', () => {
    const m = orderModel(input({ positions: [position(1, 1, 90_000)] }, { action: 'close', qty: '0.5' }));
    expect(m.sell.nothingToClose).toBeNull();
    expect(m.buy.nothingToClose).toBe('No short to close');
    expect(m.order(1)).toEqual({ ok: false, error: 'No short to close.' });
    const none = orderModel(input({}, { action: 'close', qty: '0.5' }));
    expect([none.buy.nothingToClose, none.sell.nothingToClose]).toEqual(['No short to close', 'No long to close']);
  });

  it('a side with nothing to close estimates nothing: no quantity, fee, PnL or cost (it showed a fee of 0.5 x 95 000 x 0.0005)', () => {
    const m = orderModel(input({ positions: [position(1, 1, 90_000)] }, { action: 'close', qty: '0.5' }));
    expect(m.buy.qty).toBe('');
    expect([m.buy.notional, m.buy.fee, m.buy.cost, m.buy.pnl, m.buy.trimmedTo]).toEqual([NaN, NaN, NaN, NaN, NaN]);
    expect(m.buy.max).toBe(0);
    // the side with a position to close keeps its figures
    expect(m.sell.qty).toBe('0.5');
    expect(m.sell.fee).toBeCloseTo(0.5 * 94_990 * 0.0005, 9);
    // in % mode too
    const pct = orderModel(
      input({ positions: [position(1, 1, 90_000)] }, { action: 'close', sizeMode: 'pct', pct: 50 }),
    );
    expect([pct.buy.qty, pct.buy.fee]).toEqual(['', NaN]);
    expect(pct.sell.qty).toBe('0.500');
  });

  it('before the positions are loaded nothing is called missing', () => {
    const m = orderModel(input({ positionsLoaded: false }, { action: 'close', qty: '0.5' }));
    expect(m.buy.nothingToClose).toBeNull();
  });

  it('a one-way short (position_side 2, positive quantity) is closed by a buy on side 1', () => {
    const oneWay = { available_balance: '10000', wallet_balance: '10000', position_mode: 'one_way' as const };
    const m = orderModel(
      input({ summary: oneWay, positions: [position(2, 0.3, 96_000)] }, { action: 'close', qty: '0.3' }),
    );
    expect(m.buy.nothingToClose).toBeNull();
    expect(m.buy.max).toBe(0.3);
    expect(m.order(1)).toEqual({
      ok: true,
      order: { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 2, type: 2, qty: '0.3' },
    });
  });
});

describe('the request a click sends', () => {
  it('a hedge-mode limit sell open: price without separators, time in force; no leverage or margin mode (the venue has them)', () => {
    const m = orderModel(input({}, { type: 1, price: '96,000.5', qty: '0.010', tif: 4 }));
    expect(m.order(2)).toEqual({
      ok: true,
      order: {
        symbol: 'BTCUSDT',
        side: 2,
        position_side: 2,
        position_action: 1,
        type: 1,
        qty: '0.010',
        price: '96000.5',
        time_in_force: 4,
      },
    });
  });

  it('names a one-way open by its side (it may reduce, close or flip the net position), a hedge open by its direction', () => {
    const oneWay = { available_balance: '10000', wallet_balance: '10000', position_mode: 'one_way' as const };
    const ow = orderModel(input({ summary: oneWay, positions: [position(1, 0.02, 96_000)] }, { qty: '0.030' }));
    expect([ow.buy.label, ow.sell.label]).toEqual(['Buy / Long', 'Sell / Short']);
    const hedge = orderModel(input({}, { qty: '0.030' }));
    expect([hedge.buy.label, hedge.sell.label]).toEqual(['Open long', 'Open short']);
    const close = orderModel(input({ summary: oneWay, positions: [position(1, 0.02, 96_000)] }, { action: 'close' }));
    expect([close.buy.label, close.sell.label]).toEqual(['Close short', 'Close long']);
  });

  it('one-way, isolated 125x, long 0.02 at 96,000: a market sell of 0.03 closes it and is margined for the 0.01 it opens', () => {
    const oneWay = { available_balance: '10000', wallet_balance: '10000', position_mode: 'one_way' as const };
    const isolated = { leverage: 125, marginMode: 1 as const, maxLeverage: 125 };
    const long = [position(1, 0.02, 96_000)];
    const m = orderModel(input({ summary: oneWay, setting: isolated, positions: long }, { qty: '0.030' }));
    // at the mark, 95,000, where the venue margins a market order (it fills at the bid, 94,990):
    // margin 950 / 125, held with the taker fee of 950 (was 2,850 / 125 + fee)
    expect(m.sell.margin).toBeCloseTo(7.6, 9);
    expect(m.sell.cost).toBeCloseTo(7.6 + 0.475, 9);
    // the fee is the whole order's
    expect(m.sell.fee).toBeCloseTo(1.42485, 9);
    // the long's PnL: (94,990 - 96,000) x 0.02
    expect(m.sell.pnl).toBeCloseTo(-20.2, 9);
    // the short of 0.01 it flips to, backed by its margin: (7.5992 + 949.9) / (0.01 x 0.004 + 0.01)
    expect(m.sell.liquidation).toBeCloseTo(95_368.446, 2);
    // 0.005: costs nothing, leaves a long of 0.015 with 3/4 of its 500 margin:
    // (375 - 0.015 x 96,000) / (0.015 x 0.004 - 0.015)
    const part = orderModel(input({ summary: oneWay, setting: isolated, positions: long }, { qty: '0.005' }));
    expect(part.sell.cost).toBe(0);
    expect(part.sell.pnl).toBeCloseTo(-5.05, 9);
    expect(part.sell.liquidation).toBeCloseTo(71_285.141, 2);
    // the whole long: nothing left to liquidate
    const all = orderModel(input({ summary: oneWay, setting: isolated, positions: long }, { qty: '0.020' }));
    expect([all.sell.cost, all.sell.liquidation]).toEqual([0, NaN]);
    // a buy adds to the long as before: the position's own margin and the order's
    expect(m.buy.cost).toBeCloseTo((0.03 * 95_000) / 125 + 0.03 * 95_000 * 0.0005, 9);
    expect(m.buy.pnl).toBeNaN();
  });

  it('one-way reduce-only: Max is the position against the side, and nothing is margined', () => {
    const oneWay = { available_balance: '10000', wallet_balance: '10000', position_mode: 'one_way' as const };
    const m = orderModel(
      input({ summary: oneWay, positions: [position(1, 0.02, 96_000)] }, { qty: '0.010', reduceOnly: true }),
    );
    expect([m.sell.max, m.sell.cost]).toEqual([0.02, 0]);
    // a buy would not reduce the long (the venue refuses it): the side says so, sends and estimates nothing
    expect([m.buy.max, m.buy.cost, m.buy.fee]).toEqual([0, NaN, NaN]);
    expect(m.buy.nothingToClose).toBe('No short to reduce');
    expect(m.order(1)).toEqual({ ok: false, error: 'No short to reduce.' });
    expect(m.sell.nothingToClose).toBeNull();
    // without reduce-only the buy adds to the long
    const plain = orderModel(input({ summary: oneWay, positions: [position(1, 0.02, 96_000)] }, { qty: '0.010' }));
    expect(plain.buy.nothingToClose).toBeNull();
  });

  it('reduce-only is sent only by a one-way open (hedge mode refuses it, 3010)', () => {
    const oneWay = { available_balance: '10000', wallet_balance: '10000', position_mode: 'one_way' as const };
    const short = [position(2, 0.02, 96_000)];
    const ow = orderModel(input({ summary: oneWay, positions: short }, { qty: '0.010', reduceOnly: true })).order(1);
    expect(ow.ok && ow.order.reduce_only).toBe(true);
    // sent as a close: the order record, which has no reduce_only, then shows it never opens
    expect(ow.ok && ow.order.position_action).toBe(2);
    const hedge = orderModel(input({}, { qty: '0.010', reduceOnly: true })).order(1);
    expect(hedge.ok && hedge.order.reduce_only).toBeUndefined();
  });

  it('refuses locally what the API could not explain better: no price, a price or size that is not a number, no size', () => {
    expect(orderModel(input({}, { type: 1, qty: '1' })).order(1)).toEqual({
      ok: false,
      error: 'Enter a limit price (or click a price in the order book).',
      field: 'price',
    });
    expect(orderModel(input({}, { type: 1, price: 'abc', qty: '1' })).order(1)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Price "abc" is not a number/),
      field: 'price',
    });
    expect(orderModel(input({}, { type: 1, price: '0', qty: '1' })).order(1)).toEqual({
      ok: false,
      error: 'Enter a limit price above 0.',
      field: 'price',
    });
    expect(orderModel(input({}, { qty: '1..2' })).order(1)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Size "1..2" is not a number/),
    });
    expect(orderModel(input()).order(1)).toEqual({ ok: false, error: 'Enter a size.' });
    // a minus sign or a zero: a number, but never a price or size
    for (const price of ['-5', '−5', '-0.1']) {
      expect(orderModel(input({}, { type: 1, price, qty: '1' })).order(1)).toEqual({
        ok: false,
        error: 'Enter a limit price above 0.',
        field: 'price',
      });
    }
    for (const qty of ['0', '0.000']) {
      expect(orderModel(input({}, { qty })).order(2)).toEqual({ ok: false, error: 'Size must be above 0.' });
    }
    expect(orderModel(input({}, { qty: '-1' })).order(2)).toEqual({
      ok: false,
      error: 'Size must be above 0: the buttons choose buy or sell.',
    });
    expect(orderModel(input({}, { qty: '-' })).order(1)).toMatchObject({
      error: expect.stringMatching(/^Size "-" is not a number/),
    });
    // no margin: Max is 0, and no percentage of it (100% neither) is a size: raising it would not help
    const broke = { available_balance: '0', wallet_balance: '0', position_mode: 'hedge' as const };
    for (const pct of [50, 100]) {
      expect(orderModel(input({ summary: broke }, { sizeMode: 'pct', pct })).order(1)).toEqual({
        ok: false,
        error: 'Max is 0 on this side: no percentage of it is a size to send.',
      });
    }
    // a Max of some steps, a percentage too small for one of them: raising it helps
    const little = { available_balance: '10', wallet_balance: '10', position_mode: 'hedge' as const };
    expect(orderModel(input({ summary: little }, { sizeMode: 'pct', pct: 1 })).order(1)).toEqual({
      ok: false,
      error: 'The percentage gives no whole quantity step: raise it.',
    });
  });

  it("before the setting is loaded the form shows 20x, cross, and sends neither (an order takes the venue's setting)", () => {
    const m = orderModel(input({ setting: undefined }, { qty: '0.010' }));
    expect([m.leverage, m.marginMode, m.maxLeverage]).toEqual([20, 2, 125]);
    const r = m.order(1);
    expect(r.ok && ['leverage' in r.order, 'margin_mode' in r.order]).toEqual([false, false]);
    // nor once it is: the form's copy may be older than the venue's (another client changed it)
    const isolated = orderModel(
      input({ setting: { leverage: 3, marginMode: 1, maxLeverage: 125 } }, { qty: '0.010' }),
    ).order(2);
    expect(isolated.ok && ['leverage' in isolated.order, 'margin_mode' in isolated.order]).toEqual([false, false]);
  });
});
