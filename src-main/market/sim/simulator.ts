// The simulated market: every trading pair's latent price, index, crowd, deep book, takers, house
// market maker and price feed, advanced together in fixed steps of market time.
// Keeps true: the state after step k depends only on the seed, the start time, the settings and
// the external commands in between (never on wall time or on how a driver groups steps), and
// trade times never go back. Order of work, overload skips and errors: docs/simulated-market.md,
// "The simulator".
import { SymbolStatus } from '../../../src-shared/enums.ts';
import type { VirtualClock } from '../../core/clock.ts';
import { isFundingInstant, fundingTimesBetween } from '../../risk/funding.ts';
import { HOUSE_ACCOUNT, type Exchange } from '../../trading/exchange.ts';
import type { PairState } from '../../trading/pair-state.ts';
import type { TradeEvent } from '../../trading/events.ts';
import { Impact, impactScale } from './impact.ts';
import { DEFAULT_VENUES, IndexVenues, type VenueSpec } from './index-venues.ts';
import { MarketMaker } from './market-maker.ts';
import { runAt } from './market-time.ts';
import { niceNear, PairLimits } from './order-sizing.ts';
import { deepShape, LIVE_STEP_MS, paramsFor, requotes, type SymbolSimParams } from './params.ts';
import { PriceFeed, type FundingInterval } from './price-feed.ts';
import { PriceProcess, type ProcessState } from './price-process.ts';
import { Rng } from './rng.ts';
import { DEFAULT_DEEP, DeepBook, deepDensity } from './deep-book.ts';
import { DEFAULT_FLOW, OrderFlow } from './order-flow.ts';
import { DEFAULT_TOUCH, TouchBook } from './touch-book.ts';
import { symbolView, type SimSymbolView } from './sim-view.ts';

export type { SimSymbolView } from './sim-view.ts';

// House engine accounts (>= HOUSE_ACCOUNT: bot orders, no margin), one per party: self-trade prevention
// stops one account's orders meeting; the takers must reach the maker, bot-route bots (HOUSE_ACCOUNT) both.
export const TAKER_ACCOUNT = HOUSE_ACCOUNT + 1;
export const MAKER_ACCOUNT = HOUSE_ACCOUNT + 2;
/** The crowd of liquidity providers: the touch and the deep book. */
export const LIQUIDITY_ACCOUNT = HOUSE_ACCOUNT + 3;
/** The maker's half-spread grows with the volatility over this horizon. */
const SPREAD_HORIZON_S = 10;
const SPREAD_VOL_K = 0.6;
const SPACING_SHARE = 0.6;
const SPACING_HYSTERESIS = 1.9;

export interface SimulatorOptions {
  exchange: Exchange;
  clock: VirtualClock;
  seed: number;
  /** Market time the simulation starts from (rounded down to a step); default clock.now(). */
  start?: number;
  /** Step length in ms of market time; must divide 1000. Default 100. */
  stepMs?: number;
  /** The pairs to simulate (default: every trading pair); the others are left alone. */
  symbols?: readonly string[];
  /** Per-symbol overrides of the class defaults (params.ts). */
  params?: Readonly<Record<string, Partial<SymbolSimParams>>>;
  /** Where each symbol's price (and variance) starts, e.g. the end of the history fast-forward. */
  startStates?: ReadonlyMap<string, ProcessState>;
  /** A restart's transient impact offsets (log, Impact.transient): the latent price starts at the start price over e^offset. */
  impactOffsets?: ReadonlyMap<string, number>;
  /** A restart's running funding intervals (PriceFeed.interval): the premium samples go on. */
  fundingIntervals?: ReadonlyMap<string, FundingInterval>;
  makerAccount?: number;
  takerAccount?: number;
  liquidityAccount?: number;
  venues?: readonly VenueSpec[];
  /** Outages per venue per day (default 3). */
  outagesPerDay?: number;
  onError?: (err: unknown, symbol: string) => void;
}

