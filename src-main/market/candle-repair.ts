// The candles after an unclean stop (kill -9): closed candles of every interval are written at
// every advance, the current ones only at the market checkpoint (once a second of wall time), so
// the candle of each interval that was open at the crash holds what the last checkpoint saw, up
// to a second less than the finer candles closed after it (a 1m candle of 2481 trades over 1s
// candles of 2501), and a candle opened after that checkpoint is not stored at all. Here each
// interval's candles from its newest stored one on are built again from the next finer interval
// that divides it (1m from 1s, 5m from 1m, ..., 1M from 1d), finest first, so every interval
// agrees with the finer ones again. 1s has nothing finer: its candle open at the crash stays as
// the checkpoint saw it. The folds follow the kline rules: a candle with no trade carries the
// close before it; a candle's open is its first trade's, never a carried price.
// Before that, the 1s candles take the trades of the public tape they do not hold (foldTapeTrades):
// the tape and the current candles are saved by two timers, up to a second apart, so a kill -9 can
// leave the tape a few trades ahead of the candles (3 trades of a second no 1s or 1m candle counted).
import { INTERVALS, type Interval } from '../../src-shared/intervals.ts';
import type { Side } from '../../src-shared/enums.ts';
import type { Candle } from '../core/candle.ts';
import { aggregateRun } from './candle-aggregate.ts';
import { CandleBuilder } from './candles.ts';
import type { CandleStore, TapeRow } from './ports.ts';
import { RECENT_TRADES_KEPT } from './recent-trades.ts';

/** The most seconds past the newest 1s candle whose tape trades are put into the candles (a crash leaves about one). */
const TAPE_FOLD_MAX_SECONDS = 1500;

/**
 * Puts the trades of the public tape (`tape`: every stored row, ascending by id) that `symbol`'s
 * 1s candles do not hold into them: the trades of the seconds after its newest stored 1s candle,
 * and those of that candle's own second past the ones it counts (it is a snapshot of its second:
 * the trades it counts are the first ones). Answers how many trades it put in; the coarser
 * intervals follow from the 1s candles (repairNewestCandles, after it).
 */
function foldTapeTrades(repo: CandleStore, symbol: string, tape: readonly TapeRow[]): number {
  const newest = repo.newest(symbol, '1s');
  if (newest === undefined) return 0;
  const rows = tape.filter((r) => r.symbol === symbol);
  const end = newest.openTime + 1000;
  // the tape holds every trade of the newest second only when it reaches back before that second
  const whole = rows.length < RECENT_TRADES_KEPT || (rows.length > 0 && rows[0].time < newest.openTime);
  const inNewest = rows.filter((r) => r.time >= newest.openTime && r.time < end);
  const missing = [...(whole ? inNewest.slice(newest.trades) : []), ...rows.filter((r) => r.time >= end)].sort(
    (a, b) => a.time - b.time,
  );
  if (missing.length === 0 || missing[missing.length - 1].time >= end + TAPE_FOLD_MAX_SECONDS * 1000) return 0;
  const out: Candle[] = [];
  const builder = new CandleBuilder({ intervals: ['1s'], onClose: (c) => out.push(c) });
  builder.restore([newest]);
  for (const r of missing) builder.trade(r.time, r.priceTicks, r.qtyLots, r.takerSide as Side);
  out.push(...builder.currentAll());
  repo.writeMany(
    out.map(() => symbol),
    out,
  );
  repo.commitNow();
  return missing.length;
}

/** The finer interval each interval is folded from (its candles lie exactly inside). */
const SOURCE: Partial<Record<Interval, Interval>> = {
  '1m': '1s',
  '3m': '1m',
  '5m': '1m',
  '15m': '5m',
  '30m': '15m',
  '1h': '30m',
  '2h': '1h',
  '4h': '2h',
  '6h': '2h',
  '8h': '4h',
  '12h': '4h',
  '1d': '12h',
  '3d': '1d',
  '1w': '1d',
  '1M': '1d',
};

/**
 * After an unclean stop, for each pair: its 1s candles take the tape's trades they miss
 * (foldTapeTrades; `tape` read once, only when there are pairs), then its newest candles of every
 * interval are built again from the finer ones (repairNewestCandles). Answers the candles rebuilt
 * and the trades put in.
 */
export function repairCandles(
  repo: CandleStore,
  pairs: readonly { symbol: string }[],
  tape: () => readonly TapeRow[],
): { repairedCandles: number; tapeTradesFolded: number } {
  let repairedCandles = 0;
  let tapeTradesFolded = 0;
  const rows = pairs.length > 0 ? tape() : [];
  for (const { symbol } of pairs) {
    tapeTradesFolded += foldTapeTrades(repo, symbol, rows);
    repairedCandles += repairNewestCandles(repo, symbol);
  }
  return { repairedCandles, tapeTradesFolded };
}

/** Rebuilds `symbol`'s newest candles of every interval above 1s from the finer ones; answers how many changed. */
function repairNewestCandles(repo: CandleStore, symbol: string): number {
  let changed = 0;
  for (const interval of INTERVALS) {
    const from = SOURCE[interval];
    const newest = repo.newest(symbol, interval);
    if (from === undefined || newest === undefined) continue;
    const fine = repo.range(symbol, from, newest.openTime, Number.MAX_SAFE_INTEGER);
    if (fine.length === 0) continue;
    // The finer candles must hold the whole window: from its open, or (above 1s, which is pruned
    // after a day) from the pair's first candle, inside the window. A 1m candle whose 1s candles
    // begin later holds history records that have none (the history writes no 1s): left alone.
    if (fine[0].openTime !== newest.openTime && (from === '1s' || repo.oldestOpen(symbol, from) !== fine[0].openTime))
      continue;
    // the finer candles folded by the kline rules (market/candle-aggregate.ts), one candle a window
    const out = aggregateRun(interval, fine).filter((c) => c.openTime !== newest.openTime || !same(c, newest));
    if (out.length > 0) {
      repo.writeMany(
        out.map(() => symbol),
        out,
      );
      changed += out.length;
    }
  }
  if (changed > 0) repo.commitNow();
  return changed;
}

function same(a: Candle, b: Candle): boolean {
  return (
    a.open === b.open &&
    a.high === b.high &&
    a.low === b.low &&
    a.close === b.close &&
    a.volume === b.volume &&
    a.quoteVolume === b.quoteVolume &&
    a.trades === b.trades &&
    a.takerBuyVolume === b.takerBuyVolume &&
    a.takerBuyQuoteVolume === b.takerBuyQuoteVolume
  );
}
