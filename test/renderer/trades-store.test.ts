import { describe, expect, it } from 'vitest';
import { createTradesStore, MAX_TRADES, type RecentTrade } from '../../src-renderer/src/features/trades/trades-store.ts';

const tr = (id: number): RecentTrade => ({ id, price: 100 + id, qty: 1, time: id * 1000, side: id % 2 === 0 ? 1 : 2 });

describe('recent trades store', () => {
  it('merges the REST seed and the stream by id, newest first, without duplicates', () => {
    const s = createTradesStore();
    s.getState().actions.reset('BTCUSDT');
    s.getState().actions.add([tr(5), tr(6), tr(7)]); // a stream batch arrives first
    s.getState().actions.add([tr(3), tr(4), tr(5), tr(6)]); // then the REST seed, overlapping
    expect(s.getState().trades.map((t) => t.id)).toEqual([7, 6, 5, 4, 3]);
    s.getState().actions.add([tr(7)]);
    expect(s.getState().trades).toHaveLength(5);
  });

  it('keeps at most MAX_TRADES', () => {
    const s = createTradesStore();
    s.getState().actions.reset('ETHUSDT');
    s.getState().actions.add(Array.from({ length: MAX_TRADES + 15 }, (_, i) => tr(i + 1)));
    expect(s.getState().trades).toHaveLength(MAX_TRADES);
    expect(s.getState().trades[0].id).toBe(MAX_TRADES + 15);
  });
});