export interface SymbolSim {
  readonly symbol: string;
  readonly pair: PairState;
  readonly params: SymbolSimParams;
  readonly process: PriceProcess;
  readonly venues: IndexVenues;
  readonly maker: MarketMaker;
  readonly takers: OrderFlow;
  readonly touch: TouchBook;
  readonly deep: DeepBook;
  readonly feed: PriceFeed;
  readonly limits: PairLimits;
  /** Price impact of the taker flow (impact.ts): the permanent share moves the latent price, the transient the book's fair price. */
  readonly impact: Impact;
  /** Maker grid step in ticks. */
  spacing: number;
  /** Maker half-spread, fraction of price. */
  halfSpread: number;
  lastTradeTime: number;
  trades: number;
  /** Lowest and highest price (ticks) traded at since the crowd last looked for its fills. */
  tradeLo: number;
  tradeHi: number;
  fundingSettlements: number;
  active: boolean;
  /** The current step's index (0 while the pair is not trading or has not moved yet) and volatility factor of the taker rate. */
  stepIndex: number;
  volFactor: number;
  /** The current step's pace (the takers' business time), set at its start. */
  pace: number;
  centre: number;
  readonly requotes: Rng;
}

export interface SimStats {
  steps: number;
  skips: number;
  skippedMs: number;
  trades: number;
  takerOrders: number;
  makerOrders: number;
  rejected: number;
  errors: number;
}

export class Simulator {
  readonly seed: number;
  readonly stepMs: number;
  readonly startTime: number;
  readonly symbols: SymbolSim[] = [];
  private readonly bySymbol = new Map<string, SymbolSim>();
  private readonly ex: Exchange;
  private readonly clock: VirtualClock;
  private readonly onError: (err: unknown, symbol: string) => void;
  private _time: number;
  /** Latest market time any trade was stamped with (ours or anyone's). */
  private lastStamp = Number.NEGATIVE_INFINITY;
  private readonly stats0 = { steps: 0, skips: 0, skippedMs: 0, trades: 0, errors: 0 };
  private readonly unsubscribe: () => void;
  private disposed = false;
  /** Arrival offsets of one symbol's taker orders in the current step (reused). */
  private readonly offsets: number[] = [];
  /** The current step's events of every symbol: (offset x 2 + 1 for a taker order, 0 for the move) x 4096 + catalogue place (reused). */
  private readonly orders: number[] = [];

  constructor(opts: SimulatorOptions) {
    const stepMs = opts.stepMs ?? LIVE_STEP_MS;
    if (!Number.isInteger(stepMs) || stepMs < 1 || 1000 % stepMs !== 0)
      throw new RangeError('stepMs must be an integer divisor of 1000');
    this.seed = opts.seed;
    this.stepMs = stepMs;
    this.ex = opts.exchange;
    this.clock = opts.clock;
    this.onError =
      opts.onError ?? ((err, symbol) => console.error(`perpdesk: simulator step failed on ${symbol}`, err));
    const start = opts.start ?? opts.clock.now();
    this._time = Math.floor(start / stepMs) * stepMs;
    this.startTime = this._time;
    const makerAccount = opts.makerAccount ?? MAKER_ACCOUNT;
    const takerAccount = opts.takerAccount ?? TAKER_ACCOUNT;
    const liquidityAccount = opts.liquidityAccount ?? LIQUIDITY_ACCOUNT;
    if (new Set([makerAccount, takerAccount, liquidityAccount]).size !== 3)
      throw new RangeError('the maker, the takers and the crowd need different engine accounts');

    for (const pair of this.ex.pairs.values()) {
      const row = pair.row;
      if (row.status !== SymbolStatus.TRADING) continue;
      if (opts.symbols !== undefined && !opts.symbols.includes(row.symbol)) continue;
      const params = paramsFor(row, opts.params?.[row.symbol]);
      const stream = (name: string) => Rng.stream(opts.seed, this.startTime, row.symbol, name);
      const limits = new PairLimits(pair);
      const transient = opts.impactOffsets?.get(row.symbol) ?? 0;
      const st = opts.startStates?.get(row.symbol) ?? { price: pair.markPrice };
      const process = new PriceProcess(params, { ...st, price: st.price * Math.exp(-transient) }, stream('price'), {
        min: limits.tick * 1000,
        max: limits.tick * 1.5e9,
      });
      const venues = new IndexVenues(
        stream('venues'),
        process.logPrice,
        params.venueBasis,
        opts.venues ?? DEFAULT_VENUES,
        opts.outagesPerDay,
      );
      const party = (name: string, account: number) => ({ ex: this.ex, pair, limits, rng: stream(name), account });
      const maker = new MarketMaker(party('maker', makerAccount), params.makerLevels, params.makerDepthNotional);
      const takers = new OrderFlow(party('flow', takerAccount), {
        ...DEFAULT_FLOW,
        rate: params.takerRate,
        medianNotional: params.takerMedianNotional,
        queueNotional: params.touchQueueNotional,
      });
      const deepSettings = { ...DEFAULT_DEEP, ...deepShape(pair.row, params) };
      const touch = new TouchBook(party('touch', liquidityAccount), {
        ...DEFAULT_TOUCH,
        queueNotional: params.touchQueueNotional,
        deepDensity: deepDensity(deepSettings),
      });
      const deep = new DeepBook(party('deep', liquidityAccount), deepSettings);
      const feed = new PriceFeed(pair, this._time, opts.fundingIntervals?.get(row.symbol));
      const s: SymbolSim = {
        symbol: row.symbol,
        pair,
        params,
        process,
        venues,
        maker,
        takers,
        touch,
        deep,
        feed,
        limits,
        impact: new Impact(impactScale(params), undefined, transient),
        spacing: 0,
        halfSpread: params.makerBaseHalfSpread,
        lastTradeTime: Number.NEGATIVE_INFINITY,
        trades: 0,
        tradeLo: Number.POSITIVE_INFINITY,
        tradeHi: Number.NEGATIVE_INFINITY,
        fundingSettlements: 0,
        active: true,
        stepIndex: 0,
        volFactor: 1,
        pace: 1,
        centre: 0,
        requotes: stream('requote'),
      };
      this.symbols.push(s);
      this.bySymbol.set(row.symbol, s);
      this.ex.execute({
        kind: 'prices',
        symbol: row.symbol,
        mark: process.price,
        index: process.price,
        fundingRate: feed.rate,
        nextFundingTime: feed.nextFunding,
      });
    }
    if (this.symbols.length > 4096) throw new RangeError('the simulator steps at most 4096 trading pairs');
    this.unsubscribe = this.ex.events.on('trade', (e: TradeEvent) => this.onTrade(e));
    // the opening quotes, so the first step's takers find a book
    runAt(this.clock, this._time, () => {
      for (const s of this.symbols) {
        this.guard(s, () => {
          this.refreshCrowd(s, s.impact.fair(s.process.price), 0);
          this.refreshMaker(s, s.impact.fair(s.process.price));
        });
      }
    });
  }

