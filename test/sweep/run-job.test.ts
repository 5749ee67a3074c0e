// One sweep job end to end (docs/sweeps.md, The bot contract): a replay venue of its own for the
// bot, its connection and parameters in the environment, the job's end when the replay ends or
// the bot exits, a crash or a hang failing the job with the bot's output tail, and the same job
// twice giving the same digest.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SweepJob } from '../../src-main/sweep/job.ts';
import { buildPack, openPack, type OpenPack } from '../../src-main/sweep/pack.ts';
import { openJobVenue, runJob } from '../../src-main/sweep/run-job.ts';
import { DAY, JAN6, klinesDataDir, testJob } from './fixture.ts';

let pack: OpenPack;

beforeAll(async () => {
  const dir = await klinesDataDir();
  pack = openPack((await buildPack(dir, ['BTCUSDT'], `${dir}/sweeps/t/data.db`)).path);
});
afterAll(() => pack?.close());

function job(params: SweepJob['params'], over: Partial<SweepJob> = {}): SweepJob {
  return testJob({ id: 'swT:4', index: 4, params, seed: 9, ...over });
}

describe('a job', () => {
  it('runs the bot to the replay end, twice with the same digest, and another parameter set differs', async () => {
    const a = await runJob(job({ mode: 'trade' }), { data: pack.data });
    const b = await runJob(job({ mode: 'trade' }), { data: pack.data });
    const c = await runJob(job({ mode: 'trade', qty: '0.02' }), { data: pack.data });
    expect(a).toMatchObject({ status: 'ok', endedBy: 'replay', finished: true, replayTime: JAN6 + DAY / 4 });
    expect(a.outputTail).toEqual(['test-bot: 6 steps']);
    // bought at the first step, sold at the second: two fills, one round trip
    expect(a.metrics).toMatchObject({ trades: 2, closed_positions: 1, starting_equity: 10_000 });
    expect(a.metrics!.fees).toBeGreaterThan(0);
    expect(a.firstRequestMs).toBeGreaterThan(0);
    expect(a.equity.length).toBeGreaterThan(1);
    expect(a.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(b.digest).toBe(a.digest);
    expect(b.metrics).toEqual(a.metrics);
    expect(c.digest).not.toBe(a.digest);
    expect(c.metrics!.turnover).toBeCloseTo(a.metrics!.turnover * 2, 6);
  }, 90_000);

  it('runs on the largest balance a paper account takes; its venue refuses one past it in words', async () => {
    // 1e9 USDT is 1e17 units: past 2^53, once read as a number ("too large to be represented")
    const r = await runJob(job({ mode: 'trade' }, { balance: '1000000000' }), { data: pack.data });
    expect(r).toMatchObject({ status: 'ok', endedBy: 'replay' });
    expect(r.metrics).toMatchObject({ trades: 2, starting_equity: 1_000_000_000 });
    // it was SQLite's "BigInt value is too large to bind"
    const past = await openJobVenue(job({}, { balance: '92233720369' }), pack.data);
    expect(past).toEqual({
      error: 'the replay venue did not start: a balance is at most 1000000000 USDT, got 92233720369.00000000',
    });
  }, 90_000);

  it("stores the bot's net equity curve: a deposit is no jump in it, as in the metrics", async () => {
    const r = await runJob(job({ mode: 'deposit' }), { data: pack.data });
    expect(r).toMatchObject({ status: 'ok', endedBy: 'replay' });
    const m = r.metrics!;
    expect(m).toMatchObject({ trades: 2, starting_equity: 10_000 });
    // the round trip lost its fees (and what the price did): nowhere near the 500 deposited
    expect(Math.abs(m.net_pnl)).toBeLessThan(100);
    const values = r.equity.map(([, e]) => e);
    expect(Math.abs(values[0] - 10_000)).toBeLessThan(100);
    expect(values[values.length - 1]).toBeCloseTo(10_000 + m.net_pnl, 6);
    expect(Math.max(...values)).toBeLessThan(10_100);
  }, 90_000);

  it('hands the bot its venue, credentials, parameters and job in the environment', async () => {
    const r = await runJob(job({ mode: 'env' }), { data: pack.data });
    // it left at once: ok (its choice), and said to be short of the span's end
    expect(r).toMatchObject({
      status: 'ok',
      endedBy: 'bot',
      exitCode: 0,
      reason: "the bot exited 0 at 2025-01-06T00:00:00.000Z, before the span's end (2025-01-06T06:00:00.000Z)",
    });
    const env = Object.fromEntries(r.outputTail.map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
    const url = env.PERPDESK_URL;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(env).toMatchObject({
      PERPDESK_WS_URL: `${url.replace('http', 'ws')}/ws`,
      PERPDESK_BINANCE_URL: `${url}/binance`,
      PERPDESK_API_KEY: 'sweepbot_4',
      PERPDESK_PARAMS: '{"mode":"env"}',
      PERPDESK_JOB_ID: 'swT:4',
      PERPDESK_SEED: '9',
      PERPDESK_SYMBOLS: 'BTCUSDT',
      PERPDESK_START: String(JAN6),
      PERPDESK_UNTIL: String(JAN6 + DAY / 4),
      PERPDESK_LOCKSTEP: '1',
    });
    expect(env.PERPDESK_API_SECRET).toMatch(/^[0-9a-f]{32}$/);
    expect(env.PERPDESK_JOB_DIR).toMatch(/perpdesk-job-/);
  }, 60_000);

  it('fails when the bot crashes, with its exit code and the end of its output', async () => {
    const r = await runJob(job({ mode: 'crash' }), { data: pack.data });
    expect(r).toMatchObject({ status: 'failed', endedBy: 'bot', exitCode: 1, reason: 'the bot exited with code 1' });
    expect(r.outputTail.join('\n')).toMatch(/Error: test-bot: boom at step 1/);
    expect(r.finished).toBe(false);
  }, 60_000);

  it('kills a hung bot at the time bound and marks the job', async () => {
    const t0 = Date.now();
    const r = await runJob(job({ mode: 'hang' }, { timeoutMs: 4000 }), { data: pack.data });
    expect(r).toMatchObject({
      status: 'timeout',
      endedBy: 'timeout',
      signal: 'SIGKILL',
      reason: 'killed at the time bound (4000 ms)',
    });
    expect(r.outputTail).toContain('test-bot: hanging');
    expect(Date.now() - t0).toBeLessThan(15_000);
  }, 60_000);

  // Before, a job whose history failed mid-span (a damaged pack) went on as the bot took it: this
  // bot's step was refused 5001 and it exited 1, 'failed' with the blame on it; a bot that caught
  // the refusal and exited 0 was 'ok', its metrics those of a cut-short day; one that waited for
  // the replay's end ran to the time bound.
  it("ends the job as an error, not the bot's, when the replay's history cannot be read mid-span", async () => {
    const failAt = JAN6 + 2 * 3_600_000;
    // the replay's read of the job's span fails there (the venue's start reads the whole dataset
    // once, for its price steps, before anything plays: that read is sound)
    const candles: typeof pack.data.candles = function* (id, from, to) {
      for (const c of pack.data.candles(id, from, to)) {
        if (to === JAN6 + DAY / 4 && c.openTime >= failAt) throw new Error('database disk image is malformed');
        yield c;
      }
    };
    // the pack's reader with its candles read through the one above
    const data: typeof pack.data = Object.assign(Object.create(pack.data) as typeof pack.data, { candles });
    // a lockstep bot whose step is refused (it exits 1); a bot that waits on a replay that plays by itself
    const runs: Array<[string, Partial<SweepJob>]> = [
      ['trade', {}],
      ['hang', { lockstep: false, speed: 10_000 }],
    ];
    for (const [mode, over] of runs) {
      const r = await runJob(job({ mode }, { timeoutMs: 20_000, ...over }), { data });
      expect(r).toMatchObject({ status: 'error', endedBy: 'venue', metrics: null, equity: [], finished: false });
      // the 01:45 candle's path played to its last print (01:56:15), then reading the 02:00 candle failed
      expect(r.reason).toBe(
        "the replay's history could not be read at 2025-01-06T01:56:15.000Z (database disk image is malformed): " +
          "the replay stopped there, short of the job's end",
      );
      expect(r.replayTime).toBeLessThan(failAt);
    }
  }, 90_000);

  it('fails a bot that cannot start, and answers an error for a venue that cannot open', async () => {
    const r = await runJob(job({}, { bot: ['./no-such-bot-here'] }), { data: pack.data });
    expect(r.status).toBe('failed');
    expect(r.reason).toMatch(/the bot did not start: spawn .*ENOENT/);
    const e = await runJob(job({}, { symbols: ['ETHUSDT'] }), { data: pack.data });
    expect(e).toMatchObject({ status: 'error', endedBy: 'venue' });
    expect(e.reason).toMatch(/the replay venue did not start: .*ETHUSDT/);
  }, 60_000);
});
