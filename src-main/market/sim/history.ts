// History fast-forward: on a venue's first start (no stored candles) every trading pair gets
// `days` (default 30) of past trades, so the chart has history the moment the venue opens.
//
// The book is bypassed, the model is the live market's at candle level: the latent price process
// (price-process.ts, same model and settings) runs in 15 s steps, and each step's trades are
// drawn from the live taker flow's intensity (order-flow.ts): takerRate x the UTC hour and
// weekday profile (activity-profile.ts) x the slow activity factor x the volatility factor, with
// the over-dispersion of its Hawkes clustering (variance mean / (1 - n)^2), so trade counts vary
// from minute to minute as live ones do. A step becomes two records fed straight into the candle
// service (recordTrade with a count): the majority side's trades at the step's high or low (the
// exact distribution of a Brownian bridge's maximum or minimum, so 1m candles get real wicks),
// the minority side's at the step's end price. The taker imbalance of a step follows its
// standardized return (the informed flow of the live market), a slow herding tilt and noise;
// half of the count scales with the step's absolute return (volume follows volatility);
// volume is the count times the mean taker size, with log-normal noise.
// Anchoring: the path is generated forward and then shifted so that it ends exactly at the
// pair's current price (its mark, the catalogue's initial price on a first start); the live
// simulation continues from there, with the variance state the history ended in.
// Deterministic: streams Rng.stream(seed, 'history', symbol); the same seed, end time and
// settings give the same trades, whether built with fastForwardHistory (async, yields to the
// event loop between symbols) or fastForwardHistorySync. Trades are at or after start and before `end`; times ascend.
// Cost: O(days x 5,760) per symbol (two records a step, whatever the trade count), a Float64Array
// of the path (about 1.4 MB for 30 days) alive while one symbol is built.
import { Side, SymbolStatus } from '../../../src-shared/enums.ts';
import type { PairState } from '../../trading/pair-state.ts';
import { activity } from './activity-profile.ts';
import { ActivityFactor } from './hawkes.ts';
import { DEFAULT_FLOW } from './order-flow.ts';
import { PairLimits } from './order-sizing.ts';
import { paramsFor, type SymbolSimParams } from './params.ts';
import { PriceProcess, type ProcessState } from './price-process.ts';
import { Rng } from './rng.ts';
import { logMedian } from './trade-size.ts';

const HISTORY_STEP_MS = 15_000;
const DAY_MS = 86_400_000;
/** Weight of a step's standardized return and of noise in its taker imbalance (before tanh). */
const IMB_RETURN = 0.15;
const IMB_NOISE = 0.3;
/** Share of a step's trade count that scales with its absolute standardized return. */
const VOL_LINK = 0.5;
const SQRT_HALF_PI = Math.sqrt(Math.PI / 2);
/** Mean over median of the taker size law (log-normal sigma 0.6 x Pareto 1.4), from its definition. */
const MEAN_OVER_MEDIAN = meanOverMedian(DEFAULT_FLOW.sizeSigma, DEFAULT_FLOW.sizeAlpha);

/** One record of the history: `count` trades (>= 1) at one price and time, `qtyLots` in all, all taken on `takerSide`. */
export interface HistoryTrade {
  time: number;
  priceTicks: number;
  qtyLots: number;
  takerSide: Side;
  count: number;
}

/** Where the trades go (the record is reused between calls: copy what you keep). */
export interface TradeRecorder {
  recordTrade(symbol: string, t: Readonly<HistoryTrade>): void;
  advanceTo?(time: number): void;
}

export interface HistoryProgress {
  symbol: string;
  /** Symbols finished, this one included. */
  done: number;
  total: number;
  trades: number;
}

export interface HistoryOptions {
  /** The pairs to build (exchange.pairs values); only status 1 pairs are built. */
  pairs: Iterable<PairState>;
  seed: number;
  /** The current market time: history ends just before it. */
  end: number;
  days?: number;
  params?: Readonly<Record<string, Partial<SymbolSimParams>>>;
  /** Where each symbol's history must end (default: the pair's mark price). */
  anchor?: ReadonlyMap<string, number>;
  recorder: TradeRecorder;
  onProgress?: (p: HistoryProgress) => void;
}

