// One replayed symbol (docs/replay.md "Market"): its source of liquidity and prints (the
// historical book of an L2 dataset through book-mirror.ts, or the synthetic book around the last
// print), the conversion of the data's decimals to the pair's ticks and lots, the depth stream's
// update-id continuity, and the mark (and the index) derived from the prints where there is no mark data.
// Invariants
//   - A depth diff is applied only when it continues the stream (futures: pu = the previous u, or
//     U <= lastUpdateId <= u right after a snapshot; spot: U <= previous u + 1); a break is a gap:
//     the book stays as it was until the next snapshot re-anchors it.
//   - Within a diff, reductions and removals come before growth, so nothing ever crosses.
//   - Every print first puts back the levels others traded at (no market impact).
import { Side } from '../../src-shared/enums.ts';
import { HOUSE_ACCOUNT, type Exchange } from '../trading/exchange.ts';
import { stampBookTime, type PairState } from '../trading/pair-state.ts';
import { BookMirror } from './book-mirror.ts';
import { QuoteMeter } from './quote-meter.ts';
import { RANK_PRICES, type Stream, type StreamMerge } from './merge.ts';
import type { QueueModel } from './models/queue-model.ts';
import { INTERVAL_MS, type SymbolSource } from './plan.ts';
import type { HistDepth, HistTrade } from './ports.ts';
import type { PrintSink } from './streams.ts';
import { decimalUnits, type PathPrint } from './kline-path.ts';
import type { Interval } from '../../src-shared/intervals.ts';
import type { CandleCoverage } from '../market/candle-coverage.ts';

/** Where a klines replay brings its candles to the source's columns (the venue's klines service). */
export interface CandleColumns {
  adjustCurrent(
    symbol: string,
    from: Interval,
    columns: { trades: number; quote: bigint; takerBuyQuote: bigint },
  ): void;
  /** What history has candles for (set in a replay of candles): told of each source candle at its open. */
  readonly coverage: CandleCoverage | null;
}
import { SyntheticBook } from './synthetic-book.ts';
import { offStep, roundedTextUnits, roundedUnits } from './units.ts';

/** Gap times a symbol keeps for the status (the count goes on). */
const MAX_GAP_TIMES = 100;

/** Engine account of the historical book's resting orders. */
export const REPLAY_BOOK_ACCOUNT = HOUSE_ACCOUNT + 11;
/** Engine account of the historical prints' takers. */
export const REPLAY_TAKER_ACCOUNT = HOUSE_ACCOUNT + 12;

const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);

/**
 * m / 10^dp in steps of stepUnits x 10^-stepDecimals when that is an exact multiple (what
 * StepScale.toUnits gives for its decimal string), else -1.
 */
function mantissaUnits(m: number, dp: number, stepUnits: number, stepDecimals: number): number {
  // the common case: the data at the step's decimals, a step of one unit (0.1, 0.001)
  if (dp === stepDecimals && stepUnits === 1) return Number.isSafeInteger(m) ? m : -1;
  let v: number;
  if (dp <= stepDecimals) {
    if (stepDecimals - dp > 22) return -1;
    v = m * POW10[stepDecimals - dp];
    if (!Number.isSafeInteger(v)) return -1;
  } else {
    if (dp - stepDecimals > 22) return -1;
    const d = POW10[dp - stepDecimals];
    if (m % d !== 0) return -1;
    v = m / d;
  }
  return v % stepUnits === 0 ? v / stepUnits : -1;
}

