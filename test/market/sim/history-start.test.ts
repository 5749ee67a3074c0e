// The first start of a venue: a client asking for a pair's klines as soon as the service listens
// reads the whole 30-day history, for any trading pair (the first, one in the middle, the last),
// ending at the current hour.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SymbolStatus } from '../../../src-shared/enums.ts';
import { startService } from '../../../src-main/service.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('history at the first start', () => {
  it('a klines request right after start gets the full 30 days of every pair', async () => {
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
    } finally {
      await svc.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
