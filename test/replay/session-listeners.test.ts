// A replay's status listeners are isolated from one another (docs/replay.md "Session"): one that
// throws is logged, and every other listener, of the session and of the market under it, still
// hears every change; the control that caused the change is applied and answered as usual.
// Before, `for (const l of this.listeners) l(full)` let the first throw stop the delivery to the
// listeners after it, escape into the market's change loop and turn an applied control's answer
// into an error.
import path from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import type { SessionStatus } from '../../src-main/replay/session.ts';
import type { ReplayStatus } from '../../src-shared/types.ts';
import { openDatabase } from '../../src-main/store/database.ts';
import { openVenue, type LocalVenue } from '../../src-main/venue.ts';
import { importInto, KLINES, replayDataOf } from './harness.ts';

const START = Date.UTC(2021, 4, 16);
const M1 = path.join(KLINES, 'binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv');

const venues: LocalVenue[] = [];
afterEach(async () => {
  for (const v of venues.splice(0)) await v.close();
  vi.restoreAllMocks();
});

async function venue(): Promise<LocalVenue> {
  const db = openDatabase({ dataDir: ':memory:' });
  const data = replayDataOf(
    await importInto(db, [{ paths: [M1], opts: { market: 'um', symbol: 'BTCUSDT', kind: 'klines', interval: '1m' } }]),
  );
  const v = openVenue({
    dataDir: ':memory:',
    wall: () => 0,
    replay: { options: { symbols: ['BTCUSDT'], start: START, until: START + 3_600_000 }, data, lockstep: false },
  });
  venues.push(v);
  return v;
}

it('a session listener that throws is logged and the others still receive every change', async () => {
  const v = await venue();
  const session = v.replay!;
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
  const before: SessionStatus[] = [];
  const after: SessionStatus[] = [];
  session.onChange((s) => before.push(s));
  session.onChange(() => {
    throw new Error('a subscriber that cannot serialise');
  });
  session.onChange((s) => after.push(s));

  // a control: applied and answered, not turned into the listener's error
  const st = session.act({ action: 'speed', speed: 50 });
  expect(st.speed).toBe(50);
  expect(after.at(-1)?.speed).toBe(50);
  expect(before.at(-1)?.speed).toBe(50);

  // a clock move: the market's change reaches the session's listeners through its own loop
  const moved = session.act({ action: 'step', ms: 60_000 });
  expect(moved.time).toBe(START + 60_000);
  expect(after.some((s) => s.time === START + 60_000)).toBe(true);
  expect(after.length).toBe(before.length);

  // the throwing listener stays subscribed and keeps failing alone
  const n = after.length;
  session.act({ action: 'seek', time: START + 120_000 });
  expect(after.length).toBeGreaterThan(n);
  expect(after.at(-1)?.time).toBe(START + 120_000);
  expect(logged).toHaveBeenCalled();
  expect(String(logged.mock.calls[0][0])).toContain('replay status listener failed');
});

it("a market listener that throws does not stop the market's other listeners nor the step", async () => {
  const v = await venue();
  const session = v.replay!;
  vi.spyOn(console, 'error').mockImplementation(() => {});
  v.replay!.market.onChange(() => {
    throw new Error('boom');
  });
  const market: ReplayStatus[] = [];
  v.replay!.market.onChange((s) => market.push(s));
  const heard: SessionStatus[] = [];
  session.onChange((s) => heard.push(s));

  expect(() => v.replay!.market.step(60_000)).not.toThrow();
  expect(market.at(-1)?.time).toBe(START + 60_000);
  expect(heard.at(-1)?.time).toBe(START + 60_000);
});
