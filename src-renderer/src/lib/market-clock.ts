// The venue's market clock as seen from the screen. The simulator's clock may run faster than
// the wall clock (speed) or stand still (paused), so countdowns such as the next funding use
// market time: the last answer of GET /fapi/v1/time projected forward at its speed.
import { createStore } from 'zustand/vanilla';
import type { RestClient } from '../../../src-shared/sdk/rest-client.ts';

export interface MarketClockState {
  /** Market time at `wallAt`, ms; 0 before the first sync. */
  marketAt: number;
  wallAt: number;
  speed: number;
  paused: boolean;
  actions: {
    sync(): Promise<void>;
  };
}

export function createMarketClock(api: RestClient, wall: () => number = Date.now) {
  return createStore<MarketClockState>()((set) => ({
    marketAt: 0,
    wallAt: 0,
    speed: 1,
    paused: false,
    actions: {
      async sync() {
        const t0 = wall();
        const t = await api.time();
        const t1 = wall();
        const mid = (t0 + t1) / 2;
        api.timeOffsetMs = Math.round(t.server_time - mid);
        set({ marketAt: t.market_time, wallAt: mid, speed: t.speed, paused: t.paused });
      },
    },
  }));
}

/** Market time now, ms (wall time before the first sync). */
export function marketNow(
  s: Pick<MarketClockState, 'marketAt' | 'wallAt' | 'speed' | 'paused'>,
  wall = Date.now(),
): number {
  if (s.marketAt === 0) return wall;
  return s.paused ? s.marketAt : s.marketAt + (wall - s.wallAt) * s.speed;
}
