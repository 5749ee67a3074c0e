// The UTC activity profile: fitted on one week of real Binance trade counts, scored on other days,
// and the simulated market's trade rate by hour (its history, the live model coarse-grained:
// history-vs-live.test.ts) within 0.5x-2x of Binance's at every hour, the quiet ones included.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dayFactor, HOURLY, WEEKDAY } from '../../../src-main/market/sim/activity-profile.ts';
import { fastForwardHistorySync, type HistoryTrade } from '../../../src-main/market/sim/history.ts';
import { corr, hourProfile, mean } from '../../helpers/realism-stats.ts';
import { T0, testVenue } from './helpers.ts';

const KLINES = join(import.meta.dirname, '../../fixtures/binance/klines');
/** Binance USD-M BTCUSDT's daily mean trade rate (docs/realism.md: 33-47 a second). */
const DAY_RATE = 33;

/** Open times and trade counts of a data.binance.vision kline CSV. */
function counts(file: string): { t: number[]; n: number[] } {
  const rows = readFileSync(join(KLINES, file), 'utf8').trim().split('\n').slice(1);
  return { t: rows.map((r) => Number(r.split(',')[0])), n: rows.map((r) => Number(r.split(',')[8])) };
}

/** Each hour's share of its day (mean 1 a day), averaged over the days. */
function dayShares(k: { t: number[]; n: number[] }): number[] {
  const days = new Map<number, number[]>();
  k.t.forEach((t, i) => {
    const d = Math.floor(t / 86_400_000);
    const row = days.get(d) ?? new Array<number>(24).fill(0);
    row[new Date(t).getUTCHours()] = k.n[i];
    days.set(d, row);
  });
  const out = new Array<number>(24).fill(0);
  for (const row of days.values()) {
    const m = mean(row);
    row.forEach((x, h) => (out[h] += x / m / days.size));
  }
  return out;
}

const fitWeek = counts('binance_spot_BTCUSDT_1h_2025-01-06_to_2025-01-12.csv');
const otherDays = counts('binance_spot_BTCUSDT_1h_2021-05-16_to_2021-05-18.csv');

describe('the UTC activity profile', () => {
  it('is the fit of the January 2025 week: hour shares averaged and smoothed 1-2-1', () => {
    const s = dayShares(fitWeek);
    const smooth = s.map((x, h) => (s[(h + 23) % 24] + 2 * x + s[(h + 1) % 24]) / 4);
    const m = mean(smooth);
    for (let h = 0; h < 24; h++) expect(HOURLY[h], `hour ${h}`).toBeCloseTo(smooth[h] / m, 1);
    expect(mean(HOURLY)).toBeCloseTo(1, 12);
    expect(mean(WEEKDAY)).toBeCloseTo(1, 12);
    // interpolated between hour midpoints: continuous, and the day's mean is 1
    let sum = 0;
    for (let i = 0; i < 1440; i++) sum += dayFactor(T0 + i * 60_000 + 30_000);
    expect(sum / 1440).toBeCloseTo(1, 2);
  });

  it('scores on other days (16-18 May 2021): correlated, and within 0.5x-2x at every hour', () => {
    const real = dayShares(otherDays);
    expect(corr(HOURLY, real)).toBeGreaterThan(0.5);
    for (let h = 0; h < 24; h++) {
      expect(real[h] / HOURLY[h], `hour ${h}`).toBeGreaterThan(0.5);
      expect(real[h] / HOURLY[h], `hour ${h}`).toBeLessThan(2);
    }
  });

  it("the simulated BTCUSDT trade rate by UTC hour is within 0.5x-2x of Binance's at every hour", () => {
    const tv = testVenue({ seed: 4 });
    try {
      const pairs = [...tv.venue.exchange.pairs.values()].filter((p) => p.row.symbol === 'BTCUSDT');
      const times: number[] = [];
      const n: number[] = [];
      // trades per minute, weekdays only (the real rate of 33 a second is a weekday figure here)
      const perMinute = new Map<number, number>();
      const rec = (_s: string, t: Readonly<HistoryTrade>) => {
        const m = Math.floor(t.time / 60_000) * 60_000;
        perMinute.set(m, (perMinute.get(m) ?? 0) + t.count);
      };
      fastForwardHistorySync({ pairs, seed: 4, end: T0, days: 28, recorder: { recordTrade: rec } });
      for (const [m, c] of perMinute) {
        const wd = new Date(m).getUTCDay();
        if (wd === 0 || wd === 6) continue;
        times.push(m);
        n.push(c / 60);
      }
      const rel = hourProfile(times, n);
      const level = mean(n);
      const real = dayShares(otherDays);
      const byHour = rel.map((x, h) => (x * level) / (DAY_RATE * real[h]));
      for (let h = 0; h < 24; h++) {
        expect(byHour[h], `hour ${h}: ${byHour.map((x) => x.toFixed(2)).join(' ')}`).toBeGreaterThan(0.5);
        expect(byHour[h], `hour ${h}`).toBeLessThan(2);
      }
      expect(corr(rel, HOURLY)).toBeGreaterThan(0.9);
    } finally {
      tv.close();
    }
  }, 60_000);
});
