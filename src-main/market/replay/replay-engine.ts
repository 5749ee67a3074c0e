// The replay's event loop: the historical streams of every replayed symbol merged in time order
// and applied to the venue's exchange (docs/replay.md "Market").
//
// Per symbol, one source of liquidity and prints, the richest the data has:
//   'depth'   an L2 dataset: the book is the historical one (book-mirror.ts), snapshots and diffs
//             with their update ids; a diff whose pu is not the previous u (spot: U not u + 1)
//             is a gap: the book stays as it was until the next snapshot re-anchors it. Prints
//             come from a trades / aggTrades dataset when there is one.
//   'trades'  trades / aggTrades only: a synthetic book around the last print (synthetic-book.ts).
//   'klines'  candles only: each candle's path is open -> the nearer of high and low -> the other
//             -> close, four prints, each a quarter of the volume (the remainder on the close),
//             each split into a buy part and a sell part in the candle's taker-buy share; the
//             prints are spread evenly over the candle (at open + i x interval / 4).
// Mark / index: the close of markPriceKlines / indexPriceKlines candles at their close time when
// present; otherwise mark = index = the last print, sent at most once a second of history.
// Funding: at the times of fundingRate rows with their rates when present; otherwise every 8 h at
// 00/08/16 UTC, at the rate Binance's rule gives from premiumIndexKlines when present
// (premium-funding.ts), else at 0.01 % (the interest rate: with mark = index the premium is 0).
// Invariants: the merge applies events in (time, stream rank) order: prices, then trades, then
// depth, then funding; the clock is set to each event's time before it is applied.
import { Side } from '../../../src-shared/enums.ts';
import type { VirtualClock } from '../../core/clock.ts';
import type { NewSymbol } from '../../core/symbol.ts';
import { FUNDING_INTEREST_RATE, FUNDING_INTERVAL_MS, fundingRateCap } from '../../risk/funding.ts';
import { makeBrackets } from '../../risk/tiers.ts';
import { HOUSE_ACCOUNT, type Exchange } from '../../trading/exchange.ts';
import type { PairState } from '../../trading/pair-state.ts';
import { DEFAULT_CATALOGUE } from '../catalogue.ts';
import type { MarketSymbolView } from '../market-source.ts';
import { decimalsOf } from '../seed-catalogue.ts';
import { BookMirror } from './book-mirror.ts';
import type {
  HistCandle,
  HistDepth,
  HistTrade,
  HistTradeBlock,
  ReplayData,
  ReplayDataset,
  ReplaySpecs,
} from './ports.ts';
import type { QueueModel } from './replay-market.ts';
import { PremiumFunding } from './premium-funding.ts';
import { SyntheticBook } from './synthetic-book.ts';

/** Engine account of the historical book's resting orders. */
export const REPLAY_BOOK_ACCOUNT = HOUSE_ACCOUNT + 11;
/** Engine account of the historical prints' takers. */
export const REPLAY_TAKER_ACCOUNT = HOUSE_ACCOUNT + 12;

const INTERVAL_RANK = [
  '1s',
  '1m',
  '3m',
  '5m',
  '15m',
  '30m',
  '1h',
  '2h',
  '4h',
  '6h',
  '8h',
  '12h',
  '1d',
  '3d',
  '1w',
  '1M',
];
const INTERVAL_MS: Record<string, number> = {
  '1s': 1000,
  '1m': 60_000,
  '3m': 180_000,
  '5m': 300_000,
  '15m': 900_000,
  '30m': 1_800_000,
  '1h': 3_600_000,
  '2h': 7_200_000,
  '4h': 14_400_000,
  '6h': 21_600_000,
  '8h': 28_800_000,
  '12h': 43_200_000,
  '1d': 86_400_000,
  '3d': 259_200_000,
  '1w': 604_800_000,
};

/** What one replayed symbol is made from. */
export interface SymbolSource {
  symbol: string;
  kind: 'depth' | 'trades' | 'klines';
  depth: ReplayDataset | null;
  trades: ReplayDataset | null;
  klines: ReplayDataset | null;
  mark: ReplayDataset | null;
  index: ReplayDataset | null;
  funding: ReplayDataset | null;
  /** premiumIndexKlines: the funding rate is derived from them when there is no fundingRate dataset. */
  premium: ReplayDataset | null;
  /** The specs the pair is listed with (from the main dataset). */
  specs: ReplaySpecs;
  /** ms after the last event of the main data. */
  end: number;
}