  /** Market time the simulation has reached (the last step's time). */
  get time(): number {
    return this._time;
  }

  /** The time the next step's orders and trades will carry at least (>= time). */
  get stampTime(): number {
    return this.floor(this._time);
  }

  symbol(name: string): SymbolSim | undefined {
    return this.bySymbol.get(name);
  }

  private onTrade(e: TradeEvent): void {
    if (e.time > this.lastStamp) this.lastStamp = e.time;
    const s = this.bySymbol.get(e.symbol);
    if (s) {
      s.lastTradeTime = e.time;
      s.trades++;
      if (e.priceTicks < s.tradeLo) s.tradeLo = e.priceTicks;
      if (e.priceTicks > s.tradeHi) s.tradeHi = e.priceTicks;
      s.impact.fill(e.takerSide, e.time, e.priceTicks * s.limits.tick * e.qtyLots * s.limits.lot);
    }
    this.stats0.trades++;
  }

  /**
   * Advances exactly one step, over the market time (t - stepMs, t]: every symbol's pace at the
   * step's first millisecond, then the taker orders of all symbols in the order of their arrival
   * times (catalogue order at equal times), each at its own time, with each symbol's move (latent
   * price, index, the crowd following it) at the step's middle among them, then every symbol's
   * maker and prices at t. So trade times never go back, and a symbol's market does not depend on
   * the others (each draws from its own streams). The orders before the move meet the book the
   * last move left, so the tape is continuous across the step's boundary (docs/simulated-market.md).
   */
  step(): void {
    if (this.disposed) throw new Error('simulator is disposed');
    const dt = this.stepMs;
    const t = this._time + dt;
    const first = t - dt + 1;
    const orders = this.orders;
    orders.length = 0;
    for (let k = 0; k < this.symbols.length; k++) {
      const s = this.symbols[k];
      s.stepIndex = 0;
      this.guard(s, () => {
        if (!this.at(first, () => this.openStep(s, t))) return;
        const n = s.takers.arrivals(dt, s.volFactor, this.offsets);
        // one number per event: the offset (ms), whether it is a taker order, the symbol's place in the catalogue
        orders.push(Math.floor(dt / 2) * 2 * 4096 + k);
        for (let i = 0; i < n; i++) orders.push((Math.floor(this.offsets[i]) * 2 + 1) * 4096 + k);
      });
    }
    orders.sort((a, b) => a - b);
    for (const code of orders) {
      const s = this.symbols[code % 4096];
      const rest = Math.floor(code / 4096);
      const time = first + (rest >> 1);
      if ((rest & 1) === 0) {
        this.guard(s, () => this.at(time, () => this.moveStep(s, t)));
        continue;
      }
      const cap = 0.5 * s.params.makerDepthNotional;
      this.guard(s, () => this.at(time, () => s.takers.send(cap)));
      s.impact.endOrder();
    }
    for (const s of this.symbols) if (s.stepIndex !== 0) this.guard(s, () => this.at(t, () => this.closeStep(s, t)));
    this._time = t;
    this.stats0.steps++;
  }

