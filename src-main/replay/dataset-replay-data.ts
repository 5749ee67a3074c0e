// The replay's view of the imported datasets (replay/ports.ts ReplayData) over the datasets
// store: depth events as stored by depth-rows.ts, trades decoded from their blocks at the block's
// decimals (exact decimal strings; or the decoded columns themselves, tradeBlocks), candles
// paged from the store, fundingRate rows. Times are ms (the store keeps events and trades in µs:
// a row at µs t is at ms floor(t / 1000)).
import type {
  HistCandle,
  HistDepth,
  HistFunding,
  HistTrade,
  HistTradeBlock,
  ReplayData,
  ReplayDataset,
} from './ports.ts';
import type { DatasetStore } from '../data/ports.ts';
import { decodeBlock, newColumns } from '../data/trade-codec.ts';

const CANDLE_PAGE = 5000;

/** A non-negative integer mantissa at `dp` decimals as a decimal string. */
function fixedString(m: number, dp: number): string {
  if (dp === 0) return String(m);
  let s = String(m);
  if (s.length <= dp) s = '0'.repeat(dp - s.length + 1) + s;
  return `${s.slice(0, s.length - dp)}.${s.slice(s.length - dp)}`;
}

export class DatasetReplayData implements ReplayData {
  private readonly store: DatasetStore;

  constructor(store: DatasetStore) {
    this.store = store;
  }

  datasets(symbol: string): ReplayDataset[] {
    return this.store
      .list()
      .filter((d) => d.symbol === symbol)
      .map((d) => ({
        id: d.id,
        market: d.market,
        symbol: d.symbol,
        kind: d.kind,
        interval: d.interval,
        firstTime: d.firstTime,
        lastTime: d.lastTime,
        specs: d.specs,
        specsSource: d.specsSource,
      }));
  }

  *depth(datasetId: number, from: number): Iterable<HistDepth> {
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

  depthAnchor(datasetId: number, at: number): number | null {
    // the events are in µs: the last snapshot at or before the end of the millisecond `at`
    const us = this.store.lastSnapshotTime(datasetId, at * 1000 + 999);
    return us === null ? null : Math.floor(us / 1000);
  }

  *trades(datasetId: number, from: number): Iterable<HistTrade> {
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

  *tradeBlocks(datasetId: number, from: number): Iterable<HistTradeBlock> {
    const fromUs = from * 1000;
    const cols = newColumns();
    const time = new Float64Array(cols.timeUs.length);
    const buyerMaker = new Uint8Array(cols.flags.length);
    const trades = new Float64Array(cols.flags.length);
    for (const bytes of this.store.tradeBlocks(datasetId, fromUs)) {
      const c = decodeBlock(bytes, cols);
      let start = 0;
      while (start < c.count && c.timeUs[start] < fromUs) start++;
      if (start === c.count) continue;
      for (let i = start; i < c.count; i++) {
        time[i] = Math.floor(c.timeUs[i] / 1000);
        buyerMaker[i] = c.flags[i] & 1;
        if (c.agg) trades[i] = c.last[i] - c.aux[i] + 1;
      }
      const block = {
        start,
        count: c.count,
        time,
        price: c.price,
        priceDp: c.priceDp,
        qty: c.qty,
        qtyDp: c.qtyDp,
        buyerMaker,
      };
      yield c.agg ? { ...block, trades } : block;
    }
  }

  *candles(datasetId: number, from: number, to: number): Iterable<HistCandle> {
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

  *funding(datasetId: number, from: number): Iterable<HistFunding> {
    for (const e of this.store.events(datasetId, from * 1000)) {
      yield { time: Math.floor(e.time / 1000), rate: Number(e.data.slice(e.data.indexOf(',') + 1)) };
    }
  }
}
