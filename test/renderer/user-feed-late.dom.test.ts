// The account's user stream of a screen opened (logged in) while the service is down or
// restarting: the LOGIN fails with the WebSocket's first attempt ("LOGIN was not sent: Cannot
// reach the service ..."), and the first connection that opens afterwards is no reconnect. The
// feed logs in then and goes live, instead of staying in that error until a reload.
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

describe('user feed of a screen opened before the service is there', () => {
  it('logs in once the connection opens and goes live', async () => {
    vi.stubGlobal('WebSocket', Socket);
    const lists = () =>
      createStore(() => ({ actions: { refresh: async () => {}, reloadSettings: async () => {}, clear: () => {} } }));
    const serviceBack = createServiceBack();
    const feed = startUserFeed(feedDeps(lists, { serviceBack }));
    Socket.made[0].drop(); // the service is not there
    await vi.waitFor(() => expect(feed.state.getState().status).toBe('error'), { timeout: 20_000 });
    expect(feed.state.getState().error).toMatch(/^LOGIN was not sent: Cannot reach the service/);

    serviceBack.seen(); // it answers again: the socket tries at once
    Socket.made[1].open();
    await vi.waitFor(() => expect(feed.state.getState().status).toBe('live'), { timeout: 20_000 });
    expect(Socket.made[1].sent).toEqual(['LOGIN', 'SUBSCRIBE']);
    feed.stop();
  });
});
