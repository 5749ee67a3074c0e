// What a kill -9 leaves on disk of the tape and the candles: the candles are written by the klines'
// own advances (every 250 ms of wall time), the tape by the market checkpoint (once a second) and,
// since every trade a stored candle counts must be on the stored tape, by every candle write as
// well. Read here through a second connection, as the next start would find the file, without any
// market checkpoint in between.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseFile } from '../../src-main/store/database.ts';
import { groupCommitOf } from '../../src-main/store/group-commit.ts';
import { HOUSE_ACCOUNT } from '../../src-main/trading/exchange.ts';
import { openVenue, type LocalVenue } from '../../src-main/venue.ts';
import { placeBotOrder } from '../helpers/exchange-commands.ts';

const T0 = Date.parse('2025-03-03T00:00:00Z');
const dirs: string[] = [];
const open: LocalVenue[] = [];
afterEach(async () => {
  for (const v of open.splice(0)) await v.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** `n` trades on BTCUSDT: a bot ask, then a market buy of another engine account that takes it. */
function trade(v: LocalVenue, n: number): void {
  const symbol = 'BTCUSDT';
  for (let i = 0; i < n; i++) {
    placeBotOrder(v.exchange, {
      symbol,
      side: 2,
      position_side: 2,
      position_action: 1,
      type: 1,
      price: '96000.0',
      qty: '0.010',
    });
    placeBotOrder(
      v.exchange,
      { symbol, side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.010' },
      HOUSE_ACCOUNT + 1,
    );
  }
}

describe('the tape and the candles a kill -9 leaves', () => {
  it('every trade a stored 1s candle counts is on the stored tape, with no market checkpoint in between', () => {
    const dir = mkdtempSync(join(tmpdir(), 'perpdesk-tape-crash-'));
    dirs.push(dir);
    let wall = T0;
    const v = openVenue({ dataDir: dir, simulate: false, wall: () => wall });
    open.push(v);
    wall = T0 + 200;
    trade(v, 3);
    wall = T0 + 1_300;
    trade(v, 2);
    // the klines' timer: the seconds that ended are closed and written
    wall = T0 + 2_500;
    v.klines.advanceTo(v.clock.now());
    groupCommitOf(v.db).commitNow();

    const disk = new DatabaseSync(databaseFile(dir), { readOnly: true });
    try {
      const candles = disk
        .prepare("SELECT open_time, trades FROM candles WHERE symbol = 'BTCUSDT' AND interval = '1s' AND trades > 0")
        .all() as Array<{ open_time: number; trades: number }>;
      expect(candles.reduce((n, c) => n + c.trades, 0)).toBe(5);
      const tape = disk.prepare("SELECT time FROM public_trades WHERE symbol = 'BTCUSDT'").all() as Array<{
        time: number;
      }>;
      for (const c of candles) {
        const onTape = tape.filter((t) => t.time >= c.open_time && t.time < c.open_time + 1000).length;
        expect({ second: c.open_time - T0, onTape }).toEqual({ second: c.open_time - T0, onTape: c.trades });
      }
    } finally {
      disk.close();
    }
  });
});
