// A market order larger than the best level walks the book: the venue fills it level by level,
// each at its own price with the taker fee. Its preview's fee, the PnL of what it closes and the
// entry its liquidation price is worked from are of those levels, not of the best price alone.
// Before, all three were at the best price: a 467,602 DOGE market buy that the venue filled from
// 0.32016 to 0.32026 (average 0.3201616, fee 74.854) was previewed with the fee 74.828 and the
// liquidation price 0.30271 where the venue's position read 0.30282.
import { describe, expect, it } from 'vitest';
import type { PositionRecord } from '../../src-shared/types.ts';
import { orderModel, type OrderModelInput } from '../../src-renderer/src/features/order-entry/order-model.ts';
import { bookReach } from '../../src-renderer/src/features/order-entry/book-reach.ts';
import { OrderType, Side } from '../../src-shared/enums.ts';
import { BTC_FUTURES } from './futures-row.ts';

const asks = [
  ['95000.0', '0.100'],
  ['95010.0', '0.200'],
  ['95030.0', '1.000'],
] as const;
const bids = [
  ['94990.0', '0.100'],
  ['94980.0', '0.200'],
  ['94950.0', '1.000'],
] as const;

function input(change: Partial<OrderModelInput> = {}, form: Partial<OrderModelInput['form']> = {}): OrderModelInput {
  return {
    symbol: 'BTCUSDT',
    form: {
      action: 'open',
      type: 2,
      price: '',
      qty: '0.500',
      sizeMode: 'qty',
      pct: 0,
      tif: 1,
      reduceOnly: false,
      ...form,
    },
    futures: BTC_FUTURES,
    summary: { available_balance: '10000', wallet_balance: '10000', position_mode: 'hedge' },
    setting: { leverage: 20, marginMode: 1, maxLeverage: 125 },
    positions: [],
    openOrders: [],
    markOf: () => 94_995,
    bestBid: 94_990,
    bestAsk: 95_000,
    bids,
    asks,
    last: 94_995,
    maxNotional: 1_000_000,
    loggedIn: true,
    positionsLoaded: true,
    ...change,
  };
}

const taker = Number(BTC_FUTURES.taker_fee_rate);

describe('a market order walking several levels', () => {
  it('its fee is the sum of each level it takes at that level price', () => {
    const m = orderModel(input());
    // 0.1 at 95,000, 0.2 at 95,010, 0.2 at 95,030
    expect(m.buy.fee).toBeCloseTo((9_500 + 19_002 + 19_006) * taker, 9);
    expect(m.sell.fee).toBeCloseTo((9_499 + 18_996 + 18_990) * taker, 9);
  });

  it('isolated: the liquidation price is of the average price it fills at, with the margin of those fills', () => {
    const m = orderModel(input());
    const entry = (9_500 + 19_002 + 19_006) / 0.5;
    const margin = (0.5 * entry) / 20;
    // LP = (WB - Q x EP) / (Q x MMR - Q), the first tier's rate
    const mmr = Number(BTC_FUTURES.maintenance_margin_rate);
    expect(m.buy.liquidation).toBeCloseTo((margin - 0.5 * entry) / (0.5 * mmr - 0.5), 6);
  });

  it('one-way: the PnL of the long it closes is at the bids it takes, and past the levels shown at the last', () => {
    const long = {
      symbol: 'BTCUSDT',
      position_side: 1,
      margin_mode: 1,
      quantity: 0.5,
      entry_price: 94_000,
      mark_price: 94_995,
      maintenance_margin_rate: 0.004,
      margin: 2_350,
    } as PositionRecord;
    const oneWay = { available_balance: '7650', wallet_balance: '10000', position_mode: 'one_way' as const };
    const m = orderModel(input({ summary: oneWay, positions: [long] }));
    expect(m.sell.pnl).toBeCloseTo(0.1 * 990 + 0.2 * 980 + 0.2 * 950, 6);
    // a close of 0.5 past the bids shown (0.3): the rest at the last of them, 94,950
    const thin = orderModel(input({ summary: oneWay, positions: [long], bids: bids.slice(0, 2) }));
    expect(thin.sell.pnl).toBeCloseTo(0.1 * 990 + 0.2 * 980 + 0.2 * 980, 6);
  });
});

describe("the book's levels the form hands the preview (book-reach.ts)", () => {
  const form = { type: OrderType.MARKET, stop: false, price: '', qty: '0.500', sizeMode: 'qty' as const, pct: 0 };

  it('a market order with a size: both sides, whatever the best price (it walks them from there)', () => {
    expect(bookReach(form)(Side.BUY, 95_000)).toBe(true);
    expect(bookReach(form)(Side.SELL, 94_990)).toBe(true);
    expect(bookReach({ ...form, qty: '', sizeMode: 'pct', pct: 100 })(Side.BUY, 95_000)).toBe(true);
  });

  it('none without a size, nor for a stop (it meets the book when it fires)', () => {
    expect(bookReach({ ...form, qty: '' })(Side.BUY, 95_000)).toBe(false);
    expect(bookReach({ ...form, stop: true })(Side.SELL, 94_990)).toBe(false);
  });

  it('a limit order: the side its price crosses', () => {
    const limit = bookReach({ ...form, type: OrderType.LIMIT, price: '95,005' });
    expect(limit(Side.BUY, 95_000)).toBe(true);
    expect(limit(Side.SELL, 94_990)).toBe(false);
  });
});
