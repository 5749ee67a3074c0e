// A replay venue's connection, as the replay screen reads it. A replay lives in the process of
// the live service that started it and in memory only: when that service stops, the replay is
// gone for good (a restarted service has no replays), and its screen would otherwise say
// "reconnecting" forever while its clock ran on. So, while the connection is lost, the replay's
// clock is held at the moment it was lost, and every `everyMs` the replay and the live venue
// (the status' live_url) are asked whether they answer: once the live venue answers and the
// replay does not, the replay has ended (`onEnded`: the screen stops reconnecting and says so).
// A replay started on its own (--replay, no live_url) only has its clock held.
// No DOM: the probe is injected (the screen's does a fetch), so this is unit-tested under Node.
import type { StoreApi } from 'zustand/vanilla';
import type { WsState } from '../../../../src-shared/sdk/ws-client.ts';
import { marketDown } from '../../lib/connection-status.ts';
import type { ReplayStore } from './replay-store.ts';

/** Whether the service at `url` answers at all (any HTTP answer counts; a refused port does not). */
type Probe = (url: string) => Promise<boolean>;

export interface ReplayLinkOptions {
  connection: StoreApi<{ state: WsState; downSince: number | null }>;
  replay: ReplayStore;
  /** The replay venue's own address. */
  ownUrl: string;
  probe: Probe;
  onEnded(): void;
  everyMs?: number;
  wall?: () => number;
}

export function watchReplayLink(o: ReplayLinkOptions): () => void {
  const everyMs = o.everyMs ?? 2000;
  const wall = o.wall ?? Date.now;
  let timer: ReturnType<typeof setInterval> | null = null;
  let asking = false;
  const stopAsking = (): void => {
    if (timer !== null) clearInterval(timer);
    timer = null;
  };
  const ask = async (): Promise<void> => {
    const live = o.replay.getState().status?.live_url;
    if (asking || !live) return;
    asking = true;
    try {
      const [liveUp, ownUp] = await Promise.all([o.probe(live), o.probe(o.ownUrl)]);
      if (liveUp && !ownUp && o.replay.getState().link === 'down') {
        stopAsking();
        o.replay.getState().actions.ended();
        o.onEnded();
      }
    } finally {
      asking = false;
    }
  };
  const follow = (): void => {
    const r = o.replay.getState();
    if (r.mode !== 'replay' || r.link === 'ended') return;
    const c = o.connection.getState();
    if (marketDown(c.state)) {
      if (r.link !== 'up') return;
      r.actions.linkDown(c.downSince ?? wall());
      timer = setInterval(() => void ask(), everyMs);
    } else if (c.state === 'open' && r.link === 'down') {
      stopAsking();
      r.actions.linkUp();
    }
  };
  const off = o.connection.subscribe(follow);
  follow();
  return () => {
    off();
    stopAsking();
  };
}

/**
 * The screen's probe: whether the venue at `url` takes a WebSocket (`/ws`). A WebSocket, not an
 * HTTP request: the page's content security policy lets it reach another loopback port only so.
 */
export function answers(url: string, timeoutMs = 5000): Promise<boolean> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws').replace(/\/+$/, '')}/ws`);
    const done = (ok: boolean): void => {
      clearTimeout(timer);
      ws.onopen = ws.onerror = ws.onclose = null;
      ws.close();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    ws.onopen = () => done(true);
    ws.onerror = () => done(false);
    ws.onclose = () => done(false);
  });
}