export interface HistoryResult {
  /** Start states for the live simulator (Simulator option startStates). */
  states: Map<string, ProcessState>;
  trades: number;
  from: number;
  to: number;
}

/** Builds the history of every trading pair; yields to the event loop between symbols. */
export async function fastForwardHistory(opts: HistoryOptions): Promise<HistoryResult> {
  const run = new HistoryRun(opts);
  while (run.next()) await new Promise<void>((resolve) => setImmediate(resolve));
  return run.finish();
}

/** The same, in one synchronous call (for start-up code that cannot await; about 3 s for 12 pairs). */
export function fastForwardHistorySync(opts: HistoryOptions): HistoryResult {
  const run = new HistoryRun(opts);
  while (run.next());
  return run.finish();
}

class HistoryRun {
  private readonly opts: HistoryOptions;
  private readonly pairs: PairState[];
  private readonly from: number;
  private readonly steps: number;
  private readonly states = new Map<string, ProcessState>();
  private trades = 0;
  private i = 0;

  constructor(opts: HistoryOptions) {
    const days = opts.days ?? 30;
    if (!(days > 0 && days <= 400)) throw new RangeError('days must be in (0, 400]');
    this.opts = opts;
    this.pairs = [...opts.pairs].filter((p) => p.row.status === SymbolStatus.TRADING);
    this.from = Math.floor((opts.end - days * DAY_MS) / 60_000) * 60_000 - 60_000;
    this.steps = Math.floor((opts.end - this.from) / HISTORY_STEP_MS);
  }

  /** Builds the next symbol; false when all are done. */
  next(): boolean {
    if (this.i >= this.pairs.length) return false;
    const { opts } = this;
    const pair = this.pairs[this.i++];
    const symbol = pair.row.symbol;
    const anchor = opts.anchor?.get(symbol) ?? pair.markPrice;
    const r = buildSymbol(pair, paramsFor(pair.row, opts.params?.[symbol]), {
      seed: opts.seed,
      from: this.from,
      steps: this.steps,
      anchor,
      recorder: opts.recorder,
    });
    this.states.set(symbol, r.state);
    this.trades += r.trades;
    opts.onProgress?.({ symbol, done: this.i, total: this.pairs.length, trades: r.trades });
    return this.i < this.pairs.length;
  }

  finish(): HistoryResult {
    this.opts.recorder.advanceTo?.(this.opts.end);
    return { states: this.states, trades: this.trades, from: this.from, to: this.opts.end };
  }
}

interface BuildSpan {
  seed: number;
  /** First step's market time, and the number of HISTORY_STEP_MS steps. */
  from: number;
  steps: number;
  /** Price the history ends at. */
  anchor: number;
  recorder: TradeRecorder;
}

