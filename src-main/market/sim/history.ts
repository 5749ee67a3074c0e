// History fast-forward: on a venue's first start every trading pair gets `days` (default 30) of
// past trades, the live model coarse-grained to 15 s steps (the same processes and settings, the
// book left out), fed to the candle service as two records a step, and one more that opens each
// minute at the price the last one left (so 1m candles join as live ones do).
// Keeps true: deterministic for a seed, end time and settings (async or sync); trades ascend, lie
// in [start, end), and the path ends exactly at the pair's price, where the live market goes on
// with the variance state it ended in. The model: docs/simulated-market.md, "The history".
// Cost: O(days x 5,760 + orders / 250) per symbol; a Float64Array path alive while one is built.
// Each pair is built from a SymbolJob (plain data) by buildJob, on this thread or on a worker
// (history-pool.ts: SymbolBuilders); the recorder sees the pairs in order either way.
import { Side, SymbolStatus } from '../../../src-shared/enums.ts';
import type { SymbolRow } from '../../core/symbol.ts';
import { SymbolMath } from '../../risk/money.ts';
import { bandRatioOf, type PairState } from '../../trading/pair-state.ts';
import { activity } from './activity-profile.ts';
import { ActivityFactor } from './hawkes.ts';
import { DEFAULT_FLOW } from './order-flow.ts';
import { PairLimits } from './order-sizing.ts';
import { LIVE_STEP_MS, paramsFor, requoteChance, type SymbolSimParams } from './params.ts';
import { BASIS_TAU_S, basisStepVariance } from './index-venues.ts';
import { DEFAULT_IMPACT, impactScale, MEAN_QUEUE_FACTOR, meanSqrtNotional } from './impact.ts';
import { PriceProcess, type ProcessState } from './price-process.ts';
import { Rng } from './rng.ts';
import { logMedian, TradeSizes } from './trade-size.ts';
import { binomial, Metaorders } from './metaorders.ts';

const HISTORY_STEP_MS = 15_000;
const DAY_MS = 86_400_000;
/** Mean over median of the taker size law (log-normal body x Pareto tail), from its definition. */
const MEAN_OVER_MEDIAN = meanOverMedian(DEFAULT_FLOW.sizeSigma, DEFAULT_FLOW.sizeAlpha);
/** Mean of the arbitrage's size multiplier (median 1, log-normal body x Pareto tail). */
const ARB_MEAN = meanOverMedian(DEFAULT_FLOW.sizeSigma, DEFAULT_FLOW.arbAlpha);
/**
 * The queue at the best stale price when the live arbitrage trades, in typical queues: 0.84-0.98
 * on the alts and memes (DOGE, SOL, ONDO, 1000PEPE; 15 minutes from 02:00 UTC, seed 7), where a
 * share of it (arbStaleShare) sets the arbitrage's size.
 */
const STALE_QUEUE = 0.85;
/** Live steps in a history step: the live arbitrage looks at the touch once a live step. */
const LIVE_STEPS = HISTORY_STEP_MS / LIVE_STEP_MS;
/** Mean overshoot of a Gaussian random walk over a level, in step sds (Siegmund's 0.5826). */
const OVERSHOOT = 0.5826;

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
  /** `symbol`'s records are all in (the history ends at `end`): called once a pair, in order. */
  endSymbol?(symbol: string, end: number): void;
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
  /** Where the pairs are simulated, if not on this thread (history-pool.ts: worker threads). */
  builders?: SymbolBuilders;
}

/** One pair's history to build, as plain data (what a worker thread gets). */
export interface SymbolJob {
  row: SymbolRow;
  params: SymbolSimParams;
  seed: number;
  /** First step's market time, and the number of HISTORY_STEP_MS steps. */
  from: number;
  steps: number;
  /** Price the history ends at. */
  anchor: number;
}

/** A pair's history built: where its process ended, and its trades. */
export interface SymbolBuilt {
  state: ProcessState;
  trades: number;
}

/**
 * Builds the pairs' histories elsewhere (history-pool.ts): start() is given every job once, in
 * order; take(i) feeds job i's records to the recorder in the order they were drawn, as
 * buildJob(job, recorder) on this thread would, and is called for i = 0, 1, ... in turn.
 */
