// A market order is margined at the mark (api.md, Order rules: "a market order at the mark"),
// not at the book price it then fills at. The form's cost of a market open is the venue's, and its
// Max and % sizes are valued at the mark with room for the mark to rise before the order arrives
// (MARKET_MAX_HEADROOM): a market sell's Max measured at a bid below the mark was more than the
// venue accepts, so "100%" was refused with 3009 ("Order needs 9993.76 USDT of margin and fees;
// available is 9993.68 USDT").
import { describe, expect, it } from 'vitest';
import {
  MARKET_MAX_HEADROOM,
  orderModel,
  type OrderModelInput,
} from '../../src-renderer/src/features/order-entry/order-model.ts';
import { BTC_FUTURES } from './futures-row.ts';

const futures = BTC_FUTURES;

const MARK = 95_000;
const AVAILABLE = 10_000;
const LEVERAGE = 20;

function input(form: Partial<OrderModelInput['form']>, book: { bid: number; ask: number }): OrderModelInput {
  return {
    symbol: 'BTCUSDT',
    form: { action: 'open', type: 2, price: '', qty: '', sizeMode: 'qty', pct: 0, tif: 1, reduceOnly: false, ...form },
    futures,
    summary: { available_balance: String(AVAILABLE), wallet_balance: String(AVAILABLE), position_mode: 'hedge' },
    setting: { leverage: LEVERAGE, marginMode: 2, maxLeverage: 125 },
    positions: [],
    openOrders: [],
    markOf: () => MARK,
    bestBid: book.bid,
    bestAsk: book.ask,
    last: book.bid,
    maxNotional: undefined,
    loggedIn: true,
    positionsLoaded: true,
  };
}

/** What the venue freezes for a market open of `qty` (ledger.ts orderMargin) at `mark`. */
const venueFreezes = (qty: number, mark = MARK): number => (qty * mark) / LEVERAGE + qty * mark * 0.0005;
/** The mark when the order arrives, risen by a little less than the headroom. */
const RISEN = MARK * (1 + MARKET_MAX_HEADROOM * 0.99);

describe('a market open is sized and costed at the mark, as the venue margins it', () => {
  // the book below the mark: the bid 94,900, the ask 94,910
  const low = { bid: 94_900, ask: 94_910 };

  it('Max of a market sell with the bid below the mark: 10,000 x 20 / (95,000 x 1.002 x 1.01) = 2.0803, floored to 2.080 (not 2.086 at the bid)', () => {
    const m = orderModel(input({}, low));
    expect(m.sell.max).toBe(2.08);
    expect(m.buy.max).toBe(2.08);
    expect(venueFreezes(m.sell.max)).toBeLessThanOrEqual(AVAILABLE);
  });

  it('100% of Max is a quantity the venue accepts, also when the mark has risen a little on the way', () => {
    const m = orderModel(input({ sizeMode: 'pct', pct: 100 }, low));
    expect(m.sell.qty).toBe('2.080');
    for (const qty of [m.sell.qty, m.buy.qty]) {
      expect(venueFreezes(Number(qty))).toBeLessThanOrEqual(AVAILABLE);
      expect(venueFreezes(Number(qty), RISEN)).toBeLessThanOrEqual(AVAILABLE);
    }
  });

  it('the cost of a market sell of 1 BTC is what the venue holds, 95,000 / 20 + 47.5; the fee is of the fill at the bid', () => {
    const m = orderModel(input({ qty: '1' }, low));
    expect(m.sell.margin).toBeCloseTo(4750, 9);
    expect(m.sell.cost).toBeCloseTo(4797.5, 9);
    expect(m.sell.fee).toBeCloseTo(47.45, 9);
  });

  it('a limit order is still margined at its own price', () => {
    const m = orderModel(input({ type: 1, price: '90000', qty: '1' }, low));
    expect(m.buy.margin).toBeCloseTo(4500, 9);
    expect(m.buy.cost).toBeCloseTo(4545, 9);
  });
});