function buildSymbol(
  pair: PairState,
  params: SymbolSimParams,
  span: BuildSpan,
): { state: ProcessState; trades: number } {
  const { seed, from, steps, anchor, recorder } = span;
  const rec: HistoryTrade = { time: 0, priceTicks: 0, qtyLots: 0, takerSide: Side.BUY, count: 1 };
  const emit = (time: number, priceTicks: number, notional: number, side: Side, count: number) => {
    rec.time = time;
    rec.priceTicks = priceTicks;
    rec.qtyLots = limits.lotsFor(notional, priceTicks);
    rec.takerSide = side;
    rec.count = count;
    recorder.recordTrade(symbol, rec);
  };
  const symbol = pair.row.symbol;
  const limits = new PairLimits(pair);
  const rng = Rng.stream(seed, 'history', symbol);
  const process = new PriceProcess(params, { price: anchor }, rng, {
    min: limits.tick * 1000,
    max: limits.tick * 1.5e9,
  });
  const path = new Float64Array(steps + 1);
  const hs = new Float64Array(steps);
  path[0] = process.logPrice;
  for (let k = 0; k < steps; k++) {
    hs[k] = process.h;
    process.advance(HISTORY_STEP_MS);
    path[k + 1] = process.logPrice;
  }
  const shift = Math.log(anchor) - path[steps];
  const dt = HISTORY_STEP_MS / 1000;
  const meanV = process.meanVariance;
  const flow = DEFAULT_FLOW;
  const act = new ActivityFactor(rng, flow.activitySd, flow.activityHalfLifeS);
  const herd = new ActivityFactor(rng, 1, flow.herdHalfLifeS);
  const fano = 1 / (1 - flow.branching) ** 2;
  // mean over median of a taker size (log-normal body x Pareto tail), for the volume of a count
  const meanSize = params.takerMedianNotional * MEAN_OVER_MEDIAN;
  const tickOf = (logp: number) => Math.max(1, Math.round(Math.exp(logp + shift) / limits.tick));
  let trades = 0;
  for (let k = 0; k < steps; k++) {
    const s0 = from + k * HISTORY_STEP_MS;
    const a = path[k];
    const b = path[k + 1];
    const r = b - a;
    const v = Math.exp(hs[k]) * dt;
    const up = rng.next() < 0.5;
    const u = 1 - rng.next();
    const ext = up
      ? (r + Math.sqrt(r * r - 2 * v * Math.log(u))) / 2
      : (r - Math.sqrt(r * r - 2 * v * Math.log(u))) / 2;
    const f = Math.min(3, Math.max(0.5, Math.sqrt(Math.exp(hs[k]) / meanV)));
    // trading follows the step's own move too (the live market's arbitrage of stale quotes
    // trades more when the price moves): weight VOL_LINK on |z| sqrt(pi/2), whose mean is 1
    const z = Math.abs(r) / Math.sqrt(v);
    const m =
      params.takerRate *
      activity(s0) *
      act.advance(HISTORY_STEP_MS) *
      f *
      dt *
      (1 - VOL_LINK + VOL_LINK * z * SQRT_HALF_PI);
    herd.advance(HISTORY_STEP_MS);
    const n = Math.max(2, Math.round(m + Math.sqrt(m * fano) * rng.normal()));
    // the step's buy share: its standardized return, the herding tilt, noise
    const imb = Math.tanh(
      IMB_RETURN * (r / Math.sqrt(v)) + 2 * flow.herdBias * Math.tanh(herd.log) + IMB_NOISE * rng.normal(),
    );
    const buy = 0.5 + 0.5 * imb;
    const nBuy = Math.min(n - 1, Math.max(1, Math.round(n * buy)));
    const t1 = s0 + 2_000 + rng.int(6_000);
    const t2 = s0 + 9_000 + rng.int(5_999);
    const p1 = tickOf(a + ext);
    const p2 = tickOf(b);
    const notional = n * meanSize * Math.exp(0.5 * rng.normal() - 0.125);
    const major = imb >= 0 ? Side.BUY : Side.SELL;
    const nMajor = major === Side.BUY ? nBuy : n - nBuy;
    const share = major === Side.BUY ? buy : 1 - buy;
    emit(t1, p1, notional * share, major, nMajor);
    emit(t2, p2, notional * (1 - share), major === Side.BUY ? Side.SELL : Side.BUY, n - nMajor);
    trades += n;
  }
  return { state: { price: Math.exp(path[steps] + shift), h: process.h }, trades };
}

/** Mean over median of e^(sigma Z) x P, P Pareto(1, alpha > 1): e^(sigma^2/2) alpha/(alpha-1) over the median (numeric). */
function meanOverMedian(sigma: number, alpha: number): number {
  const mean = Math.exp((sigma * sigma) / 2) * (alpha / (alpha - 1));
  return mean / Math.exp(logMedian(sigma, alpha));
}
