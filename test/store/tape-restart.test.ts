// The public tape, trade ids, order ids and book update ids across a clean restart on the same
// data folder (in process, no simulated market: the trades are bot orders crossing): the tape
// comes back whole, and every id continues from the last one handed out.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { schemaVersion } from '../../src-main/store/database.ts';
import { MIGRATIONS } from '../../src-main/store/migrations.ts';
import { RECENT_TRADES_KEPT } from '../../src-main/market/recent-trades.ts';
import { HOUSE_ACCOUNT } from '../../src-main/trading/exchange.ts';
import { openVenue, type LocalVenue } from '../../src-main/venue.ts';
import { placeBotOrder } from '../helpers/exchange-commands.ts';

const dirs: string[] = [];
const open: LocalVenue[] = [];
afterEach(async () => {
  for (const v of open.splice(0)) await v.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function venue(dataDir: string): LocalVenue {
  const v = openVenue({ dataDir, simulate: false });
  open.push(v);
  return v;
}

/** `n` trades on `symbol`: a bot ask, then a bot market buy that takes it; returns the last order id. */
function trade(v: LocalVenue, symbol: string, price: string, qty: string, n: number): number {
  let last = 0;
  for (let i = 0; i < n; i++) {
    placeBotOrder(v.exchange, { symbol, side: 2, position_side: 2, position_action: 1, type: 1, price, qty });
    // another engine account (self-trade prevention would stop the house against itself)
    const r = placeBotOrder(
      v.exchange,
      { symbol, side: 1, position_side: 1, position_action: 1, type: 2, qty },
      HOUSE_ACCOUNT + 1,
    );
    last = Number(r.order_id);
  }
  return last;
}

function dataDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'perpdesk-tape-'));
  dirs.push(d);
  return d;
}

async function restart(v: LocalVenue, dir: string): Promise<LocalVenue> {
  await v.close();
  open.splice(open.indexOf(v), 1);
  return venue(dir);
}

describe('the public tape and the ids across a restart', () => {
  it('a clean restart keeps every pair its last trades, and the ring goes on in its slots', async () => {
    const dir = dataDir();
    const a = venue(dir);
    // BTCUSDT past its ring (the oldest trades were overwritten), ETHUSDT a few
    trade(a, 'BTCUSDT', '96000.0', '0.010', RECENT_TRADES_KEPT + 30);
    trade(a, 'ETHUSDT', '3500.00', '0.100', 7);
    trade(a, 'BTCUSDT', '96001.0', '0.010', 5);
    const btc = a.recentTrades.newest('BTCUSDT', RECENT_TRADES_KEPT);
    const eth = a.recentTrades.newest('ETHUSDT', RECENT_TRADES_KEPT);
    expect(btc).toHaveLength(RECENT_TRADES_KEPT);
    expect(eth).toHaveLength(7);

    const b = await restart(a, dir);
    expect(b.recentTrades.newest('BTCUSDT', RECENT_TRADES_KEPT)).toEqual(btc);
    expect(b.recentTrades.newest('ETHUSDT', RECENT_TRADES_KEPT)).toEqual(eth);
    expect(b.recentTrades.newest('SOLUSDT', 10)).toEqual([]);
    trade(b, 'BTCUSDT', '96002.0', '0.010', 3);
    const after = b.recentTrades.newest('BTCUSDT', RECENT_TRADES_KEPT);
    expect(after.slice(3)).toEqual(btc.slice(0, RECENT_TRADES_KEPT - 3));

    // and again: what was written after the first restart went into the slots it was loaded into
    const c = await restart(b, dir);
    expect(c.recentTrades.newest('BTCUSDT', RECENT_TRADES_KEPT)).toEqual(after);
    expect(c.recentTrades.newest('ETHUSDT', RECENT_TRADES_KEPT)).toEqual(eth);
  });

  it('a clean restart continues the trade, order and book update ids from the last one', async () => {
    const dir = dataDir();
    const a = venue(dir);
    trade(a, 'ETHUSDT', '3500.00', '0.100', 3);
    const lastOrder = trade(a, 'BTCUSDT', '96001.0', '0.010', 5);
    const lastTrade = a.recentTrades.newest('BTCUSDT', 1)[0].tradeId;
    const bookId = a.exchange.pair('BTCUSDT')!.book.updateId;
    expect(bookId).toBeGreaterThan(0);

    const b = await restart(a, dir);
    // the book was empty at the stop and is now: its id stands where it stood
    expect(b.exchange.pair('BTCUSDT')!.book.updateId).toBe(bookId);
    expect(trade(b, 'BTCUSDT', '96002.0', '0.010', 1)).toBe(lastOrder + 2); // the ask took lastOrder + 1
    expect(b.recentTrades.newest('BTCUSDT', 1)[0].tradeId).toBe(lastTrade + 1);
    expect(b.exchange.pair('BTCUSDT')!.book.updateId).toBe(bookId + 2); // the ask's level came and went
  });

  it('a folder of schema 12 (trade ids from the shared id block) migrates and never reuses an id', async () => {
    const dir = dataDir();
    const db = new DatabaseSync(join(dir, 'perpdesk.db'));
    db.exec('PRAGMA journal_mode = WAL');
    for (let v = 0; v < 12; v++) db.exec(MIGRATIONS[v]);
    db.exec('PRAGMA user_version = 12');
    // a venue of that build stopped with ids handed out up to its block's end
    db.prepare('INSERT INTO settings (key, value) VALUES (?, ?)').run('id_hwm', '300000');
    db.close();

    const a = venue(dir);
    expect(schemaVersion(a.db)).toBe(MIGRATIONS.length);
    expect(a.recentTrades.newest('BTCUSDT', 10)).toEqual([]);
    trade(a, 'BTCUSDT', '96000.0', '0.010', 2);
    const ids = a.recentTrades.newest('BTCUSDT', 10).map((t) => t.tradeId);
    expect(ids).toEqual([300_002, 300_001]);
    const b = await restart(a, dir);
    expect(b.recentTrades.newest('BTCUSDT', 10).map((t) => t.tradeId)).toEqual(ids);
  });
});

