// The top bar's 24 h figures keep up with a market that runs fast (docs/trading-screen.md, Top
// bar): the current pair's ticker is polled every 2 s of wall time, which is 33 minutes of history
// in a replay at 1000x, so its last price ran past the 24 h high shown (47,895.2 under a high of
// 47,698.0). A price push more than a minute of market time after the ticker's answer now asks
// for it again at once, one request at a time, the other pairs' pushes aside. Fake timers: no
// poll runs after the first, so every request counted here is the push's.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTickerFeed } from '../../src-renderer/src/features/topbar/ticker-feed.ts';
import { createTickerStore, type PricePush } from '../../src-renderer/src/features/topbar/ticker-store.ts';
import { createWorkspaceStore } from '../../src-renderer/src/lib/workspace-store.ts';
import type { Ticker24hRecord } from '../../src-shared/types.ts';

const T0 = Date.UTC(2021, 4, 16, 1, 6);

function record(symbol: string, time: number, high: string, last: string): Ticker24hRecord {
  return {
    symbol,
    open_price: '46763.0',
    high_price: high,
    low_price: '46467.0',
    last_price: last,
    price_change: '0.0',
    price_change_percent: '0.000',
    weighted_avg_price: '47000.0',
    volume: '1.000',
    quote_volume: '47000.00000000',
    trade_count: 1,
    open_time: time - 86_400_000,
    close_time: time,
  };
}

function rig() {
  let marketTime = T0;
  const asked: Array<readonly string[] | undefined> = [];
  let release: (() => void) | null = null;
  let hold = false;
  const api = {
    prices: async () => [],
    tickers24h: async (symbols?: readonly string[]) => {
      asked.push(symbols);
      if (hold) await new Promise<void>((r) => (release = r));
      // the venue's answer at its market time: the high has reached the last price
      const high = marketTime > T0 ? '47895.2' : '47698.0';
      return [record('BTCUSDT', marketTime, high, marketTime > T0 ? '47895.2' : '47579.9')];
    },
  };
  const handlers = new Map<string, (d: unknown) => void>();
  const ws = {
    on: (stream: string, h: (d: unknown) => void) => {
      handlers.set(stream, h);
      return () => handlers.delete(stream);
    },
    subscribe: async () => ({}),
    unsubscribe: async () => ({}),
    onOpen: () => () => {},
    subscriptions: [],
  };
  const tickers = createTickerStore();
  const stop = startTickerFeed({
    api: api as never,
    ws: ws as never,
    workspace: createWorkspaceStore({ symbol: 'BTCUSDT' }),
    tickers,
  });
  const push = (symbol: string, time: number): void => {
    marketTime = time;
    const p: PricePush = { E: time, s: symbol, i: '47895.2', m: '47895.2', l: '47895.2', r: '0.0001', T: 0 };
    handlers.get(`price@${symbol}`)?.(p);
  };
  return {
    tickers,
    stop,
    push,
    asked,
    holdAnswers: () => (hold = true),
    answer: () => {
      hold = false;
      release?.();
    },
  };
}

/** Lets the pending promises run (no timer fires: they are faked). */
const settle = async (): Promise<void> => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the current pair's 24 h ticker", () => {
  it('is asked again when a price push comes more than a minute of market time after it', async () => {
    const r = rig();
    await settle();
    // the first polls: the current pair's and every pair's
    expect(r.asked).toEqual([['BTCUSDT'], undefined]);
    expect(r.tickers.getState().tickers.BTCUSDT.day!.high_price).toBe('47698.0');

    r.push('BTCUSDT', T0 + 60_000); // a minute: not stale yet
    await settle();
    expect(r.asked).toHaveLength(2);

    r.push('BTCUSDT', T0 + 20 * 60_000); // 20 minutes of history later (1000x, 1.2 s of wall time)
    await settle();
    expect(r.asked).toEqual([['BTCUSDT'], undefined, ['BTCUSDT']]);
    const day = r.tickers.getState().tickers.BTCUSDT.day!;
    expect([day.high_price, day.last_price, day.close_time]).toEqual(['47895.2', '47895.2', T0 + 20 * 60_000]);
    r.stop();
  });

  it('one request at a time, and not for another pair', async () => {
    const r = rig();
    await settle();
    r.holdAnswers();
    r.push('BTCUSDT', T0 + 10 * 60_000);
    r.push('BTCUSDT', T0 + 11 * 60_000);
    r.push('ETHUSDT', T0 + 12 * 60_000);
    await settle();
    expect(r.asked).toEqual([['BTCUSDT'], undefined, ['BTCUSDT']]);
    r.answer();
    await settle();
    expect(r.tickers.getState().tickers.BTCUSDT.day!.close_time).toBe(T0 + 12 * 60_000);
    r.stop();
  });
});
