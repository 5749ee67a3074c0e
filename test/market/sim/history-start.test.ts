// The first start of a venue: a client asking for a pair's klines as soon as the service listens
// reads the whole 30-day history, for any trading pair (the first, one in the middle, the last),
// ending at the current hour, and the funding-rate history of its 8 h settlements.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SymbolStatus } from '../../../src-shared/enums.ts';
import { startService } from '../../../src-main/service.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('history at the first start', () => {
  it('a klines request right after start gets the full 30 days of every pair, fundingRate every settlement', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'perpdesk-history-start-'));
    const svc = await startService({ dataDir: dir, seed: 3, port: 0, logger: false, rateLimit: false });
    try {
      const now = svc.venue.clock.now();
      const pairs = [...svc.venue.exchange.pairs.values()]
        .filter((p) => p.row.status === SymbolStatus.TRADING)
        .map((p) => p.row.symbol);
      expect(pairs.length).toBeGreaterThanOrEqual(12);
      for (const symbol of [pairs[0], pairs[Math.floor(pairs.length / 2)], pairs[pairs.length - 1]]) {
        const from = Math.floor((now - 30 * DAY) / HOUR) * HOUR;
        const res = await fetch(
          `${svc.url}/fapi/v1/klines?symbol=${symbol}&interval=1h&start_time=${from}&end_time=${now}`,
        );
        expect(res.status).toBe(200);
        const rows = ((await res.json()) as Array<[number, ...unknown[]]>).sort((a, b) => a[0] - b[0]);
        // every hour of the 30 days and the current one, contiguous, each with trades
        expect(rows.length).toBe(Math.floor(now / HOUR) - from / HOUR + 1);
        expect(rows[0][0]).toBe(from);
        for (let i = 1; i < rows.length; i++) expect(rows[i][0] - rows[i - 1][0]).toBe(HOUR);
        expect(rows.slice(0, -1).every((r) => (r[8] as number) > 0)).toBe(true);
        const days = (await (
          await fetch(`${svc.url}/fapi/v1/klines?symbol=${symbol}&interval=1d&limit=40`)
        ).json()) as unknown[][];
        expect(days.length).toBe(31);
      }
      await fundingHistory(svc.url, now);
    } finally {
      await svc.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});

/**
 * The history's settlements as the live ones are stored: every 8 h instant of the 30 days, the
 * rate of the live rule at a premium of 0 (0.0100 %), at the mark the history stood at (the close
 * of the minute before the instant). No account existed: no payments.
 */
async function fundingHistory(url: string, now: number): Promise<void> {
  const H8 = 8 * HOUR;
  const get = async (path: string) => (await fetch(`${url}${path}`)).json() as Promise<Array<Record<string, unknown>>>;
  const rows = await get(`/binance/fapi/v1/fundingRate?symbol=BTCUSDT&startTime=${now - 31 * DAY}&limit=1000`);
  const times = rows.map((r) => r.fundingTime as number);
  expect(times.length).toBeGreaterThanOrEqual(89);
  expect(times[0]).toBeLessThanOrEqual(now - 30 * DAY + H8);
  expect(times.at(-1)).toBe(Math.floor(now / H8) * H8);
  for (let i = 0; i < times.length; i++) {
    expect(times[i] % H8).toBe(0);
    if (i > 0) expect(times[i] - times[i - 1]).toBe(H8);
  }
  expect(new Set(rows.map((r) => r.fundingRate))).toEqual(new Set(['0.00010000']));
  for (const r of [rows[0], rows[Math.floor(rows.length / 2)], rows.at(-1)!]) {
    const t = r.fundingTime as number;
    const [k] = (await get(
      `/binance/fapi/v1/klines?symbol=BTCUSDT&interval=1m&startTime=${t - 60_000}&limit=1`,
    )) as unknown as string[][];
    expect(Number(r.markPrice)).toBeCloseTo(Number(k[4]), 6);
  }
  // ccxt's default (no startTime): the newest 100, oldest first
  const newest = await get('/binance/fapi/v1/fundingRate?symbol=ETHUSDT');
  expect(newest.length).toBe(Math.min(100, times.length));
  expect(newest.at(-1)!.fundingTime).toBe(times.at(-1));
}
