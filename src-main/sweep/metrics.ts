// A job's figures from its session report (GET /api/v1/replay/report, the bot's account) and its
// closed positions. Every figure is net of the bot's own cash flows (deposits, withdrawals,
// resets), as the report's net_pnl and max_drawdown are: daily returns are read off the report's
// net equity curve, put on the job's balance (balance + the net PnL at each sample), at each UTC
// midnight inside the span (the last sample at or before it) and at the span's end; Sharpe and
// Sortino are of those daily returns, annualised with sqrt(365) (crypto trades every day),
// risk-free rate 0. The daily returns compound to `return`.
//
// Figures (docs/sweeps.md, Figures): money (net_pnl, max_drawdown, fees, funding) is USDT exact
// to 8 decimals, read from the report's decimal strings and summed with decimal.js; ratios
// (return, daily returns, turnover, win rate, Sharpe...) are computed with decimal.js where their
// inputs are money, and every ratio is rounded half up to RATIO_DIGITS significant digits, so a
// figure reads the same in the JSON and the CSV (no float sum's last-bit noise).
import Decimal from 'decimal.js';
import type { ReplayAccountReport } from '../../src-shared/types/replay.ts';
import type { JobMetrics } from './job.ts';

const DAY = 86_400_000;

/** decimal.js wide enough that only the final rounding to RATIO_DIGITS counts. */
const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
/** Significant digits of every ratio of a job or a set. */
const RATIO_DIGITS = 10;

/** A ratio at RATIO_DIGITS significant digits, rounded half up (0 stays 0). */
function ratio(x: Decimal.Value): number {
  const d = new D(x);
  return d.isZero() ? 0 : d.toSignificantDigits(RATIO_DIGITS, Decimal.ROUND_HALF_UP).toNumber();
}

/** a / b as a ratio (b not 0). */
export const ratioOf = (a: Decimal.Value, b: Decimal.Value): number => ratio(new D(a).div(b));

/** (x1 + x2 + ...) / n as a ratio: a sum of ratios (n 1), or their mean. */
const ratioSum = (xs: readonly number[], n = 1): number =>
  ratioOf(
    xs.reduce((a: Decimal, x) => a.plus(x), new D(0)),
    n,
  );

/**
 * A set's time in market: the mean of its jobs' shares of their spans, from each job's market ms
 * in a position over its span's ms, rounded once; from the jobs' rounded shares when a job's ms
 * is not stored (a result stored before 2026-12-06).
 */
export function meanTimeInMarket(
  jobs: ReadonlyArray<{
    start: number;
    until: number;
    metrics: Pick<JobMetrics, 'time_in_market' | 'time_in_market_ms'>;
  }>,
): number {
  const exact = jobs.every((j) => j.metrics.time_in_market_ms !== undefined && j.until > j.start);
  if (!exact)
    return ratioSum(
      jobs.map((j) => j.metrics.time_in_market),
      jobs.length,
    );
  const sum = jobs.reduce(
    (a: Decimal, j) => a.plus(new D(j.metrics.time_in_market_ms!).div(j.until - j.start)),
    new D(0),
  );
  return ratioOf(sum, jobs.length);
}

/**
 * A set's turnover: the sum of its jobs' volumes each over its balance, rounded once; the sum of
 * the jobs' rounded turnovers when a job's volume is not stored (a result stored before 2026-12-07).
 */
export function setTurnover(ms: ReadonlyArray<Pick<JobMetrics, 'turnover' | 'volume' | 'starting_equity'>>): number {
  if (!ms.every((m) => m.volume !== undefined && m.starting_equity > 0)) return ratioSum(ms.map((m) => m.turnover));
  return ratio(ms.reduce((a: Decimal, m) => a.plus(new D(m.volume!).div(m.starting_equity)), new D(0)));
}

/** A USDT amount exact to the ledger's 8 decimals. */
function usdt(x: Decimal.Value): number {
  return new D(x).toDecimalPlaces(8, Decimal.ROUND_HALF_UP).toNumber();
}

/** The USDT sum of amounts, exact to 8 decimals. */
export function usdtSum(xs: readonly number[]): number {
  return usdt(xs.reduce((a: Decimal, x) => a.plus(x), new D(0)));
}

/**
 * A set's return: its jobs' growths compounded, each (starting equity + net PnL) / starting
 * equity from the exact USDT figures (a job on no equity grows by nothing, its return 0), rounded
 * once; not the jobs' rounded returns compounded, which can differ in the 10th digit.
 */
