// The candles after a kill -9 (docs/reliability.md, "The market's own records across a restart"):
// closed candles are written at every advance, the current ones at the market checkpoint (once a
// second), so the candles open at the crash hold what the last checkpoint saw while the finer
// candles closed after it hold more. A start after an unclean stop builds each interval's newest
// candles again from the finer ones, so every interval agrees: before, a 1m candle of 2481 trades
// stayed over 1s candles of 2501 for good.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { INTERVALS, INTERVAL_MS } from '../../src-shared/intervals.ts';
import { CandleBuilder, type Candle } from '../../src-main/market/candles.ts';
import { CandlesRepo } from '../../src-main/store/candles-repo.ts';
import { openDatabase, closeDatabase } from '../../src-main/store/database.ts';
import { openVenue } from '../../src-main/venue.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

// a Monday at 00:00 UTC, inside a month: every interval's window holds the whole run
const T = Date.UTC(2026, 0, 5);
const SYMBOL = 'BTCUSDT';

/** What a kill -9 at `crash` leaves of a run trading from T: closed candles as they closed, the current ones of the checkpoint at `checkpoint`. */
function crashState(repo: CandlesRepo, checkpoint: number, crash: number): void {
  const write = (c: Candle): void => repo.writeMany([SYMBOL], [c]);
  const b = new CandleBuilder({ intervals: INTERVALS, onClose: write });
  let price = 960_000;
  let checkpointed = false;
  for (let t = T; t < crash; t += 37) {
    if (!checkpointed && t >= checkpoint) {
      for (const c of b.currentAll()) write(c); // the market checkpoint
      checkpointed = true;
    }
    price += ((t * 7919) % 11) - 5;
    b.trade(t, price, 1 + (t % 5), (t % 3) + 1 === 1 ? 1 : 2, 1 + (t % 2));
    b.advanceTo(t);
  }
  repo.commitNow();
}

/** Sums of the stored 1s candles in [from, from + ms). */
function secondsSum(db: DatabaseSync, from: number, ms: number): { n: number; vol: number } {
  return db
    .prepare(
      "SELECT SUM(trades) AS n, SUM(volume) AS vol FROM candles WHERE symbol = ? AND interval = '1s' AND open_time >= ? AND open_time < ?",
    )
    .get(SYMBOL, from, from + ms) as { n: number; vol: number };
}

function newest(db: DatabaseSync, interval: string): { open_time: number; trades: number; volume: number } {
  return db
    .prepare(
      'SELECT open_time, trades, volume FROM candles WHERE symbol = ? AND interval = ? ORDER BY open_time DESC LIMIT 1',
    )
    .get(SYMBOL, interval) as { open_time: number; trades: number; volume: number };
}

describe('candles after an unclean stop', () => {
  for (const clean of [false, true]) {
    it(
      clean
        ? 'a clean stop leaves the candles as they are'
        : 'every interval’s newest candle is built again from the finer ones, so all of them agree',
      async () => {
        const dir = mkdtempSync(join(tmpdir(), 'perpdesk-candle-repair-'));
        dirs.push(dir);
        await openVenue({ dataDir: dir, simulate: false, wall: () => T }).close();
        // the crash: 2 min 30.4 s of trading, the last checkpoint 0.7 s before the end
        const db = openDatabase({ dataDir: dir });
        db.exec("DELETE FROM candles; DELETE FROM settings WHERE key = 'market_time'");
        if (!clean) db.exec("UPDATE settings SET value = '1' WHERE key = 'running'");
        crashState(new CandlesRepo(db), T + 149_700, T + 150_400);
        const before = newest(db, '1m');
        closeDatabase(db);
        const stale = secondsSum(new DatabaseSync(join(dir, 'perpdesk.db')), before.open_time, 60_000);
        expect(before.trades).toBeLessThan(stale.n); // the 1m candle missed the trades after the checkpoint

        const v = openVenue({ dataDir: dir, simulate: false, wall: () => T + 200_000 });
        await v.close();
        const raw = new DatabaseSync(join(dir, 'perpdesk.db'));
        try {
          for (const interval of INTERVALS.filter((i) => i !== '1s')) {
            const c = newest(raw, interval);
            const ms = interval === '1M' ? 31 * 86_400_000 : INTERVAL_MS[interval];
            const sum = secondsSum(raw, c.open_time, ms);
            if (clean) {
              if (interval === '1m') expect(c.trades).toBe(before.trades);
            } else {
              expect({ interval, trades: c.trades, volume: c.volume }).toEqual({
                interval,
                trades: sum.n,
                volume: sum.vol,
              });
            }
          }
        } finally {
          raw.close();
        }
      },
    );
  }
});
