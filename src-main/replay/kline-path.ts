// The prints of a klines-only replay (docs/replay.md "Klines only: the path inside a candle"):
// each candle is four prints at open + i x interval / 4 (i = 0..3): open, the nearer of high and
// low (the high on a tie), the other, close; each a quarter of the volume (the remainder on the
// close), split into a buy part (its quarter of the taker-buy volume, the remainder on the close)
// and a sell part. So candles built from the replay keep the source's open, high, low, close,
// volume and taker-buy volume at every coarser interval.
import type { HistCandle } from './ports.ts';

export interface PathPrint {
  time: number;
  side: 1 | 2;
  price: number;
  lots: number;
}

/** Converts a candle's decimal strings to the pair's ticks and lots. */
export interface PathUnits {
  ticks(t: string): number;
  lots(t: string): number;
}

export function* klinePath(s: PathUnits, intervalMs: number, candles: Iterator<HistCandle>): Generator<PathPrint> {
  for (let r = candles.next(); !r.done; r = candles.next()) {
    const c = r.value;
    const o = s.ticks(c.open);
    const h = s.ticks(c.high);
    const l = s.ticks(c.low);
    const cl = s.ticks(c.close);
    const vol = s.lots(c.volume);
    const buy = Math.min(vol, s.lots(c.takerBuyVolume));
    const highFirst = h - o <= o - l;
    const path = highFirst ? [o, h, l, cl] : [o, l, h, cl];
    const q = Math.floor(vol / 4);
    const b = Math.floor(buy / 4);
    for (let i = 0; i < 4; i++) {
      const lots = i === 3 ? vol - 3 * q : q;
      const buyLots = i === 3 ? buy - 3 * b : b;
      const time = c.openTime + Math.floor((i * intervalMs) / 4);
      if (buyLots > 0) yield { time, side: 1, price: path[i], lots: buyLots };
      if (lots - buyLots > 0) yield { time, side: 2, price: path[i], lots: lots - buyLots };
    }
  }
}
