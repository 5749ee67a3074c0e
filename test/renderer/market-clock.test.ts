// The screen's market clock (src-renderer/src/lib/market-clock.ts): the last GET /fapi/v1/time
// answer projected at its speed, and held where it stood while the service cannot be reached
// (the venue's clock stands still while the service is down): before, the funding countdown ran
// on through an outage and jumped back on reconnect.
import { describe, expect, it } from 'vitest';
import { createMarketClock, marketNow } from '../../src-renderer/src/lib/market-clock.ts';
import type { RestClient } from '../../src-shared/sdk/rest-client.ts';

/** A client whose time route answers `answers` in turn (an Error: the service cannot be reached). */
function timeApi(answers: Array<{ market_time: number; speed: number; paused: boolean } | Error>) {
  const api = {
    timeOffsetMs: 0,
    async time() {
      const a = answers.shift()!;
      if (a instanceof Error) throw a;
      return { server_time: 0, ...a };
    },
  };
  return api as unknown as RestClient;
}

describe('the market clock', () => {
  it('runs at its speed from the last answer, stands still from the first failed sync, and takes the next answer', async () => {
    let wall = 1_000_000;
    const down = new Error('Cannot reach the service');
    const clock = createMarketClock(
      timeApi([
        { market_time: 5_000_000, speed: 2, paused: false },
        down,
        down,
        { market_time: 5_030_000, speed: 2, paused: false },
      ]),
      () => wall,
    );
    await clock.getState().actions.sync();
    wall += 10_000;
    expect(marketNow(clock.getState(), wall)).toBe(5_020_000);
    // the service goes away: the clock holds where it stood at the failed sync
    await expect(clock.getState().actions.sync()).rejects.toThrow('Cannot reach');
    wall += 75_000;
    expect(marketNow(clock.getState(), wall)).toBe(5_020_000);
    await expect(clock.getState().actions.sync()).rejects.toThrow('Cannot reach');
    expect(marketNow(clock.getState(), wall + 5_000)).toBe(5_020_000);
    // back: the venue's answer, running again
    await clock.getState().actions.sync();
    expect(marketNow(clock.getState(), wall + 1_000)).toBe(5_032_000);
  });

  it("is whole ms, as the venue's times are (an alert fired at 1796592956291.5 before)", () => {
    const s = { marketAt: 1_796_592_956_000, wallAt: 1_000.5, speed: 1.5, paused: false };
    expect(marketNow(s, 1_195)).toBe(1_796_592_956_292); // 291.75 rounded
    expect(Number.isInteger(marketNow({ ...s, wallAt: 1_000 }, 1_001))).toBe(true);
  });
});
