// A candle as the store keeps it, every field derived from `close` (distinct candles compare
// unequal in every column), with quote volumes past 2^63 so that their exactness is tested.
import type { Candle } from '../../src-main/core/candle.ts';

export function storedCandle(openTime: number, close: number, interval: Candle['interval'] = '1m'): Candle {
  return {
    interval,
    openTime,
    open: 100,
    high: Math.max(100, close),
    low: Math.min(100, close),
    close,
    volume: close * 3,
    quoteVolume: 10n ** 20n + BigInt(close),
    trades: close % 7,
    takerBuyVolume: close,
    takerBuyQuoteVolume: BigInt(close) * 5n,
  };
}
