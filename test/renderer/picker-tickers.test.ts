// The pair picker's 24 h change and volume are the venue's figures of now (docs/trading-screen.md,
// pair picker): every pair's 24 h ticker was asked every 30 s only, so a picker opened showed figures
// up to 30 s old, 5 hours of market at 600x (SOLUSDT -6.908% where GET /fapi/v1/ticker/24hr
// answered -3.450%, on a paused market). Every pair's is now asked at once when the picker opens and
// every 2 s while it is open, one request at a time; closed, every 30 s again. Fake timers: the
// polls run only when the test moves the clock.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTickerFeed } from '../../src-renderer/src/features/topbar/ticker-feed.ts';
import { createTickerStore } from '../../src-renderer/src/features/topbar/ticker-store.ts';
import { createWorkspaceStore } from '../../src-renderer/src/lib/workspace-store.ts';
import type { Ticker24hRecord } from '../../src-shared/types.ts';

function record(symbol: string, percent: string): Ticker24hRecord {
  return {
    symbol,
    open_price: '190.00',
    high_price: '200.00',
    low_price: '180.00',
    last_price: '186.36',
    price_change: '-6.64',
    price_change_percent: percent,
    weighted_avg_price: '188.00',
    volume: '1.00',
    quote_volume: '188.00000000',
    trade_count: 1,
    open_time: 0,
    close_time: 86_400_000,
  };
}

function rig() {
  let percent = '-6.908';
  let hold = false;
  let release: (() => void) | null = null;
  const asked: Array<readonly string[] | undefined> = [];
  const api = {
    prices: async () => [],
    tickers24h: async (symbols?: readonly string[]) => {
      asked.push(symbols);
      if (hold && symbols === undefined) await new Promise<void>((r) => (release = r));
      return (symbols ?? ['SOLUSDT']).map((x) => record(x, percent));
    },
  };
  const ws = {
    on: () => () => {},
    subscribe: async () => ({}),
    unsubscribe: async () => ({}),
    onOpen: () => () => {},
    subscriptions: [],
  };
  const workspace = createWorkspaceStore({ symbol: 'BTCUSDT' });
  const tickers = createTickerStore();
  const stop = startTickerFeed({ api: api as never, ws: ws as never, workspace, tickers });
  return {
    workspace,
    stop,
    /** How many requests for every pair's ticker were made. */
    allAsked: () => asked.filter((x) => x === undefined).length,
    percent: () => tickers.getState().tickers.SOLUSDT?.day?.price_change_percent,
    venueSays: (p: string) => (percent = p),
    holdAnswers: () => (hold = true),
    answer: () => {
      hold = false;
      release?.();
    },
  };
}

const settle = async (): Promise<void> => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("every pair's 24 h ticker, for the pair picker", () => {
  it('is asked at once when the picker opens, and every 2 s while it is open', async () => {
    const r = rig();
    await settle();
    expect(r.allAsked()).toBe(1);
    r.venueSays('-3.450');
    await vi.advanceTimersByTimeAsync(2000);
    expect(r.allAsked()).toBe(1); // closed: every 30 s
    expect(r.percent()).toBe('-6.908');

    r.workspace.getState().actions.open('symbols');
    await settle();
    expect(r.allAsked()).toBe(2);
    expect(r.percent()).toBe('-3.450');

    r.venueSays('-3.100');
    await vi.advanceTimersByTimeAsync(2000);
    expect(r.allAsked()).toBe(3);
    expect(r.percent()).toBe('-3.100');

    r.workspace.getState().actions.close();
    await vi.advanceTimersByTimeAsync(4000);
    expect(r.allAsked()).toBe(3);
    await vi.advanceTimersByTimeAsync(26_000);
    expect(r.allAsked()).toBe(4);
    r.stop();
  });

  it('one request at a time', async () => {
    const r = rig();
    await settle();
    r.holdAnswers();
    r.workspace.getState().actions.open('symbols');
    await settle();
    expect(r.allAsked()).toBe(2);
    await vi.advanceTimersByTimeAsync(6000);
    expect(r.allAsked()).toBe(2);
    r.answer();
    await settle();
    await vi.advanceTimersByTimeAsync(2000);
    expect(r.allAsked()).toBe(3);
    r.stop();
  });
});
