// The first and last trade ids of a symbol's candles (a kline event's `f` / `L`, reference a.4),
// which the venue's candles do not keep: followed from the trades while a kline stream of the
// symbol is open, seeded when it opens from the pair's last trades (market/recent-trades.ts).
//
// Per interval the current candle and the one before it (a candle's final form is sent when the
// next one has begun). A candle's first id is known when every trade of it was seen: the seed
// found all its trades (as many as the candle counts) among the kept ones, or it began while the
// symbol was followed; otherwise, and for a candle without trades, `f` is -1, Binance's "none"
// (`L` still the last trade seen in it). Trade ids are venue-wide, so neither follows from the
// other and the count.
import { INTERVALS, nextOpenTime, openTimeOf, type Interval } from '../../../../src-shared/intervals.ts';
import type { KlineTuple } from '../../../market/candles.ts';

interface Span {
  openTime: number;
  /** -1: no trade seen in it yet. */
  first: number;
  last: number;
  /** The first id is the candle's own (every trade of it seen). */
  whole: boolean;
}

const NONE: Span = { openTime: -1, first: -1, last: -1, whole: false };

class Slot {
  readonly interval: Interval;
  cur: Span = NONE;
  prev: Span = NONE;
  nextOpen = Number.NEGATIVE_INFINITY;

  constructor(interval: Interval) {
    this.interval = interval;
  }

  trade(id: number, time: number): void {
    if (time >= this.nextOpen) {
      // a candle begun while followed: its first trade is this one
      const openTime = openTimeOf(this.interval, time);
      this.nextOpen = nextOpenTime(this.interval, openTime);
      this.prev = this.cur;
      this.cur = { openTime, first: id, last: id, whole: true };
      return;
    }
    if (this.cur.first === -1) this.cur.first = id;
    this.cur.last = id;
  }
}

/** What a trade event gives: its id and time. */
interface Print {
  tradeId: number;
  time: number;
}

export class KlineTradeIds {
  private readonly symbols = new Map<string, Slot[]>();

  /**
   * Follows `symbol` (no-op when followed): each interval's current candle `current(iv)` seeded
   * from `newest`, the pair's kept trades, newest first.
   */
  follow(symbol: string, current: (iv: Interval) => KlineTuple | undefined, newest: readonly Print[]): void {
    if (this.symbols.has(symbol)) return;
    const slots: Slot[] = [];
    for (const iv of INTERVALS) {
      if (iv === '1s') continue; // no 1 s klines on USD-M
      const slot = new Slot(iv);
      const k = current(iv);
      if (k !== undefined) {
        const openTime = k[0] as number;
        const count = k[8] as number;
        let seen = 0;
        let first = -1;
        let last = -1;
        for (const t of newest) {
          if (t.time < openTime) break;
          if (last === -1) last = t.tradeId;
          first = t.tradeId;
          seen++;
        }
        slot.cur = { openTime, first, last, whole: seen === count };
        slot.nextOpen = nextOpenTime(iv, openTime);
      }
      slots.push(slot);
    }
    this.symbols.set(symbol, slots);
  }

  followed(symbol: string): boolean {
    return this.symbols.has(symbol);
  }

  /** A trade of a followed symbol (time non-decreasing). */
  trade(symbol: string, t: Print): void {
    const slots = this.symbols.get(symbol);
    if (slots === undefined) return;
    for (const s of slots) s.trade(t.tradeId, t.time);
  }

  /** `f` / `L` of the candle of `symbol` and `interval` opened at `openTime` with `count` trades. */
  ids(symbol: string, interval: Interval, openTime: number, count: number): { f: number; L: number } {
    const slot = this.symbols.get(symbol)?.find((s) => s.interval === interval);
    const span =
      slot === undefined
        ? NONE
        : slot.cur.openTime === openTime
          ? slot.cur
          : slot.prev.openTime === openTime
            ? slot.prev
            : NONE;
    if (count === 0 || span === NONE) return { f: -1, L: -1 };
    return { f: span.whole ? span.first : -1, L: span.last };
  }

  clear(): void {
    this.symbols.clear();
  }
}
