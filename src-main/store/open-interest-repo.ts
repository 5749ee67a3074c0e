// Futures-statistics samples in SQLite (the market's OpenInterestStore port): one row per (pair,
// 5-minute boundary of market time) with its open interest, long/short counts and taker volume
// (NULL in the rows stored before migration 14), and each pair's taker volume not yet in a row.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { FuturesStats, OpenInterestSample, OpenInterestStore, OpenTakerVolume } from '../market/ports.ts';
import { transaction } from './database.ts';
import { groupCommitOf } from './group-commit.ts';

const STATS_COLUMNS =
  'long_accounts, short_accounts, top_long_accounts, top_short_accounts, top_long_lots, top_short_lots, taker_buy_lots, taker_sell_lots';

interface Row {
  time: number;
  lots: number;
  value: number;
  long_accounts: number | null;
  short_accounts: number | null;
  top_long_accounts: number | null;
  top_short_accounts: number | null;
  top_long_lots: number | null;
  top_short_lots: number | null;
  taker_buy_lots: number | null;
  taker_sell_lots: number | null;
}

function statsOf(r: Row): FuturesStats | null {
  if (r.long_accounts === null) return null;
  return {
    longAccounts: Number(r.long_accounts),
    shortAccounts: Number(r.short_accounts),
    topLongAccounts: Number(r.top_long_accounts),
    topShortAccounts: Number(r.top_short_accounts),
    topLongLots: Number(r.top_long_lots),
    topShortLots: Number(r.top_short_lots),
    takerBuyLots: Number(r.taker_buy_lots),
    takerSellLots: Number(r.taker_sell_lots),
  };
}

export class OpenInterestRepo implements OpenInterestStore {
  private readonly db: DatabaseSync;
  private readonly upsert: StatementSync;
  private readonly upsertOpen: StatementSync;
  private readonly newestStmt: StatementSync;
  private readonly takerSumStmt: StatementSync;
  private readonly pruneStmt: StatementSync;

  constructor(db: DatabaseSync) {
    this.db = db;
    this.upsert = db.prepare(
      `INSERT INTO open_interest (symbol, time, lots, value, ${STATS_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ` +
        'ON CONFLICT(symbol, time) DO UPDATE SET lots = excluded.lots, value = excluded.value, ' +
        STATS_COLUMNS.split(', ')
          .map((c) => `${c} = excluded.${c}`)
          .join(', '),
    );
    this.upsertOpen = db.prepare(
      'INSERT INTO open_taker_volume (symbol, buy_lots, sell_lots, window_end, window_buy_lots, window_sell_lots) VALUES (?, ?, ?, ?, ?, ?) ' +
        'ON CONFLICT(symbol) DO UPDATE SET buy_lots = excluded.buy_lots, sell_lots = excluded.sell_lots, ' +
        'window_end = excluded.window_end, window_buy_lots = excluded.window_buy_lots, window_sell_lots = excluded.window_sell_lots',
    );
    this.newestStmt = db.prepare('SELECT MAX(time) AS t FROM open_interest WHERE symbol = ?');
    this.takerSumStmt = db.prepare(
      'SELECT COALESCE(SUM(taker_buy_lots), 0) AS b, COALESCE(SUM(taker_sell_lots), 0) AS s FROM open_interest WHERE symbol = ? AND time > ? AND time <= ?',
    );
    this.pruneStmt = db.prepare('DELETE FROM open_interest WHERE time < ?');
  }

  saveMany(rows: readonly OpenInterestSample[], open: readonly OpenTakerVolume[] = []): boolean {
    if (rows.length === 0 && open.length === 0) return true;
    return groupCommitOf(this.db).tryUnit(() => {
      for (const r of rows) {
        const s = r.stats;
        this.upsert.run(
          r.symbol,
          r.time,
          r.lots,
          r.value,
          s?.longAccounts ?? null,
          s?.shortAccounts ?? null,
          s?.topLongAccounts ?? null,
          s?.topShortAccounts ?? null,
          s?.topLongLots ?? null,
          s?.topShortLots ?? null,
          s?.takerBuyLots ?? null,
          s?.takerSellLots ?? null,
        );
      }
      for (const o of open)
        this.upsertOpen.run(o.symbol, o.buyLots, o.sellLots, o.windowEnd, o.windowBuyLots, o.windowSellLots);
    });
  }

  newestTime(symbol: string): number | undefined {
    const r = this.newestStmt.get(symbol) as { t: number | null };
    return r.t === null ? undefined : Number(r.t);
  }

  range(
    symbol: string,
    q: { from: number; to: number; step: number; limit: number; order: 'asc' | 'desc' },
  ): OpenInterestSample[] {
    const dir = q.order === 'asc' ? 'ASC' : 'DESC';
    const rows = this.db
      .prepare(
        `SELECT time, lots, value, ${STATS_COLUMNS} FROM open_interest WHERE symbol = ? AND time >= ? AND time <= ? AND time % ? = 0 ORDER BY time ${dir} LIMIT ?`,
      )
      .all(symbol, q.from, q.to, q.step, q.limit) as unknown as Row[];
    const out = rows.map((r) => ({
      symbol,
      time: Number(r.time),
      lots: Number(r.lots),
      value: Number(r.value),
      stats: statsOf(r),
    }));
    return q.order === 'asc' ? out : out.reverse();
  }

  takerSum(symbol: string, after: number, upTo: number): { buyLots: number; sellLots: number } {
    const r = this.takerSumStmt.get(symbol, after, upTo) as { b: number; s: number };
    return { buyLots: Number(r.b), sellLots: Number(r.s) };
  }

  openTaker(): OpenTakerVolume[] {
    const rows = this.db.prepare('SELECT * FROM open_taker_volume').all() as Array<{
      symbol: string;
      buy_lots: number;
      sell_lots: number;
      window_end: number | null;
      window_buy_lots: number;
      window_sell_lots: number;
    }>;
    return rows.map((r) => ({
      symbol: r.symbol,
      buyLots: Number(r.buy_lots),
      sellLots: Number(r.sell_lots),
      windowEnd: r.window_end === null ? null : Number(r.window_end),
      windowBuyLots: Number(r.window_buy_lots),
      windowSellLots: Number(r.window_sell_lots),
    }));
  }

  prune(before: number): void {
    transaction(this.db, () => this.pruneStmt.run(before));
  }

  get inUnit(): boolean {
    return groupCommitOf(this.db).inUnit;
  }
}
