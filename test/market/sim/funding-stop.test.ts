// A settlement the market clock passed just before a stop is settled (docs/simulated-market.md,
// "A restart"). The service's close stopped the simulation first and the clock ran on through the
// rest of it (server, replays, datasets); the venue saved the clock's time at the end, and the
// restart's simulation began at that time's step: the steps in between, a funding settlement among
// them, never ran. The headless service at speed 10000, sent SIGTERM a few ms after the clock passed
// 00:00, restarted at 01:07 with no 00:00 settlement for any pair: no payment, no fundingRate record.
// A kill -9 after a market checkpoint that saved a clock already past the instant, the simulation
// not yet (the clock runs up to a driver tick ahead, seconds when the host is overloaded): the
// restart, past the instant, settles it from the funding interval the checkpoint saved.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SimulatedMarket } from '../../../src-main/market/sim/simulated-market.ts';
import { openVenue } from '../../../src-main/venue.ts';
import { restartingSim, T0 } from './helpers.ts';

const SYMBOL = 'BTCUSDT';
const SETTLEMENT = T0 + 16 * 3_600_000;
const { open, stop, run, idle } = restartingSim({
  prefix: 'perpdesk-funding-stop-',
  seed: 5,
  start: SETTLEMENT - 60_000,
  symbol: SYMBOL,
});

function fundingTimes(db: { prepare(sql: string): { all(...a: unknown[]): unknown[] } }): number[] {
  const rows = db
    .prepare('SELECT time FROM funding_rates WHERE symbol = ? AND time >= ? ORDER BY time')
    .all(SYMBOL, T0);
  return rows.map((r) => Number((r as { time: number | bigint }).time));
}

describe('a stop right after a funding instant', () => {
  it('settles the instant the clock passed before the stop', { timeout: 300_000 }, async () => {
    const a = open(true);
    run(a.market, 59_900);
    expect(a.market.sim.time).toBe(SETTLEMENT - 100);
    expect(fundingTimes(a.v.db)).not.toContain(SETTLEMENT);
    // the clock passes 16:00, the stop comes before the driver's next tick; the service's close
    // (its server, replays, datasets) takes a while before the venue's
    idle(150);
    a.market.stop();
    idle(5_000);
    await stop(a);

    const b = open(false);
    run(b.market, 1_000);
    expect(fundingTimes(b.v.db).filter((t) => t === SETTLEMENT)).toHaveLength(1);
    expect(b.s.feed.nextFunding).toBe(SETTLEMENT + 8 * 3_600_000);
    await stop(b);
  });
  it(
    'a kill -9 right after a checkpoint taken as the clock passed the instant settles it',
    { timeout: 300_000 },
    async () => {
      const a = open(true);
      run(a.market, 59_900);
      expect(a.market.sim.time).toBe(SETTLEMENT - 100);
      // the clock passes 16:00 by 5 s (an overloaded host) and the market checkpoint runs before the
      // driver's next tick
      idle(5_000);
      expect(a.v.clock.now()).toBeGreaterThan(SETTLEMENT);
      a.v.checkpointMarket();
      // its commit, then the process dies: the folder as it is then (its lock left out, as a dead
      // owner's would be taken over)
      await new Promise((r) => setTimeout(r, 100));
      const crashed = mkdtempSync(join(tmpdir(), 'perpdesk-funding-kill-'));
      try {
        const dataDir = (a.v.db.prepare('PRAGMA database_list').get() as { file: string }).file;
        cpSync(join(dataDir, '..'), crashed, { recursive: true, filter: (f) => !f.endsWith('.lock') });
        let wall = SETTLEMENT + 4_900;
        const b = openVenue({ dataDir: crashed, simulate: true, seed: 5, wall: () => wall });
        try {
          // (the checkpoint's time is the one restarted from: past the instant)
          expect(b.clock.now()).toBeGreaterThan(SETTLEMENT);
          const market = b.market as SimulatedMarket;
          market.start();
          for (let t = 0; t < 1_000; t += 100) {
            wall += 100;
            market.catchUp();
          }
          expect(fundingTimes(b.db).filter((t) => t === SETTLEMENT)).toHaveLength(1);
        } finally {
          await b.close();
        }
      } finally {
        rmSync(crashed, { recursive: true, force: true });
      }
      await stop(a);
    },
  );
});