export function compoundReturn(jobs: ReadonlyArray<Pick<JobMetrics, 'starting_equity' | 'net_pnl'>>): number {
  const growth = jobs.reduce(
    (a: Decimal, j) =>
      j.starting_equity === 0 ? a : a.times(new D(j.starting_equity).plus(j.net_pnl).div(j.starting_equity)),
    new D(1),
  );
  return ratio(growth.minus(1));
}

/** The ends of the periods daily returns are taken over: each UTC midnight inside [start, until], then until. */
function dayEnds(start: number, until: number): number[] {
  const ends: number[] = [];
  for (let t = Math.floor(start / DAY) * DAY + DAY; t < until; t += DAY) ends.push(t);
  ends.push(until);
  return ends;
}

/** Equity at each day end of [start, until], as returns against the previous day end. */
export function dailyReturns(
  curve: ReadonlyArray<[number, number]>,
  startEquity: number,
  span: [number, number],
): number[] {
  const [start, until] = span;
  const ends = dayEnds(start, until);
  const out: number[] = [];
  let prev = startEquity;
  let i = 0;
  let last = startEquity;
  for (const end of ends) {
    // a sample at the boundary itself belongs to the day it closes
    while (i < curve.length && curve[i][0] <= end) last = curve[i++][1];
    out.push(prev === 0 ? 0 : ratioOf(new D(last).minus(prev), prev));
    prev = last;
  }
  return out;
}

/**
 * The daily returns of a set's jobs, in time order, one a UTC day: a job's returns are each of the
 * UTC day they end in (dailyReturns' periods), and the returns of pieces of one day (a sweep split
 * in 6h) are compounded into that day's, so a Sharpe annualised by days is of days, not of pieces.
 */
export function setDailyReturns(
  jobs: ReadonlyArray<{ start: number; until: number; returns: readonly number[] }>,
): number[] {
  const days: number[] = [];
  const of: Decimal[] = [];
  for (const j of jobs) {
    const ends = dayEnds(j.start, j.until);
    j.returns.forEach((r, i) => {
      const day = Math.floor((ends[i] - 1) / DAY);
      const growth = new D(r).plus(1);
      if (days.length > 0 && days[days.length - 1] === day) of[of.length - 1] = of[of.length - 1].times(growth);
      else {
        days.push(day);
        of.push(growth);
      }
    });
  }
  return of.map((g) => ratio(g.minus(1)));
}

/** A job of a set as its drawdown reads it: its net equity curve on its balance, its end and its own drawdown. */
export interface ChainedJob {
  equity: ReadonlyArray<[number, number]>;
  starting_equity: number;
  net_pnl: number;
  max_drawdown_ratio: number;
}

/**
 * The largest drawdown ratio of a set's compounded net equity: its jobs' curves chained in time
 * order, each scaled by the growth of the jobs before it (the curve the Sweeps page draws), each
 * job starting at its balance and ending at its balance plus its net PnL. A set that loses every
 * day and ends at its low has at least -return. At least each job's own ratio too: a job's curve
 * is thinned (500 points), its own ratio measured at every sample, and a higher peak before it
 * only deepens a fall.
 */
export function chainedDrawdownRatio(jobs: readonly ChainedJob[]): number {
  let growth = new D(1);
  let peak = new D(1);
  let worst = new D(0);
  const see = (x: Decimal) => {
    if (x.gt(peak)) peak = x;
    else if (peak.gt(0)) worst = Decimal.max(worst, peak.minus(x).div(peak));
  };
  for (const j of jobs) {
    if (j.starting_equity === 0) continue;
    const per = growth.div(j.starting_equity);
    see(growth);
    for (const [, e] of j.equity) see(per.times(e));
    growth = per.times(new D(j.starting_equity).plus(j.net_pnl));
    see(growth);
  }
  return ratio(Decimal.max(worst, ...jobs.map((j) => j.max_drawdown_ratio)));
}

/** The mean of returns in decimal.js: a float sum's last bit would be a deviation of days that do not vary. */
function mean(xs: readonly number[]): Decimal {
  return xs.reduce((a: Decimal, x) => a.plus(x), new D(0)).div(xs.length);
}

/** sqrt(365): daily returns annualised. */
const ANNUAL = new D(365).sqrt();

