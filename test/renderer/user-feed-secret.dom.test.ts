// A login whose API key got a new secret (POST /admin/v1/accounts with another api_secret): the
// venue's last `user` push is `logged_out` with code 2004. The screen logs out saying so. Before,
// it took every `logged_out` for a regenerated key and said "This API key was regenerated
// elsewhere (by a bot or in another browser) ... Log in again with the new key", a key that was
// never changed.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { startUserFeed } from '../../src-renderer/src/lib/user-feed.ts';
import { createServiceBack } from '../../src-renderer/src/lib/service-back.ts';
import { createToastsStore } from '../../src-renderer/src/features/toasts/toasts-store.ts';
import { OpenSocket as Socket } from './open-socket.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  Socket.made = [];
});

describe('user feed: the login key got a new secret', () => {
  it('logs out saying the secret was changed, not that the key was regenerated', async () => {
    vi.stubGlobal('WebSocket', Socket);
    const expired: string[] = [];
    const session = createStore(() => ({
      status: 'ready' as 'ready' | 'anonymous',
      apiKey: 'key-1' as string | null,
      apiSecret: 'secret-1' as string | null,
      source: 'session' as string | null,
      actions: {
        expire: (message: string) => {
          expired.push(message);
          session.setState({ status: 'anonymous', apiKey: null, apiSecret: null, source: null });
        },
        adoptStored: () => false,
      },
    }));
    const cleared: string[] = [];
    const lists = (name: string) =>
      createStore(() => ({
        actions: { refresh: async () => {}, reloadSettings: async () => {}, clear: () => cleared.push(name) },
      }));
    const feed = startUserFeed({
      api: {
        timestamp: () => Date.now(),
        myTrades: async () => ({ has_more: false, next_cursor: '', items: [] }),
      } as never,
      wsUrl: 'ws://fake/ws',
      session: session as never,
      symbols: createStore(() => ({ bySymbol: {} })) as never,
      account: lists('account') as never,
      positions: lists('positions') as never,
      orders: lists('orders') as never,
      stops: lists('stops') as never,
      toasts: createToastsStore(),
      onError: () => {},
      serviceBack: createServiceBack(),
    });
    await vi.waitFor(() => expect(feed.state.getState().status).toBe('live'));

    Socket.made[0].push({
      stream: 'user',
      data: { kind: 'logged_out', data: { code: 2004, message: 'LOGIN again, signed with the new secret' } },
    });
    await vi.waitFor(() => expect(expired).toHaveLength(1), { timeout: 10_000 });
    expect(expired[0]).toMatch(/secret was changed elsewhere/);
    expect(expired[0]).not.toMatch(/regenerated/);
    // the account's lists of the login that ended are gone with it
    expect(cleared.sort()).toEqual(['account', 'orders', 'positions', 'stops']);
    expect(feed.state.getState().status).toBe('off');
    feed.stop();
  });
});
