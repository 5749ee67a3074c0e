// The order form's line after a placement names the order's quantity as every figure on screen
// shows one (the pair's decimals, thousands grouped), as the fill beside it already was: a
// 100% short of 1000PEPE read "Open short 14708927 1000PEPEUSDT: filled 14,708,927 at
// 0.0134202", and a typed "0.05" BTC read "Open long 0.05 BTCUSDT: filled 0.050 at ...".
import { describe, expect, it } from 'vitest';
import type { OrderRequest, PlacementResult } from '../../src-shared/types.ts';
import { placementNotice } from '../../src-renderer/src/features/order-entry/placement-notice.ts';

const filled = (qty: string, quote: string): PlacementResult => ({
  order_id: '9',
  client_order_id: 'api.9',
  status: 3,
  filled_qty: qty,
  filled_quote: quote,
});

describe('the placement line writes the quantity as the screen does', () => {
  it('a market short of 14,708,927 1000PEPE: grouped, like the fill', () => {
    const order: OrderRequest = {
      symbol: '1000PEPEUSDT',
      side: 2,
      position_side: 2,
      position_action: 1,
      type: 2,
      qty: '14708927',
    };
    const n = placementNotice(order, filled('14708927', '197396.74'), 7, 0);
    expect(n.text).toBe('Open short 14,708,927 1000PEPEUSDT: filled 14,708,927 at 0.0134202');
  });

  it('a typed 0.05 BTC reads 0.050, with the pair decimals, as the fill does', () => {
    const order: OrderRequest = {
      symbol: 'BTCUSDT',
      side: 1,
      position_side: 1,
      position_action: 1,
      type: 2,
      qty: '0.05',
    };
    const n = placementNotice(order, filled('0.050', '4800.37'), 1, 3);
    expect(n.text).toBe('Open long 0.050 BTCUSDT: filled 0.050 at 96,007.4');
  });

  it('a one-way sell of 2500 SOL names its side and groups the thousands', () => {
    const order: OrderRequest = {
      symbol: 'SOLUSDT',
      side: 2,
      position_side: 1,
      position_action: 1,
      type: 1,
      qty: '2500',
      price: '185',
      time_in_force: 1,
    };
    expect(placementNotice(order, { ...filled('0', '0'), status: 1 }, 2, 0, true).text).toBe(
      'Sell 2,500 SOLUSDT: placed',
    );
  });
});
