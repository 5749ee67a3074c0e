// Payload builders of the market streams: the `data` of each push, in wire form (decimal
// strings at the pair's precision). Pure functions of the exchange state they are handed;
// `E` is the event time (market clock, ms). When and to whom they are sent is the hub's tick.
import { Side } from '../../../src-shared/enums.ts';
import { formatNumber } from '../../../src-shared/decimal.ts';
import type { Interval } from '../../../src-shared/intervals.ts';
import type { Candle, DepthSnapshotEvent, DepthUpdateEvent } from '../../../src-shared/types.ts';
import { DEPTH_SNAPSHOT_EVENT, DEPTH_UPDATE_EVENT } from '../../../src-shared/types.ts';
import { fundingSchedule, markText } from '../../trading/pair-figures.ts';
import type { PairView } from '../../trading/pair-state.ts';
import type { TradeEvent } from '../../trading/events.ts';
import type { DepthChannelLevel } from '../../../src-shared/types.ts';
import { toPriceLevels, type DepthWindowTake } from './depth-feed.ts';

/** depth_update@: one closed window of level changes. */
export function depthUpdatePayload(pair: PairView, w: DepthWindowTake, E: number): DepthUpdateEvent {
  const m = pair.math;
  return {
    e: DEPTH_UPDATE_EVENT,
    E,
    s: pair.row.symbol,
    U: w.U,
    u: w.u,
    pu: w.pu,
    b: toPriceLevels(m, w.bids),
    a: toPriceLevels(m, w.asks),
  };
}

/** depth@: the book's top `level` levels now. */
export function depthSnapshotPayload(pair: PairView, level: DepthChannelLevel, E: number): DepthSnapshotEvent {
  const view = pair.book.depth(level);
  return {
    e: DEPTH_SNAPSHOT_EVENT,
    E,
    s: pair.row.symbol,
    u: view.updateId,
    bids: toPriceLevels(pair.math, view.bids),
    asks: toPriceLevels(pair.math, view.asks),
  };
}

/** trade@: the trades of one tick, oldest first. */
export function tradesPayload(pair: PairView, trades: readonly TradeEvent[], E: number): object[] {
  const m = pair.math;
  const symbol = pair.row.symbol;
  return trades.map((t) => ({
    e: 'trade',
    E,
    s: symbol,
    t: t.tradeId,
    p: m.formatPrice(t.priceTicks),
    q: m.formatQty(t.qtyLots),
    T: t.time,
    S: t.takerSide,
    m: t.takerSide === Side.SELL,
  }));
}

/** price@: index, mark and last price, funding rate and next funding time. */
export function pricePayload(p: PairView, E: number): object {
  const num = (x: number, d: number): string => (Number.isFinite(x) ? formatNumber(x, d) : '0');
  return {
    e: 'price',
    E,
    s: p.row.symbol,
    i: markText(p.indexPrice),
    m: markText(p.markPrice),
    l: p.math.formatPrice(p.lastPriceTicks),
    r: num(p.fundingRate, 6),
    T: fundingSchedule(p).nextFundingTime,
  };
}

/** kline@: one candle of (symbol, interval). */
export function klinePayload(symbol: string, interval: Interval, k: Candle, E: number): object {
  return { e: 'kline', E, s: symbol, i: interval, k };
}
