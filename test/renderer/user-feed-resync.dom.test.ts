// The account's user stream after a reconnect (the service restarted, or the network dropped): events
// sent while it was down are lost, so the lists are read again over REST, and the history views
// (order, trade, position and stop history) must reload too. Before, they were not told: a bot's
// fills while the service restarted were in no history tab until the account's next order or fill.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { startUserFeed } from '../../src-renderer/src/lib/user-feed.ts';
import { createServiceBack } from '../../src-renderer/src/lib/service-back.ts';
import { ManualSocket as Socket } from './open-socket.ts';
import { feedDeps } from './user-feed-deps.dom.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  Socket.made.length = 0; // (the class is shared with other files: each test counts its own sockets)
});

describe('user feed after a reconnect', () => {
  it('tells the history views to reload (fills, orders and stops bumped)', async () => {
    vi.stubGlobal('WebSocket', Socket);
    let refreshes = 0;
    const lists = () =>
      createStore(() => ({
        actions: { refresh: async () => void refreshes++, reloadSettings: async () => {}, clear: () => {} },
      }));
    const serviceBack = createServiceBack();
    const feed = startUserFeed(feedDeps(lists, { serviceBack }));
    Socket.made[0].open();
    await vi.waitFor(() => expect(feed.state.getState().status).toBe('live'), { timeout: 20_000 });
    const before = feed.state.getState();
    expect([before.fills, before.orders, before.stops]).toEqual([0, 0, 0]); // the first login: nothing missed

    Socket.made[0].drop(); // the service restarts
    await vi.waitFor(() => expect(feed.state.getState().status).toBe('connecting'), { timeout: 20_000 });
    serviceBack.seen(); // it answers again: the socket tries at once
    Socket.made[1].open();
    await vi.waitFor(() => expect(feed.state.getState().status).toBe('live'), { timeout: 20_000 });
    const after = feed.state.getState();
    expect([after.fills, after.orders, after.stops]).toEqual([1, 1, 1]);
    await vi.waitFor(() => expect(refreshes).toBeGreaterThan(4), { timeout: 20_000 }); // the lists read again too
    feed.stop();
  });
});