function smallest(list: ReplayDataset[], kind: string): ReplayDataset | null {
  const c = list.filter((d) => d.kind === kind && d.lastTime !== null && INTERVAL_MS[d.interval] !== undefined);
  c.sort((a, b) => INTERVAL_RANK.indexOf(a.interval) - INTERVAL_RANK.indexOf(b.interval));
  return c[0] ?? null;
}

function preferUm(list: ReplayDataset[], kinds: string[]): ReplayDataset | null {
  const c = list.filter((d) => kinds.includes(d.kind) && d.lastTime !== null);
  c.sort(
    (a, b) =>
      (a.market === 'um' ? 0 : 1) - (b.market === 'um' ? 0 : 1) || kinds.indexOf(a.kind) - kinds.indexOf(b.kind),
  );
  return c[0] ?? null;
}

/**
 * Chooses each symbol's datasets (docs/replay.md "Market"): RangeError naming the symbol when it
 * has nothing to replay or its data does not reach past `start`.
 */
export function planSources(
  data: ReplayData,
  symbols: readonly string[],
  start: number,
  until?: number,
): SymbolSource[] {
  if (symbols.length === 0) throw new RangeError('a replay needs at least one symbol');
  if (new Set(symbols).size !== symbols.length) throw new RangeError('a replay lists each symbol once');
  const out: SymbolSource[] = [];
  for (const symbol of symbols) {
    const all = data.datasets(symbol);
    const depth = preferUm(all, ['depth']);
    const trades = preferUm(all, ['trades', 'aggTrades']);
    const klines =
      smallest(
        all.filter((d) => d.market === 'um'),
        'klines',
      ) ?? smallest(all, 'klines');
    const kind = depth ? 'depth' : trades ? 'trades' : klines ? 'klines' : null;
    if (kind === null) throw new RangeError(`${symbol} has no depth, trades or klines dataset to replay`);
    const main = (depth ?? trades ?? klines)!;
    const end = kind === 'klines' ? main.lastTime! + INTERVAL_MS[main.interval] : main.lastTime! + 1;
    if (end <= start)
      throw new RangeError(
        `the ${main.kind} data of ${symbol} ends before the replay start (${new Date(end).toISOString()})`,
      );
    if (main.firstTime! > (until ?? start) && main.firstTime! > start) {
      throw new RangeError(
        `the ${main.kind} data of ${symbol} starts at ${new Date(main.firstTime!).toISOString()}, after the replay start`,
      );
    }
    const specs = main.specsSource === 'inferred' ? dataSpecs(data, main, trades) : main.specs;
    out.push({
      symbol,
      kind,
      depth,
      trades,
      klines,
      mark: smallest(all, 'markPriceKlines'),
      index: smallest(all, 'indexPriceKlines'),
      funding: preferUm(all, ['fundingRate']),
      premium: smallest(all, 'premiumIndexKlines'),
      specs,
      end,
    });
  }
  // replayed together, the pairs' data must share some time (not only each touch [start, until])
  const first = (p: SymbolSource): number => (p.depth ?? p.trades ?? p.klines)!.firstTime!;
  const latestFirst = out.reduce((a, b) => (first(b) > first(a) ? b : a));
  const earliestEnd = out.reduce((a, b) => (b.end < a.end ? b : a));
  if (first(latestFirst) >= earliestEnd.end) {
    const iso = (t: number): string => new Date(t).toISOString();
    throw new RangeError(
      `the data of ${earliestEnd.symbol} (${iso(first(earliestEnd))} to ${iso(earliestEnd.end)}) and ${latestFirst.symbol} ` +
        `(${iso(first(latestFirst))} to ${iso(latestFirst.end)}) do not overlap in time`,
    );
  }
  return out;
}

/** Decimals of a decimal string, trailing zeros not counted ('9781.0' has 0, '0.25460' 4). */
function significantDecimals(text: string): number {
  const dot = text.indexOf('.');
  if (dot < 0) return 0;
  let end = text.length;
  while (end > dot + 1 && text.charCodeAt(end - 1) === 48) end--;
  return end - dot - 1;
}

const SPEC_SAMPLE_EVENTS = 50;
const SPEC_SAMPLE_ROWS = 10_000;
/** Tick and step decimals together stay within the money precision (risk/money.ts). */
const MAX_SPEC_DECIMALS = 8;

