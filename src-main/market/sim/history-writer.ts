// The fast sink of the history fast-forward: candles of every interval except 1s, built from the
// synthetic trades with one CandleBuilder per symbol and upserted straight into the CandleStore
// (market/ports.ts; the candles table in a venue), for a KlineService constructed afterwards to
// continue from (it restores each interval's newest stored candle).
//
// Why not KlineService.recordTrade: it builds all 16 intervals, and 30 days of 1s candles are
// 2.6 M zero-trade candles per symbol (32 M for the default catalogue, minutes of SQLite
// writes), which the 1s retention (24 h) would delete right away. Skipping 1s keeps 30 days at
// about 72 k candles per symbol. 1s candles start with the live market.
// finish() writes the still-open candles too (they are the current ones the live market goes on
// with). Run it before the venue's KlineService is created: that one restores each interval's
// newest stored candle when it is constructed, and does not look at the table again.
// The candles go to a BulkCandleSink (market/ports.ts): a venue's writes them on a worker thread
// while this thread goes on (store/candle-bulk-writer.ts); without one, each batch is
// upserted into the CandleStore and committed here.
// Each pair ends on its own (endSymbol, once its last record is in): its open candles are written
// and the pair recorded as built (CandleStore.historyBuilt) in the same commit as its last rows, so
// a build cut short (Ctrl-C, kill -9) leaves pairs either built or to build again, never a pair
// that counts as built with days missing (pairsWithoutHistory; the start deletes such a pair's
// rows first). Before, a pair counted as built once it had any 1m candle.
import { SymbolStatus } from '../../../src-shared/enums.ts';
import { INTERVALS } from '../../../src-shared/intervals.ts';
import { CandleBuilder, type Candle } from '../candles.ts';
import type { BuiltHistory, BulkCandleSink, CandleStore } from '../ports.ts';
import type { PairState } from '../../trading/pair-state.ts';
import type { HistoryTrade, TradeRecorder } from './history.ts';
import { HistoryFundingLedger } from './history-funding.ts';
import type { ProcessState } from './price-process.ts';

const BATCH = 20_000;
const HISTORY_INTERVALS = INTERVALS.filter((i) => i !== '1s');

export class HistoryCandleWriter implements TradeRecorder {
  private readonly sink: BulkCandleSink;
  private readonly builders = new Map<string, CandleBuilder>();
  private readonly symbols: string[] = [];
  private readonly candles: Candle[] = [];
  /** Pairs ended since the last flush: recorded as built with it. */
  private readonly built: BuiltHistory[] = [];
  /** Candles written so far. */
  written = 0;

  /** The history's funding settlements (history-funding.ts), when the pairs are given. */
  private readonly funding: HistoryFundingLedger | undefined;

  /**
   * bulk: where the candles go instead of `repo` (its connection's open transaction is committed
   * first); pairs: the pairs built, whose 8 h settlements are stored with their last candles.
   */
  constructor(repo: CandleStore, bulk?: BulkCandleSink, pairs?: Iterable<PairState>) {
    if (bulk !== undefined) repo.commitNow(); // the sink's own connection needs the write lock
    this.sink = bulk ?? inlineSink(repo);
    this.funding = pairs === undefined ? undefined : new HistoryFundingLedger(pairs);
  }

  recordTrade(symbol: string, t: Readonly<HistoryTrade>): void {
    let b = this.builders.get(symbol);
    if (b === undefined) {
      b = new CandleBuilder({
        intervals: HISTORY_INTERVALS,
        onClose: (c) => {
          this.symbols.push(symbol);
          this.candles.push(c);
          if (this.candles.length >= BATCH) this.flush();
        },
      });
      this.builders.set(symbol, b);
    }
    b.trade(t.time, t.priceTicks, t.qtyLots, t.takerSide, t.count);
    this.funding?.trade(symbol, t.time, t.priceTicks);
  }

  advanceTo(time: number): void {
    for (const b of this.builders.values()) b.advanceTo(Math.max(time, b.now));
    this.flush();
  }