/** Per-symbol replay state. */
export class SymbolReplay implements PrintSink {
  readonly src: SymbolSource;
  readonly pair: PairState;
  readonly mirror: BookMirror;
  readonly synthetic: SyntheticBook | null;
  readonly ex: Exchange;
  /** Update id of the last diff applied (depth), -1 while waiting for a snapshot. */
  lastUpdateId = -1;
  gaps = 0;
  /** Diffs after which the book's id stood above the recording's u (more changes than ids between). */
  idOverruns = 0;
  /** Market times of the first gaps met (MAX_GAP_TIMES of them). */
  readonly gapTimes: number[] = [];
  lastPriceTicks = 0;
  /**
   * The pair starts at a trade at or before the start (plan.ts startTrade): its mark and
   * index are that trade's price until the first print, and the snapshot the book starts from
   * does not replace them with its mid (that is for a pair with no trade before the start).
   */
  startsAtTrade = false;
  /**
   * The mark comes from the prints (docs/replay.md "Prices and funding"): no mark data, or none
   * now (before a mark dataset's first candle, after its last). replay-engine.ts sets it.
   */
  derivedPrices = true;
  /** The index comes from index candles (else it is the mark). replay-engine.ts sets it. */
  indexFromData = false;
  private lastPriceSent = Number.NEGATIVE_INFINITY;
  private lastPriceText = '';
  private lastPriceValue = 0;
  private readonly stepSize: number;

  /**
   * The derived mark's stream (in the merge when the pair has no mark data): its next event is
   * the time a print left pending is due (the last mark sent + 1 s), Infinity while none is.
   */
  readonly markDue: Stream;
  /** Events of markDue applied. */
  marksDue = 0;
  private pendingPrice = 0;
  private readonly merge: StreamMerge;

  constructor(ex: Exchange, src: SymbolSource, model: QueueModel, merge: StreamMerge) {
    const pair = ex.pairs.get(src.symbol);
    if (!pair) throw new RangeError(`the venue does not list ${src.symbol}`);
    this.ex = ex;
    this.src = src;
    this.pair = pair;
    this.mirror = new BookMirror(ex, pair, REPLAY_BOOK_ACCOUNT, REPLAY_TAKER_ACCOUNT, model);
    this.synthetic = src.kind === 'depth' ? null : new SyntheticBook(this.mirror, pair);
    // a replay of candles brings their quote volumes to the source's from what its prints booked
    this.meter = src.kind === 'klines' ? new QuoteMeter(ex, this.mirror) : null;
    this.stepSize = Number(pair.row.stepSize);
    this.merge = merge;
    const markDue: Stream = {
      time: Number.POSITIVE_INFINITY,
      rank: RANK_PRICES,
      apply: () => {
        markDue.time = Number.POSITIVE_INFINITY;
        this.marksDue++;
        // (mark data may have begun since the print that left it pending)
        if (this.derivedPrices) this.sendDerivedPrices(this.pendingPrice, this.lastPriceSent + 1000);
      },
    };
    this.markDue = markDue;
  }

  ticks(text: string): number {
    // consecutive prints and rows mostly repeat the price: parse each new text once
    if (text === this.lastPriceText) return this.lastPriceValue;
    const r = this.pair.math.price.toUnits(text);
    const v = r.ok ? r.value : offStep(roundedTextUnits(text, this.pair.math.price), text, this.pair.math.tickValue);
    this.lastPriceText = text;
    this.lastPriceValue = v;
    return v;
  }

  lots(text: string): number {
    const r = this.pair.math.qty.toUnits(text);
    // a zero ('0.000') is not a step count: the rounding below makes it 0, as it does off-step sizes
    return r.ok ? r.value : offStep(roundedTextUnits(text, this.pair.math.qty), text, this.stepSize);
  }

  private lastMantissa = -1;
  private lastMantissaDp = -1;
  private lastMantissaTicks = 0;

  /** ticks() of the price m / 10^dp (a block's column), without its decimal string. */
  ticksOf(m: number, dp: number): number {
    if (m === this.lastMantissa && dp === this.lastMantissaDp) return this.lastMantissaTicks;
    const price = this.pair.math.price;
    let v = mantissaUnits(m, dp, price.stepUnits, price.stepDecimals);
    // off the tick: as ticks() rounds the text (m / 10^dp is its value), halves up (replay/units.ts)
    if (v < 0) v = roundedUnits(m, dp, price);
    if (Number.isNaN(v)) v = this.pair.math.ticksRound(m / 10 ** dp);
    this.lastMantissa = m;
    this.lastMantissaDp = dp;
    this.lastMantissaTicks = v;
    return v;
  }

