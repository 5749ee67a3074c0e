// A pair's leverage or margin mode changed by another client of the account (a bot, another tab)
// comes as a `setting` push on the user stream, open position or not: the order form's setting
// follows it at once. Before 2026-12-07 a change with nothing open pushed nothing, and the form
// showed the old leverage until its next periodic reload.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { createAccountStore } from '../../src-renderer/src/features/account/account-store.ts';
import { startUserFeed } from '../../src-renderer/src/lib/user-feed.ts';
import { createServiceBack } from '../../src-renderer/src/lib/service-back.ts';
import { createToastsStore } from '../../src-renderer/src/features/toasts/toasts-store.ts';
import { MarginMode } from '../../src-shared/enums.ts';
import type { RestClient } from '../../src-shared/sdk/rest-client.ts';
import { OpenSocket } from './open-socket.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  OpenSocket.made = [];
});

describe('user feed: a setting push', () => {
  it("moves the order form's leverage and margin mode of a pair it shows, and leaves other pairs alone", async () => {
    vi.stubGlobal('WebSocket', OpenSocket);
    const api = {
      timestamp: () => Date.now(),
      myTrades: async () => ({ has_more: false, next_cursor: '', items: [] }),
      leverage: (symbol: string) =>
        Promise.resolve({ symbol, leverage: 20, margin_mode: MarginMode.CROSS, max_leverage: 125 }),
    } as unknown as RestClient;
    const account = createAccountStore(api);
    await account.getState().actions.loadSetting('BTCUSDT');
    const lists = () => createStore(() => ({ actions: { refresh: async () => {}, clear: () => {} } }));
    const feed = startUserFeed({
      api,
      wsUrl: 'ws://fake/ws',
      session: createStore(() => ({
        status: 'ready',
        apiKey: 'key-1',
        apiSecret: 'secret-1',
        source: 'desktop',
      })) as never,
      symbols: createStore(() => ({ bySymbol: {} })) as never,
      account,
      positions: lists() as never,
      orders: lists() as never,
      stops: lists() as never,
      toasts: createToastsStore(),
      onError: () => {},
      serviceBack: createServiceBack(),
    });
    await vi.waitFor(() => expect(feed.state.getState().status).toBe('live'));
    const push = (data: unknown) => OpenSocket.made[0].push({ stream: 'user', data: { kind: 'setting', data } });

    push({ symbol: 'BTCUSDT', leverage: 5, margin_mode: MarginMode.ISOLATED, time: 1 });
    await vi.waitFor(() => expect(account.getState().settings.BTCUSDT?.leverage).toBe(5));
    expect(account.getState().settings.BTCUSDT).toMatchObject({ marginMode: MarginMode.ISOLATED, maxLeverage: 125 });
    // a pair the screen has not loaded is read when it is shown
    push({ symbol: 'ETHUSDT', leverage: 3, margin_mode: MarginMode.CROSS, time: 2 });
    push({ symbol: 'BTCUSDT', leverage: 6, margin_mode: MarginMode.ISOLATED, time: 3 });
    await vi.waitFor(() => expect(account.getState().settings.BTCUSDT?.leverage).toBe(6));
    expect(Object.keys(account.getState().settings)).toEqual(['BTCUSDT']);
    feed.stop();
  });
});
