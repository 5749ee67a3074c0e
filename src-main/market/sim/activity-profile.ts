// Trading activity by hour of the week (UTC): a multiplier, mean 1 over a week, on the rates of
// the order-flow processes and on the history's trade counts, interpolated linearly between hour
// midpoints so the rate has no steps (across midnight too, from one day's last hour to the next
// day's first).
// Fitted on Binance spot BTCUSDT's trade counts of every hour of 2024 (1h klines,
// test/fixtures/binance/activity): each hour's share of its day, averaged over the weekdays and
// over the weekend days (the weekend has no US-open peak and a late-Sunday rise), and each day of
// the week's trades over its week's mean day. Scored on other days (the counts of 2025) in
// activity-profile.test.ts and by `npm run realism` (docs/realism.md, the trade rate by UTC hour).
// Keeps true: WEEK has 168 entries and mean exactly 1, so activity() averages 1 over a week.

/** Each UTC hour's share of a weekday (Monday to Friday), 2024; index = UTC hour. */
export const WEEKDAY_HOURS: readonly number[] = [
  0.88, 0.93, 0.83, 0.74, 0.67, 0.64, 0.72, 0.83, 0.86, 0.83, 0.83, 0.85, 1.16, 1.48, 1.93, 1.73, 1.46, 1.22, 1.19,
  1.13, 0.99, 0.77, 0.69, 0.64,
];
/** Each UTC hour's share of a Saturday or Sunday, 2024. */
export const WEEKEND_HOURS: readonly number[] = [
  1.1, 1.04, 0.92, 0.83, 0.81, 0.83, 0.77, 0.85, 0.83, 0.89, 0.86, 0.9, 1.0, 1.13, 1.29, 1.25, 1.22, 1.16, 1.02, 0.95,
  1.06, 0.95, 1.18, 1.16,
];
/** Each day's trades over its week's mean day, Sunday = 0 .. Saturday = 6 (Date.getUTCDay), 2024. */
export const DAY_OF_WEEK: readonly number[] = [0.67, 1.15, 1.18, 1.16, 1.12, 1.12, 0.6];

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const WEEK_HOURS = 168;

function weekTable(): readonly number[] {
  const raw: number[] = [];
  for (let d = 0; d < 7; d++) {
    const hours = d === 0 || d === 6 ? WEEKEND_HOURS : WEEKDAY_HOURS;
    for (let h = 0; h < 24; h++) raw.push(DAY_OF_WEEK[d] * hours[h]);
  }
  const m = raw.reduce((a, b) => a + b, 0) / raw.length;
  return raw.map((x) => x / m);
}

/** Activity by hour of the week (index day x 24 + UTC hour, day as Date.getUTCDay), mean exactly 1. */
export const WEEK: readonly number[] = weekTable();

/** Activity at market time t (ms): the week table interpolated between hour midpoints. */
export function activity(t: number): number {
  // 1 January 1970 was a Thursday (getUTCDay 4); no Date object on this hot path
  const day = Math.floor(t / DAY_MS);
  const hourOfWeek = ((((day + 4) % 7) + 7) % 7) * 24 + (t - day * DAY_MS) / HOUR_MS;
  const x = hourOfWeek - 0.5; // hours since the first midpoint
  const i = Math.floor(x);
  const f = x - i;
  const a = WEEK[(i + WEEK_HOURS) % WEEK_HOURS];
  const b = WEEK[(i + 1 + WEEK_HOURS) % WEEK_HOURS];
  return a + (b - a) * f;
}