  /** lots() of the quantity m / 10^dp, without its decimal string. */
  lotsOf(m: number, dp: number): number {
    const qty = this.pair.math.qty;
    const v = mantissaUnits(m, dp, qty.stepUnits, qty.stepDecimals);
    if (v >= 0) return v;
    const r = roundedUnits(m, dp, qty);
    return Number.isNaN(r) ? Math.round(m / 10 ** dp / this.stepSize) : r;
  }

  depth(ev: HistDepth): void {
    this.applyDepth(ev);
    // a level placed may have met a user's order: the last-price triggers that reached (as after a print)
    this.ex.fireTradeTriggers();
  }

  private applyDepth(ev: HistDepth): void {
    this.mirror.restoreIfTouched();
    if (ev.snapshot) {
      // a snapshot anchors the book when there is none yet or after a gap; while the stream is
      // continuous it is only a check point (the diffs already carry the book)
      if (this.lastUpdateId !== -1) return;
      const bids = this.levels(ev.bids);
      const asks = this.levels(ev.asks);
      // without a trade before it, the first mark comes from the book (the price band of the
      // book's orders is around it); with one, the mark stays the last trade's (docs/replay.md)
      if (this.lastPriceTicks === 0 && !this.startsAtTrade && bids.size > 0 && asks.size > 0) {
        this.lastPriceTicks = Math.round((Math.max(...bids.keys()) + Math.min(...asks.keys())) / 2);
        this.sendDerivedPrices(this.lastPriceTicks, ev.time);
      }
      this.mirror.replace(bids, asks);
      this.lastUpdateId = ev.u;
      this.pair.book.raiseUpdateId(ev.u); // the book's id is the recording's
      stampBookTime(this.pair, ev.time); // and its time (Binance's depth T) the recording's T
      return;
    }
    if (this.lastUpdateId === -1) return;
    if (ev.u < this.lastUpdateId) return; // before the snapshot
    const continuous =
      ev.pu >= 0
        ? ev.pu === this.lastUpdateId || (ev.U <= this.lastUpdateId && this.lastUpdateId <= ev.u)
        : ev.U <= this.lastUpdateId + 1;
    if (!continuous) {
      this.gaps++;
      if (this.gapTimes.length < MAX_GAP_TIMES) this.gapTimes.push(ev.time);
      this.lastUpdateId = -1;
      return;
    }
    // the diff's changes take the recording's ids from U on (the venue's own changes since the
    // last diff took the ids after its u), and leave the book's id at u
    const book = this.pair.book;
    book.raiseUpdateId(ev.U - 1);
    // removals and reductions first, so a level that moved never crosses the other side
    const up: Array<[1 | 2, number, number]> = [];
    for (const [side, rows] of [
      [1, ev.bids],
      [2, ev.asks],
    ] as const) {
      const h = this.mirror.hist[side - 1];
      for (const [p, q] of rows) {
        const price = this.ticks(p);
        const lots = this.lots(q);
        if (lots < (h.get(price) ?? 0)) this.mirror.setLevel(side, price, lots);
        else if (lots > (h.get(price) ?? 0)) up.push([side, price, lots]);
      }
    }
    for (const [side, price, lots] of up) this.mirror.setLevel(side, price, lots);
    this.lastUpdateId = ev.u;
    if (book.updateId > ev.u) this.idOverruns++;
    else book.raiseUpdateId(ev.u);
    // the raised id is a change of the book at the diff's T (Binance's depth T), not at a later read's time
    stampBookTime(this.pair, ev.time);
  }

  private levels(rows: HistDepth['bids']): Map<number, number> {
    const m = new Map<number, number>();
    for (const [p, q] of rows) {
      const lots = this.lots(q);
      if (lots > 0) m.set(this.ticks(p), lots);
    }
    return m;
  }

