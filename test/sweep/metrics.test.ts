// A job's figures, on hand-worked cases: daily returns read off the equity curve at UTC
// midnights, Sharpe and Sortino of those returns, win rate, turnover and return against the
// job's own balance.
import { describe, expect, it } from 'vitest';
import type { ReplayAccountReport } from '../../src-shared/types/replay.ts';
import { dailyReturns, jobMetrics, sharpe, sortino, thinCurve } from '../../src-main/sweep/metrics.ts';
import { DAY, JAN6 } from './fixture.ts';

describe('daily returns', () => {
  it('takes the last sample at or before each midnight and the span end', () => {
    const curve: Array<[number, number]> = [
      [JAN6 + 1000, 1010],
      [JAN6 + DAY, 1100], // at midnight: closes day 1
      [JAN6 + DAY + 5, 990],
      [JAN6 + 2 * DAY + 7, 1089],
    ];
    const r = dailyReturns(curve, 1000, [JAN6, JAN6 + 3 * DAY]);
    expect(r.map((x) => Number(x.toFixed(10)))).toEqual([0.1, -0.1, 0.1]);
    // a day without a sample is flat
    expect(dailyReturns([], 1000, [JAN6, JAN6 + 2 * DAY])).toEqual([0, 0]);
  });

  it('Sharpe: mean over sample deviation x sqrt(365); Sortino over the downside deviation', () => {
    const r = [0.01, -0.01, 0.02, 0];
    // mean 0.005, sample sd sqrt((0.000025+0.000225+0.000225+0.000025)/3) = sqrt(0.0005/3)
    // = 0.005 / 0.0129099444873580... x 19.1049731745428... = 7.39932429347..., at 10 significant digits
    expect(sharpe(r)).toBe(7.399324293);
    // downside: sqrt(0.0001 / 4) = 0.005, so sqrt(365) = 19.104973174542...
    expect(sortino(r)).toBe(19.10497317);
    expect(sharpe([0.01])).toBeNull();
    expect(sharpe([0.01, 0.01])).toBeNull();
    expect(sortino([0.01, 0.02])).toBeNull();
  });

  // In floats the mean of days of one return was a bit off each (0.10000000000000002 for three
  // 0.1), their deviation 1e-17, and the Sharpe 112403687800000000: a set earning the same every
  // day topped the ranking by a figure of 1e17
  it('Sharpe: null for days that do not vary, whatever their return', () => {
    expect(sharpe([0.1, 0.1, 0.1])).toBeNull();
    expect(sharpe(Array<number>(30).fill(0.001))).toBeNull();
    expect(sharpe(Array<number>(5).fill(0.00012))).toBeNull();
    // a losing day alike every day: mean / downside deviation is -1
    expect(sortino([-0.1, -0.1, -0.1])).toBe(-19.10497317);
  });
});

