// The per-set view of a sweep (src-main/sweep/results-view.ts, docs/sweeps.md "Metrics"): a set's
// figures are of its ok jobs only. A failed job's metrics (all zero: its account never seen) are
// not a 0 % day of the set's, and a set with no ok job has no figure at all (null), so that it
// does not rank above a losing set.
import { describe, expect, it } from 'vitest';
import type { JobMetrics, JobResult, SweepJob } from '../../src-main/sweep/job.ts';
import type { SweepSpec } from '../../src-main/sweep/ports.ts';
import { coordinatorHere } from '../../src-main/sweep/coordinator.ts';
import { sweepCsv, sweepView } from '../../src-main/sweep/results-view.ts';
import { SqliteSweepStore } from '../../src-main/sweep/sqlite-store.ts';
import { DAY, JAN6, testMetrics } from './fixture.ts';

/** What a job whose bot crashed at once gets: zeros (its account never appeared in the report). */
const zeros = testMetrics(0, [0], {
  net_pnl: 0,
  max_drawdown: 0,
  max_drawdown_ratio: 0,
  fees: 0,
  funding: 0,
  trades: 0,
  win_rate: null,
  closed_positions: 0,
  time_in_market: 0,
  turnover: 0,
});

const result = (
  index: number,
  status: JobResult['status'],
  m: JobMetrics,
  equity: JobResult['equity'] = [],
): JobResult =>
  ({
    jobId: `swV:${index}`,
    status,
    reason: status,
    exitCode: status === 'ok' ? 0 : 1,
    digest: '',
    metrics: m,
    equity,
    outputTail: [],
  }) as unknown as JobResult;

function view(
  results: Array<[fast: number, day: number, status: JobResult['status'], m: JobMetrics, equity?: JobResult['equity']]>,
  defaults?: SweepSpec['defaults'],
  /** Each job's length in days (a sweep split in 6h: 0.25, its jobs' `day` 0, 0.25, ...). */
  length = 1,
) {
  const s = new SqliteSweepStore(':memory:');
  const jobs = results.map(
    ([fast, day], index) =>
      ({
        id: `swV:${index}`,
        sweepId: 'swV',
        index,
        start: JAN6 + day * DAY,
        until: JAN6 + (day + length) * DAY,
        params: { fast },
      }) as unknown as SweepJob,
  );
  const sets = [...new Set(results.map(([fast]) => fast))].map((fast) => ({ fast }));
  s.createSweep(
    'swV',
    { bot: 'b', replay: 'r', split: 'day', sets, defaults } as unknown as SweepSpec,
    jobs,
    coordinatorHere(),
    1,
  );
  results.forEach(([, , status, m, equity], i) => s.storeResult('swV', i, result(i, status, m, equity), 2));
  const v = sweepView(s, 'swV')!;
  const csv = sweepCsv(s, 'swV').trim().split('\n');
  s.close();
  return Object.assign((fast: number) => v.sets.find((x) => x.params.fast === fast)!, { view: v, csv });
}

