// Trading activity by UTC hour and weekday: a multiplier (mean 1 over a week) on the rates of
// the order-flow processes and on the history's trade counts.
//
// Shape: crypto volume dips in the Asian early morning and peaks when the US session opens
// beside the European afternoon (13:30-16:00 UTC), the pattern reported for Binance BTCUSDT by
// e.g. Eross, McGroarty, Urquhart and Wolfe (2019, "The intraday dynamics of bitcoin") and seen
// in the fixtures' January 2025 hourly klines (peak at 15h): about 2.2x the day's mean at 15h
// and 0.6x at 05h. Weekends trade about a quarter less than weekdays.
// The hourly values are interpolated linearly between hour midpoints, so the rate has no steps.
// Invariant: the mean of dayFactor over a day is 1, and the mean of weekdayFactor over a week is 1.

const HOURLY_RAW = [
  0.85, 0.8, 0.75, 0.7, 0.65, 0.6, 0.65, 0.75, 0.85, 0.9, 0.95, 1.0, 1.1, 1.45, 1.9, 2.2, 1.7, 1.4, 1.2, 1.05, 1.0,
  0.95, 0.9, 0.85,
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
  return WEEKDAY[new Date(t).getUTCDay()];
}

/** Activity at market time t: hour-of-day x weekday. */
export function activity(t: number): number {
  return dayFactor(t) * weekdayFactor(t);
}
