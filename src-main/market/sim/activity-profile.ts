// Trading activity by UTC hour and weekday: a multiplier (mean 1 over a week) on the rates of
// the order-flow processes and on the history's trade counts, interpolated linearly between hour
// midpoints so the rate has no steps.
// The hour of day: Binance spot BTCUSDT's trade counts of 6-12 January 2025 (1h klines,
// test/fixtures/binance), each hour's share of its day averaged over the week and smoothed over
// three hours (1-2-1); scored on other days (16-18 May 2021) in activity-profile.test.ts. The
// weekend trades about a quarter less than weekdays.
// Keeps true: dayFactor averages 1 over a day, weekdayFactor 1 over a week.

const HOURLY_RAW = [
  0.84, 0.85, 0.82, 0.71, 0.61, 0.57, 0.59, 0.64, 0.64, 0.59, 0.67, 0.83, 0.96, 1.3, 1.85, 2.02, 1.74, 1.51, 1.32, 1.16,
  1.12, 1.0, 0.86, 0.83,
];
const RAW_MEAN = HOURLY_RAW.reduce((a, b) => a + b, 0) / 24;
/** The 24 hourly multipliers (index = UTC hour), mean exactly 1. */
export const HOURLY: readonly number[] = HOURLY_RAW.map((x) => x / RAW_MEAN);
/** Sunday = 0 .. Saturday = 6 (Date.getUTCDay), mean exactly 1. */
export const WEEKDAY: readonly number[] = [0.75, 1.1, 1.1, 1.1, 1.1, 1.1, 0.75];

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The multiplier of the hour of day at market time t (ms), interpolated between hour midpoints. */
export function dayFactor(t: number): number {
  const x = (((t % DAY_MS) + DAY_MS) % DAY_MS) / HOUR_MS - 0.5; // hours since the first midpoint
  const i = Math.floor(x);
  const f = x - i;
  const a = HOURLY[(i + 24) % 24];
  const b = HOURLY[(i + 25) % 24];
  return a + (b - a) * f;
}

export function weekdayFactor(t: number): number {
  // 1 January 1970 was a Thursday (getUTCDay 4); no Date object on this hot path
  return WEEKDAY[(((Math.floor(t / DAY_MS) + 4) % 7) + 7) % 7];
}

/** Activity at market time t: hour-of-day x weekday. */
export function activity(t: number): number {
  return dayFactor(t) * weekdayFactor(t);
}