  trade(takerSide: 1 | 2, price: number, lots: number, time: number, count = 1): void {
    if (lots <= 0) return;
    // the first print of a pair with no book before it: its price is the first mark, before it,
    // so the levels quoted around it are inside the price band (nothing can be open to trigger yet)
    if (this.lastPriceTicks === 0) this.sendDerivedPrices(price, time);
    this.mirror.restoreIfTouched();
    const synthetic = this.synthetic;
    const before = this.mirror.ownTrades;
    const crossed = this.mirror.crossed;
    this.mirror.trade(takerSide, price, lots, synthetic === null ? 0 : synthetic.prepare(lots));
    // a historical print counts in the candles as the trades it stands for, however many resting
    // orders it met here (a klines replay counts its candles' trades itself: pathPrint); a user's
    // order crossed by the level placed for it is a trade of its own, as a depth event's is
    const made = this.mirror.ownTrades - before - (this.mirror.crossed - crossed);
    if (made !== count && made > 0 && this.candles !== null && this.src.kind !== 'klines') {
      const fix = this.countFix;
      fix.trades = count - made;
      this.candles.adjustCurrent(this.src.symbol, '1s', fix);
    }
    this.lastPriceTicks = price;
    synthetic?.after(takerSide, price);
    // what the print causes comes after it, against the book it left (no look-ahead)
    this.afterPrint(price, time);
  }

  /**
   * After a print: the derived mark when it is due (the venue's liquidation and trigger checks),
   * then the last-price triggers the print's trades reached (the house desk leaves them to the
   * end of the print), so such a trigger fires on the first print that reaches it.
   */
  private afterPrint(price: number, time: number): void {
    if (this.derivedPrices) {
      if (time - this.lastPriceSent >= 1000) {
        this.markDue.time = Number.POSITIVE_INFINITY;
        this.sendDerivedPrices(price, time);
      } else {
        // within the second of the last mark: this print's price is sent once the second is up
        this.pendingPrice = price;
        if (this.markDue.time === Number.POSITIVE_INFINITY) {
          this.markDue.time = this.lastPriceSent + 1000;
          this.merge.wake();
        }
      }
    }
    this.ex.fireTradeTriggers();
  }

  /** A print's trade-count correction (adjustCurrent reads it during the call): no object a print. */
  private readonly countFix = { trades: 0, quote: 0n, takerBuyQuote: 0n };

  /** The quote of the mirror's own trades (a klines replay: its prints' quote as booked). */
  private readonly meter: QuoteMeter | null;

  /** Detaches the mirror (and the meter) from the exchange's events (the replay is closed). */
  dispose(): void {
    this.mirror.dispose();
    this.meter?.dispose();
  }

  /** The venue's candles a klines replay brings to the source's columns (set once they are open). */
  candles: CandleColumns | null = null;
  /** The current source candle's prints: engine trades, quote and taker-buy quote (tick x step units). */
  private pathTrades = 0;
  private pathQuote = 0n;
  private pathBuyQuote = 0n;

