// The replay's clock: it follows the wall clock at the speed once started, stands still while
// paused or in lockstep (step/seek only), stops at the end, and tells its listeners.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReplayStatus } from '../../src-main/replay/replay-market.ts';
import { KLINES, replayVenue, type ReplayVenue } from './harness.ts';

const START = Date.UTC(2021, 4, 16);
const M1 = path.join(KLINES, 'binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv');

describe('replay clock', () => {
  let v: ReplayVenue;
  let wall = 1_000_000;
  const seen: ReplayStatus[] = [];
  beforeAll(async () => {
    v = await replayVenue(
      [{ paths: [M1], opts: { market: 'spot', symbol: 'BTCUSDT', kind: 'klines', interval: '1m' } }],
      { symbols: ['BTCUSDT'], start: START, until: START + 3_600_000 },
      () => wall,
    );
    v.market.onChange((s) => seen.push(s));
  });
  afterAll(() => v?.close());

  it('follows the wall clock at the speed once started, applying the history on the way', () => {
    v.market.setSpeed(60);
    v.market.tick(); // not started: nothing moves
    expect(v.market.time).toBe(START);
    v.market.start();
    wall += 1000;
    v.market.tick();
    expect(v.market.time).toBe(START + 60_000);
    expect(v.clock.now()).toBe(START + 60_000);
    // the first minute's four prints (eight trades, buy and sell parts) are in
    expect(v.market.status().events).toBeGreaterThanOrEqual(4);
    expect(v.klines.current('BTCUSDT', '1m')?.openTime).toBe(START + 60_000);
  });

  it('stands still while paused and in lockstep; step and seek move it', () => {
    v.market.pause();
    wall += 5000;
    v.market.tick();
    expect(v.market.time).toBe(START + 60_000);
    expect(v.market.status()).toMatchObject({ paused: true, lockstep: false });
    v.market.resume();
    v.market.setLockstep(true);
    wall += 5000;
    v.market.tick();
    expect(v.market.time).toBe(START + 60_000);
    expect(v.market.step(500)).toBe(START + 60_500);
    expect(v.market.seek(START + 120_000)).toBe(START + 120_000);
    expect(v.market.status()).toMatchObject({ paused: true, lockstep: true, time: START + 120_000, speed: 60 });
    v.market.setLockstep(false);
    wall += 1000;
    v.market.tick();
    expect(v.market.time).toBe(START + 180_000);
  });

  it('stops at until, finished, and told its listeners', () => {
    wall += 3_600_000;
    v.market.tick();
    expect(v.market.time).toBe(START + 3_600_000);
    expect(v.market.status()).toMatchObject({ finished: true, paused: true, until: START + 3_600_000 });
    wall += 1000;
    v.market.tick();
    expect(v.clock.now()).toBe(START + 3_600_000);
    expect(() => v.market.step(-1)).toThrow(RangeError);
    expect(v.market.step(1000)).toBe(START + 3_600_000);
    expect(seen.some((s) => s.lockstep)).toBe(true);
    expect(seen[seen.length - 1]).toMatchObject({ finished: true });
  });
});
