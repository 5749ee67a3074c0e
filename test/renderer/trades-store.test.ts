import { describe, expect, it } from 'vitest';
import {
  createTradesStore,
  MAX_TRADES,
  type RecentTrade,
} from '../../src-renderer/src/features/trades/trades-store.ts';

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

describe('trades feed', () => {
  it('reads only the newest MAX_TRADES of a big batch: the tape and the last price are those of the newest trades', async () => {
    const { startTradesFeed } = await import('../../src-renderer/src/features/trades/trades-feed.ts');
    const { createWorkspaceStore } = await import('../../src-renderer/src/lib/workspace-store.ts');
    const { createTickerStore } = await import('../../src-renderer/src/features/topbar/ticker-store.ts');
    const handlers = new Map<string, (data: unknown) => void>();
    const ws = {
      on: (stream: string, fn: (data: unknown) => void) => (handlers.set(stream, fn), () => handlers.delete(stream)),
      subscribe: async () => ({}),
      unsubscribe: async () => ({}),
      onOpen: () => () => {},
      subscriptions: [],
      onReconnect: () => () => {},
    };
    const store = createTradesStore();
    const tickers = createTickerStore();
    const stop = startTradesFeed({
      ws: ws as never,
      workspace: createWorkspaceStore({ symbol: 'BTCUSDT' }),
      store,
      tickers,
    });
    try {
      // 100 ms of a fast market in one push, oldest first, then a second push in the same frame
      const push = (from: number, n: number) =>
        Array.from({ length: n }, (_, i) => ({
          s: 'BTCUSDT',
          t: from + i,
          p: String(50_000 + from + i),
          q: '0.001',
          T: from + i,
          S: (i % 2) + 1,
        }));
      handlers.get('trade@BTCUSDT')!(push(1, 5000));
      handlers.get('trade@BTCUSDT')!(push(5001, 30));
      await new Promise((r) => setTimeout(r, 50));
      const ids = store.getState().trades.map((t) => t.id);
      expect(ids).toHaveLength(MAX_TRADES);
      expect(ids[0]).toBe(5030);
      expect(ids).toEqual(Array.from({ length: MAX_TRADES }, (_, i) => 5030 - i));
      expect(tickers.getState().tickers.BTCUSDT.last).toBe(55_030);
    } finally {
      stop();
    }
  });
});

describe('trades feed after a reconnect', () => {
  it('starts the tape over from REST recent trades: a venue restarted on a fresh data folder (ids from 1) shows its trades', async () => {
    const { startTradesFeed } = await import('../../src-renderer/src/features/trades/trades-feed.ts');
    const { createWorkspaceStore } = await import('../../src-renderer/src/lib/workspace-store.ts');
    const { createTickerStore } = await import('../../src-renderer/src/features/topbar/ticker-store.ts');
    const handlers = new Map<string, (data: unknown) => void>();
    const reconnected = new Set<() => void>();
    const ws = {
      on: (stream: string, fn: (data: unknown) => void) => (handlers.set(stream, fn), () => handlers.delete(stream)),
      subscribe: async () => ({}),
      unsubscribe: async () => ({}),
      onOpen: () => () => {},
      subscriptions: [],
      onReconnect: (fn: () => void) => (reconnected.add(fn), () => reconnected.delete(fn)),
    };
    // the venue's recent trades over REST, newest first: the old venue's 1001-1060, then the new one's 1-3
    let venue = Array.from({ length: MAX_TRADES }, (_, i) => 1060 - i);
    const api = {
      recentTrades: async (_symbol: string, limit: number) =>
        venue
          .slice(0, limit)
          .map((id) => ({ id: String(id), price: String(100 + id), qty: '1', time: id, taker_side: 1 })),
    };
    const store = createTradesStore();
    const frame = () => new Promise((r) => setTimeout(r, 50));
    const stop = startTradesFeed({
      api: api as never,
      ws: ws as never,
      workspace: createWorkspaceStore({ symbol: 'BTCUSDT' }),
      store,
      tickers: createTickerStore(),
    });
    try {
      await frame();
      expect(store.getState().trades[0].id).toBe(1060);
      // the service goes away and comes back on a fresh data folder: its ids start from 1 again
      venue = [3, 2, 1];
      for (const fn of reconnected) fn();
      handlers.get('trade@BTCUSDT')!([{ s: 'BTCUSDT', t: 4, p: '104', q: '1', T: 4, S: 1 }]);
      await frame();
      expect(store.getState().trades.map((t) => t.id)).toEqual([4, 3, 2, 1]);
      expect(store.getState().trades[0].price).toBe(104);
    } finally {
      stop();
    }
  });
});
