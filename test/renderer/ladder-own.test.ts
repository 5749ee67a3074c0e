// The ladder's marks of your own resting orders (ladder-levels.ts ownLevels): each side's open
// size per level at the rows' grouping, a buy among the bids rounded down to its group, a sell
// among the asks rounded up, as the book groups its levels; summed exactly; the part filled, other
// pairs, the other side and market orders left out.
import { describe, expect, it } from 'vitest';
import { ownLevels } from '../../src-renderer/src/features/ladder/ladder-levels.ts';
import { OrderType, Side } from '../../src-shared/enums.ts';
import type { OrderRecord } from '../../src-shared/types.ts';

let n = 0;
const order = (side: Side, price: string, qty: string, extra: Partial<OrderRecord> = {}): OrderRecord =>
  ({
    id: String(++n),
    symbol: 'BTCUSDT',
    side,
    type: OrderType.LIMIT,
    status: 1,
    price,
    qty,
    filled_qty: '0',
    ...extra,
  }) as OrderRecord;

describe('ownLevels', () => {
  const orders = [
    order(Side.BUY, '96000.3', '0.1'),
    order(Side.BUY, '96000.7', '0.2', { filled_qty: '0.05' }),
    order(Side.BUY, '95999.9', '0.001'),
    order(Side.SELL, '96001.1', '0.3'),
    order(Side.SELL, '96001.0', '0.7'),
    order(Side.BUY, '96000.3', '5', { symbol: 'ETHUSDT' }),
    order(Side.BUY, '0', '1', { type: OrderType.MARKET }),
  ];

  it('at the tick: a level a price, the open part of each order, summed exactly', () => {
    const more = [...orders, order(Side.BUY, '96000.3', '0.2')];
    expect([...ownLevels(more, 'BTCUSDT', 'bid', '0.1')]).toEqual([
      ['96000.3', '0.3'],
      ['96000.7', '0.15'],
      ['95999.9', '0.001'],
    ]);
    expect([...ownLevels(more, 'BTCUSDT', 'ask', '0.1')]).toEqual([
      ['96001.1', '0.3'],
      ['96001.0', '0.7'],
    ]);
  });

  it('grouped: bids round down and asks up, written at the step as the rows are', () => {
    expect([...ownLevels(orders, 'BTCUSDT', 'bid', '1')]).toEqual([
      ['96000', '0.25'],
      ['95999', '0.001'],
    ]);
    expect([...ownLevels(orders, 'BTCUSDT', 'ask', '1')]).toEqual([
      ['96002', '0.3'],
      ['96001', '0.7'],
    ]);
    expect([...ownLevels(orders, 'BTCUSDT', 'ask', '10')]).toEqual([['96010', '1']]);
  });

  it('nothing before the grouping is known, and nothing of an order filled whole', () => {
    expect(ownLevels(orders, 'BTCUSDT', 'bid', '').size).toBe(0);
    expect(ownLevels([order(Side.BUY, '1.5', '2', { filled_qty: '2' })], 'BTCUSDT', 'bid', '0.1').size).toBe(0);
  });
});
