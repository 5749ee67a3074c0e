// GET /api/v1/sweeps, /api/v1/sweeps/{id} (JSON and CSV) and /api/v1/sweeps/{id}/jobs/{index}
// on a live service whose data folder holds a sweep written by the sweep store, as the CLI
// writes it (while the service runs: the store file appears after the service started).
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type ServiceHandle } from '../../src-main/service.ts';
import { sweepResults } from '../../src-main/sweep/reader.ts';
import type { JobMetrics, JobResult, SweepJob } from '../../src-main/sweep/job.ts';
import { coordinatorHere } from '../../src-main/sweep/coordinator.ts';
import type { SweepSpec } from '../../src-main/sweep/ports.ts';
import { SqliteSweepStore } from '../../src-main/sweep/sqlite-store.ts';
import { DAY, JAN6, testMetrics } from './fixture.ts';

let svc: ServiceHandle;
let dir: string;

function result(index: number, status: JobResult['status'], m: JobMetrics | null): JobResult {
  return {
    jobId: `swR:${index}`,
    status,
    reason: status === 'ok' ? 'the replay reached its end' : 'the bot exited with code 3',
    endedBy: status === 'ok' ? 'replay' : 'bot',
    exitCode: status === 'ok' ? 0 : 3,
    signal: null,
    digest: `d${index}`.padEnd(64, '0'),
    metrics: m,
    equity: [
      [JAN6 + index * DAY, 10_000],
      [JAN6 + index * DAY + 60_000, 10_010.5],
    ],
    outputTail: ['bot: bye, "all"'],
    firstRequestMs: 120,
    wallMs: 900 + index,
    startMs: 300,
    botMs: 500,
    replayTime: JAN6,
    finished: status === 'ok',
  };
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'perpdesk-sweep-routes-'));
  svc = await startService({ dataDir: dir, simulate: false, rateLimit: false, sweeps: sweepResults });
  // written after the service started, as `npm run sweep` would
  const store = new SqliteSweepStore(dir);
  const job = (index: number, day: number, fast: number): SweepJob =>
    ({
      id: `swR:${index}`,
      sweepId: 'swR',
      index,
      start: JAN6 + day * DAY,
      until: JAN6 + (day + 1) * DAY,
      params: { fast },
    }) as unknown as SweepJob;
  const spec = {
    bot: 'node bot.ts',
    replay: 'BTCUSDT@2025-01-06..2025-01-07',
    split: 'day',
    symbols: ['BTCUSDT'],
    start: JAN6,
    until: JAN6 + 2 * DAY,
    sets: [{ fast: 3 }, { fast: 5 }],
    template: { datasets: [4, 7] },
    pack: { path: path.join(dir, 'packs', 'p.db'), sha256: 'ab'.repeat(32) },
  } as unknown as SweepSpec;
  // swK: a sweep whose coordinator was killed (a process that has exited), older than swR
  const dead = { host: hostname(), pid: spawnSync(process.execPath, ['-e', '0']).pid! };
  store.createSweep('swK', spec, [job(0, 0, 3)], dead, Date.now() - 1000);
  store.createSweep(
    'swR',
    spec,
    [job(0, 0, 3), job(1, 0, 5), job(2, 1, 3), job(3, 1, 5)],
    coordinatorHere(),
    Date.now(),
  );
  store.storeResult('swR', 0, result(0, 'ok', testMetrics(0.01, [0.01])), 2000);
  store.storeResult('swR', 1, result(1, 'failed', null), 2001);
  store.storeResult('swR', 2, result(2, 'ok', testMetrics(-0.02, [-0.02])), 2002);
  store.close();
});

afterAll(async () => {
  await svc?.close();
});

async function get(url: string) {
  const r = await svc.app.inject({ method: 'GET', url });
  return {
    status: r.statusCode,
    body: r.headers['content-type']?.toString().startsWith('application/json') ? r.json() : r.body,
    type: r.headers['content-type'],
  };
}

