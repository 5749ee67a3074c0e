// The pair catalogue of a replay venue: the replayed pairs only, each with its main dataset's
// specs (specs.ts replaySymbolRow) and, as its listed initial price (the mark, index and last
// price before the first event), the last historical price at or before the start: the last
// trade, else the last candle opened by then (its close once it has closed, else its open), else
// the best bid of the depth snapshot the replay's book is built from (the last at or before the
// start, else the first after it; its mid then becomes the mark and index as the book is built:
// symbol-replay.ts). Never a later one (a replay shows nothing from after its clock: docs/replay.md,
// No look-ahead) but that first snapshot, in a recording whose diffs begin before it: there is no
// price at all before it.
import { openTimeOf } from '../../src-shared/intervals.ts';
import type { NewSymbol } from '../core/symbol.ts';
import { specsProblem } from '../data/spec-inference.ts';
import { lastCandle, planSources, startTrade, type SymbolSource } from './plan.ts';
import type { HistDepth, ReplayData, ReplayDataset } from './ports.ts';
import type { ReplayOptions } from './replay-market.ts';
import { replaySymbolRow } from './specs.ts';
import { roundedTextUnits } from './units.ts';
import { createScale } from '../../src-shared/decimal.ts';

export function replayCatalogue(data: ReplayData, o: ReplayOptions): NewSymbol[] {
  const sources = planSources(data, o.symbols, o.start, o.until, o.datasets);
  const prices: string[] = [];
  for (const src of sources) {
    // specs stored before the specs route checked them (or edited in the file) are refused here,
    // naming the dataset, rather than failing the venue's start with an internal error; so is a
    // tick above the pair's price, which rounds every price to 0 (until 2026-12-07 the replay then
    // started with an empty book, no candles and a last price of 0)
    const price = initialPrice(data, src, o.start);
    prices.push(price);
    const problem = specsProblem(src.specs.tickSize, src.specs.stepSize) ?? tickAbove(price, src.specs.tickSize);
    const main = src.depth ?? src.trades ?? src.klines;
    if (problem !== null)
      throw new RangeError(
        `${src.symbol} cannot be listed with the specs of dataset ${main?.id}: ${problem}; edit them ` +
          `(PUT /api/v1/datasets/${main?.id}/specs, or the Data dialog)`,
      );
  }
  return sources.map((src, i) => replaySymbolRow(src.symbol, src.specs, prices[i], i));
}

/** Why a tick cannot price a pair whose price at the start is `price`: it rounds to no tick; else null. */
function tickAbove(price: string, tickSize: string): string | null {
  if (roundedTextUnits(price, createScale(tickSize)) !== 0) return null;
  return (
    `tick_size ${tickSize} is above its price at the start (${price}), which is no whole number of ticks (it ` +
    `rounds to 0); every price of a replay is a multiple of the tick, so it must be at most the pair's prices`
  );
}

/**
 * When a replay's pairs are listed, in its own (market) time: where its market data begins, the
 * opening of the 1m candle of its start (its first candle's), not the wall clock's now when it was
 * created (exchangeInfo's onboardDate, ccxt's `created`: no market data of a pair is older).
 */
export function replayListingTime(start: number): number {
  return openTimeOf('1m', start);
}

function initialPrice(data: ReplayData, src: SymbolSource, start: number): string {
  const t = startTrade(data, src, start);
  if (t !== null) return t.price;
  if (src.klines) {
    const k = lastCandle(data, src.klines.id, start);
    if (k !== null) return start > k.closeTime ? k.close : k.open;
  }
  const bid = src.depth ? snapshotBid(data, src.depth, start) : null;
  if (bid !== null) return bid;
  const before = priceBeforeGap(data, src.symbol, start);
  if (before !== null) return before;
  throw new RangeError(`${src.symbol} has no price at or before the replay start`);
}

/**
 * The best bid of the REST snapshot the book of a depth dataset is built from at `start` (never a
 * diff's level: a diff lists only the levels it changes): its last snapshot at or before the
 * start, else, in a recording whose diff stream began before its first snapshot, that first
 * snapshot (the book is built from it: before it the pair has no book and no price at all);
 * not `after`: only one at or before the start.
 */
function snapshotBid(data: ReplayData, d: ReplayDataset, start: number, after = true): string | null {
  const anchor = data.depthAnchor?.(d.id, start) ?? null;
  if (anchor === null && !after && data.depthAnchor) return null;
  // none at or before the start, and none at all (an index look-up): no scan of its diffs
  if (anchor === null && data.depthAnchor && d.lastTime !== null && data.depthAnchor(d.id, d.lastTime) === null)
    return null;
  let pick: HistDepth | null = null;
  for (const ev of data.depth(d.id, anchor ?? d.firstTime ?? start)) {
    if (ev.time > start && (pick !== null || !after)) break;
    // a snapshot listing one side only is the book's price all the same (until 2026-12-07 it was
    // passed over, and a spot BTCUSDT snapshot of bids alone took another dataset's months-old close)
    if (!ev.snapshot || !(ev.bids.some(listed) || ev.asks.some(listed))) continue;
    pick = ev;
    if (ev.time > start) break;
  }
  if (pick === null) return null;
  const bid = best(pick.bids, 1);
  // the bid: a listed price on the tick grid (a mid may fall between ticks); the ask without one
  return bid !== null && Number(bid) > 0 ? bid : best(pick.asks, -1);
}

/** The best listed price of a snapshot's side (dir 1: the highest, bids; -1: the lowest, asks); null when it lists none. */
function best(levels: ReadonlyArray<readonly [string, string]>, dir: 1 | -1): string | null {
  let pick: string | null = null;
  for (const l of levels) if (listed(l) && (pick === null || dir * (Number(l[0]) - Number(pick)) > 0)) pick = l[0];
  return pick;
}

/** A snapshot's level with something at it (a row of quantity 0 lists nothing). */
const listed = (l: readonly [string, string]): boolean => Number(l[1]) > 0;

/**
 * A start in a gap between two of the pair's datasets (plan.ts: the data it reads resumes after
 * the start): the last price before the gap in its other datasets, by the same rule (the latest
 * trade, else the latest candle, else a snapshot's best bid), as a start in a gap of one dataset.
 */
function priceBeforeGap(data: ReplayData, symbol: string, start: number): string | null {
  const all = data.datasets(symbol).filter((d) => d.firstTime !== null && d.firstTime <= start);
  const best = { time: Number.NEGATIVE_INFINITY, price: null as string | null };
  const take = (time: number, price: string): void => {
    if (time > best.time) Object.assign(best, { time, price });
  };
  for (const d of all) {
    const t = d.kind === 'trades' || d.kind === 'aggTrades' ? (data.lastTrade?.(d.id, start) ?? null) : null;
    if (t !== null) take(t.time, t.price);
  }
  if (best.price !== null) return best.price;
  for (const d of all) {
    const k = d.kind === 'klines' ? lastCandle(data, d.id, start) : null;
    if (k !== null) take(k.openTime, start > k.closeTime ? k.close : k.open);
  }
  if (best.price !== null) return best.price;
  for (const d of all) {
    // the price before the gap: no snapshot from after it
    const bid = d.kind === 'depth' ? snapshotBid(data, d, start, false) : null;
    if (bid !== null) return bid;
  }
  return null;
}