describe('the per-set view', () => {
  it("carries the grid file's defaults, for the page to show and mark ({} for a sweep recorded without)", () => {
    expect(view([[3, 0, 'ok', zeros]], { qty: '0.01', step_minutes: 15 }).view.defaults).toEqual({
      qty: '0.01',
      step_minutes: 15,
    });
    expect(view([[3, 0, 'ok', zeros]]).view.defaults).toEqual({});
  });

  it('says a sweep recorded without pinned datasets or a pack took the replays own pick ([], null)', () => {
    const v = view([[3, 0, 'ok', zeros]]).view;
    expect(v.datasets).toEqual([]);
    expect(v.pack_sha256).toBeNull();
  });

  it('gives a set whose jobs all failed no figure, not a 0 % return', () => {
    const set = view([
      [3, 0, 'ok', testMetrics(-0.001, [-0.001])],
      [20, 0, 'failed', zeros],
      [3, 1, 'ok', testMetrics(-0.002, [-0.002])],
      [20, 1, 'timeout', zeros],
    ]);
    expect(set(20)).toEqual({
      params: { fast: 20 },
      jobs: 2,
      ok: 0,
      failed: 2,
      timeouts: 1,
      errors: 0,
      net_pnl: null,
      return: null,
      max_drawdown_ratio: null,
      sharpe: null,
      sortino: null,
      fees: null,
      funding: null,
      trades: null,
      win_rate: null,
      time_in_market: null,
      turnover: null,
    });
    expect(set(3).return).toBeCloseTo(0.999 * 0.998 - 1, 12);
    // the CSV rows of the jobs not ok have no figures (their zeros would count in an average)
    const head = set.csv[0].split(',');
    const rows = set.csv.slice(1).map((r) => r.split(','));
    expect(rows.map((r) => [r[head.indexOf('status')], r[head.indexOf('net_pnl')], r[head.indexOf('return')]])).toEqual(
      [
        ['ok', '-10', '-0.001'],
        ['failed', '', ''],
        ['ok', '-20', '-0.002'],
        ['timeout', '', ''],
      ],
    );
  });

  it("takes a partly failed set's figures over its ok jobs only: a failed day is not a 0 % day", () => {
    const set = view([
      [5, 0, 'ok', testMetrics(0.01, [0.01])],
      [5, 1, 'failed', zeros],
      [5, 2, 'ok', testMetrics(-0.02, [-0.02])],
    ]);
    const s = set(5);
    expect(s).toMatchObject({ jobs: 3, ok: 2, failed: 1, trades: 8, net_pnl: -100, fees: 3, turnover: 2 });
    expect(s.return).toBeCloseTo(1.01 * 0.98 - 1, 12);
    // Sharpe of the two ok days, not of three with a 0 between them
    expect(s.sharpe).toBeCloseTo((-0.005 / Math.sqrt(0.00045)) * Math.sqrt(365), 8);
    expect(s.time_in_market).toBe(0.25);
    expect(s.win_rate).toBe(0.5);
  });

  it("annualises days, not pieces: a day split in 6h pieces is one return, its pieces' compounded", () => {
    const pieces = [0.01, 0.01, -0.005, 0, -0.01, 0, 0, 0.02];
    const set = view(
      pieces.map((r, i) => [7, i / 4, 'ok', testMetrics(r, [r])] as [number, number, 'ok', JobMetrics]),
      undefined,
      0.25,
    );
    const days = [1.01 * 1.01 * 0.995 - 1, 0.99 * 1.02 - 1];
    const m = (days[0] + days[1]) / 2;
    const sd = Math.sqrt((days[0] - m) ** 2 + (days[1] - m) ** 2);
    // (the Sharpe of the eight 6h returns as days was 6.2; of the two days it is 64.4)
    expect(set(7).sharpe).toBeCloseTo((m / sd) * Math.sqrt(365), 6);
    expect(set(7).return).toBeCloseTo((1 + days[0]) * (1 + days[1]) - 1, 12);
  });

  it("takes the set's drawdown on its compounded equity, its pieces chained in time, not the largest piece's", () => {
    type Row = Parameters<typeof view>[0][number];
    const t = (day: number, h: number) => JAN6 + day * DAY + h * 3_600_000;
    // two losing days, each 0.4 % from its start to its end: the set is 0.7984 % below its start at its end
    const losing = (day: number): Row => [
      3,
      day,
      'ok',
      testMetrics(-0.004, [-0.004], { net_pnl: -40, max_drawdown_ratio: 0.004 }),
      [
        [t(day, 0), 10_000],
        [t(day, 24), 9_960],
      ],
    ];
    // a day that peaks at +1 % and ends at +0.5 %, then a day ending 1 % down
    const peaked: Row[] = [
      [
        4,
        0,
        'ok',
        testMetrics(0.005, [0.005], { net_pnl: 50, max_drawdown_ratio: 0.004950495 }),
        [
          [t(0, 0), 10_000],
          [t(0, 12), 10_100],
          [t(0, 24), 10_050],
        ],
      ],
      [
        4,
        1,
        'ok',
        testMetrics(-0.01, [-0.01], { net_pnl: -100, max_drawdown_ratio: 0.01 }),
        [
          [t(1, 0), 10_000],
          [t(1, 24), 9_900],
        ],
      ],
    ];
    const set = view([losing(0), losing(1), ...peaked]);
    expect(set(3).return).toBeCloseTo(0.996 * 0.996 - 1, 12);
    // it was the largest single day's: 0.004
    expect(set(3).max_drawdown_ratio).toBe(0.007984);
    expect(set(3).max_drawdown_ratio).toBeGreaterThanOrEqual(-set(3).return!);
    // from the peak of 1.01 to 1.005 x 0.99 = 0.99495
    expect(set(4).max_drawdown_ratio).toBeCloseTo((1.01 - 0.99495) / 1.01, 9);
    // the per-job figures are the jobs' own
    expect(set.view.jobs_detail.map((j) => j.metrics!.max_drawdown_ratio)).toEqual([0.004, 0.004, 0.004950495, 0.01]);
  });

  it('rounds the mean time in market once, after dividing, to 10 significant digits', () => {
    const set = view([
      [7, 0, 'ok', testMetrics(0, [0], { time_in_market: 0.1 })],
      [7, 1, 'ok', testMetrics(0, [0], { time_in_market: 0.2 })],
      [7, 2, 'ok', testMetrics(0, [0], { time_in_market: 0.4 })],
    ]);
    // 0.7 / 3 = 0.23333333333...
    expect(set(7).time_in_market).toBe(0.2333333333);
  });

  it("takes the mean time in market from the jobs' unrounded shares (their ms over their spans), rounded once", () => {
    // a day of 96 quarters: 1 and 18 quarters in a position, stored as 0.01041666667 and 0.1875
    const q = DAY / 96;
    const set = view([
      [7, 0, 'ok', testMetrics(0, [0], { time_in_market: 0.01041666667, time_in_market_ms: q })],
      [7, 1, 'ok', testMetrics(0, [0], { time_in_market: 0.1875, time_in_market_ms: 18 * q })],
    ]);
    // 19 / 192 = 0.098958333333...: not the rounded shares' mean, 0.09895833334
    expect(set(7).time_in_market).toBe(0.09895833333);
    // results stored without the ms (before 2026-12-06): the mean of the shares as stored
    const old = view([
      [7, 0, 'ok', testMetrics(0, [0], { time_in_market: 0.01041666667 })],
      [7, 1, 'ok', testMetrics(0, [0], { time_in_market: 0.1875 })],
    ]);
    expect(old(7).time_in_market).toBe(0.09895833334);
  });

  it("sums the turnover from the jobs' stored volumes over their balances, rounded once", () => {
    // 1,000 USDT traded on 3,000 twice: each job's turnover is stored as 0.3333333333
    const traded = { starting_equity: 3000, turnover: 0.3333333333, volume: 1000 };
    const set = view([
      [7, 0, 'ok', testMetrics(0, [0], traded)],
      [7, 1, 'ok', testMetrics(0, [0], traded)],
    ]);
    // 2,000 / 3,000 = 0.6666666666...7: not the rounded turnovers' sum, 0.6666666666
    expect(set(7).turnover).toBe(0.6666666667);
    // results stored without the volume (before 2026-12-07): the sum of the turnovers as stored
    const old = view([
      [7, 0, 'ok', testMetrics(0, [0], { starting_equity: 3000, turnover: 0.3333333333 })],
      [7, 1, 'ok', testMetrics(0, [0], { starting_equity: 3000, turnover: 0.3333333333 })],
    ]);
    expect(old(7).turnover).toBe(0.6666666666);
  });

  it("compounds the return from the jobs' exact net PnL on their balances, rounded once", () => {
    // 1 USDT on 3,000 twice: each job's return 1 / 3,000 is stored as 0.0003333333333
    const one = { starting_equity: 3000, net_pnl: 1, return: 0.0003333333333 };
    const set = view([
      [7, 0, 'ok', testMetrics(0, [0], one)],
      [7, 1, 'ok', testMetrics(0, [0], one)],
    ]);
    // (3,001 / 3,000)^2 - 1 = 0.00066677777...8: not the rounded returns compounded, 0.0006667777777
    expect(set(7).return).toBe(0.0006667777778);
  });

  it('sums money exactly and rounds ratios to 10 significant digits: no float noise, the CSV as the JSON', () => {
    const set = view([
      [
        9,
        0,
        'ok',
        testMetrics(0.1, [0.1], {
          // on a balance of 1: its return is its net PnL
          starting_equity: 1,
          net_pnl: 0.1,
          fees: 0.1,
          funding: 0.00000001,
          turnover: 0.1,
          win_rate: 0.3333333333,
          closed_positions: 3,
          max_drawdown_ratio: 0.00001900014,
        }),
      ],
      [
        9,
        1,
        'ok',
        testMetrics(0.2, [0.2], {
          // on a balance of 1: its return is its net PnL
          starting_equity: 1,
          net_pnl: 0.2,
          fees: 0.2,
          funding: 0.00000002,
          turnover: 0.2,
          win_rate: 0.6666666667,
          closed_positions: 3,
        }),
      ],
    ]);
    // by hand: 0.1 + 0.2 = 0.3 (a float sum gives 0.30000000000000004); 1.1 x 1.2 - 1 = 0.32;
    // wins 1 + 2 of 6 closed = 0.5
    expect(set(9)).toMatchObject({
      net_pnl: 0.3,
      fees: 0.3,
      funding: 0.00000003,
      turnover: 0.3,
      return: 0.32,
      win_rate: 0.5,
    });
    // the CSV writes the JSON's numbers in plain decimals (no exponent): columns by name
    const head = set.csv[0].split(',');
    const cells = set.csv.slice(1).map((r) => r.split(','));
    const col = (name: string) => cells.map((c) => c[head.indexOf(name)]);
    expect(col('turnover')).toEqual(['0.1', '0.2']);
    expect(col('funding')).toEqual(['0.00000001', '0.00000002']);
    expect(set.view.jobs_detail[0].metrics!.max_drawdown_ratio).toBe(1.900014e-5);
    expect(col('max_drawdown_ratio')).toEqual(['0.00001900014', '0.001']);
    expect(col('win_rate')).toEqual(['0.3333333333', '0.6666666667']);
  });
});