  /**
   * `symbol` has all its records: its candles up to `end` (the history's end) are written, with
   * its funding settlements and the record that its history is built, in one commit.
   */
  endSymbol(symbol: string, end: number): void {
    const b = this.builders.get(symbol);
    if (b !== undefined) {
      b.advanceTo(Math.max(end, b.now));
      for (const c of b.currentAll()) {
        this.symbols.push(symbol);
        this.candles.push(c);
      }
      this.builders.delete(symbol);
    }
    this.built.push({ symbol, end, funding: this.funding?.end(symbol, end) });
    this.flush();
  }

  /** Writes what is waiting and every open candle; returns once all of it is stored. */
  finish(): void {
    for (const [symbol, b] of this.builders) {
      for (const c of b.currentAll()) {
        this.symbols.push(symbol);
        this.candles.push(c);
      }
    }
    this.flush();
    this.sink.finish();
  }

  /** Ends the sink without waiting for it (the build failed). */
  close(): void {
    this.sink.close();
  }

  /**
   * The build was stopped (a Ctrl-C): the pairs not ended are dropped, what was written is
   * committed and the sink's connection closed, as a normal close leaves a database. The dropped
   * pairs' rows are deleted by the next start.
   */
  abandon(): void {
    this.builders.clear();
    this.symbols.length = 0;
    this.candles.length = 0;
    this.sink.finish();
  }

  private flush(): void {
    const n = this.candles.length;
    if (n === 0 && this.built.length === 0) return;
    this.sink.write(this.symbols, this.candles, n, this.built);
    this.written += n;
    this.symbols.length = 0;
    this.candles.length = 0;
    this.built.length = 0;
  }
}

/** The sink on the caller's thread: each batch upserted into the store and committed. */
function inlineSink(repo: CandleStore): BulkCandleSink {
  return {
    write(symbols, candles, n, built = []) {
      repo.writeMany(symbols, candles, n);
      repo.markHistoryBuilt(built); // in the commit of the pair's last rows
      // The build runs synchronously, past any end of turn: commit each batch, so one huge
      // transaction does not pile up in the WAL.
      repo.commitNow();
    },
    finish() {},
    close() {},
  };
}

/**
 * Trading pairs (status 1) whose history was not built to its end: none at all, or a build cut
 * short (its rows are deleted before the build: removePartialHistories). A pair that traded live
 * without a history (1s candles: a --no-sim run; a history writes none) keeps its candles and gets
 * none, as before.
 */
export function pairsWithoutHistory(repo: CandleStore, pairs: Iterable<PairState>): PairState[] {
  const built = repo.historyBuilt();
  return [...pairs].filter(
    (p) =>
      p.row.status === SymbolStatus.TRADING &&
      !built.has(p.row.symbol) &&
      repo.newest(p.row.symbol, '1s') === undefined,
  );
}

/** Deletes the candles a build cut short left of `pairs` (committed); answers the count of each pair that had any. */
export function removePartialHistories(repo: CandleStore, pairs: readonly PairState[]): Map<string, number> {
  const removed = new Map<string, number>();
  for (const p of pairs) {
    const n = repo.deleteSymbol(p.row.symbol);
    if (n > 0) removed.set(p.row.symbol, n);
  }
  if (removed.size > 0) repo.commitNow();
  return removed;
}

/**
 * Where a restarted market goes on from: each pair's last stored price, the close of its newest
 * 1s candle (closed ones are written at every advance, so after a kill -9 it is the last trade of
 * the last second written), or of its newest 1m candle when that is newer (a history has no 1s
 * candles; the current 1m candle is written at checkpoints only). For Simulator's startStates;
 * pairs without candles are left out and start at their mark. Before, the 1m close alone: after a
 * kill -9 it was up to a checkpoint (10 s) old, and the market went on from there, a jump of a
 * hundred ticks and more from the last second written.
 */
export function lastStoredPrices(repo: CandleStore, pairs: Iterable<PairState>): Map<string, ProcessState> {
  const out = new Map<string, ProcessState>();
  for (const p of pairs) {
    const minute = repo.newest(p.row.symbol, '1m');
    const second = repo.newest(p.row.symbol, '1s');
    const c = second !== undefined && (minute === undefined || second.openTime >= minute.openTime) ? second : minute;
    if (c !== undefined) out.set(p.row.symbol, { price: c.close * p.math.tickValue });
  }
  return out;
}
