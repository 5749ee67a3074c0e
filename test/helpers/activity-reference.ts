// Binance's trading activity by hour of the week, fitted from real hourly trade counts, and the
// score of a trade-rate series against it: shared by the activity profile's provenance test and
// `npm run realism` (docs/realism.md, "The trade rate by UTC hour").
// A fit is two day shapes (each hour's share of its day, mean 1 a day, averaged over the
// weekdays and over the weekend days) and a day-of-week factor (each day's mean over its Monday to
// Sunday week's, averaged over the whole weeks). Its week table, day factor x shape, has mean 1.
// The score divides a series' rate in each hour of the week by its level times the table: the
// level (a mean day's rate) is scored on its own, so the ratios measure the profile's shape and
// the weekday/weekend difference only.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const FIXTURES = join(import.meta.dirname, '../fixtures/binance');

/** Spot BTCUSDT's trades per UTC hour, 2024 and 2025 (test/fixtures/binance/SOURCES.md). */
export const COUNTS_FILE = join(FIXTURES, 'activity/binance_spot_BTCUSDT_1h_counts_2024-01-01_to_2025-12-31.csv');

export interface HourCounts {
  /** Open times (ms UTC) of whole hours, ascending. */
  t: number[];
  n: number[];
}

/** An `open_time,count` CSV (or any data.binance.vision kline CSV: its columns 0 and 8). */
export function readHourCounts(file: string = COUNTS_FILE): HourCounts {
  const rows = readFileSync(file, 'utf8').trim().split('\n');
  const head = rows[0].split(',');
  const col = head.indexOf('count');
  if (head[0] !== 'open_time' || col < 0) throw new Error(`${file}: expected the columns open_time and count`);
  const t: number[] = [];
  const n: number[] = [];
  for (const r of rows.slice(1)) {
    const f = r.split(',');
    t.push(Number(f[0]));
    n.push(Number(f[col]));
  }
  return { t, n };
}

/** The counts of the UTC years given (e.g. [2024]). */
export function ofYears(c: HourCounts, years: readonly number[]): HourCounts {
  const keep = c.t.map((t) => years.includes(new Date(t).getUTCFullYear()));
  return { t: c.t.filter((_, i) => keep[i]), n: c.n.filter((_, i) => keep[i]) };
}

export interface ActivityFit {
  /** Each UTC hour's share of its day (mean 1), Monday to Friday and Saturday/Sunday. */
  weekdayHours: number[];
  weekendHours: number[];
  /** Each day's mean over its week's, Sunday = 0 .. Saturday = 6 (Date.getUTCDay). */
  dayOfWeek: number[];
  days: number;
  weeks: number;
}

/** Sunday = 0 .. Saturday = 6 of the UTC day `d` (days since 1 January 1970, a Thursday). */
function dow(d: number): number {
  return (((d + 4) % 7) + 7) % 7;
}

const isWeekend = (d: number) => dow(d) === 0 || dow(d) === 6;
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The fit of hourly counts; only whole days (24 hours, each with trades) count. */
export function fitActivity(c: HourCounts): ActivityFit {
  const byDay = new Map<number, number[]>();
  c.t.forEach((t, i) => {
    const d = Math.floor(t / DAY_MS);
    const row = byDay.get(d) ?? new Array<number>(24).fill(NaN);
    row[Math.floor((t - d * DAY_MS) / HOUR_MS)] = c.n[i];
    byDay.set(d, row);
  });
  const whole = new Map([...byDay].filter(([, row]) => row.every((x) => x > 0)));
  const shape = (weekend: boolean) => {
    const rows = [...whole].filter(([d]) => isWeekend(d) === weekend).map(([, row]) => row);
    const out = new Array<number>(24).fill(0);
    for (const row of rows) {
      const m = mean(row);
      row.forEach((x, h) => (out[h] += x / m / rows.length));
    }
    return out;
  };
  const sum = new Array<number>(7).fill(0);
  let weeks = 0;
  for (const d of whole.keys()) {
    if (dow(d) !== 1) continue;
    const week = [0, 1, 2, 3, 4, 5, 6].map((i) => whole.get(d + i));
    if (week.some((row) => row === undefined)) continue;
    const means = week.map((row) => mean(row!));
    const m = mean(means);
    means.forEach((x, i) => (sum[(i + 1) % 7] += x / m));
    weeks++;
  }
  return {
    weekdayHours: shape(false),
    weekendHours: shape(true),
    dayOfWeek: sum.map((s) => s / weeks),
    days: whole.size,
    weeks,
  };
}