  /** Runs fn with the exchange's clock at `time`, or at the latest trade's or command's time if that is later. */
  private at<T>(time: number, fn: () => T): T {
    return runAt(this.clock, this.floor(time), fn);
  }

  /** `time`, or the latest trade's or command's time if later (the exchange's stamps never go back). */
  private floor(time: number): number {
    return Math.max(time, this.lastStamp, this.ex.lastCommandTime);
  }

  /** Steps while the next step's time is <= target, at most maxSteps; returns the steps done. */
  runUntil(target: number, maxSteps = Number.POSITIVE_INFINITY): number {
    let n = 0;
    while (n < maxSteps && this._time + this.stepMs <= target) {
      this.step();
      n++;
    }
    return n;
  }

  /** Jumps to target (rounded down to a step) in one move: the latent prices move by the whole gap, venues resynchronise, makers
   * requote, funding is settled at each instant passed. No taker flow inside the gap. For overload only (not reproducible). */
  skipTo(target: number): void {
    const to = Math.floor(target / this.stepMs) * this.stepMs;
    if (to <= this._time) return;
    const gap = to - this._time;
    const from = this._time;
    runAt(this.clock, this.floor(to), () => {
      for (const s of this.symbols) {
        this.guard(s, () => {
          if (!this.checkActive(s)) return;
          s.impact.step(s.process, s.venues, gap);
          s.process.advance(gap);
          s.venues.resync(s.process.logPrice);
          const index = s.venues.update(to, gap, s.process.logPrice);
          const fair = s.impact.fair(index);
          // prices first (the maker's new quotes are checked against the band around mark), then the book as one that had the
          // gap's time to refill (no jump of one step: the crowd resynced, the maker's old quotes gone), then the feed again
          this.publish(s, to, index);
          s.maker.cancelAll();
          s.touch.resync();
          this.refreshCrowd(s, fair, 0);
          this.refreshMaker(s, fair);
          this.publish(s, to, index);
          // the prices at the instants inside the gap are unknown: settle them at the gap's end prices
          for (const ft of fundingTimesBetween(from, to)) this.settle(s, ft);
        });
      }
    });
    this._time = to;
    this.stats0.skips++;
    this.stats0.skippedMs += gap;
  }