describe('the sweeps routes', () => {
  it('list the sweeps with their progress; one whose coordinator is gone is interrupted, not running', async () => {
    const r = await get('/api/v1/sweeps');
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([
      expect.objectContaining({
        id: 'swR',
        state: 'running',
        jobs: 4,
        done: 3,
        ok: 2,
        failed: 1,
        bot: 'node bot.ts',
        split: 'day',
        heartbeat_at: expect.any(Number),
      }),
      expect.objectContaining({ id: 'swK', state: 'interrupted', jobs: 1, done: 0 }),
    ]);
    // the commands to paste: this service's folder is not the CLI's default one, so they name it
    expect(r.body.data[0].commands).toMatchObject({ resume: null, remove: null }); // running
    const k = await get('/api/v1/sweeps/swK');
    expect(k.body.data).toMatchObject({
      state: 'interrupted',
      commands: {
        resume: `npm run sweep -- --resume swK --data-dir ${path.resolve(dir)}`,
        remove: `npm run sweep -- --remove swK --data-dir ${path.resolve(dir)}`,
        like: `npm run sweep -- --like swK --replay BTCUSDT@2025-01-06..2025-01-07 --data-dir ${path.resolve(dir)}`,
      },
    });
  });

  it("give the first sweep's commands on this service's folder (the page without a sweep shows them)", async () => {
    const r = await get('/api/v1/sweep-example');
    expect(r.status).toBe(200);
    const d = path.resolve(dir);
    expect(r.body.data).toEqual({
      data_dir: d,
      import:
        'npm run data -- import test/fixtures/binance/klines/binance_spot_BTCUSDT_15m_2025-01-06_to_2025-01-12.csv ' +
        `--market spot --symbol BTCUSDT --interval 15m --data-dir ${d}`,
      sweep:
        "npm run sweep -- --bot 'node examples/sweep-bot.ts' --replay BTCUSDT@2025-01-06..2025-01-12 --split day " +
        `--grid examples/sweep-grid.json --data-dir ${d}`,
    });
    // a query it does not take is refused as on every route
    expect((await get('/api/v1/sweep-example?x=1')).status).toBe(400);
  });

  it('answer a sweep: each job with its metrics, and each parameter set over its days', async () => {
    const r = await get('/api/v1/sweeps/swR');
    expect(r.status).toBe(200);
    const v = r.body.data;
    expect(v.params).toEqual(['fast']);
    // the data its jobs replay: the pinned datasets and the pack's checksum (not the pack's path on this machine)
    expect(v.datasets).toEqual([4, 7]);
    expect(v.pack_sha256).toBe('ab'.repeat(32));
    expect(JSON.stringify(v)).not.toContain('packs');
    expect(v.jobs_detail.map((j: { index: number; status: string }) => [j.index, j.status])).toEqual([
      [0, 'ok'],
      [1, 'failed'],
      [2, 'ok'],
      [3, 'pending'],
    ]);
    expect(v.jobs_detail[1]).toMatchObject({ exit_code: 3, metrics: null, reason: 'the bot exited with code 3' });
    const fast3 = v.sets.find((s: { params: { fast: number } }) => s.params.fast === 3);
    // two days compounded: 1.01 x 0.98 - 1; Sharpe over the two daily returns
    expect(fast3.return).toBeCloseTo(1.01 * 0.98 - 1, 12);
    expect(fast3).toMatchObject({ jobs: 2, ok: 2, failed: 0, trades: 8, net_pnl: -100, fees: 3 });
    expect(fast3.sharpe).toBeCloseTo((-0.005 / Math.sqrt(0.00045)) * Math.sqrt(365), 8);
    const fast5 = v.sets.find((s: { params: { fast: number } }) => s.params.fast === 5);
    // no ok job: no figure (null, not a 0 % return that ranks it above a losing set)
    expect(fast5).toMatchObject({ jobs: 2, ok: 0, failed: 1, trades: null, sharpe: null });
    for (const k of ['net_pnl', 'return', 'max_drawdown_ratio', 'fees', 'funding', 'time_in_market', 'turnover'])
      expect(fast5[k], k).toBeNull();
  });

  it('export a sweep as CSV, quoting what needs it', async () => {
    const r = await get('/api/v1/sweeps/swR?format=csv');
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^text\/csv/);
    const lines = (r.body as string).trim().split('\n');
    expect(lines[0]).toMatch(/^index,start,until,status,fast,net_pnl,return,/);
    expect(lines).toHaveLength(5);
    expect(lines[3]).toMatch(/^2,2025-01-07T00:00:00.000Z,2025-01-08T00:00:00.000Z,ok,3,-200,-0.02,10,/);
    expect(lines[4]).toMatch(/^3,.*,pending,5,/);
  });

  it("answer one job's equity curve and output tail", async () => {
    const r = await get('/api/v1/sweeps/swR/jobs/2');
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      index: 2,
      status: 'ok',
      output_tail: ['bot: bye, "all"'],
      equity: [
        [JAN6 + 2 * DAY, 10_000],
        [JAN6 + 2 * DAY + 60_000, 10_010.5],
      ],
    });
  });

  it.each([
    ['/api/v1/sweeps/swNOPE', 404, 1109, /No sweep swNOPE/],
    ['/api/v1/sweeps/swNOPE?format=csv', 404, 1109, /No sweep swNOPE/],
    ['/api/v1/sweeps/swR/jobs/9', 404, 1109, /No job 9 in sweep swR/],
    ['/api/v1/sweeps/swR?format=xml', 400, 1001, /format/],
    ['/api/v1/sweeps/sw.R', 400, 1001, /id/],
    ['/api/v1/sweeps/swR/jobs/-1', 400, 1001, /index/],
  ])('GET %s answers %i %i', async (url, http, code, msg) => {
    const r = await get(url);
    expect(r.status).toBe(http);
    expect(r.body).toMatchObject({ code, data: null });
    expect(r.body.message).toMatch(msg);
  });
});