/**
 * Specs read from the data when the dataset's are only the importer's placeholder ('inferred':
 * events keep 8/8 decimals; candles and trades the most decimals seen, trailing zeros included):
 * a tick and a lot at the most significant decimals of the first rows (50 depth events, 10,000
 * trades or candles) of the main dataset and the trades one. Tick + step decimals are capped at
 * 8, the step giving way (sizes then round to it).
 */
function dataSpecs(data: ReplayData, main: ReplayDataset, trades: ReplayDataset | null): ReplaySpecs {
  let pdp = 0;
  let qdp = 0;
  const price = (p: string): void => void (pdp = Math.max(pdp, significantDecimals(p)));
  const qty = (q: string): void => void (qdp = Math.max(qdp, significantDecimals(q)));
  const from = main.firstTime ?? 0;
  if (main.kind === 'depth') {
    let n = 0;
    for (const ev of data.depth(main.id, from)) {
      for (const rows of [ev.bids, ev.asks]) for (const [p, q] of rows) (price(p), qty(q));
      if (++n >= SPEC_SAMPLE_EVENTS) break;
    }
  } else if (main.kind === 'klines') {
    let n = 0;
    for (const c of data.candles(main.id, from, Number.MAX_SAFE_INTEGER)) {
      (price(c.open), price(c.high), price(c.low), price(c.close), qty(c.volume), qty(c.takerBuyVolume));
      if (++n >= SPEC_SAMPLE_ROWS) break;
    }
  }
  const t = trades ?? (main.kind === 'trades' || main.kind === 'aggTrades' ? main : null);
  if (t) {
    let n = 0;
    for (const x of data.trades(t.id, t.firstTime ?? 0)) {
      (price(x.price), qty(x.qty));
      if (++n >= SPEC_SAMPLE_ROWS) break;
    }
  }
  pdp = Math.min(pdp, MAX_SPEC_DECIMALS);
  qdp = Math.min(qdp, MAX_SPEC_DECIMALS - pdp);
  const step = (dp: number): string => (dp === 0 ? '1' : `0.${'0'.repeat(dp - 1)}1`);
  return { tickSize: step(pdp), stepSize: step(qdp), tiers: main.specs.tiers };
}

/**
 * The symbol row a replay venue lists for a replayed pair: the dataset's tick, step and tiers;
 * fees and display fields from the built-in catalogue when it knows the symbol, else the majors'
 * defaults. minQty is one step (the historical book holds any size), the price band 10 %.
 */
export function replaySymbolRow(symbol: string, specs: ReplaySpecs, initialPrice: string, sortOrder = 0): NewSymbol {
  const e = DEFAULT_CATALOGUE.find((c) => c.symbol === symbol);
  const brackets = makeBrackets(
    specs.tiers.map((t) => ({ cap: t.cap ?? Number.MAX_SAFE_INTEGER, maxLeverage: t.maxLeverage, mmr: t.mmr })),
  );
  const base = e?.base ?? symbol.replace(/(USDT|USDC|BUSD|USD)$/, '');
  return {
    symbol,
    baseAsset: base,
    quoteAsset: 'USDT',
    marginAsset: 'USDT',
    contractType: 1,
    status: 1,
    allowMarket: true,
    pricePrecision: decimalsOf(specs.tickSize),
    qtyPrecision: decimalsOf(specs.stepSize),
    quotePrecision: 8,
    tickSize: specs.tickSize,
    stepSize: specs.stepSize,
    minQty: specs.stepSize,
    maxQty: '1000000000',
    minNotional: e?.minNotional ?? '5',
    makerFeeRate: e?.makerFeeRate ?? '0.0002',
    takerFeeRate: e?.takerFeeRate ?? '0.0005',
    maxLeverage: brackets[0].maxLeverage,
    maintenanceMarginRate: String(brackets[0].mmr),
    brackets,
    marketPriceProtectRatio: '0.10',
    priceMerges: e?.priceMerges ?? [specs.tickSize],
    logo: `/logos/${base}.svg`,
    sortOrder,
    isDefault: sortOrder === 0,
    isHot: false,
    isGainer: false,
    isNew: false,
    tags: [],
    initialPrice,
  };
}

// ---------------------------------------------------------------------------------- streams

/** Stream ranks at equal times. */
const RANK_PRICES = 0;
const RANK_TRADE = 1;
const RANK_DEPTH = 2;
const RANK_FUNDING = 3;