  /**
   * One print of a candle's path (kline-path.ts); after the candle's last one, its trade count,
   * quote volume and taker-buy quote volume are brought to the source's (docs/replay.md).
   */
  pathPrint(p: PathPrint): void {
    if (p.opens !== null && this.candles?.coverage) {
      const interval = this.src.klines!.interval;
      this.candles.coverage.add(this.src.symbol, interval as Interval, INTERVAL_MS[interval], p.opens);
    }
    if (p.buy + p.sell === 0) return; // a candle without volume: no print
    // the engine trades the print makes (one per resting order it meets, each at its maker's
    // price: a user's order resting better than the print fills at its own price)
    const m = this.meter!;
    const before = this.mirror.ownTrades - this.mirror.crossed;
    const quoteBefore = m.quote;
    const buyBefore = m.buyQuote;
    // the buy part first, unless a user's bid rests at or above the price (the price fell to it):
    // the sell part, history's sellers, fills it then, as part of the print; a buy part first
    // would place the level it buys from across that bid, a trade history never had (the
    // candle's volume one order more than the source's)
    if (p.sell > 0 && (p.buy === 0 || this.othersBidAtOrAbove(p.price))) {
      this.trade(Side.SELL, p.price, p.sell, p.time);
      this.trade(Side.BUY, p.price, p.buy, p.time);
    } else {
      this.trade(Side.BUY, p.price, p.buy, p.time);
      this.trade(Side.SELL, p.price, p.sell, p.time);
    }
    this.pathTrades += this.mirror.ownTrades - this.mirror.crossed - before;
    this.pathQuote += m.quote - quoteBefore;
    this.pathBuyQuote += m.buyQuote - buyBefore;
    const c = p.candle;
    if (c === null) return;
    const { price, qty } = this.pair.math;
    const decimals = price.stepDecimals + qty.stepDecimals;
    const unit = price.stepUnits * qty.stepUnits;
    if (
      this.candles !== null &&
      c.trades !== undefined &&
      c.quoteVolume !== undefined &&
      c.takerBuyQuoteVolume !== undefined
    ) {
      this.candles.adjustCurrent(this.src.symbol, this.src.klines!.interval as Interval, {
        trades: c.trades - this.pathTrades,
        quote: decimalUnits(c.quoteVolume, decimals, unit) - this.pathQuote,
        takerBuyQuote: decimalUnits(c.takerBuyQuoteVolume, decimals, unit) - this.pathBuyQuote,
      });
    }
    this.pathTrades = 0;
    this.pathQuote = 0n;
    this.pathBuyQuote = 0n;
  }

  /**
   * Whether anyone but the book account has a bid at or above `price`, which the level placed for
   * a buy print at the price would trade with (pathPrint then prints the sell part first).
   */
  private othersBidAtOrAbove(price: number): boolean {
    const book = this.pair.book;
    if (book.bestBid() < price) return false;
    for (const [p, total] of book.topLevels(Side.BUY)) {
      if (p < price) break;
      if (total > this.mirror.houseLots(Side.BUY, p)) return true;
    }
    return false;
  }

  /**
   * The synthetic book quoted at the start (trades only, klines only) around the print the pair
   * starts at, a `takerSide` print of `lots` at `price` ticks taken into the running mean, as if
   * the replay had begun with it: an order before the first print after the start meets a book
   * (docs/replay.md "Synthetic book"). Nothing trades and nothing is printed.
   */
  quoteAtStart(takerSide: 1 | 2, price: number, lots: number, time: number): void {
    const synthetic = this.synthetic;
    if (synthetic === null || !(lots > 0) || !(price > 0) || this.lastPriceTicks !== 0) return;
    // the levels are inside the price band of a pair that has no mark yet
    if (!(this.pair.markPrice > 0)) this.sendDerivedPrices(price, time);
    synthetic.prepare(lots);
    synthetic.after(takerSide, price);
  }

  histTrade(t: HistTrade): void {
    this.trade(t.buyerMaker ? Side.SELL : Side.BUY, this.ticks(t.price), this.lots(t.qty), t.time, t.trades ?? 1);
  }

  /**
   * The price as the mark while it comes from the prints, and as the index while that is the
   * mark (no index data now); either also when the pair has none yet (the first print or book);
   * at most once a second of history (the callers).
   */
  private sendDerivedPrices(priceTicks: number, time: number): void {
    this.lastPriceSent = time;
    const px = priceTicks * this.pair.math.tickValue;
    const pair = this.pair;
    const mark = this.derivedPrices || !(pair.markPrice > 0) ? px : undefined;
    const index = (!this.indexFromData && this.derivedPrices) || !(pair.indexPrice > 0) ? px : undefined;
    if (mark !== undefined || index !== undefined)
      this.ex.execute({ kind: 'prices', symbol: this.src.symbol, mark, index });
  }
}
