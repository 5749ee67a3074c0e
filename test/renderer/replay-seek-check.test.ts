// The seek field's "forward only" check reads the clock the banner shows, not the last status's
// time: playing at 100x, the clock is 1000 s of history past the last push 10 s after it, and a
// time between the two passed the screen's check only to be refused by the service.
import { describe, expect, it } from 'vitest';
import { seekTarget } from '../../src-renderer/src/features/replay/replay-store.ts';
import { parseUtc } from '../../src-renderer/src/features/replay/replay-view.ts';

const T0 = parseUtc('2021-05-16 12:00')!;
const status = {
  time: T0,
  speed: 100,
  paused: false,
  lockstep: false,
  finished: false,
  until: T0 + 86_400_000,
} as Parameters<typeof seekTarget>[1]['status'];

describe('seekTarget', () => {
  it('refuses a time the clock shown has passed, though the last status had not', () => {
    // received at wall 0, read at wall 10 s: the clock shows 12:16:40
    const r = seekTarget('2021-05-16 12:10', { status, receivedAt: 0 }, 10_000);
    expect(r).toEqual({ error: 'A replay only seeks forward: it is at 2021-05-16 12:16:40 UTC' });
  });

  it('takes a time past the clock shown, and refuses one past the end', () => {
    expect(seekTarget('2021-05-16 12:20', { status, receivedAt: 0 }, 10_000)).toEqual({ time: T0 + 20 * 60_000 });
    expect(seekTarget('2021-05-18', { status, receivedAt: 0 }, 10_000)).toEqual({
      error: 'The replay ends at 2021-05-17 12:00:00 UTC',
    });
  });

  it('reads a held clock (connection lost) where it stopped', () => {
    // lost at wall 1 s: the clock stays at 12:01:40
    expect(seekTarget('2021-05-16 12:10', { status, receivedAt: 0, heldAt: 1_000 }, 10_000)).toEqual({
      time: T0 + 10 * 60_000,
    });
  });
});
