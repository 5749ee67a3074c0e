// The top bar's 24 h figures come from the venue's ticker service through the public API the
// bots use (GET /api/v1/ticker/24h via the SDK), as exact decimal texts: the ticker feed runs
// against the real application (Fastify inject as the SDK's fetch) on a day of trades whose
// window (ending 10:07:30) is not on a 15-minute boundary, where a rebuild from 15-minute
// candles (what the screen did before) shows another change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RestClient } from '../../src-shared/sdk/rest-client.ts';
import { Ticker24hService } from '../../src-main/market/ticker-24h.ts';
import { startTickerFeed } from '../../src-renderer/src/features/topbar/ticker-feed.ts';
import {
  change24,
  change24Text,
  createTickerStore,
  grouped,
  type TickerState,
} from '../../src-renderer/src/features/topbar/ticker-store.ts';
import { createWorkspaceStore } from '../../src-renderer/src/lib/workspace-store.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';
import { cross24h, TICKER_DAY, type TickerDay } from '../helpers/ticker-day.ts';
import type { StoreApi } from 'zustand/vanilla';

let t: TestApp;
let day: TickerDay;
const clock = { now: 0 };

/** The SDK's fetch answered by the application itself. */
function injectFetch(app: TestApp['app']): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const u = new URL(String(input));
    const r = await app.inject({ method: (init?.method ?? 'GET') as 'GET', url: u.pathname + u.search });
    return new Response(r.body, {
      status: r.statusCode,
      headers: { 'content-type': String(r.headers['content-type'] ?? '') },
    });
  }) as typeof fetch;
}

const ws = {
  on: () => () => {},
  subscribe: async () => ({}),
  unsubscribe: async () => ({}),
  onOpen: () => () => {},
  subscriptions: [],
};

/** Runs the screen's ticker feed until `done` holds for the store (at most 5 s). */
async function feed(symbol: string, done: (s: TickerState) => boolean): Promise<StoreApi<TickerState>> {
  const tickers = createTickerStore();
  const api = new RestClient({ baseUrl: 'http://127.0.0.1:1', fetch: injectFetch(t.app) });
  const stop = startTickerFeed({ api, ws: ws as never, workspace: createWorkspaceStore({ symbol }), tickers });
  try {
    for (let i = 0; i < 500 && !done(tickers.getState()); i++) await new Promise((r) => setTimeout(r, 10));
  } finally {
    stop();
  }
  return tickers;
}

beforeAll(async () => {
  clock.now = TICKER_DAY.start;
  t = await makeApp({ wall: () => clock.now });
  day = cross24h(t.venue, clock);
});
afterAll(() => t.close());

describe("the top bar's 24 h figures", () => {
  it("are the ticker service's texts exactly, where a 15-minute rebuild differs", async () => {
    const tickers = await feed('BTCUSDT', (s) => s.tickers.BTCUSDT?.day != null);
    const shown = tickers.getState().tickers.BTCUSDT;
    const service = new Ticker24hService(t.venue.klines, t.venue.recentTrades).ticker(
      t.venue.exchange.pair('BTCUSDT')!,
      day.now,
    );
    expect(change24Text(shown)).toEqual({ price: `+${service.change}`, percent: `+${service.changePercent}%` });
    expect(change24Text(shown)).toEqual({ price: '+500.0', percent: '+0.521%' });
    expect(shown.day).toMatchObject({
      high_price: service.high,
      low_price: service.low,
      quote_volume: service.quoteVolume,
      volume: service.volume,
    });
    expect([grouped(shown.day!.high_price), grouped(shown.day!.low_price)]).toEqual(['96,500.0', '95,900.0']);
    expect(change24(shown)).toBeCloseTo(0.00521, 12);

    // what the screen showed before: the last 96 15-minute candles, open of the oldest (10:15
    // yesterday, the 95900.0 trade) -> +600.0; the day's figures must not be that
    const candles = t.venue.klines.klines('BTCUSDT', '15m', { limit: 96 });
    const rebuilt = Number(service.last) - Number(candles[candles.length - 1][2]);
    expect(rebuilt).toBe(600);
    expect(change24Text(shown).price).not.toBe(`+${rebuilt.toFixed(1)}`);
  });

  it('every pair gets its ticker (the picker); a pair without trades shows no change', async () => {
    const tickers = await feed('BTCUSDT', (s) => s.tickers.ETHUSDT?.day != null);
    const eth = tickers.getState().tickers.ETHUSDT;
    expect(eth.day!.trade_count).toBe(0);
    expect(change24(eth)).toBe(0);
    expect(change24Text(eth).percent).toBe('0.000%');
  });

  it('until the first answer nothing is shown', () => {
    expect(change24Text(undefined)).toEqual({ price: '—', percent: '—' });
    expect(change24(undefined)).toBeNaN();
  });

  it('groups thousands without touching a digit', () => {
    expect(grouped('-1234567.891')).toBe('-1,234,567.891');
    expect(grouped('999.5')).toBe('999.5');
    expect(grouped('0.00000001')).toBe('0.00000001');
  });
});
