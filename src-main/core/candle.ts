// A candle as the venue keeps it: integer ticks and lots, exact bigint quote volumes. Built by
// market/candles.ts (CandleBuilder), stored by store/candles-repo.ts, served by the klines
// service; here, below all three, so the store never imports the market.
import type { Interval } from '../../src-shared/intervals.ts';

export interface Candle {
  readonly interval: Interval;
  readonly openTime: number;
  /** Ticks. */
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  /** Lots. */
  readonly volume: number;
  /** Sum of price x qty in tick x lot units, exact. */
  readonly quoteVolume: bigint;
  readonly trades: number;
  /** Lots bought by takers. */
  readonly takerBuyVolume: number;
  /** Tick x lot units bought by takers. */
  readonly takerBuyQuoteVolume: bigint;
  /**
   * The close time served, when it is not the period's end: a replayed source candle's recorded
   * one (Binance's outage hour; market/candle-coverage.ts). Absent: open time + interval - 1.
   */
  readonly closeTime?: number;
}