/** The week table of a fit: index day-of-week x 24 + hour, day factor x shape, mean exactly 1. */
export function weekTable(f: Pick<ActivityFit, 'weekdayHours' | 'weekendHours' | 'dayOfWeek'>): number[] {
  const raw: number[] = [];
  for (let d = 0; d < 7; d++) {
    const hours = d === 0 || d === 6 ? f.weekendHours : f.weekdayHours;
    for (let h = 0; h < 24; h++) raw.push(f.dayOfWeek[d] * hours[h]);
  }
  const m = mean(raw);
  return raw.map((x) => x / m);
}

/** Index of the hour of the week (0 .. 167, Sunday 00h = 0) of market time t (ms UTC). */
export function hourOfWeek(t: number): number {
  const d = Math.floor(t / DAY_MS);
  return dow(d) * 24 + Math.floor((t - d * DAY_MS) / HOUR_MS);
}

export interface HourScore {
  /** The series' mean day: the mean over its samples of rate / table (the daily-mean row). */
  level: number;
  /** Per hour of the week with at least minSamples samples: mean rate / (level x table). */
  cells: Array<{ hourOfWeek: number; samples: number; ratio: number }>;
}

/**
 * Scores a rate series (e.g. trades a second of each 1m candle, at its open time) against a week
 * table: its level, and each hour of the week's mean rate over level x the table's value. Samples
 * of the same hour of the week on different weeks are pooled; hours with fewer than minSamples
 * are left out (a 1m series: 30 is half an hour).
 */
export function scoreByHour(
  table: readonly number[],
  series: { times: ArrayLike<number>; rates: ArrayLike<number> },
  minSamples = 30,
): HourScore {
  if (table.length !== 168) throw new Error(`scoreByHour: the week table has ${table.length} hours, not 168`);
  const sum = new Array<number>(168).fill(0);
  const cnt = new Array<number>(168).fill(0);
  let rel = 0;
  for (let i = 0; i < series.times.length; i++) {
    const k = hourOfWeek(series.times[i]);
    sum[k] += series.rates[i];
    cnt[k]++;
    rel += series.rates[i] / table[k];
  }
  const level = rel / series.times.length;
  const cells: HourScore['cells'] = [];
  for (let k = 0; k < 168; k++)
    if (cnt[k] >= minSamples)
      cells.push({ hourOfWeek: k, samples: cnt[k], ratio: sum[k] / cnt[k] / (level * table[k]) });
  return { level, cells };
}

/**
 * The lowest and the highest hour ratio (scoreByHour) of every run of `hours` consecutive hours of
 * an hourly count series: how far a single stretch of that length strays from the mean profile.
 * A live run of the model is one such stretch; Binance's own windows give its band.
 */
export function windowExtremes(
  table: readonly number[],
  c: HourCounts,
  hours: number,
): { low: number[]; high: number[] } {
  if (!(Number.isInteger(hours) && hours >= 1))
    throw new Error(`windowExtremes: hours must be a whole number >= 1; got ${hours}`);
  const low: number[] = [];
  const high: number[] = [];
  for (let s = 0; s + hours <= c.t.length; s++) {
    if (c.t[s + hours - 1] - c.t[s] !== (hours - 1) * HOUR_MS) continue; // a gap in the recording
    const r = scoreByHour(table, { times: c.t.slice(s, s + hours), rates: c.n.slice(s, s + hours) }, 1).cells.map(
      (x) => x.ratio,
    );
    low.push(Math.min(...r));
    high.push(Math.max(...r));
  }
  return { low, high };
}