// A kill -9 can lose the tape's last second (saved once a second) while the 1s candles, written at
// every advance, hold its trades: in one run a fill at 96565.5 was acknowledged and closed the 1m
// candle, but after the restart last_price (complete_price, the ticker, the last-price triggers)
// said 96564.5, the tape's newest, until the next trade.
describe('the last price after an unclean stop', () => {
  it('is the last trade’s: the 1s candles’ close when they hold a trade the tape lost', async () => {
    const dir = dataDir();
    const a = venue(dir);
    trade(a, 'BTCUSDT', '96564.5', '0.010', 1);
    trade(a, 'BTCUSDT', '96565.5', '0.010', 1);
    const b = await restart(a, dir);
    await b.close();
    open.splice(open.indexOf(b), 1);
    // the crash: the tape's checkpoint had not saved the last trade; the candles had it
    const raw = new DatabaseSync(join(dir, 'perpdesk.db'));
    try {
      const newest = raw.prepare("SELECT MAX(id) AS id FROM public_trades WHERE symbol = 'BTCUSDT'").get() as {
        id: number;
      };
      raw.prepare('DELETE FROM public_trades WHERE id = ?').run(newest.id);
      raw.exec("UPDATE settings SET value = '1' WHERE key = 'running'");
    } finally {
      raw.close();
    }
    const c = venue(dir);
    expect(c.recentTrades.newest('BTCUSDT', 1)[0].priceTicks).toBe(965_645);
    const [minute] = c.klines!.klines('BTCUSDT', '1m', { limit: 1 });
    expect(minute[5]).toBe('96565.5');
    expect(c.exchange.pair('BTCUSDT')!.lastPriceTicks).toBe(965_655);
  });

  it('is the tape’s newest trade after a clean stop', async () => {
    const dir = dataDir();
    const a = venue(dir);
    trade(a, 'ETHUSDT', '3400.50', '0.100', 2);
    const b = await restart(a, dir);
    expect(b.exchange.pair('ETHUSDT')!.lastPriceTicks).toBe(340_050);
  });
});
