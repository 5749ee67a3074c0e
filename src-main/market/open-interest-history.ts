// Futures statistics over time (Binance's /futures/data routes): each pair's open interest
// (openInterestHist), who holds its positions (globalLongShortAccountRatio,
// topLongShortAccountRatio, topLongShortPositionRatio) and its taker volume (takerlongshortRatio),
// sampled at every 5-minute boundary of market time, stored, and kept for OPEN_INTEREST_KEPT_MS
// (Binance serves the last 30 days). One sampler, one row a sample.
//
// Invariants and choices:
// - A sample is taken at the first price update of a pair at or after a boundary and stamped
//   with that boundary: the venue has no timer of its own on the market clock, and the market
//   publishes prices about once a second. Boundaries passed without a price update (a paused
//   or stopped venue) have no sample: a hole, as the price candles have.
// - Open interest and the position counts are the state at the sample. The taker volume is that
//   of the tape's trades since the previous sample up to the boundary (a trade at or after the
//   boundary, before the price update that takes the sample, waits for the next one); after a
//   hole it covers the hole too, so no trade is lost. Per pair only two running sums are held.
// - Samples are buffered and written every OPEN_INTEREST_FLUSH_MS and at close, never inside
//   another caller's unit; reads see the buffered ones too. The taker volume not yet in a sample
//   is written with them (and its window), so a restart resumes it. Coarser periods (15m ... 1d) are the samples
//   at their own boundaries, their taker volume the sum of the samples in (boundary - period, boundary].
import { Side } from '../../src-shared/enums.ts';
import type { EventBus, PriceEvent, TradeEvent } from '../trading/events.ts';
import type { PositionCounts } from '../trading/views.ts';
import type { OpenInterestSample, OpenInterestStore } from './ports.ts';

const OPEN_INTEREST_STEP_MS = 5 * 60_000;
const OPEN_INTEREST_KEPT_MS = 30 * 86_400_000;
const OPEN_INTEREST_FLUSH_MS = 5_000;
/** Binance's periods, ms. */
export const OPEN_INTEREST_PERIODS: Readonly<Record<string, number>> = {
  '5m': 5 * 60_000,
  '15m': 15 * 60_000,
  '30m': 30 * 60_000,
  '1h': 3_600_000,
  '2h': 7_200_000,
  '4h': 14_400_000,
  '6h': 21_600_000,
  '12h': 43_200_000,
  '1d': 86_400_000,
};

/**
 * What the sampler reads: a pair's open interest now, in lots and in USDT at the mark, and who
 * holds its positions (trading/views.ts).
 */
export type OpenInterestNow = (symbol: string) => {
  lots: number;
  value: number;
  positions: PositionCounts;
};

/** A pair's taker lots not yet in a sample: those of windows already ended, and of the newest trade's window. */
interface Taker {
  buy: number;
  sell: number;
  /** The end of the newest trade's 5-minute window, and its lots. */
  end: number;
  curBuy: number;
  curSell: number;
}

export class OpenInterestHistory {
  private readonly store: OpenInterestStore;
  private readonly now: OpenInterestNow;
  /** The last boundary sampled per pair (from the store at the pair's first update). */
  private readonly last = new Map<string, number>();
  private pending: OpenInterestSample[] = [];
  private readonly taker = new Map<string, Taker>();
  /** Pairs whose taker sums changed since the last write. */
  private readonly dirty = new Set<string>();
  private readonly offs: Array<() => void>;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(events: EventBus, now: OpenInterestNow, store: OpenInterestStore, flushMs = OPEN_INTEREST_FLUSH_MS) {
    this.store = store;
    this.now = now;
    for (const o of store.openTaker())
      this.taker.set(o.symbol, {
        buy: o.buyLots,
        sell: o.sellLots,
        end: o.windowEnd ?? -Infinity,
        curBuy: o.windowBuyLots,
        curSell: o.windowSellLots,
      });
    this.offs = [events.on('price', (e) => this.record(e)), events.on('trade', (e) => this.trade(e))];
    this.timer = setInterval(() => {
      try {
        this.flush();
      } catch (err) {
        console.error('perpdesk: writing open interest failed', err); // a timer that throws ends the process
      }
    }, flushMs);
    this.timer.unref();
  }

