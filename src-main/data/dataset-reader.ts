// A dataset's rows read back from the store as the recording wrote them: depth events (snapshot
// or diff, their update ids, levels as decimal strings), candles and trades as decimal strings at
// the dataset's decimals. Times in ms (the store keeps events and trades in µs: a row at µs t is
// at ms floor(t / 1000)). The replay's data port extends it; the catalogue's spec inference reads
// its first rows through it (spec-inference.ts).
import type { DatasetStore } from './ports.ts';
import { decodeBlock, newColumns } from './trade-codec.ts';

type Levels = readonly (readonly [string, string])[];

export interface DepthRow {
  readonly time: number;
  readonly snapshot: boolean;
  readonly U: number;
  readonly u: number;
  readonly pu: number;
  readonly bids: Levels;
  readonly asks: Levels;
}

export interface CandleRowText {
  readonly openTime: number;
  readonly closeTime: number;
  readonly open: string;
  readonly high: string;
  readonly low: string;
  readonly close: string;
  readonly volume: string;
  readonly takerBuyVolume: string;
  readonly quoteVolume: string;
  readonly trades: number;
  readonly takerBuyQuoteVolume: string;
}

export interface TradeRowText {
  readonly time: number;
  readonly price: string;
  readonly qty: string;
  readonly buyerMaker: boolean;
  /** An aggregated trade: the trades it stands for (last - first + 1). */
  readonly trades?: number;
}

const CANDLE_PAGE = 5000;

/** A non-negative integer mantissa at `dp` decimals as a decimal string. */
function fixedString(m: number, dp: number): string {
  if (dp === 0) return String(m);
  let s = String(m);
  if (s.length <= dp) s = '0'.repeat(dp - s.length + 1) + s;
  return `${s.slice(0, s.length - dp)}.${s.slice(s.length - dp)}`;
}

export class DatasetReader {
  protected readonly store: DatasetStore;

  constructor(store: DatasetStore) {
    this.store = store;
  }

  /** Stored event rows as text (bookTicker, bookDepth: their columns after the time), from `from` (ms). */
  *eventData(datasetId: number, from: number): Iterable<string> {
    for (const e of this.store.events(datasetId, from * 1000)) yield e.data;
  }

  *depth(datasetId: number, from: number): Iterable<DepthRow> {
    for (const e of this.store.events(datasetId, from * 1000)) {
      const d = JSON.parse(e.data) as {
        t: 's' | 'd';
        U?: number;
        u: number;
        pu?: number;
        b: [string, string][];
        a: [string, string][];
      };
      const snapshot = d.t === 's';
      yield {
        time: Math.floor(e.time / 1000),
        snapshot,
        U: snapshot ? d.u : d.U!,
        u: d.u,
        pu: snapshot ? -1 : (d.pu ?? -1),
        bids: d.b,
        asks: d.a,
      };
    }
  }

  /** The last candle opened at or before `at` (ms), null when there is none. */
  lastCandle(datasetId: number, at: number): CandleRowText | null {
    const [c] = this.store.candles(datasetId, Number.MIN_SAFE_INTEGER, at, 1, true);
    if (c === undefined) return null;
    for (const row of this.candles(datasetId, c.openTime, c.openTime)) return row;
    return null;
  }

  /** The last trade at or before `at` (ms: any µs within it), null when there is none. */
  lastTrade(datasetId: number, at: number): TradeRowText | null {
    const atUs = at * 1000 + 999;
    const bytes = this.store.lastTradeBlock(datasetId, atUs);
    if (bytes === undefined) return null;
    const c = decodeBlock(bytes, newColumns());
    for (let i = c.count - 1; i >= 0; i--) {
      if (c.timeUs[i] > atUs) continue;
      return {
        time: Math.floor(c.timeUs[i] / 1000),
        price: fixedString(c.price[i], c.priceDp),
        qty: fixedString(c.qty[i], c.qtyDp),
        buyerMaker: (c.flags[i] & 1) === 1,
        ...(c.agg ? { trades: c.last[i] - c.aux[i] + 1 } : {}),
      };
    }
    return null;
  }

  *candles(datasetId: number, from: number, to: number): Iterable<CandleRowText> {
    let next = from;
    for (;;) {
      const page = this.store.candles(datasetId, next, to, CANDLE_PAGE, false);
      for (const c of page) {
        const v = c.values;
        yield {
          openTime: c.openTime,
          closeTime: c.closeTime,
          open: v[0],
          high: v[1],
          low: v[2],
          close: v[3],
          volume: v[4],
          takerBuyVolume: v[6],
          quoteVolume: v[5],
          trades: c.count,
          takerBuyQuoteVolume: v[7],
        };
      }
      if (page.length < CANDLE_PAGE) return;
      next = page[page.length - 1].openTime + 1;
    }
  }

  *trades(datasetId: number, from: number): Iterable<TradeRowText> {
    const fromUs = from * 1000;
    const cols = newColumns();
    for (const bytes of this.store.tradeBlocks(datasetId, fromUs)) {
      const c = decodeBlock(bytes, cols);
      for (let i = 0; i < c.count; i++) {
        if (c.timeUs[i] < fromUs) continue;
        yield {
          time: Math.floor(c.timeUs[i] / 1000),
          price: fixedString(c.price[i], c.priceDp),
          qty: fixedString(c.qty[i], c.qtyDp),
          buyerMaker: (c.flags[i] & 1) === 1,
          ...(c.agg ? { trades: c.last[i] - c.aux[i] + 1 } : {}),
        };
      }
    }
  }
}
