// An independent reference for candles built from trades (the klines route's and KlineService's
// tests): bucket the trades by interval, format with BTCUSDT's precisions by hand.
import type { KlineTuple } from '../../src-main/market/candles.ts';
import { nextOpenTime, openTimeOf, type Interval } from '../../src-shared/intervals.ts';

export interface Trade {
  time: number;
  price: number; // ticks of 0.1
  qty: number; // lots of 0.001
  side: 1 | 2;
}

export const fmtPrice = (ticks: number): string => `${Math.floor(ticks / 10)}.${ticks % 10}`;
export const fmtQty = (lots: number): string => `${Math.floor(lots / 1000)}.${String(lots % 1000).padStart(3, '0')}`;
/** tick x lot units are 1e-4 USDT; the wire has 8 decimals. */
export const fmtQuote = (units: bigint): string => {
  const s = units.toString().padStart(5, '0');
  return `${s.slice(0, -4)}.${s.slice(-4)}0000`;
};

/**
 * Expected wire candles, oldest first, from the first trade's candle to the one containing `now`
 * (trades in time order); a candle with no trade repeats the last close, volume 0. With `opened`
 * (a venue whose candles open at the pair's price when it starts, before any trade), from the
 * candle of `opened.time`, the candles before the first trade at `opened.price`.
 */
export function referenceKlines(
  interval: Interval,
  trades: readonly Trade[],
  now: number,
  opened?: { time: number; price: number },
): KlineTuple[] {
  const out: KlineTuple[] = [];
  let k = 0;
  let prevClose = opened?.price ?? 0;
  const last = openTimeOf(interval, now);
  const first = openTimeOf(interval, opened?.time ?? trades[0].time);
  for (let open = first; open <= last; open = nextOpenTime(interval, open)) {
    const next = nextOpenTime(interval, open);
    const inside: Trade[] = [];
    while (k < trades.length && trades[k].time < next) inside.push(trades[k++]);
    const closed = open !== last;
    if (inside.length === 0) {
      const c = fmtPrice(prevClose);
      out.push([open, next - 1, c, c, c, c, '0.000', fmtQuote(0n), 0, '0.000', fmtQuote(0n), closed]);
      continue;
    }
    const buys = inside.filter((t) => t.side === 1);
    const q = (ts: Trade[]) => ts.reduce((s, t) => s + BigInt(t.price) * BigInt(t.qty), 0n);
    out.push([
      open,
      next - 1,
      fmtPrice(inside[0].price),
      fmtPrice(Math.max(...inside.map((t) => t.price))),
      fmtPrice(Math.min(...inside.map((t) => t.price))),
      fmtPrice(inside[inside.length - 1].price),
      fmtQty(inside.reduce((s, t) => s + t.qty, 0)),
      fmtQuote(q(inside)),
      inside.length,
      fmtQty(buys.reduce((s, t) => s + t.qty, 0)),
      fmtQuote(q(buys)),
      closed,
    ]);
    prevClose = inside[inside.length - 1].price;
  }
  return out;
}
