// The notional cap of the chosen leverage bounds Max and % sizes (worked values: BTCUSDT at
// 125x caps a side at 50 000 USDT), counting the side's position and open orders; and how the
// form learns a leverage's cap from the leverage routes.
import { describe, expect, it } from 'vitest';
import { notionalRoomQty, oneWaySide, sideNotional } from '../../src-renderer/src/features/order-entry/notional-cap.ts';
import { capKey, createNotionalCapsStore } from '../../src-renderer/src/features/order-entry/notional-caps-store.ts';
import { maxOpenQty } from '../../src-renderer/src/features/order-entry/preview.ts';
import { pctQty } from '../../src-renderer/src/features/order-entry/size.ts';

describe('the notional cap of the leverage', () => {
  it('BTCUSDT at 125x (cap 50 000 USDT), 10 000 USDT available at 95 000: Max is the cap, not the margin', () => {
    // by margin alone: 10000 x 125 / (95000 x (1 + 125 x 0.0005)) = 12.3839 BTC
    const byMargin = maxOpenQty(10_000, 95_000, 125, 0.0005);
    expect(byMargin).toBeCloseTo(12.3839, 3);
    // the cap leaves 50000 / 95000 = 0.52631 BTC
    const room = notionalRoomQty(50_000, 0, 95_000);
    expect(room).toBeCloseTo(0.526315, 5);
    expect(pctQty({ pct: 100, base: Math.min(byMargin, room), qtyStep: '0.001', maxQty: '1000' })).toBe('0.526');
    expect(pctQty({ pct: 50, base: Math.min(byMargin, room), qtyStep: '0.001', maxQty: '1000' })).toBe('0.263');
  });

  it("counts the side's position at the mark and its open non-reduce-only orders at their price", () => {
    const positions = [
      { symbol: 'BTCUSDT', position_side: 1 as const, quantity: 0.2, mark_price: 90_000 },
      { symbol: 'BTCUSDT', position_side: 2 as const, quantity: 0.3, mark_price: 90_000 },
      { symbol: 'ETHUSDT', position_side: 1 as const, quantity: 5, mark_price: 3000 },
    ];
    const orders = [
      {
        symbol: 'BTCUSDT',
        position_side: 1 as const,
        position_action: 1 as const,
        price: '94000',
        qty: '0.1',
        filled_qty: '0.05',
      },
      {
        symbol: 'BTCUSDT',
        position_side: 1 as const,
        position_action: 2 as const,
        price: '99000',
        qty: '0.2',
        filled_qty: '0',
      },
      {
        symbol: 'BTCUSDT',
        position_side: 2 as const,
        position_action: 1 as const,
        price: '96000',
        qty: '0.1',
        filled_qty: '0',
      },
    ];
    // long: 0.2 x 95000 (live mark) + 0.05 x 94000 = 19000 + 4700
    const long = sideNotional({ symbol: 'BTCUSDT', positionSide: 1, positions, orders, mark: 95_000 });
    expect(long).toBeCloseTo(23_700, 6);
    // room at 125x for a buy at 95000: (50000 - 23700) / 95000 = 0.27684 BTC
    expect(notionalRoomQty(50_000, long, 95_000)).toBeCloseTo(0.276842, 5);
    // short: 0.3 x 95000 + 0.1 x 96000
    expect(sideNotional({ symbol: 'BTCUSDT', positionSide: 2, positions, orders, mark: 95_000 })).toBeCloseTo(
      38_100,
      6,
    );
    // without a live mark the record's mark counts: 0.2 x 90000 + 4700
    expect(sideNotional({ symbol: 'BTCUSDT', positionSide: 1, positions, orders, mark: undefined })).toBeCloseTo(
      22_700,
      6,
    );
  });

  it('one-way: the net position counts for its own side only, and covers an order against it', () => {
    // a short of 0.4 (a negative quantity on LONG, or side SHORT): sells add to it, buys close it
    for (const p of [
      { symbol: 'BTCUSDT', position_side: 1 as const, quantity: -0.4, mark_price: 100_000 },
      { symbol: 'BTCUSDT', position_side: 2 as const, quantity: 0.4, mark_price: 100_000 },
    ]) {
      const i = { symbol: 'BTCUSDT', positions: [p], orders: [], mark: 100_000 };
      expect(oneWaySide(i, 2)).toEqual({ cover: 0, existing: 40_000 });
      expect(oneWaySide(i, 1)).toEqual({ cover: 0.4, existing: 0 });
    }
  });

  it('one-way: resting orders against the position take it oldest first (by id, not text), closes take none', () => {
    const order = (id: string, side: 1 | 2, price: string, qty: string, action: 1 | 2 = 1) => ({
      id,
      symbol: 'BTCUSDT',
      side,
      position_side: 1 as const,
      position_action: action,
      price,
      qty,
      filled_qty: '0',
    });
    const i = {
      symbol: 'BTCUSDT',
      positions: [{ symbol: 'BTCUSDT', position_side: 1 as const, quantity: 1, mark_price: 99_000 }],
      orders: [
        // newer (10 after 9): covered 0.4 of its 0.6, opens 0.2 x 102,000
        order('10', 2, '102000', '0.6'),
        // older: covered whole
        order('9', 2, '101000', '0.6'),
        // a close never opens and takes no part of the long
        order('4', 2, '100500', '0.5', 2),
        // a buy adds to the long: 0.2 x 99,000
        order('11', 1, '99000', '0.2'),
        // another pair
        { ...order('3', 2, '3000', '5'), symbol: 'ETHUSDT' },
      ],
      mark: 100_000,
    };
    expect(oneWaySide(i, 2).cover).toBe(0);
    expect(oneWaySide(i, 2).existing).toBeCloseTo(20_400, 6);
    expect(oneWaySide(i, 1)).toEqual({ cover: 0, existing: 100_000 + 0.2 * 99_000 });
    // without the older one the long covers 0.4 of a new sell, after the 0.6 resting
    const fewer = { ...i, orders: i.orders.filter((o) => o.id !== '9') };
    expect(oneWaySide(fewer, 2).cover).toBeCloseTo(0.4, 12);
    expect(oneWaySide(fewer, 2).existing).toBe(0);
    // 0.3 + 0.7 against a long of 1 leave nothing, not float noise
    const exact = { ...i, orders: [order('1', 2, '101000', '0.3'), order('2', 2, '101000', '0.7')] };
    expect(oneWaySide(exact, 2)).toEqual({ cover: 0, existing: 0 });
  });

  it('a side at or over its cap has no room; an unknown cap or price caps nothing', () => {
    expect(notionalRoomQty(50_000, 50_000, 95_000)).toBe(0);
    expect(notionalRoomQty(50_000, 61_000, 95_000)).toBe(0);
    expect(notionalRoomQty(undefined, 0, 95_000)).toBe(Infinity);
    expect(notionalRoomQty(50_000, 0, NaN)).toBe(Infinity);
    // never above the cap by float rounding: room x price stays <= cap
    expect(notionalRoomQty(50_000, 12_345.67, 97_531.1) * 97_531.1 + 12_345.67).toBeLessThanOrEqual(50_000);
  });
});