  private guard(s: SymbolSim, fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.stats0.errors++;
      this.onError(err, s.symbol);
    }
  }

  /** A pair paused or delisted while running: pull the maker's quotes and leave it alone. */
  private checkActive(s: SymbolSim): boolean {
    const trading = s.pair.row.status === SymbolStatus.TRADING;
    if (!trading && s.active) this.pullQuotes(s);
    s.active = trading;
    return trading;
  }

  private lastPrice(s: SymbolSim): number {
    return s.pair.lastPriceTicks * s.limits.tick;
  }

  private refreshMaker(s: SymbolSim, index: number): void {
    const v = s.process.variance;
    s.halfSpread = s.params.makerBaseHalfSpread + SPREAD_VOL_K * Math.sqrt(v * SPREAD_HORIZON_S);
    const raw = (SPACING_SHARE * s.halfSpread * index) / s.limits.tick;
    if (s.spacing === 0 || raw > s.spacing * SPACING_HYSTERESIS || raw < s.spacing / SPACING_HYSTERESIS)
      s.spacing = niceNear(raw);
    s.maker.quote(index, s.halfSpread, s.spacing);
  }

  /** The crowd at the fair price `price` (dtMs 0: the opening book): at a requote (params.requoteRate; always at dtMs 0)
   * the arbitrage of stale quotes, then the deep book and the touch around it; between requotes around s.centre, held. */
  private refreshCrowd(s: SymbolSim, price: number, dtMs: number): void {
    const requoted = dtMs === 0 || requotes(s.params, price / s.limits.tick, dtMs, s.requotes);
    const fair = (requoted ? (s.centre = price) : s.centre) / s.limits.tick;
    const [bidT, askT] = TouchBook.targets(fair);
    const time = this._time + dtMs;
    const [bidA, askA] = TouchBook.targets(s.impact.arbitrageFair(fair));
    if (dtMs > 0 && requoted)
      s.impact.without(() => s.takers.arbitrage(bidA, askA, DEFAULT_FLOW.arbQueues * s.touch.queueLots(bidA)));
    const [lo, hi] = [s.tradeLo, s.tradeHi];
    s.tradeLo = Number.POSITIVE_INFINITY;
    s.tradeHi = Number.NEGATIVE_INFINITY;
    s.deep.step({ time, dtMs, bidTop: bidT, askTop: askT, inner: s.touch.depthTicks, lo, hi });
    s.touch.step(time, dtMs, fair, lo, hi);
  }

  /** The start of a symbol's step ending at t: the takers' pace (activity and herding). False: the pair is not trading. */
  private openStep(s: SymbolSim, t: number): boolean {
    if (!this.checkActive(s)) return false;
    s.pace = s.takers.pace(t, this.stepMs);
    return true;
  }

  /**
   * The move of a symbol's step ending at t, at its middle: the latent price (in the step's
   * business time) and the index move, and the crowd follows the index (stale quotes it moved
   * through are taken by the arbitrage or withdrawn), so the step's later takers meet a fresh book.
   */
  private moveStep(s: SymbolSim, t: number): void {
    const dt = this.stepMs;
    s.impact.step(s.process, s.venues, dt);
    s.process.advance(dt, s.pace);
    const index = s.venues.update(t, dt, s.process.logPrice);
    this.refreshCrowd(s, s.impact.fair(index), dt);
    s.volFactor = Math.min(3, Math.max(0.5, Math.sqrt(s.process.variance / s.process.meanVariance)));
    s.stepIndex = index;
  }

  /** The end of a symbol's step, at t: the maker books its fills, refills and follows the index; prices; funding. */
  private closeStep(s: SymbolSim, t: number): void {
    const dt = this.stepMs;
    const cap = 0.5 * s.params.makerDepthNotional;
    // the last step of each second: make sure the second saw a trade
    if ((t + dt) % 1000 === 0 && Math.floor(s.lastTradeTime / 1000) < Math.floor(t / 1000) && !s.takers.send(cap))
      s.takers.send(cap, s.pair.book.bestAsk() > 0 ? 1 : 2);
    this.refreshMaker(s, s.impact.fair(s.stepIndex));
    this.publish(s, t, s.stepIndex);
    if (isFundingInstant(t)) this.settle(s, t);
  }

  private publish(s: SymbolSim, t: number, index: number): void {
    const f = s.feed;
    f.update(t, index, this.lastPrice(s));
    this.ex.execute({
      kind: 'prices',
      symbol: s.symbol,
      mark: f.mark,
      index: f.index,
      fundingRate: f.rate,
      nextFundingTime: f.nextFunding,
    });
  }

  private settle(s: SymbolSim, t: number): void {
    const rate = s.feed.settle(t);
    s.fundingSettlements++;
    this.ex.execute({ kind: 'funding', symbol: s.symbol, rate, mark: s.feed.mark, time: t });
    this.ex.execute({
      kind: 'prices',
      symbol: s.symbol,
      fundingRate: s.feed.rate,
      nextFundingTime: s.feed.nextFunding,
    });
  }

  get stats(): SimStats {
    let [takerOrders, makerOrders, rejected] = [0, 0, 0];
    for (const s of this.symbols) {
      takerOrders += s.takers.stats.orders;
      makerOrders += s.maker.stats.placed + s.touch.house.stats.placed + s.deep.house.stats.placed;
      rejected +=
        s.takers.stats.rejected + s.maker.stats.rejected + s.touch.house.stats.rejected + s.deep.house.stats.rejected;
    }
    return { ...this.stats0, takerOrders, makerOrders, rejected };
  }

  view(): SimSymbolView[] {
    return this.symbols.map(symbolView);
  }

  /** Stops listening to the exchange; with cancelQuotes, also pulls the makers' orders. */
  dispose(cancelQuotes = false): void {
    if (this.disposed) return;
    this.disposed = true;
    this.unsubscribe();
    if (cancelQuotes) for (const s of this.symbols) this.guard(s, () => this.pullQuotes(s));
  }

  /** Cancels the maker's, the touch crowd's and the deep book's orders. */
  private pullQuotes(s: SymbolSim): void {
    s.maker.cancelAll();
    s.touch.house.cancelAll();
    s.deep.house.cancelAll();
  }
}
