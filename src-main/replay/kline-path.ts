// The prints of a klines-only replay (docs/replay.md "Klines only: the path inside a candle"):
// each candle is four prints at open + i x interval / 4 (i = 0..3): open, the nearer of high and
// low (the high on a tie), the other, close; each a quarter of the volume (the remainder on the
// close), split into a buy part (its quarter of the taker-buy volume, the remainder on the close)
// and a sell part, the two parts of one print at one time and price (which of them trades first
// is the replay's: symbol-replay.ts pathPrint). So candles built from the replay keep the source's open, high, low, close,
// volume and taker-buy volume at every coarser interval; the candle's last print carries the
// candle, so the replay can bring its trade count and quote volumes to the source's after it.
// The candle's first print (at its open time) carries it too (`opens`), so the venue's candles
// learn where history has candles (market/candle-coverage.ts); a candle without volume has no
// print and is one event of 0 lots at its open time, carrying it that way.
import type { HistCandle } from './ports.ts';

export interface PathPrint {
  time: number;
  price: number;
  /** The print's buy part (taker buys), lots. */
  buy: number;
  /** The print's sell part (taker sells), lots. */
  sell: number;
  /** The candle, on its last print (null on the others). */
  candle: HistCandle | null;
  /** The candle, on its first print (null on the others), at its open time. */
  opens: HistCandle | null;
}

/** Converts a candle's decimal strings to the pair's ticks and lots. */
export interface PathUnits {
  ticks(t: string): number;
  lots(t: string): number;
}

/** Scratch of klinePath: the buy part of each of a candle's four prints. */
const buys = [0, 0, 0, 0];

/**
 * The buy parts of a candle's four prints into `out`: a quarter of the taker-buy volume each
 * (`b`, rounded down), the remainder on the close, as the volume's quarters (`q`). Where the
 * close's remainder of the buy volume is more than its remainder of the volume (a candle whose
 * sell volume is a few lots: 8 lots, 7 of them bought, is 2 + 2 + 2 + 2 lots and 1 + 1 + 1 + 4
 * bought), the excess is bought on the prints before it, the latest first, up to their volume:
 * 2 + 2 + 2 + 2 with 1 + 2 + 2 + 2 bought. Every part is then at least 0 and at most its print,
 * and they add up to the candle's volume and taker-buy volume.
 */
function splitBuy(vol: number, buy: number, q: number, b: number, out: number[]): void {
  out[0] = b;
  out[1] = b;
  out[2] = b;
  out[3] = buy - 3 * b;
  let excess = out[3] - (vol - 3 * q);
  for (let i = 2; excess > 0 && i >= 0; i--) {
    const add = Math.min(excess, q - out[i]);
    out[i] += add;
    out[3] -= add;
    excess -= add;
  }
}

export function* klinePath(s: PathUnits, intervalMs: number, candles: Iterator<HistCandle>): Generator<PathPrint> {
  const out: PathPrint[] = [];
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
    splitBuy(vol, buy, q, b, buys);
    out.length = 0;
    for (let i = 0; i < 4; i++) {
      const lots = i === 3 ? vol - 3 * q : q;
      const buyLots = buys[i];
      const time = c.openTime + Math.floor((i * intervalMs) / 4);
      if (lots > 0) out.push({ time, price: path[i], buy: buyLots, sell: lots - buyLots, candle: null, opens: null });
    }
    if (out.length > 0) out[out.length - 1].candle = c;
    // a candle that traded nothing (Binance's outage hour) is still history's: no print, 0 lots
    else out.push({ time: c.openTime, price: o, buy: 0, sell: 0, candle: null, opens: null });
    out[0].opens = c;
    yield* out;
  }
}

/**
 * A decimal string as an integer count of `unit` x 10^-decimals (a quote volume in the candle
 * builder's units: tick x step), rounded to the nearest unit (halves up) when it is off them.
 */
export function decimalUnits(text: string, decimals: number, unit: number): bigint {
  const m = /^(\d*)(?:\.(\d*))?$/.exec(text.trim());
  if (m === null) throw new RangeError(`not a non-negative decimal: ${text}`);
  const frac = m[2] ?? '';
  const digits = BigInt((m[1] || '0') + frac.padEnd(decimals, '0').slice(0, decimals));
  const cut = frac.length > decimals && frac[decimals] >= '5' ? 1n : 0n;
  const n = digits + cut;
  const u = BigInt(unit);
  return (n + u / 2n) / u;
}
