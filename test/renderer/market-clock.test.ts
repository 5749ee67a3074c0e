// The screen's market clock (src-renderer/src/lib/market-clock.ts): the last GET /fapi/v1/time
// answer projected at its speed, and held where it stood while the service cannot be reached
// (the venue's clock stands still while the service is down): before, the funding countdown ran
// on through an outage and jumped back on reconnect.
import { describe, expect, it } from 'vitest';
import { clockOff, createMarketClock, marketNow } from '../../src-renderer/src/lib/market-clock.ts';
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

  it('a pushed market time over 2 s (of the projected speed) from the projection says the clock is off', () => {
    const s = { marketAt: 5_000_000, wallAt: 1_000, speed: 1, paused: false, held: false };
    // one second later at 1x: a push built half a second ago is fine
    expect(clockOff(s, 5_000_500, 2_000)).toBe(false);
    // a bot set 100x a second ago: the push is 99 s ahead of the 1x projection
    expect(clockOff(s, 5_100_000, 2_000)).toBe(true);
    // a bot paused the market 3 s ago: the pushes stopped advancing, the projection ran on
    expect(clockOff(s, 5_000_000, 4_000)).toBe(true);
    // at 100x the same 1 s of jitter is 100 s of market time: not off
    expect(clockOff({ ...s, speed: 100 }, 5_050_000, 1_500)).toBe(false);
    // paused: the market stands; a push that moved on says it resumed
    expect(clockOff({ ...s, paused: true }, 5_000_000, 60_000)).toBe(false);
    expect(clockOff({ ...s, paused: true }, 5_003_000, 60_000)).toBe(true);
    // before the first sync, or held (the service gone), nothing is compared
    expect(clockOff({ ...s, marketAt: 0 }, 9, 2_000)).toBe(false);
    expect(clockOff({ ...s, held: true }, 5_100_000, 2_000)).toBe(false);
  });

  it("is whole ms, as the venue's times are (an alert fired at 1796592956291.5 before)", () => {
    const s = { marketAt: 1_796_592_956_000, wallAt: 1_000.5, speed: 1.5, paused: false };
    expect(marketNow(s, 1_195)).toBe(1_796_592_956_292); // 291.75 rounded
    expect(Number.isInteger(marketNow({ ...s, wallAt: 1_000 }, 1_001))).toBe(true);
  });
});