export interface SymbolBuilders {
  start(jobs: readonly SymbolJob[]): void;
  take(i: number, recorder: TradeRecorder): SymbolBuilt;
  close(): void;
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

/** The same, in one synchronous call (for start-up code that cannot await; about 5 s for 12 pairs with their candles written, on the 2-core host). */
export function fastForwardHistorySync(opts: HistoryOptions): HistoryResult {
  const run = new HistoryRun(opts);
  while (run.next());
  return run.finish();
}

/** The same, a pair a step: yields after each pair but the last (the caller may stop between pairs). */
export function* historySteps(opts: HistoryOptions): Generator<void, HistoryResult, undefined> {
  const run = new HistoryRun(opts);
  while (run.next()) yield;
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

  private readonly jobs: SymbolJob[];

  constructor(opts: HistoryOptions) {
    const days = opts.days ?? 30;
    if (!(days > 0 && days <= 400)) throw new RangeError('days must be in (0, 400]');
    this.opts = opts;
    this.pairs = [...opts.pairs].filter((p) => p.row.status === SymbolStatus.TRADING);
    this.from = Math.floor((opts.end - days * DAY_MS) / 60_000) * 60_000 - 60_000;
    this.steps = Math.floor((opts.end - this.from) / HISTORY_STEP_MS);
    this.jobs = this.pairs.map((pair) => ({
      row: pair.row,
      params: paramsFor(pair.row, opts.params?.[pair.row.symbol]),
      seed: opts.seed,
      from: this.from,
      steps: this.steps,
      anchor: opts.anchor?.get(pair.row.symbol) ?? pair.markPrice,
    }));
    opts.builders?.start(this.jobs);
  }

  /** Builds the next symbol; false when all are done. */
  next(): boolean {
    if (this.i >= this.pairs.length) return false;
    const { opts } = this;
    const i = this.i++;
    const pair = this.pairs[i];
    const symbol = pair.row.symbol;
    const job = this.jobs[i];
    const r =
      opts.builders !== undefined
        ? opts.builders.take(i, opts.recorder)
        : buildSymbol(symbol, new PairLimits(pair), job, opts.recorder);
    opts.recorder.endSymbol?.(symbol, opts.end);
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

/** Builds one job on this thread (a worker's part: history-pool.ts), its records to `recorder`. */
export function buildJob(job: SymbolJob, recorder: TradeRecorder): SymbolBuilt {
  const { row } = job;
  const limits = new PairLimits({ row, math: new SymbolMath(row), bandRatio: bandRatioOf(row) });
  return buildSymbol(row.symbol, limits, job, recorder);
}

function buildSymbol(symbol: string, limits: PairLimits, job: SymbolJob, recorder: TradeRecorder): SymbolBuilt {
  const { params, seed, from, steps, anchor } = job;
  const rng = Rng.stream(seed, 'history', symbol);
  const flow = DEFAULT_FLOW;
  const process = new PriceProcess(params, { price: anchor }, rng, {
    min: limits.tick * 1000,
    max: limits.tick * 1.5e9,
  });
  // the flow's slow processes, as the live flow runs them (order-flow.ts)
  const act = new ActivityFactor(rng, flow.activitySd, flow.activityHalfLifeS);
  const herd = new ActivityFactor(rng, 1, flow.herdHalfLifeS);
  const signs = new Metaorders(rng, flow.parents, flow.parentAlpha, flow.parentShare);
  const sizes = new TradeSizes(rng, params.takerMedianNotional, flow.sizeAlpha, flow.sizeSigma, 0);
  const meanSize = params.takerMedianNotional * MEAN_OVER_MEDIAN;
  const dt = HISTORY_STEP_MS / 1000;
  // the path first (it is shifted to end at the anchor), with each step's pace and variance: the
  // index's, the latent price plus the venues' weighted basis (index-venues.ts: an OU of time
  // constant 20 s, stepped exactly), which the live book follows
  const basisDecay = Math.exp(-HISTORY_STEP_MS / 1000 / BASIS_TAU_S);
  const basisShock = Math.sqrt(basisStepVariance(params.venueBasis, HISTORY_STEP_MS));
  let basis = (basisShock / Math.sqrt(1 - basisDecay * basisDecay)) * rng.normal();
  /** The basis's share of a step's variance (its stationary increment). */
  const basisStep = (2 * basisShock * basisShock) / (1 + basisDecay);
  const path = new Float64Array(steps + 1);
  const paces = new Float32Array(steps);
  const hs = new Float64Array(steps);
  const counts = new Int32Array(steps);
  const buys = new Int32Array(steps);
  const meanV = process.meanVariance;
  const fano = 1 / (1 - flow.branching) ** 2;
  // the takers' price impact (impact.ts), each order its expected sqrt(notional): the permanent
  // share moves the latent price, the transient one the book (and so the prints) over the index
  const impact = impactScale(params) * meanSqrtNotional(params);
  const permanent = DEFAULT_IMPACT.permanent;
  const transientDecay = Math.exp(-HISTORY_STEP_MS / 1000 / DEFAULT_IMPACT.tauS);
  let transient = 0;
  let held = 0;
  /** The impact's part of the path (permanent so far plus transient): the arbitrage does not trade it. */
  const impacts = new Float64Array(steps + 1);
  path[0] = process.logPrice + basis;
  for (let k = 0; k < steps; k++) {
    hs[k] = process.h;
    // taker orders: the Hawkes count over the step (mean rate x pace x volatility factor x the
    // book's mean queue factor, over-dispersion 1/(1-n)^2), then a trade in each empty second;
    // each order's sign from the metaorders, tilted by the herding driver
    const bias = flow.herdBias * Math.tanh(herd.log);
    herd.step(HISTORY_STEP_MS);
    paces[k] = activity(from + (k + 1) * HISTORY_STEP_MS) * act.advance(HISTORY_STEP_MS);
    const f = Math.min(3, Math.max(0.5, Math.sqrt(Math.exp(hs[k]) / meanV)));
    const m = params.takerRate * paces[k] * f * MEAN_QUEUE_FACTOR * dt;
    let n = Math.max(0, Math.round(m + Math.sqrt(m * fano) * rng.normal()));
    const empty = Math.exp(-(m * (1 - flow.branching)) / dt);
    if (empty > 1e-4) n += binomial(rng, dt, empty);
    counts[k] = n;
    buys[k] = signs.buys(n, bias);
    const move = impact * (2 * buys[k] - n);
    process.advance(HISTORY_STEP_MS, paces[k]);
    process.shift(permanent * move);
    transient = transient * transientDecay + (1 - permanent) * move;
    basis = basis * basisDecay + basisShock * rng.normal();
    path[k + 1] = process.logPrice + basis + transient;
    held += permanent * move;
    impacts[k + 1] = held + transient;
  }
  // the basis and the transient impact end at 0, where the live index starts around the latent
  // price and the live book around the index: the OU's bridge to 0 (b_k - decay^(steps - k)
  // b_steps, exact for a Gaussian process)
  for (let k = steps, w = 1; k >= 0 && w > 1e-12; k--, w *= basisDecay) path[k] -= w * basis;
  for (let k = steps, w = 1; k >= 0 && w > 1e-12; k--, w *= transientDecay) {
    path[k] -= w * transient;
    impacts[k] -= w * transient;
  }
  const shift = Math.log(anchor) - path[steps];
  const tickOf = (logp: number) => Math.max(1, Math.round(Math.exp(logp + shift) / limits.tick));
  // the arbitrage of stale quotes: arbQueues typical best queues per net tick (at least arbStaleShare
  // of one), in trades of arbMove (at least arbMinTicks)
  const arbPerTick = flow.arbQueues * params.touchQueueNotional * ARB_MEAN;
  const arbLeast = flow.arbStaleShare * STALE_QUEUE * params.touchQueueNotional * ARB_MEAN;
  const arbTicks = Math.max(flow.arbMinTicks, flow.arbMove * (anchor / limits.tick));
  const liveStepS = LIVE_STEP_MS / 1000;
  const basisVar = basisStepVariance(params.venueBasis, LIVE_STEP_MS);
  const rec: HistoryTrade = { time: 0, priceTicks: 0, qtyLots: 0, takerSide: Side.BUY, count: 1 };
  const emit = (time: number, priceTicks: number, side: Side, count: number, notional: number) => {
    if (count === 0) return;
    rec.time = time;
    rec.priceTicks = priceTicks;
    rec.qtyLots = limits.lotsFor(notional, priceTicks);
    rec.takerSide = side;
    rec.count = count;
    recorder.recordTrade(symbol, rec);
  };
  let trades = 0;
  let startTicks = Math.exp(path[0] + shift) / limits.tick;
  // a minute's first trade meets the touch the last print left (openMinute: the minute has not
  // printed yet; lastSide: the taker side of the last print)
  let openMinute = false;
  let lastSide: Side = Side.BUY;
  for (let k = 0; k < steps; k++) {
    const s0 = from + k * HISTORY_STEP_MS;
    if (s0 % 60_000 === 0) openMinute = true;
    const a = path[k];
    const b = path[k + 1];
    const r = b - a;
    const ev = Math.exp(hs[k]);
    const v = ev * dt * paces[k] + basisStep;
    // the Brownian bridge's maximum (or minimum) over the step: the candle's wick
    const up = rng.next() < 0.5;
    const w = Math.sqrt(r * r - 2 * v * Math.log(1 - rng.next()));
    const ext = up ? (r + w) / 2 : (r - w) / 2;
    // the taker orders and their signs, drawn with the path (their impact is in it)
    let n = counts[k];
    // the arbitrage, as the live one trades: the touch walks with the index each live step (sd
    // fine ticks) and the arbitrage trades each time its net walk since its last trade leaves
    // +-arbTicks, by about arbTicks + OVERSHOOT fine: LIVE_STEPS / E[exit time] orders, their net
    // the step's move (before, it traded the 15 s net move alone, a fraction of the live orders)
    const fromTicks = startTicks;
    const endTicks = Math.exp(b + shift) / limits.tick;
    const signed = endTicks - startTicks;
    startTicks = endTicks;
    // (the walk seen at the crowd's requotes, every live step or every `every` on average: params.requoteRate)
    const every = 1 / requoteChance(params, fromTicks, LIVE_STEP_MS);
    const fine = fromTicks * Math.sqrt((ev * liveStepS * paces[k] + basisVar) * every);
    const per = arbTicks + OVERSHOOT * fine;
    const exits = fine > 0 ? LIVE_STEPS / every / Math.max(1, (per / fine) ** 2) : 0;
    const net = Math.round((signed - endTicks * (impacts[k + 1] - impacts[k])) / per);
    const arbs = Math.max(Math.abs(net), Math.round(exits + Math.sqrt(exits) * rng.normal()));
    const arbUp = Math.round((arbs + net) / 2);
    const arbNotional = Math.max(per * arbPerTick, arbLeast);
    const takers = n;
    const takerBuys = buys[k];
    let nBuy = takerBuys + arbUp;
    n += arbs;
    if (n === 0) continue;
    trades += n;
    let buyNotional = sumOf(sizes, takerBuys, meanSize, flow.sizeAlpha) + arbUp * arbNotional;
    let sellNotional = sumOf(sizes, takers - takerBuys, meanSize, flow.sizeAlpha) + (arbs - arbUp) * arbNotional;
    if (openMinute && n >= 2) {
      // the minute opens with one order at the price the last print left (the live candles' open
      // is the first trade after the previous close): at that price on the same side, a tick
      // away across the one-tick spread on the other; its notional the side's mean
      const buy = rng.next() * n < nBuy;
      const side = buy ? Side.BUY : Side.SELL;
      const bounce = side === lastSide ? 0 : buy ? 1 : -1;
      const share = buy ? buyNotional / nBuy : sellNotional / (n - nBuy);
      emit(s0 + rng.int(1_000), Math.max(1, Math.round(fromTicks) + bounce), side, 1, share);
      n -= 1;
      if (buy) {
        nBuy -= 1;
        buyNotional -= share;
      } else sellNotional -= share;
    }
    openMinute = false;
    // the side that traded more prints at the step's extreme, the other at its close (a side
    // alone prints at the close)
    const buyMajor = buyNotional >= sellNotional;
    const nMajor = buyMajor ? nBuy : n - nBuy;
    const nMinor = n - nMajor;
    const majorSide = buyMajor ? Side.BUY : Side.SELL;
    const minorSide = buyMajor ? Side.SELL : Side.BUY;
    const t1 = s0 + 2_000 + rng.int(6_000);
    const t2 = s0 + 9_000 + rng.int(5_999);
    if (nMinor === 0) {
      emit(t2, Math.max(1, Math.round(endTicks)), majorSide, nMajor, buyMajor ? buyNotional : sellNotional);
      lastSide = majorSide;
    } else {
      emit(t1, tickOf(a + ext), majorSide, nMajor, buyMajor ? buyNotional : sellNotional);
      emit(t2, Math.max(1, Math.round(endTicks)), minorSide, nMinor, buyMajor ? sellNotional : buyNotional);
      lastSide = minorSide;
    }
  }
  return { state: { price: Math.exp(path[steps] + shift), h: process.h }, trades };
}

/**
 * The notional of n taker orders of the size law (mean `meanSize`, tail index alpha): n x the
 * mean plus n^(1/alpha) x one draw's deviation from it. The generalized central limit theorem's
 * scaling: exact for one order, and the sum keeps the law's tail (P(sum - n mean > x) about
 * n P(size > x)); one draw a side and step instead of n.
 */
function sumOf(sizes: TradeSizes, n: number, meanSize: number, alpha: number): number {
  if (n === 0) return 0;
  return n * meanSize + Math.pow(n, 1 / alpha) * (sizes.notional() - meanSize);
}

/** Mean over median of e^(sigma Z) x P, P Pareto(1, alpha > 1): e^(sigma^2/2) alpha/(alpha-1) over the median (numeric). */
function meanOverMedian(sigma: number, alpha: number): number {
  const mean = Math.exp((sigma * sigma) / 2) * (alpha / (alpha - 1));
  return mean / Math.exp(logMedian(sigma, alpha));
}
