// Candles in SQLite, keyed by (symbol, interval, open_time); a write is an upsert, so a candle
// written while open and again when closed (or re-emitted after a restore) keeps one row.
//
// Rows hold integers (ticks, lots) and the two quote volumes as decimal integer strings (exact
// past 2^63). writeMany() is the batch path: one transaction for a whole flush, up to 64 rows a
// statement (node:sqlite's cost is per call; a statement is prepared per row count used), no
// per-row allocation besides the two String() calls. Reads return ascending candles. The
// repository knows nothing about which candle is the current one: callers bound their reads by
// open time. It is the SQLite side of the market's CandleStore port.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Candle } from '../core/candle.ts';
import type { BuiltHistory, CandleCut, CandleStore } from '../market/ports.ts';
import type { Interval } from '../../src-shared/intervals.ts';
import { transaction } from './database.ts';
import { groupCommitOf } from './group-commit.ts';

interface Row {
  interval: string;
  open_time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  quote_volume: string;
  trades: number;
  taker_buy_volume: number;
  taker_buy_quote_volume: string;
}

const COLUMNS =
  'interval, open_time, open, high, low, close, volume, quote_volume, trades, taker_buy_volume, taker_buy_quote_volume';

function fromRow(r: Row): Candle {
  return {
    interval: r.interval as Interval,
    openTime: r.open_time,
    open: r.open,
    high: r.high,
    low: r.low,
    close: r.close,
    volume: r.volume,
    quoteVolume: BigInt(r.quote_volume),
    trades: r.trades,
    takerBuyVolume: r.taker_buy_volume,
    takerBuyQuoteVolume: BigInt(r.taker_buy_quote_volume),
  };
}

/** Parameters of one candle row in the upsert. */
export const ROW_PARAMS = 12;
/** Rows of the batch upsert (node:sqlite pays per call, not per row: a few times faster a candle). */
export const BATCH_ROWS = 64;

/**
 * The upsert of n rows is `head` + n `row`s joined by ", " + `tail` (candle-bulk-writer.ts builds
 * it on its worker thread from these). A row's parameters: symbol, then COLUMNS in order.
 */
export const UPSERT = {
  head: `INSERT INTO candles (symbol, ${COLUMNS}) VALUES `,
  row: `(${Array(ROW_PARAMS).fill('?').join(', ')})`,
  tail: `
       ON CONFLICT (symbol, interval, open_time) DO UPDATE SET
         open = excluded.open, high = excluded.high, low = excluded.low, close = excluded.close,
         volume = excluded.volume, quote_volume = excluded.quote_volume, trades = excluded.trades,
         taker_buy_volume = excluded.taker_buy_volume, taker_buy_quote_volume = excluded.taker_buy_quote_volume`,
} as const;

/** Records a pair's history as built (migration 20); candle-bulk-writer.ts runs it in its batch's transaction. */
export const MARK_BUILT =
  'INSERT INTO history_built (symbol, end_time) VALUES (?, ?) ON CONFLICT (symbol) DO UPDATE SET end_time = excluded.end_time';
/** A history's settlement, as the live one stores its rate (trading-repo.ts insertFundingRate). */
export const INSERT_HISTORY_FUNDING = 'INSERT INTO funding_rates (symbol, time, rate, mark) VALUES (?,?,?,?)';

function upsertSql(rows: number): string {
  return UPSERT.head + Array(rows).fill(UPSERT.row).join(', ') + UPSERT.tail;
}

type Param = string | number;

/** Writes a candle's upsert parameters at p[at..]: symbol, then COLUMNS in order (numbers, and the quote volumes as decimal strings). */
export function bindRow(p: Param[], at: number, symbol: string, c: Candle): void {
  p[at] = symbol;
  p[at + 1] = c.interval;
  p[at + 2] = c.openTime;
  p[at + 3] = c.open;
  p[at + 4] = c.high;
  p[at + 5] = c.low;
  p[at + 6] = c.close;
  p[at + 7] = c.volume;
  p[at + 8] = String(c.quoteVolume);
  p[at + 9] = c.trades;
  p[at + 10] = c.takerBuyVolume;
  p[at + 11] = String(c.takerBuyQuoteVolume);
}

export class CandlesRepo implements CandleStore {
  private readonly db: DatabaseSync;
  /** The upsert of n rows and its parameter scratch at [n], prepared on first use. */
  private readonly batches: Array<{ stmt: StatementSync; params: Param[] } | undefined> = [];
  private readonly newestStmt: StatementSync;
  private readonly latestStmt: StatementSync;
  private readonly rangeStmt: StatementSync;
  private readonly oldestStmt: StatementSync;
  private readonly pruneStmt: StatementSync;
  private readonly countStmt: StatementSync;

