// Open interest over time (Binance's /futures/data/openInterestHist): each pair's open interest
// (the exchange's figure) sampled at every 5-minute boundary of market time, stored, and kept
// for OPEN_INTEREST_KEPT_MS (Binance serves the last 30 days).
//
// Invariants and choices:
// - A sample is taken at the first price update of a pair at or after a boundary and stamped
//   with that boundary: the venue has no timer of its own on the market clock, and the market
//   publishes prices about once a second. Boundaries passed without a price update (a paused
//   or stopped venue) have no sample: a hole, as the price candles have.
// - Samples are buffered and written every OPEN_INTEREST_FLUSH_MS and at close, never inside
//   another caller's unit; reads see the buffered ones too. Coarser periods (15m ... 1d) are the
//   samples at their own boundaries.
import type { EventBus, PriceEvent } from '../trading/events.ts';
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

/** What the sampler reads: a pair's open interest now, in lots and in USDT at the mark. */
export type OpenInterestNow = (symbol: string) => { lots: number; value: number };

export class OpenInterestHistory {
  private readonly store: OpenInterestStore;
  private readonly now: OpenInterestNow;
  /** The last boundary sampled per pair (from the store at the pair's first update). */
  private readonly last = new Map<string, number>();
  private pending: OpenInterestSample[] = [];
  private readonly off: () => void;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(events: EventBus, now: OpenInterestNow, store: OpenInterestStore, flushMs = OPEN_INTEREST_FLUSH_MS) {
    this.store = store;
    this.now = now;
    this.off = events.on('price', (e) => this.record(e));
    this.timer = setInterval(() => {
      try {
        this.flush();
      } catch (err) {
        console.error('perpdesk: writing open interest failed', err); // a timer that throws ends the process
      }
    }, flushMs);
    this.timer.unref();
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
    this.pending.push({ symbol: e.symbol, time: boundary, lots: oi.lots, value: oi.value });
  }

  /** Writes the buffered samples and drops those past the window (not inside another caller's unit). */
  flush(): void {
    if (this.pending.length === 0 || this.store.inUnit) return;
    const rows = this.pending;
    if (!this.store.saveMany(rows)) return; // the database is locked by another connection: next flush
    this.pending = [];
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

  close(): void {
    this.off();
    clearInterval(this.timer);
    this.flush();
  }
}