interface Stream {
  /** Time of the next event, Infinity when done. */
  time: number;
  rank: number;
  /** Applies the event at `time` and moves to the next one. */
  apply(): void;
}

function iter<T>(it: Iterable<T>): Iterator<T> {
  return it[Symbol.iterator]();
}

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

/** The trades stream read a block of columns at a time (ReplayData.tradeBlocks). */
class TradeBlockStream implements Stream {
  time = Number.POSITIVE_INFINITY;
  readonly rank = RANK_TRADE;
  private readonly blocks: Iterator<HistTradeBlock>;
  private readonly s: SymbolReplay;
  private b: HistTradeBlock | null = null;
  private i = 0;

  constructor(blocks: Iterator<HistTradeBlock>, s: SymbolReplay) {
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
    if (++this.i < b.count) this.time = b.time[this.i];
    else this.nextBlock();
    this.s.trade(side, price, lots, t);
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

/** Per-symbol replay state. */
class SymbolReplay {
  readonly src: SymbolSource;
  readonly pair: PairState;
  readonly mirror: BookMirror;
  readonly synthetic: SyntheticBook | null;
  readonly ex: Exchange;
  /** Update id of the last diff applied (depth), -1 while waiting for a snapshot. */
  lastUpdateId = -1;
  gaps = 0;
  lastPriceTicks = 0;
  derivedPrices: boolean;
  private lastPriceSent = Number.NEGATIVE_INFINITY;
  private lastPriceText = '';
  private lastPriceValue = 0;
  private readonly stepSize: number;

  constructor(ex: Exchange, src: SymbolSource, model: QueueModel) {
    const pair = ex.pairs.get(src.symbol);
    if (!pair) throw new RangeError(`the venue does not list ${src.symbol}`);
    this.ex = ex;
    this.src = src;
    this.pair = pair;
    this.mirror = new BookMirror(ex, pair, REPLAY_BOOK_ACCOUNT, REPLAY_TAKER_ACCOUNT, model);
    this.synthetic = src.kind === 'depth' ? null : new SyntheticBook(this.mirror, pair);
    this.derivedPrices = src.mark === null;
    this.stepSize = Number(pair.row.stepSize);
  }

  ticks(text: string): number {
    // consecutive prints and rows mostly repeat the price: parse each new text once
    if (text === this.lastPriceText) return this.lastPriceValue;
    const r = this.pair.math.price.toUnits(text);
    const v = r.ok ? r.value : this.pair.math.ticksRound(Number(text));
    this.lastPriceText = text;
    this.lastPriceValue = v;
    return v;
  }

  lots(text: string): number {
    const r = this.pair.math.qty.toUnits(text);
    // a zero ('0.000') is not a step count: the rounding below makes it 0, as it does off-step sizes
    return r.ok ? r.value : Math.round(Number(text) / this.stepSize);
  }

  private lastMantissa = -1;
  private lastMantissaDp = -1;
  private lastMantissaTicks = 0;

  /** ticks() of the price m / 10^dp (a block's column), without its decimal string. */
  ticksOf(m: number, dp: number): number {
    if (m === this.lastMantissa && dp === this.lastMantissaDp) return this.lastMantissaTicks;
    const price = this.pair.math.price;
    let v = mantissaUnits(m, dp, price.stepUnits, price.stepDecimals);
    // off the tick: as ticks() rounds the text (m / 10^dp is the double the text parses to)
    if (v < 0) v = this.pair.math.ticksRound(m / 10 ** dp);
    this.lastMantissa = m;
    this.lastMantissaDp = dp;
    this.lastMantissaTicks = v;
    return v;
  }

  /** lots() of the quantity m / 10^dp, without its decimal string. */
  lotsOf(m: number, dp: number): number {
    const qty = this.pair.math.qty;
    const v = mantissaUnits(m, dp, qty.stepUnits, qty.stepDecimals);
    return v >= 0 ? v : Math.round(m / 10 ** dp / this.stepSize);
  }

  depth(ev: HistDepth): void {
    this.mirror.restoreIfTouched();
    if (ev.snapshot) {
      // a snapshot anchors the book when there is none yet or after a gap; while the stream is
      // continuous it is only a check point (the diffs already carry the book)
      if (this.lastUpdateId !== -1) return;
      const bids = this.levels(ev.bids);
      const asks = this.levels(ev.asks);
      // the first mark comes from the book (the price band of the book's orders is around it)
      if (this.lastPriceTicks === 0 && bids.size > 0 && asks.size > 0) {
        this.lastPriceTicks = Math.round((Math.max(...bids.keys()) + Math.min(...asks.keys())) / 2);
        this.sendDerivedPrices(this.lastPriceTicks, ev.time, true);
      }
      this.mirror.replace(bids, asks);
      this.lastUpdateId = ev.u;
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
      this.lastUpdateId = -1;
      return;
    }
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
  }

  private levels(rows: HistDepth['bids']): Map<number, number> {
    const m = new Map<number, number>();
    for (const [p, q] of rows) {
      const lots = this.lots(q);
      if (lots > 0) m.set(this.ticks(p), lots);
    }
    return m;
  }

  trade(takerSide: 1 | 2, price: number, lots: number, time: number): void {
    if (lots <= 0) return;
    // the derived prices first: a liquidation they set off may take from the book, which the
    // restore then puts back before the print meets it
    this.sendDerivedPrices(price, time, this.lastPriceTicks === 0);
    this.mirror.restoreIfTouched();
    const synthetic = this.synthetic;
    this.mirror.trade(takerSide, price, lots, synthetic === null ? 0 : synthetic.prepare(lots));
    this.lastPriceTicks = price;
    synthetic?.after(takerSide, price);
  }

  histTrade(t: HistTrade): void {
    this.trade(t.buyerMaker ? Side.SELL : Side.BUY, this.ticks(t.price), this.lots(t.qty), t.time);
  }

  /** mark = index = the last print (no mark dataset), at most once a second of history. */
  sendDerivedPrices(priceTicks: number, time: number, force = false): void {
    if (!force && (!this.derivedPrices || time - this.lastPriceSent < 1000)) return;
    this.lastPriceSent = time;
    const px = priceTicks * this.pair.math.tickValue;
    this.ex.execute({ kind: 'prices', symbol: this.src.symbol, mark: px, index: px });
  }
}

// ---------------------------------------------------------------------------------- engine

export interface ReplayEngineOptions {
  exchange: Exchange;
  data: ReplayData;
  sources: SymbolSource[];
  start: number;
  until: number;
  queueModel: QueueModel;
}

export class ReplayEngine {
  /** Market time of the history applied. */
  time: number;
  /** Historical events applied. */
  events = 0;
  readonly symbols = new Map<string, SymbolReplay>();
  private readonly opts: ReplayEngineOptions;
  private streams: Stream[] = [];

  constructor(opts: ReplayEngineOptions) {
    this.opts = opts;
    this.time = opts.start;
    for (const s of opts.sources) this.symbols.set(s.symbol, new SymbolReplay(opts.exchange, s, opts.queueModel));
  }

  sources(): Record<string, 'depth' | 'trades' | 'klines'> {
    const out: Record<string, 'depth' | 'trades' | 'klines'> = {};
    for (const [k, s] of this.symbols) out[k] = s.src.kind;
    return out;
  }

  /** The depth state of a replayed symbol (tests, status): the last update id applied (-1 waiting for a snapshot) and gaps met. */
  depthState(symbol: string): { lastUpdateId: number; gaps: number } {
    const s = this.symbols.get(symbol);
    if (!s) throw new RangeError(`${symbol} is not replayed`);
    return { lastUpdateId: s.lastUpdateId, gaps: s.gaps };
  }

  /** Detaches the mirrors from the exchange's events (the replay is closed). */
  dispose(): void {
    for (const s of this.symbols.values()) s.mirror.dispose();
  }

  /** The mirror of a replayed symbol (its historical levels and stats). */
  mirror(symbol: string): BookMirror {
    const s = this.symbols.get(symbol);
    if (!s) throw new RangeError(`${symbol} is not replayed`);
    return s.mirror;
  }

  /**
   * Opens the streams at the start. Depth is read from the last snapshot at or before the start
   * (the data's index, depthAnchor; the dataset's first event when there is none) so the book at
   * the start is the historical one (that snapshot plus its diffs), applied with the clock at the
   * start; everything else starts at the start.
   */
  prime(clock: VirtualClock): void {
    const { data, start, until } = this.opts;
    for (const s of this.symbols.values()) {
      const src = s.src;
      if (src.depth) {
        const it = iter(
          data.depth(src.depth.id, data.depthAnchor?.(src.depth.id, start) ?? src.depth.firstTime ?? start),
        );
        const st = this.stream(
          RANK_DEPTH,
          () => it.next(),
          (ev: HistDepth) => s.depth(ev),
          (ev) => ev.time,
        );
        // the history before the start builds the book only
        while (st.time < start) st.apply();
      }
      if (src.trades && data.tradeBlocks) {
        this.streams.push(new TradeBlockStream(iter(data.tradeBlocks(src.trades.id, start)), s));
      } else if (src.trades) {
        const it = iter(data.trades(src.trades.id, start));
        this.stream(
          RANK_TRADE,
          () => it.next(),
          (t: HistTrade) => s.histTrade(t),
          (t) => t.time,
        );
      } else if (src.kind === 'klines') {
        const iv = INTERVAL_MS[src.klines!.interval];
        const it = iter(data.candles(src.klines!.id, Math.ceil(start / iv) * iv, until));
        const path = klinePath(s, iv, it);
        this.stream(
          RANK_TRADE,
          () => path.next(),
          (p: PathPrint) => s.trade(p.side, p.price, p.lots, p.time),
          (p) => p.time,
        );
      }
      if (src.mark)
        this.candleCloses(src.mark, start, until, (c) =>
          this.opts.exchange.execute({ kind: 'prices', symbol: src.symbol, mark: Number(c.close) }),
        );
      if (src.index)
        this.candleCloses(src.index, start, until, (c) =>
          this.opts.exchange.execute({ kind: 'prices', symbol: src.symbol, index: Number(c.close) }),
        );
      this.fundingStream(s, start);
    }
    this.streams.sort((a, b) => a.rank - b.rank);
    clock.advance(Math.max(0, start - clock.now()));
  }

  private stream<T>(
    rank: number,
    next: () => IteratorResult<T>,
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
      const r = next();
      if (r.done) {
        cur = undefined;
        st.time = Number.POSITIVE_INFINITY;
      } else {
        cur = r.value;
        st.time = timeOf(r.value);
      }
    };
    advance();
    this.streams.push(st);
    return st;
  }

  private candleCloses(ds: ReplayDataset, start: number, until: number, apply: (c: HistCandle) => void): void {
    const iv = INTERVAL_MS[ds.interval];
    const it = iter(this.opts.data.candles(ds.id, start - iv, until));
    this.stream(
      RANK_PRICES,
      () => it.next(),
      apply,
      (c) => Math.max(start, c.closeTime),
    );
  }

  private fundingStream(s: SymbolReplay, start: number): void {
    const ex = this.opts.exchange;
    const symbol = s.src.symbol;
    if (s.src.funding) {
      const it = iter(this.opts.data.funding(s.src.funding.id, start));
      let nextRow = it.next();
      const st: Stream = {
        time: nextRow.done ? Number.POSITIVE_INFINITY : nextRow.value.time,
        rank: RANK_FUNDING,
        apply() {
          const f = nextRow.value!;
          nextRow = it.next();
          st.time = nextRow.done ? Number.POSITIVE_INFINITY : nextRow.value.time;
          ex.execute({ kind: 'funding', symbol, rate: f.rate, mark: s.pair.markPrice, time: f.time });
          ex.execute({
            kind: 'prices',
            symbol,
            fundingRate: nextRow.done ? f.rate : nextRow.value.rate,
            nextFundingTime: nextRow.done ? 0 : nextRow.value.time,
          });
        },
      };
      if (!nextRow.done)
        ex.execute({ kind: 'prices', symbol, fundingRate: nextRow.value.rate, nextFundingTime: nextRow.value.time });
      this.streams.push(st);
      return;
    }
    let next = Math.floor(start / FUNDING_INTERVAL_MS) * FUNDING_INTERVAL_MS + FUNDING_INTERVAL_MS;
    const premium = s.src.premium === null ? null : this.premiumStream(s, s.src.premium, start, () => next);
    const rateOf = (t: number): number => premium?.settle(t) ?? FUNDING_INTEREST_RATE;
    const predicted = (): number => premium?.rate(next) ?? FUNDING_INTEREST_RATE;
    ex.execute({ kind: 'prices', symbol, fundingRate: predicted(), nextFundingTime: next });
    const st: Stream = {
      time: next,
      rank: RANK_FUNDING,
      apply() {
        const t = next;
        next += FUNDING_INTERVAL_MS;
        st.time = next;
        ex.execute({ kind: 'funding', symbol, rate: rateOf(t), mark: s.pair.markPrice, time: t });
        ex.execute({ kind: 'prices', symbol, fundingRate: predicted(), nextFundingTime: next });
      },
    };
    this.streams.push(st);
  }

  /**
   * The premium index candles of a pair without fundingRate rows: each close is a premium sample
   * at its close time (those of the interval running at the start are read from its beginning
   * and applied at the start), and the predicted rate follows them.
   */
  private premiumStream(s: SymbolReplay, ds: ReplayDataset, start: number, settlement: () => number): PremiumFunding {
    const pf = new PremiumFunding(fundingRateCap(s.pair.row.brackets));
    const ex = this.opts.exchange;
    const symbol = s.src.symbol;
    const from = Math.floor(start / FUNDING_INTERVAL_MS) * FUNDING_INTERVAL_MS;
    const it = iter(this.opts.data.candles(ds.id, from, this.opts.until));
    this.stream(
      RANK_PRICES,
      () => it.next(),
      (c: HistCandle) => {
        pf.add(c.closeTime, Number(c.close));
        ex.execute({ kind: 'prices', symbol, fundingRate: pf.rate(settlement()) });
      },
      (c) => Math.max(start, c.closeTime),
    );
    return pf;
  }

  /** Applies every event with time <= target, the clock at each event's time; ends with time = target. */
  runTo(target: number, clock: VirtualClock): void {
    const end = Math.min(target, this.opts.until);
    if (end < this.time) return;
    const streams = this.streams;
    const n = streams.length;
    for (;;) {
      // the next event: smallest time, then rank (streams are sorted by rank)
      let best: Stream | null = null;
      let bi = -1;
      for (let i = 0; i < n; i++) {
        const s = streams[i];
        if (s.time <= end && (best === null || s.time < best.time)) {
          best = s;
          bi = i;
        }
      }
      if (best === null) break;
      // it stays the next while its time is before every lower-ranked stream's and not after any
      // higher-ranked one's (an event applied moves only its own stream): a run of its events
      // without looking at the others again
      let below = Number.POSITIVE_INFINITY;
      let above = Number.POSITIVE_INFINITY;
      for (let i = 0; i < n; i++) {
        if (i < bi) below = Math.min(below, streams[i].time);
        else if (i > bi) above = Math.min(above, streams[i].time);
      }
      const last = Math.min(end, above);
      do {
        const t = best.time;
        if (t > this.time) {
          clock.advance(t - this.time);
          this.time = t;
        }
        best.apply();
        this.events++;
      } while (best.time <= last && best.time < below);
    }
    if (end > this.time) {
      clock.advance(end - this.time);
      this.time = end;
    }
  }

  view(): MarketSymbolView[] {
    const out: MarketSymbolView[] = [];
    for (const s of this.symbols.values()) {
      out.push({
        symbol: s.src.symbol,
        volatility: 0,
        current_volatility: 0,
        jumps_per_day: 0,
        taker_rate: 0,
        taker_median_notional: 0,
        maker_levels: s.pair.book.levelCount(1) + s.pair.book.levelCount(2),
        maker_depth_notional: 0,
        index_price: s.pair.indexPrice,
        mark_price: s.pair.markPrice,
        funding_rate: s.pair.fundingRate,
        venues: [],
      });
    }
    return out;
  }
}

// ---------------------------------------------------------------------------------- kline path

interface PathPrint {
  time: number;
  side: 1 | 2;
  price: number;
  lots: number;
}

/**
 * The prints of a candles-only replay: open -> nearer of high/low (the high on a tie) -> the
 * other -> close, each a quarter of the volume (the remainder on the close), each split into
 * a buy part (its share of the taker-buy volume) and a sell part, at open + i x interval / 4.
 */
function* klinePath(
  s: { ticks(t: string): number; lots(t: string): number },
  intervalMs: number,
  candles: Iterator<HistCandle>,
): Generator<PathPrint> {
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
    for (let i = 0; i < 4; i++) {
      const lots = i === 3 ? vol - 3 * q : q;
      const buyLots = i === 3 ? buy - 3 * b : b;
      const time = c.openTime + Math.floor((i * intervalMs) / 4);
      if (buyLots > 0) yield { time, side: 1, price: path[i], lots: buyLots };
      if (lots - buyLots > 0) yield { time, side: 2, price: path[i], lots: lots - buyLots };
    }
  }
}