  constructor(db: DatabaseSync) {
    this.db = db;

    this.newestStmt = db.prepare(
      `SELECT ${COLUMNS} FROM candles WHERE symbol = ? AND interval = ? ORDER BY open_time DESC LIMIT 1`,
    );
    this.latestStmt = db.prepare(
      `SELECT ${COLUMNS} FROM candles WHERE symbol = ? AND interval = ? AND open_time < ? ORDER BY open_time DESC LIMIT ?`,
    );
    this.rangeStmt = db.prepare(
      `SELECT ${COLUMNS} FROM candles WHERE symbol = ? AND interval = ? AND open_time >= ? AND open_time <= ? ORDER BY open_time`,
    );
    this.oldestStmt = db.prepare('SELECT MIN(open_time) AS t FROM candles WHERE symbol = ? AND interval = ?');
    this.pruneStmt = db.prepare('DELETE FROM candles WHERE symbol = ? AND interval = ? AND open_time < ?');
    this.countStmt = db.prepare('SELECT COUNT(*) AS n FROM candles WHERE symbol = ? AND interval = ?');
  }

  /**
   * Upserts candles[0 .. n-1] (symbols[i] is the symbol of candles[i]) as one unit of the
   * connection's group commit (a nested call joins the caller's unit).
   */
  writeMany(symbols: readonly string[], candles: readonly Candle[], n = candles.length): void {
    if (n === 0) return;
    transaction(this.db, () => this.write(symbols, candles, n));
  }

  tryWriteMany(symbols: readonly string[], candles: readonly Candle[], n = candles.length): boolean {
    if (n === 0) return true;
    return groupCommitOf(this.db).tryUnit(() => this.write(symbols, candles, n));
  }

  private write(symbols: readonly string[], candles: readonly Candle[], n: number): void {
    // up to BATCH_ROWS rows a statement (a row's upsert sees the rows before it in the same
    // statement, so a candle listed twice ends as its last copy)
    for (let i = 0; i < n; i += BATCH_ROWS) {
      const rows = Math.min(BATCH_ROWS, n - i);
      const { stmt, params } = this.batch(rows);
      for (let k = 0; k < rows; k++) bindRow(params, k * ROW_PARAMS, symbols[i + k], candles[i + k]);
      stmt.run(...params);
    }
  }

  private batch(rows: number): { stmt: StatementSync; params: Param[] } {
    let b = this.batches[rows];
    if (b === undefined)
      b = this.batches[rows] = { stmt: this.db.prepare(upsertSql(rows)), params: new Array(ROW_PARAMS * rows) };
    return b;
  }

  /** The newest stored candle of (symbol, interval), closed or not. */
  newest(symbol: string, interval: Interval): Candle | undefined {
    const r = this.newestStmt.get(symbol, interval) as Row | undefined;
    return r === undefined ? undefined : fromRow(r);
  }

  /** Up to `limit` newest candles with open time below `beforeOpen`, ascending. */
  latest(symbol: string, interval: Interval, beforeOpen: number, limit: number): Candle[] {
    const rows = this.latestStmt.all(symbol, interval, beforeOpen, limit) as unknown as Row[];
    const out: Candle[] = new Array(rows.length);
    for (let i = 0; i < rows.length; i++) out[rows.length - 1 - i] = fromRow(rows[i]);
    return out;
  }

  /** Candles with fromOpen <= open time <= toOpen, ascending. */
  range(symbol: string, interval: Interval, fromOpen: number, toOpen: number): Candle[] {
    const rows = this.rangeStmt.all(symbol, interval, fromOpen, toOpen) as unknown as Row[];
    return rows.map(fromRow);
  }

  /** Open time of the oldest stored candle, or undefined. */
  oldestOpen(symbol: string, interval: Interval): number | undefined {
    const r = this.oldestStmt.get(symbol, interval) as { t: number | null } | undefined;
    return r?.t ?? undefined;
  }

  count(symbol: string, interval: Interval): number {
    return (this.countStmt.get(symbol, interval) as { n: number }).n;
  }

  tryPrune(cuts: readonly CandleCut[]): boolean {
    if (cuts.length === 0) return true;
    return groupCommitOf(this.db).tryUnit(() => {
      for (const c of cuts) this.pruneStmt.run(c.symbol, c.interval, c.beforeOpen);
    });
  }

  /** Whether the connection's group commit has a unit open (another caller's writes in flight). */
  get inUnit(): boolean {
    return groupCommitOf(this.db).inUnit;
  }

  /** Commits the connection's open group-commit transaction now. */
  commitNow(): void {
    groupCommitOf(this.db).commitNow();
  }

  historyBuilt(): Set<string> {
    const rows = this.db.prepare('SELECT symbol FROM history_built').all() as { symbol: string }[];
    return new Set(rows.map((r) => r.symbol));
  }

  markHistoryBuilt(built: readonly BuiltHistory[]): void {
    if (built.length === 0) return;
    const stmt = this.db.prepare(MARK_BUILT);
    const funding = this.db.prepare(INSERT_HISTORY_FUNDING);
    transaction(this.db, () => {
      for (const b of built) {
        for (const f of b.funding ?? []) funding.run(b.symbol, f.time, f.rate, f.mark);
        stmt.run(b.symbol, b.end);
      }
    });
  }

  deleteSymbol(symbol: string): number {
    return transaction(this.db, () =>
      Number(this.db.prepare('DELETE FROM candles WHERE symbol = ?').run(symbol).changes),
    );
  }
}
