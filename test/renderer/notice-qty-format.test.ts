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

interface Case {
  name: string;
  order: OrderRequest;
  result: PlacementResult;
  /** The pair's price and quantity decimals. */
  pd: number;
  qd: number;
  oneWay?: boolean;
  text: string;
}

const cases: Case[] = [
  {
    name: 'a market short of 14,708,927 1000PEPE: grouped, like the fill',
    order: { symbol: '1000PEPEUSDT', side: 2, position_side: 2, position_action: 1, type: 2, qty: '14708927' },
    result: filled('14708927', '197396.74'),
    pd: 7,
    qd: 0,
    text: 'Open short 14,708,927 1000PEPEUSDT: filled 14,708,927 at 0.0134202',
  },
  {
    name: 'a typed 0.05 BTC reads 0.050, with the pair decimals, as the fill does',
    order: { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.05' },
    result: filled('0.050', '4800.37'),
    pd: 1,
    qd: 3,
    text: 'Open long 0.050 BTCUSDT: filled 0.050 at 96,007.4',
  },
  {
    name: 'a one-way sell of 2500 SOL names its side and groups the thousands',
    order: {
      symbol: 'SOLUSDT',
      side: 2,
      position_side: 1,
      position_action: 1,
      type: 1,
      qty: '2500',
      price: '185',
      time_in_force: 1,
    },
    result: { ...filled('0', '0'), status: 1 },
    pd: 2,
    qd: 0,
    oneWay: true,
    text: 'Sell 2,500 SOLUSDT at 185.00: placed',
  },
];

describe('the placement line writes the quantity as the screen does', () => {
  // as [name, case] rows: '%s' prints the whole name ('$name' cuts it at 40 characters)
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, { order, result, pd, qd, oneWay, text }) => {
    expect(placementNotice(order, result, pd, qd, oneWay).text).toBe(text);
  });
});