/**
 * Annualised Sharpe ratio of daily returns (sample deviation); null under 2 returns or with none
 * varying. In decimal.js: in floats, days of one return (0.1, 0.1, 0.1) had a mean a bit off each
 * (0.10000000000000002), a deviation of 1e-17 and a Sharpe of 1.1e17.
 */
export function sharpe(returns: readonly number[]): number | null {
  if (returns.length < 2) return null;
  const m = mean(returns);
  const sd = returns
    .reduce((a: Decimal, r) => a.plus(new D(r).minus(m).pow(2)), new D(0))
    .div(returns.length - 1)
    .sqrt();
  return sd.isZero() ? null : ratio(m.div(sd).times(ANNUAL));
}

/** Annualised Sortino ratio (downside deviation against 0); null under 2 returns or with no losing day. */
export function sortino(returns: readonly number[]): number | null {
  if (returns.length < 2) return null;
  const down = returns
    .reduce((a: Decimal, r) => (r < 0 ? a.plus(new D(r).pow(2)) : a), new D(0))
    .div(returns.length)
    .sqrt();
  return down.isZero() ? null : ratio(mean(returns).div(down).times(ANNUAL));
}

export interface MetricsInput {
  /** The bot account's report; undefined when it never appeared in it (did nothing). */
  account: ReplayAccountReport | undefined;
  /** The job's starting balance: the equity every figure is measured from. */
  balance: number;
  /** Realized PnL of each closed position, USDT. */
  closed: readonly number[];
  span: [number, number];
}

/**
 * The bot account's net equity curve (equity less what it deposited, withdrew or set by a reset)
 * on the job's balance: what the job's returns, Sharpe and drawdown are read from, and the curve
 * the sweep stores and draws, so a deposit is no jump in it.
 */
export function netEquityCurve(a: ReplayAccountReport | undefined, balance: number): Array<[number, number]> {
  // the job's balance is what the bot was given; the report's starting equity is what the account
  // held before its first command, and its net equity is that plus the net PnL: so balance + net
  // PnL is the net equity on the balance (the shift is 0 unless the two differ)
  const shift = a === undefined ? new D(0) : new D(balance).minus(a.starting_equity);
  return (a?.net_equity_curve ?? []).map(([t, e]) => [t, usdt(shift.plus(e))] as [number, number]);
}

export function jobMetrics(inp: MetricsInput): JobMetrics {
  const a = inp.account;
  const start = inp.balance;
  const curve = netEquityCurve(a, start);
  const days = dailyReturns(curve, start, inp.span);
  const net = a === undefined ? 0 : usdt(a.net_pnl);
  const wins = inp.closed.filter((x) => x > 0).length;
  const per = (x: Decimal.Value) => (start === 0 ? 0 : ratioOf(x, start));
  const spanMs = inp.span[1] - inp.span[0];
  const inMarket = a === undefined || spanMs <= 0 ? 0 : Math.min(spanMs, a.time_in_market_ms);
  return {
    starting_equity: start,
    net_pnl: net,
    return: per(net),
    max_drawdown: a === undefined ? 0 : usdt(a.max_drawdown),
    max_drawdown_ratio: ratio(a?.max_drawdown_ratio ?? 0),
    sharpe: sharpe(days),
    sortino: sortino(days),
    daily_returns: days,
    fees: a === undefined ? 0 : usdt(a.fees),
    funding: a === undefined ? 0 : usdt(a.funding),
    trades: a?.fills ?? 0,
    win_rate: inp.closed.length === 0 ? null : ratioOf(wins, inp.closed.length),
    closed_positions: inp.closed.length,
    // of the span's time, not of the time the replay ran: a bot that left at 01:00 of a day is
    // in the market for no more than 1/24 of it
    time_in_market: ratio(inMarket === 0 ? 0 : new D(inMarket).div(spanMs)),
    time_in_market_ms: inMarket,
    turnover: a === undefined ? 0 : per(a.volume),
    volume: a === undefined ? 0 : usdt(a.volume),
    liquidations: a?.liquidations ?? 0,
  };
}

/** At most `max` points of a curve, evenly picked, the first and last kept. */
export function thinCurve(curve: ReadonlyArray<[number, number]>, max = 500): Array<[number, number]> {
  if (curve.length <= max) return curve.slice();
  const out: Array<[number, number]> = [];
  for (let i = 0; i < max; i++) out.push(curve[Math.round((i * (curve.length - 1)) / (max - 1))]);
  return out;
}