  /** Adds a trade of the tape to its pair's taker sums. */
  trade(e: TradeEvent): void {
    let t = this.taker.get(e.symbol);
    if (t === undefined) {
      t = { buy: 0, sell: 0, end: -Infinity, curBuy: 0, curSell: 0 };
      this.taker.set(e.symbol, t);
    }
    const end = Math.floor(e.time / OPEN_INTEREST_STEP_MS) * OPEN_INTEREST_STEP_MS + OPEN_INTEREST_STEP_MS;
    if (end > t.end) {
      t.buy += t.curBuy;
      t.sell += t.curSell;
      t.curBuy = 0;
      t.curSell = 0;
      t.end = end;
    }
    if (e.takerSide === Side.BUY) t.curBuy += e.qtyLots;
    else t.curSell += e.qtyLots;
    this.dirty.add(e.symbol);
  }

  /** The taker lots of a pair up to `boundary` not yet in a sample, taken out of the sums. */
  private takeTaker(symbol: string, boundary: number): { buy: number; sell: number } {
    const t = this.taker.get(symbol);
    if (t === undefined) return { buy: 0, sell: 0 };
    const out = { buy: t.buy, sell: t.sell };
    t.buy = 0;
    t.sell = 0;
    if (t.end <= boundary) {
      out.buy += t.curBuy;
      out.sell += t.curSell;
      t.curBuy = 0;
      t.curSell = 0;
    }
    this.dirty.add(symbol);
    return out;
  }

  record(e: PriceEvent): void {
    const boundary = Math.floor(e.time / OPEN_INTEREST_STEP_MS) * OPEN_INTEREST_STEP_MS;
    let last = this.last.get(e.symbol);
    if (last === undefined) {
      last = this.store.newestTime(e.symbol) ?? -Infinity;
      this.last.set(e.symbol, last);
    }
    if (boundary <= last) return;
    this.last.set(e.symbol, boundary);
    const oi = this.now(e.symbol);
    const taken = this.takeTaker(e.symbol, boundary);
    this.pending.push({
      symbol: e.symbol,
      time: boundary,
      lots: oi.lots,
      value: oi.value,
      stats: { ...oi.positions, takerBuyLots: taken.buy, takerSellLots: taken.sell },
    });
  }

  /** Writes the buffered samples and drops those past the window (not inside another caller's unit). */
  flush(): void {
    if ((this.pending.length === 0 && this.dirty.size === 0) || this.store.inUnit) return;
    const rows = this.pending;
    const open = [...this.dirty].map((symbol) => {
      const t = this.taker.get(symbol)!;
      const windowEnd = t.end === -Infinity ? null : t.end;
      return {
        symbol,
        buyLots: t.buy,
        sellLots: t.sell,
        windowEnd,
        windowBuyLots: t.curBuy,
        windowSellLots: t.curSell,
      };
    });
    if (!this.store.saveMany(rows, open)) return; // the database is locked by another connection: next flush
    this.pending = [];
    this.dirty.clear();
    if (rows.length === 0) return;
    const newest = rows.reduce((m, r) => Math.max(m, r.time), -Infinity);
    this.store.prune(newest - OPEN_INTEREST_KEPT_MS);
  }

  /**
   * Samples of a pair at multiples of `periodMs`, ascending, in Binance's selection: with
   * startTime the first `limit` from it, otherwise the newest `limit` up to endTime (or now).
   */
  samples(
    symbol: string,
    periodMs: number,
    q: { startTime?: number; endTime?: number; limit: number },
  ): OpenInterestSample[] {
    const from = q.startTime ?? -Number.MAX_SAFE_INTEGER;
    const to = q.endTime ?? Number.MAX_SAFE_INTEGER;
    const order = q.startTime !== undefined ? 'asc' : 'desc';
    const stored = this.store.range(symbol, { from, to, step: periodMs, limit: q.limit, order });
    const buffered = this.pending.filter(
      (r) => r.symbol === symbol && r.time >= from && r.time <= to && r.time % periodMs === 0,
    );
    const seen = new Set(buffered.map((r) => r.time));
    const all = [...stored.filter((r) => !seen.has(r.time)), ...buffered].sort((x, y) => x.time - y.time);
    return order === 'asc' ? all.slice(0, q.limit) : all.slice(Math.max(0, all.length - q.limit));
  }

  /**
   * Taker lots bought and sold in a pair's samples with boundary - period < time <= boundary
   * (the volume of a coarser period's sample).
   */
  takerVolume(symbol: string, boundary: number, periodMs: number): { buyLots: number; sellLots: number } {
    const sum = this.store.takerSum(symbol, boundary - periodMs, boundary);
    for (const r of this.pending) {
      if (r.symbol !== symbol || r.time <= boundary - periodMs || r.time > boundary || r.stats === null) continue;
      sum.buyLots += r.stats.takerBuyLots;
      sum.sellLots += r.stats.takerSellLots;
    }
    return sum;
  }

  close(): void {
    for (const off of this.offs) off();
    clearInterval(this.timer);
    this.flush();
  }
}
