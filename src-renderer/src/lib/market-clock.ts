// The venue's market clock as seen from the screen. The simulator's clock may run faster than
// the wall clock (speed) or stand still (paused), so countdowns such as the next funding use
// market time: the last answer of GET /fapi/v1/time projected forward at its speed. While the
// service cannot be reached (a sync that failed) it stands still where it was, as the venue's
// clock does while the service is down, until a sync answers again (before, the funding countdown
// ran on through an outage and jumped back on reconnect: 82 s after a 75 s outage).
import { createStore } from 'zustand/vanilla';
import type { RestClient } from '../../../src-shared/sdk/rest-client.ts';

export interface MarketClockState {
  /** Market time at `wallAt`, ms; 0 before the first sync. */
  marketAt: number;
  wallAt: number;
  speed: number;
  paused: boolean;
  /** The last sync failed: market time stands at `marketAt` until one answers. */
  held: boolean;
  actions: {
    sync(): Promise<void>;
  };
}

export function createMarketClock(api: RestClient, wall: () => number = Date.now) {
  return createStore<MarketClockState>()((set, get) => ({
    marketAt: 0,
    wallAt: 0,
    speed: 1,
    paused: false,
    held: false,
    actions: {
      async sync() {
        const t0 = wall();
        let t;
        try {
          t = await api.time();
        } catch (err) {
          // held where it stood when the service was last reached (the first failed sync)
          const s = get();
          if (!s.held && s.marketAt !== 0) set({ marketAt: marketNow(s, t0), wallAt: t0, held: true });
          throw err;
        }
        const t1 = wall();
        const mid = (t0 + t1) / 2;
        api.timeOffsetMs = Math.round(t.server_time - mid);
        set({ marketAt: t.market_time, wallAt: mid, speed: t.speed, paused: t.paused, held: false });
      },
    },
  }));
}

/**
 * Whether a market time the venue just pushed (`price@`'s E, built about a second apart) says the
 * projection is off: more than 2 s of market time at the projected speed (2 s at least) apart, as
 * after a bot paused the market, resumed it or changed its speed between two syncs. Then the clock
 * syncs at once instead of running on at the old speed until the next 5 s sync (at 100x, up to
 * 500 s of market time off). Before the first sync, or held, nothing is compared.
 */
export function clockOff(
  s: Pick<MarketClockState, 'marketAt' | 'wallAt' | 'speed' | 'paused' | 'held'>,
  pushed: number,
  wall: number,
): boolean {
  if (s.marketAt === 0 || s.held || !Number.isFinite(pushed)) return false;
  const tolerance = Math.max(2_000, 2_000 * (s.paused ? 1 : s.speed));
  return Math.abs(marketNow(s, wall) - pushed) > tolerance;
}

/** Market time now, whole ms as the venue's times are (wall time before the first sync). */
export function marketNow(
  s: Pick<MarketClockState, 'marketAt' | 'wallAt' | 'speed' | 'paused'> & Partial<Pick<MarketClockState, 'held'>>,
  wall = Date.now(),
): number {
  if (s.marketAt === 0) return wall;
  // (a sync's wall time is the mid of its round trip, and the speed any factor: a fraction of a ms)
  return s.paused || s.held === true ? s.marketAt : Math.round(s.marketAt + (wall - s.wallAt) * s.speed);
}