describe('jobMetrics', () => {
  const account: ReplayAccountReport = {
    user_id: 3,
    starting_equity: '10000',
    wallet_balance: '10040',
    equity: '10050',
    fills: 4,
    volume: '25000',
    realized_pnl: '45',
    unrealized_pnl: '10',
    fees: '5',
    funding: '-0.25',
    net_pnl: '50',
    max_drawdown: '20',
    max_drawdown_ratio: 0.002,
    liquidations: 0,
    time_in_market_ms: 43_200_000,
    time_in_market_ratio: 0.25,
    equity_curve: [
      [JAN6, '9999.5'],
      [JAN6 + DAY, '10100'],
      [JAN6 + 2 * DAY - 1, '10050'],
    ],
    net_equity_curve: [
      [JAN6, '9999.5'],
      [JAN6 + DAY, '10100'],
      [JAN6 + 2 * DAY - 1, '10050'],
    ],
  };

  it('measures from the job balance, not from when the account first appeared', () => {
    const m = jobMetrics({ account, balance: 10_000, closed: [30, -5, 20], span: [JAN6, JAN6 + 2 * DAY] });
    expect(m).toMatchObject({
      starting_equity: 10_000,
      net_pnl: 50,
      return: 0.005,
      max_drawdown: 20,
      fees: 5,
      funding: -0.25,
      trades: 4,
      closed_positions: 3,
      time_in_market: 0.25,
      turnover: 2.5,
      // the turnover's numerator, stored for a set's turnover
      volume: 25_000,
    });
    // 2 / 3 = 0.66666666666..., rounded half up at the 10th significant digit
    expect(m.win_rate).toBe(0.6666666667);
    // 10,100 / 10,000 - 1; then -50 / 10,100 = -0.004950495049504950... (a float gives ...4955)
    expect(m.daily_returns).toEqual([0.01, -0.00495049505]);
    expect(m.sharpe).not.toBeNull();
  });

  it("time in market is a share of the span's time, also when the replay stopped early (the bot left)", () => {
    // in a position 45 min of the hour the replay ran before the bot exited: 0.75 of the time run,
    // 45 min of a 24 h span
    const early: ReplayAccountReport = { ...account, time_in_market_ms: 45 * 60_000, time_in_market_ratio: 0.75 };
    const m = jobMetrics({ account: early, balance: 10_000, closed: [], span: [JAN6, JAN6 + DAY] });
    expect(m.time_in_market).toBe(0.03125);
    // and its ms, which a set's mean is taken from (no more than the span's)
    expect(m.time_in_market_ms).toBe(45 * 60_000);
    const over = { ...account, time_in_market_ms: 2 * DAY };
    expect(jobMetrics({ account: over, balance: 10_000, closed: [], span: [JAN6, JAN6 + DAY] })).toMatchObject({
      time_in_market: 1,
      time_in_market_ms: DAY,
    });
  });

  it('gives exact money and ratios at 10 significant digits, without float noise', () => {
    const noisy: ReplayAccountReport = {
      ...account,
      starting_equity: '3000',
      volume: '7000',
      net_pnl: '900.12345678',
      fees: '0.30000001',
      funding: '-0.00000003',
      max_drawdown: '0.1900014',
      max_drawdown_ratio: 0.00001900014,
      time_in_market_ratio: 1 / 3,
      time_in_market_ms: (2 * DAY) / 3,
      net_equity_curve: [
        [JAN6 + 1000, '3000'],
        [JAN6 + DAY, '3900'],
        [JAN6 + 2 * DAY - 1, '3900.12345678'],
      ],
    };
    const m = jobMetrics({ account: noisy, balance: 3000, closed: [1], span: [JAN6, JAN6 + 2 * DAY] });
    expect(m).toMatchObject({
      net_pnl: 900.12345678,
      fees: 0.30000001,
      funding: -0.00000003,
      max_drawdown: 0.1900014,
      max_drawdown_ratio: 0.00001900014,
      // 900.12345678 / 3,000 = 0.30004115226
      return: 0.3000411523,
      // 7,000 / 3,000 = 2.3333...
      turnover: 2.333333333,
      time_in_market: 0.3333333333,
      win_rate: 1,
    });
    // 3,900 / 3,000 - 1 = 0.3 (a float gives 0.30000000000000004); 0.12345678 / 3,900 = 0.0000316555846...
    expect(m.daily_returns).toEqual([0.3, 0.00003165558462]);
  });

  it("is net of the bot's deposits, withdrawals and resets, as the report is", () => {
    // day 1 +100, then a deposit of 500 and a reset to 4,000 (-6,600), day 2 -50: equity 4,000 - 50
    const flows: ReplayAccountReport = {
      ...account,
      equity: '3950',
      net_pnl: '50',
      equity_curve: [
        [JAN6, '10000'],
        [JAN6 + DAY, '10100'],
        [JAN6 + DAY + 1, '10600'],
        [JAN6 + DAY + 2, '4000'],
        [JAN6 + 2 * DAY - 1, '3950'],
      ],
      net_equity_curve: [
        [JAN6, '10000'],
        [JAN6 + DAY, '10100'],
        [JAN6 + DAY + 1, '10100'],
        [JAN6 + DAY + 2, '10100'],
        [JAN6 + 2 * DAY - 1, '10050'],
      ],
    };
    const m = jobMetrics({ account: flows, balance: 10_000, closed: [], span: [JAN6, JAN6 + 2 * DAY] });
    expect(m).toMatchObject({ net_pnl: 50, return: 0.005, max_drawdown: 20 });
    expect(m.daily_returns[0]).toBeCloseTo(0.01, 12);
    expect(m.daily_returns[1]).toBeCloseTo(10050 / 10100 - 1, 12);
    expect((1 + m.daily_returns[0]) * (1 + m.daily_returns[1]) - 1).toBeCloseTo(m.return, 12);
    // a deposit that was the account's first command is in the report's starting equity: the
    // figures are still on the job's balance
    const first: ReplayAccountReport = {
      ...account,
      starting_equity: '10500',
      equity: '10550',
      net_pnl: '50',
      equity_curve: [
        [JAN6, '10500'],
        [JAN6 + DAY, '10600'],
        [JAN6 + 2 * DAY - 1, '10550'],
      ],
      net_equity_curve: [
        [JAN6, '10500'],
        [JAN6 + DAY, '10600'],
        [JAN6 + 2 * DAY - 1, '10550'],
      ],
    };
    const f = jobMetrics({ account: first, balance: 10_000, closed: [], span: [JAN6, JAN6 + 2 * DAY] });
    expect(f).toMatchObject({ net_pnl: 50, return: 0.005 });
    expect(f.daily_returns[0]).toBeCloseTo(0.01, 12);
    expect(f.daily_returns[1]).toBeCloseTo(10050 / 10100 - 1, 12);
  });

  it('an account that never traded: flat figures, no win rate', () => {
    const m = jobMetrics({ account: undefined, balance: 10_000, closed: [], span: [JAN6, JAN6 + DAY] });
    expect(m).toMatchObject({ net_pnl: 0, return: 0, trades: 0, win_rate: null, sharpe: null, daily_returns: [0] });
  });

  it('thins a long curve to the bound, keeping both ends', () => {
    const c = Array.from({ length: 2001 }, (_, i) => [i, i] as [number, number]);
    const t = thinCurve(c, 500);
    expect(t).toHaveLength(500);
    expect(t[0]).toEqual([0, 0]);
    expect(t[499]).toEqual([2000, 2000]);
  });
});
