// What the user feed's DOM-free tests start it with: a logged-in session, no pairs, the given
// account lists, no fills over REST and a fake socket address; a test overrides what it watches.
import { createStore } from 'zustand/vanilla';
import type { startUserFeed } from '../../src-renderer/src/lib/user-feed.ts';
import { createServiceBack } from '../../src-renderer/src/lib/service-back.ts';
import { createToastsStore } from '../../src-renderer/src/features/toasts/toasts-store.ts';

type FeedDeps = Parameters<typeof startUserFeed>[0];

/** The feed's dependencies, each list made by `lists` (the account's, positions', orders', stops'), with `over` in place. */
export function feedDeps(lists: () => unknown, over: Partial<FeedDeps> = {}): FeedDeps {
  return {
    api: {
      timestamp: () => Date.now(),
      myTrades: async () => ({ has_more: false, next_cursor: '', items: [] }),
    } as never,
    wsUrl: 'ws://fake/ws',
    session: createStore(() => ({
      status: 'ready',
      apiKey: 'key-1',
      apiSecret: 'secret-1',
      source: 'desktop',
    })) as never,
    symbols: createStore(() => ({ bySymbol: {} })) as never,
    account: lists() as never,
    positions: lists() as never,
    orders: lists() as never,
    stops: lists() as never,
    toasts: createToastsStore(),
    onError: () => {},
    serviceBack: createServiceBack(),
    ...over,
  };
}
