// A settlement the market clock passed just before a stop is settled (docs/simulated-market.md,
// "A restart"). The service's close stopped the simulation first and the clock ran on through the
// rest of it (server, replays, datasets); the venue saved the clock's time at the end, and the
// restart's simulation began at that time's step: the steps in between, a funding settlement among
// them, never ran. The headless service at speed 10000, sent SIGTERM a few ms after the clock passed
// 00:00, restarted at 01:07 with no 00:00 settlement for any pair: no payment, no fundingRate record.
import { describe, expect, it } from 'vitest';
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
});