describe('learning the cap of a leverage', () => {
  it('reads max_notional of the GET answer, with no POST', async () => {
    let posts = 0;
    const caps = createNotionalCapsStore({
      leverage: async () => ({
        symbol: 'BTCUSDT',
        leverage: 125,
        margin_mode: 2 as const,
        max_leverage: 125,
        max_notional: '50000',
        brackets: [],
      }),
      setLeverage: async () => (
        posts++,
        {
          symbol: 'BTCUSDT',
          leverage: 125,
          margin_mode: 2 as const,
          max_leverage: 125,
          max_notional: '1',
          brackets: [],
        }
      ),
    });
    await caps.getState().actions.probe('BTCUSDT');
    expect(caps.getState().caps[capKey('BTCUSDT', 125)]).toBe(50_000);
    expect(posts).toBe(0);
  });

  it('a change records the cap its POST answer names; reads and changes run in order', async () => {
    let inForce = 125;
    const caps = createNotionalCapsStore({
      leverage: async () => ({
        symbol: 'BTCUSDT',
        leverage: inForce,
        margin_mode: 2 as const,
        max_leverage: 125,
        max_notional: inForce === 125 ? '50000' : '600000',
        brackets: [],
      }),
      setLeverage: async (_s: string, lev: number) => {
        inForce = lev;
        return {
          symbol: 'BTCUSDT',
          leverage: lev,
          margin_mode: 2 as const,
          max_leverage: 125,
          max_notional: lev === 125 ? '50000' : '600000',
          brackets: [],
        };
      },
    });
    const probe = caps.getState().actions.probe('BTCUSDT');
    const change = caps.getState().actions.setLeverage('BTCUSDT', 100);
    await Promise.all([probe, change]);
    expect(inForce).toBe(100);
    expect(caps.getState().caps).toEqual({ 'BTCUSDT@125': 50_000, 'BTCUSDT@100': 600_000 });
  });
});
