// A replay screen whose connection is lost (replay-link.ts): the replay's clock is held at the
// moment it was lost, comes back with the connection, and once the live venue answers while the
// replay does not, the replay is said to have ended (final) and the screen stops reconnecting.
import { describe, expect, it, vi } from 'vitest';
import { createStore } from 'zustand/vanilla';
import type { RestClient } from '../../src-shared/sdk/rest-client.ts';
import type { WsState } from '../../src-shared/sdk/ws-client.ts';
import { watchReplayLink } from '../../src-renderer/src/features/replay/replay-link.ts';
import { createReplayStore, screenNow } from '../../src-renderer/src/features/replay/replay-store.ts';
import type { ReplayStatusView } from '../../src-renderer/src/features/replay/replay-view.ts';

const status = {
  symbols: ['BTCUSDT'],
  start: 0,
  until: 86_400_000,
  time: 1_000_000,
  speed: 60,
  paused: false,
  lockstep: false,
  finished: false,
  live_url: 'http://127.0.0.1:8787',
} as unknown as ReplayStatusView;

function setup(up: Record<string, boolean>) {
  vi.useFakeTimers();
  let wall = 10_000;
  const connection = createStore<{ state: WsState; downSince: number | null }>()(() => ({
    state: 'open',
    downSince: null,
  }));
  const replay = createReplayStore({} as RestClient, () => wall);
  replay.getState().actions.apply(status);
  const onEnded = vi.fn();
  const stop = watchReplayLink({
    connection,
    replay,
    ownUrl: 'http://127.0.0.1:40000',
    probe: async (url) => up[url] ?? false,
    onEnded,
    everyMs: 1000,
  });
  return { connection, replay, onEnded, stop, at: (ms: number) => (wall = ms) };
}

describe('watchReplayLink', () => {
  it('holds the clock while the connection is lost, and lets it run again when it is back', async () => {
    const { connection, replay, onEnded, stop, at } = setup({ 'http://127.0.0.1:40000': true });
    const clock = { marketAt: 0, wallAt: 0, speed: 1, paused: false };
    expect(screenNow(clock, replay.getState(), 11_000)).toBe(1_060_000);
    connection.setState({ state: 'reconnecting', downSince: 11_000 });
    expect(replay.getState()).toMatchObject({ link: 'down', heldAt: 11_000 });
    expect(screenNow(clock, replay.getState(), 30_000)).toBe(1_060_000);
    await vi.advanceTimersByTimeAsync(3000);
    // the replay itself answers: not ended
    expect(replay.getState().link).toBe('down');
    at(31_000);
    connection.setState({ state: 'open', downSince: null });
    expect(replay.getState()).toMatchObject({ link: 'up', heldAt: null });
    expect(onEnded).not.toHaveBeenCalled();
    stop();
    vi.useRealTimers();
  });

  it('ends the replay once the live venue answers and the replay does not', async () => {
    const up: Record<string, boolean> = {};
    const { connection, replay, onEnded, stop } = setup(up);
    connection.setState({ state: 'reconnecting', downSince: 11_000 });
    // the whole service is down: nothing is known yet
    await vi.advanceTimersByTimeAsync(3000);
    expect(replay.getState().link).toBe('down');
    up['http://127.0.0.1:8787'] = true;
    await vi.advanceTimersByTimeAsync(1000);
    expect(replay.getState()).toMatchObject({ link: 'ended', heldAt: 11_000 });
    expect(onEnded).toHaveBeenCalledTimes(1);
    // final: a later state change does not bring it back
    connection.setState({ state: 'closed', downSince: 11_000 });
    await vi.advanceTimersByTimeAsync(3000);
    expect(replay.getState().link).toBe('ended');
    expect(onEnded).toHaveBeenCalledTimes(1);
    stop();
    vi.useRealTimers();
  });
});
