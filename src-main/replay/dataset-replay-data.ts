// The replay's view of the imported datasets (replay/ports.ts ReplayData) over the datasets
// store: depth events, candles and trades as decimal strings (data/dataset-reader.ts), trades
// also as the decoded columns themselves (tradeBlocks), the last snapshot before a time, and
// fundingRate rows. Times are ms (the store keeps events and trades in µs).
import type { HistFunding, HistTradeBlock, ReplayData, ReplayDataset } from './ports.ts';
import { DatasetReader } from '../data/dataset-reader.ts';
import type { DatasetRecord } from '../data/ports.ts';
import { decodeBlock, newColumns } from '../data/trade-codec.ts';

function replayDataset(d: DatasetRecord): ReplayDataset {
  return {
    id: d.id,
    market: d.market,
    symbol: d.symbol,
    kind: d.kind,
    interval: d.interval,
    firstTime: d.firstTime,
    lastTime: d.lastTime,
    specs: d.specs,
    specsSource: d.specsSource,
  };
}

export class DatasetReplayData extends DatasetReader implements ReplayData {
  datasets(symbol: string): ReplayDataset[] {
    return this.store
      .list()
      .filter((d) => d.symbol === symbol)
      .map(replayDataset);
  }

  dataset(id: number): ReplayDataset | null {
    const d = this.store.get(id);
    return d === undefined ? null : replayDataset(d);
  }

  depthAnchor(datasetId: number, at: number): number | null {
    // the events are in µs: the last snapshot at or before the end of the millisecond `at`
    const us = this.store.lastSnapshotTime(datasetId, at * 1000 + 999);
    return us === null ? null : Math.floor(us / 1000);
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

  *funding(datasetId: number, from: number): Iterable<HistFunding> {
    for (const e of this.store.events(datasetId, from * 1000)) {
      yield { time: Math.floor(e.time / 1000), rate: Number(e.data.slice(e.data.indexOf(',') + 1)) };
    }
  }
}
