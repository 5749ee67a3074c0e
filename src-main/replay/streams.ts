// The event streams a replay merges (merge.ts): a stream over any iterator of timed rows, and the
// trades stream read a block of integer columns at a time (ReplayData.tradeBlocks), which builds
// no decimal string and allocates nothing per trade.
import { Side } from '../../src-shared/enums.ts';
import { RANK_TRADE, type Stream } from './merge.ts';
import type { HistTradeBlock } from './ports.ts';

export function iter<T>(it: Iterable<T>): Iterator<T> {
  return it[Symbol.iterator]();
}

/** A stream over `it`: each row applied by `apply` at `timeOf(row)` (rows in time order). */
export function iteratorStream<T>(
  rank: number,
  it: Iterator<T>,
  apply: (v: T) => void,
  timeOf: (v: T) => number,
): Stream {
  let cur: T | undefined;
  const st: Stream = {
    time: Number.POSITIVE_INFINITY,
    rank,
    apply() {
      const v = cur!;
      advance();
      apply(v);
    },
  };
  const advance = (): void => {
    const r = it.next();
    if (r.done) {
      cur = undefined;
      st.time = Number.POSITIVE_INFINITY;
    } else {
      cur = r.value;
      st.time = timeOf(r.value);
    }
  };
  advance();
  return st;
}

/** Where the trades stream sends its prints (symbol-replay.ts). */
export interface PrintSink {
  /** Price ticks of the mantissa m at dp decimals. */
  ticksOf(m: number, dp: number): number;
  /** Lots of the mantissa m at dp decimals. */
  lotsOf(m: number, dp: number): number;
  /** A historical print; `count`: the trades it stands for (1, or an aggregated trade's). */
  trade(takerSide: 1 | 2, price: number, lots: number, time: number, count?: number): void;
}

/** The trades stream read a block of columns at a time (ReplayData.tradeBlocks). */
export class TradeBlockStream implements Stream {
  time = Number.POSITIVE_INFINITY;
  readonly rank = RANK_TRADE;
  private readonly blocks: Iterator<HistTradeBlock>;
  private readonly s: PrintSink;
  private b: HistTradeBlock | null = null;
  private i = 0;

  constructor(blocks: Iterator<HistTradeBlock>, s: PrintSink) {
    this.blocks = blocks;
    this.s = s;
    this.nextBlock();
  }

  apply(): void {
    const b = this.b!;
    const i = this.i;
    // the row is read before the stream moves on (the next block may reuse the arrays)
    const t = b.time[i];
    const side = b.buyerMaker[i] === 1 ? Side.SELL : Side.BUY;
    const price = this.s.ticksOf(b.price[i], b.priceDp);
    const lots = this.s.lotsOf(b.qty[i], b.qtyDp);
    const count = b.trades === undefined ? 1 : b.trades[i];
    if (++this.i < b.count) this.time = b.time[this.i];
    else this.nextBlock();
    this.s.trade(side, price, lots, t, count);
  }

  private nextBlock(): void {
    for (;;) {
      const r = this.blocks.next();
      if (r.done) {
        this.b = null;
        this.time = Number.POSITIVE_INFINITY;
        return;
      }
      if (r.value.start < r.value.count) {
        this.b = r.value;
        this.i = r.value.start;
        this.time = r.value.time[this.i];
        return;
      }
    }
  }
}
