// The ccxt example bot (examples/sweep-ccxt-bot.ts) as a sweep runs it: the same job twice gives
// the same digest, as docs/sweeps.md says of a deterministic bot. Before, ccxt gave each order a
// random client id (its broker prefix and a uuid), kept in the venue's orders: every run of every
// job had a digest of its own, the figures alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPack, openPack, type OpenPack } from '../../src-main/sweep/pack.ts';
import { runJob } from '../../src-main/sweep/run-job.ts';
import { klinesDataDir, testJob } from './fixture.ts';

let pack: OpenPack;

beforeAll(async () => {
  const dir = await klinesDataDir();
  pack = openPack((await buildPack(dir, ['BTCUSDT'], `${dir}/sweeps/t/data.db`)).path);
});
afterAll(() => pack?.close());

describe('the ccxt example bot', () => {
  it('gives the same digest run twice', async () => {
    const job = testJob({
      params: { lookback: 4 },
      bot: ['node', 'examples/sweep-ccxt-bot.ts'],
      positionMode: 'one_way',
      timeoutMs: 120_000,
    });
    const a = await runJob(job, { data: pack.data });
    const b = await runJob(job, { data: pack.data });
    expect(a, a.outputTail.join('\n')).toMatchObject({ status: 'ok', endedBy: 'replay' });
    // it traded: the orders are in the digest
    expect(a.metrics!.trades).toBeGreaterThan(0);
    expect(b.metrics).toEqual(a.metrics);
    expect(b.digest).toBe(a.digest);
  }, 300_000);
});
