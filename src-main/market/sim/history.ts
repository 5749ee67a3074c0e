// History fast-forward: on a venue's first start (no stored candles) every trading pair gets
// `days` (default 30) of past trades, so the chart has history the moment the venue opens.
//
// The book is bypassed: the latent price process (price-process.ts, same model and settings as
// the live market) runs in 15 s steps and each step becomes two synthetic trades fed straight
// into the candle service (recordTrade): one at the step's high or low, drawn from the exact
// distribution of a Brownian bridge's maximum (minimum), and one at the step's end price, so 1m
// candles get real wicks. Trade sizes follow the symbol's taker flow (rate x median notional,
// more when volatile, log-normal noise); the taker side follows the price move.
// Anchoring: the path is generated forward and then shifted so that it ends exactly at the
// pair's current price (its mark, the catalogue's initial price on a first start); the live
// simulation continues from there, with the variance state the history ended in.
// Deterministic: streams Rng.stream(seed, 'history', symbol); the same seed, end time and
// settings give the same trades, whether built with fastForwardHistory (async, yields to the
// event loop between symbols) or fastForwardHistorySync. Trades are at or after start and before `end`; times ascend.
// Cost: O(days x 5,760) per symbol, a Float64Array of the path (about 1.4 MB for 30 days) alive
// while one symbol is built.
import type { PairState } from '../../trading/pair-state.ts';
import { PairLimits } from './order-sizing.ts';
import { paramsFor, type SymbolSimParams } from './params.ts';
import { PriceProcess, type ProcessState } from './price-process.ts';
import { Rng } from './rng.ts';

export const HISTORY_STEP_MS = 15_000;
export const DAY_MS = 86_400_000;

/** Where the trades go: the KlineService has this shape. */
export interface TradeRecorder {
  recordTrade(symbol: string, time: number, priceTicks: number, qtyLots: number, takerSide: number): void;
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
    this.pairs = [...opts.pairs].filter((p) => p.row.status === 1);
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
    const r = buildSymbol(pair, paramsFor(pair.row, opts.params?.[symbol]), opts.seed, this.from, this.steps, anchor, opts.recorder);
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

function buildSymbol(
  pair: PairState,
  params: SymbolSimParams,
  seed: number,
  from: number,
  steps: number,
  anchor: number,
  recorder: TradeRecorder,
): { state: ProcessState; trades: number } {
  const symbol = pair.row.symbol;
  const limits = new PairLimits(pair);
  const rng = Rng.stream(seed, 'history', symbol);
  const process = new PriceProcess(params, { price: anchor }, rng, { min: limits.tick * 1000, max: limits.tick * 1.5e9 });
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
  // a synthetic trade stands for half a step of taker flow
  const flowNotional = params.takerRate * (dt / 2) * params.takerMedianNotional * 1.6;
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
    const ext = up ? (r + Math.sqrt(r * r - 2 * v * Math.log(u))) / 2 : (r - Math.sqrt(r * r - 2 * v * Math.log(u))) / 2;
    const scale = Math.sqrt(Math.exp(hs[k]) / meanV);
    const t1 = s0 + 2_000 + rng.int(6_000);
    const t2 = s0 + 9_000 + rng.int(5_999);
    const p1 = tickOf(a + ext);
    const p2 = tickOf(b);
    const q1 = limits.lotsFor(flowNotional * scale * Math.exp(0.7 * rng.normal() - 0.245), p1);
    const q2 = limits.lotsFor(flowNotional * scale * Math.exp(0.7 * rng.normal() - 0.245), p2);
    recorder.recordTrade(symbol, t1, p1, q1, up ? 1 : 2);
    recorder.recordTrade(symbol, t2, p2, q2, p2 >= p1 ? 1 : 2);
    trades += 2;
  }
  return { state: { price: Math.exp(path[steps] + shift), h: process.h }, trades };
}
