// A worker's warm-up (src-main/sweep/warm-up.ts: a throwaway job before its first) changes how
// soon its first job's venue is up, never what a job gives: the same job gives the same digest and
// metrics run cold (the first venue of this test process), after the warm-up, and with its venue
// started ahead.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPack, openPack, type OpenPack } from '../../src-main/sweep/pack.ts';
import { openJobVenue, runJob } from '../../src-main/sweep/run-job.ts';
import { warmUp } from '../../src-main/sweep/warm-up.ts';
import { klinesDataDir, testJob } from './fixture.ts';

let pack: OpenPack;

beforeAll(async () => {
  const dir = await klinesDataDir();
  pack = openPack((await buildPack(dir, ['BTCUSDT'], `${dir}/sweeps/w/data.db`)).path);
});
afterAll(() => pack?.close());

describe("a worker's warm-up", () => {
  it('leaves a job the same digest and metrics cold, warm, and with its venue started ahead', async () => {
    const job = testJob({ id: 'swW:3', sweepId: 'swW', index: 3, params: { mode: 'trade', qty: '0.03' }, seed: 4 });
    // no venue has run in this process yet: this one starts cold
    const cold = await runJob(job, { data: pack.data });
    expect(await warmUp()).toBeNull();
    const warm = await runJob(job, { data: pack.data });
    const ahead = await runJob(job, { data: pack.data, venue: openJobVenue(job, pack.data) });
    expect(cold).toMatchObject({ status: 'ok', endedBy: 'replay', venueAhead: false });
    expect(cold.metrics).toMatchObject({ trades: 2, closed_positions: 1 });
    expect([warm.venueAhead, ahead.venueAhead]).toEqual([false, true]);
    for (const r of [warm, ahead]) {
      expect(r.status).toBe('ok');
      expect(r.digest).toBe(cold.digest);
      expect(r.metrics).toEqual(cold.metrics);
      expect(r.equity).toEqual(cold.equity);
    }
  }, 120_000);
});
