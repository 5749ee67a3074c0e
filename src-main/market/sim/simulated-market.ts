// The simulator as a MarketSource (market/market-source.ts): on open, the synthetic history of
// pairs that have none (fast-forward into the candle store) and the start prices of the others
// (their newest stored close); then a Simulator driven by a SimDriver along the market clock,
// each tick moving the klines service to the time the simulation reached.
import { SymbolStatus } from '../../../src-shared/enums.ts';
import type { VirtualClock } from '../../core/clock.ts';
import type { KlineService } from '../kline-service.ts';
import type { MarketSource, MarketSymbolView, SimulatorSourceOptions } from '../market-source.ts';
import { SimDriver, type DriverOptions, type ThinnedSpan } from './driver.ts';
import { historySteps, type HistoryResult } from './history.ts';
import {
  HistoryCandleWriter,
  lastStoredPrices,
  pairsWithoutHistory,
  removePartialHistories,
} from './history-writer.ts';
import { paramsFor, type SymbolSimParams } from './params.ts';
import type { FundingInterval } from './price-feed.ts';
import { Simulator } from './simulator.ts';

/** What GET /api/v1/sim shows of the driver's overload sampling (docs/simulated-market.md, "The driver"). */
export interface OverloadView {
  behind: boolean;
  thinned_ticks: number;
  thinned_ms: number;
  spans: ThinnedSpan[];
}

export class SimulatedMarket implements MarketSource {
  readonly kind = 'simulator';
  readonly sim: Simulator;
  private readonly clock: VirtualClock;
  private readonly onAdvance: ((simTime: number) => void) | undefined;
  private driver: SimDriver | null = null;
  private stopped = false;
  private _fast = false;
  /** A pause asked for while fast (the clock itself stays paused all through fast mode). */
  private heldPause = false;
  private _pauses = 0;

  /**
   * The clock is paused only until start() (the venue held it while it opened): start() runs it,
   * unless a pause or fast mode was asked for meanwhile. Before, the clock ran from the venue's
   * open, and the first tick found the seconds of the start-up (several after a kill -9) behind it
   * and sampled them (the driver's overload skip): seconds without a trade, then the price moved
   * by the whole gap at once.
   */
  private heldForStart: boolean;
  private readonly driverOptions: Pick<DriverOptions, 'wall'>;

  /**
   * onAdvance(time) runs after every driver tick with the market time the simulation reached;
   * `clockHeld`: the clock was paused for the start (heldForStart).
   */
  constructor(
    sim: Simulator,
    clock: VirtualClock,
    onAdvance?: (simTime: number) => void,
    clockHeld = false,
    driverOptions: Pick<DriverOptions, 'wall'> = {},
  ) {
    this.sim = sim;
    this.driverOptions = driverOptions;
    this.clock = clock;
    this.onAdvance = onAdvance;
    this.heldForStart = clockHeld && clock.paused;
  }

  get seed(): number {
    return this.sim.seed;
  }

  get stepMs(): number {
    return this.sim.stepMs;
  }

  get time(): number {
    return this.sim.time;
  }

  now(): number {
    return this.clock.now();
  }

  get speed(): number {
    return this.clock.speed;
  }

  /** Market ms a wall ms the clock runs at: its speed, or while fast the rate the simulation runs at (SimDriver.fastRate). */
  get rate(): number {
    return this._fast ? (this.driver?.fastRate ?? 0) : this.clock.speed;
  }

  get paused(): boolean {
    return this._fast ? this.heldPause : this.clock.paused && !this.heldForStart;
  }

  /**
   * How many times pause() was called (also on a market already paused), as VirtualClock.pauses
   * counts the clock's: the desktop's sleep guard (desktop/sleep-guard.ts) pauses the market and
   * resumes it only while the count is still the one its pause left. Fast mode's own pause of the
   * clock is not counted: fast mode switched on during the guard's hold keeps the hold the guard's.
   */
  get pauses(): number {
    return this._pauses;
  }

  /** True while the market runs as fast as the CPU allows (setFast). */
  get fast(): boolean {
    return this._fast;
  }

  /** The clock's speed; while fast it applies once fast mode ends. */
  setSpeed(speed: number): void {
    this.clock.setSpeed(speed);
  }

  pause(): void {
    this._pauses++;
    this.heldForStart = false; // it stays paused after start()
    if (this._fast) {
      this.heldPause = true;
      this.driver?.setFast(false);
    } else this.clock.pause();
  }

  resume(): void {
    this.heldForStart = false;
    if (this._fast) {
      this.heldPause = false;
      this.driver?.setFast(true);
    } else this.clock.resume();
  }

  /**
   * Fast mode: every step simulated, as fast as the CPU allows, the market clock following the
   * simulation (it does not run with the wall meanwhile). Off again, the clock goes on at its speed
   * from the market time reached. A pause holds either way.
   */
  setFast(on: boolean): void {
    if (on === this._fast) return;
    if (on) {
      this.heldPause = this.clock.paused && !this.heldForStart;
      this.heldForStart = false; // fast mode keeps the clock paused itself
      this.clock.pause();
      this._fast = true;
      this.driver?.setFast(!this.heldPause);
    } else {
      this._fast = false;
      this.driver?.setFast(false);
      if (!this.heldPause) this.clock.resume();
    }
  }

  /** Runs the simulation's due steps now (a user's command is about to run: SimDriver.catchUp). */
  catchUp(): void {
    this.driver?.catchUp();
  }

  view(): MarketSymbolView[] {
    return this.sim.view();
  }

  /** The driver's overload sampling since this run started: whether it is behind now, and what it thinned. */
  overload(): OverloadView {
    const d = this.driver;
    if (d === null) return { behind: false, thinned_ticks: 0, thinned_ms: 0, spans: [] };
    return {
      behind: d.behind && !d.fast,
      thinned_ticks: d.stats.overloadTicks,
      thinned_ms: d.stats.skippedMs,
      spans: d.thinnedSpans().map((s) => ({ from: s.from, to: s.to })),
    };
  }

  /**
   * Each pair's transient impact offset (log, over the index), as JSON for the market checkpoint:
   * a restart gives it back to openSimulatedMarket (`impactOffsets`), so the book stays where the
   * flow held it over the index and the offset goes on decaying (docs/simulated-market.md, "A restart").
   */
  impactCheckpoint(): string {
    return JSON.stringify(Object.fromEntries(this.sim.symbols.map((s) => [s.symbol, s.impact.transient])));
  }

  /**
   * Each pair's running funding interval (its premium samples, PriceFeed.interval), as JSON for
   * the market checkpoint: a restart inside the same interval goes on with them, so the funding
   * rate shown and settled is not started again from the samples after the restart.
   */
  fundingCheckpoint(): string {
    return JSON.stringify(Object.fromEntries(this.sim.symbols.map((s) => [s.symbol, s.feed.interval()])));
  }

  /** Writes impactCheckpoint and fundingCheckpoint under SIM_CHECKPOINT_KEYS (the venue's market checkpoint). */
  saveCheckpoint(set: (key: string, text: string) => void): void {
    set(SIM_CHECKPOINT_KEYS.impact, this.impactCheckpoint());
    set(SIM_CHECKPOINT_KEYS.funding, this.fundingCheckpoint());
  }

  start(): void {
    if (this.stopped) throw new Error('the market source was stopped');
    if (this.heldForStart) {
      this.heldForStart = false;
      this.clock.resume();
    }
    this.driver ??= new SimDriver(this.sim, this.clock, { ...this.driverOptions, onTick: this.onAdvance });
    this.driver.setFast(this._fast && !this.heldPause);
    this.driver.start();
  }

  /**
   * Stops for good. The market clock stands still first and the simulation runs the steps up to
   * it, so the market time the venue saves at its close is one the simulation reached: a restart's
   * simulation begins at the saved time's step. Before, the clock ran on through the service's
   * close (its server, replays, datasets) with the simulation stopped, and the steps between never
   * ran: at speed 10000 a stop within about an hour of market time after a funding instant lost
   * that settlement for every pair.
   */
  stop(): void {
    if (!this.stopped) {
      this.clock.pause();
      this.driver?.catchUp();
    }
    this.stopped = true;
    this.driver?.stop();
  }

  dispose(): void {
    this.stop();
    this.sim.dispose();
  }
}

/** Settings keys of the market checkpoint's simulated state (SimulatedMarket.saveCheckpoint). */
export const SIM_CHECKPOINT_KEYS = { impact: 'sim_impact', funding: 'sim_funding' } as const;

/**
 * Thrown into openSimulatedMarket's steps to stop a history build between two pairs (venue.ts
 * openVenueAsync). Named AbortError, as the DOM names an aborted operation's error.
 */
export class BuildStopped extends Error {
  constructor() {
    super('the history build was stopped');
    this.name = 'AbortError';
  }
}

/** What a simulated market's opening rebuilt: the candles deleted of each pair a build had cut short. */
export interface SimulatedOpen {
  market: SimulatedMarket;
  klines: KlineService;
  removedPartial: Map<string, number>;
}

/**
 * Opens the simulated market; its steps yield between the pairs of a history build (the caller
 * runs them at once, or gives the event loop a turn in between and may throw BuildStopped in).
 */
export function* openSimulatedMarket(opts: SimulatorSourceOptions): Generator<void, SimulatedOpen, undefined> {
  const { exchange, clock, seed, candles } = opts;
  const fresh = pairsWithoutHistory(candles, exchange.pairs.values());
  // a build cut short (Ctrl-C, kill -9): its pairs' rows go, and the pairs are built again
  const removedPartial = removePartialHistories(candles, fresh);
  const startStates = lastStoredPrices(candles, exchange.pairs.values());
  if (fresh.length > 0) {
    const running = !clock.paused;
    clock.pause(); // the market does not move while its past is being built
    const writer = new HistoryCandleWriter(candles, opts.bulkCandles?.(), fresh);
    const builders = opts.historyBuilders?.();
    let h: HistoryResult;
    try {
      const steps = historySteps({
        pairs: fresh,
        seed,
        end: clock.now(),
        recorder: writer,
        onProgress: opts.onHistoryProgress,
        builders,
      });
      for (let r = steps.next(); ; r = steps.next()) {
        if (r.done === true) {
          h = r.value;
          break;
        }
        try {
          yield;
        } catch (err) {
          // stopped between two pairs: what was written is committed, the sink closed cleanly
          writer.abandon();
          throw err;
        }
        // a write made meanwhile (a timer's) is committed: the sink's connection needs the lock
        candles.commitNow();
      }
      writer.finish();
    } catch (err) {
      writer.close();
      throw err;
    } finally {
      builders?.close();
    }
    for (const [sym, st] of h.states) startStates.set(sym, st);
    if (running) clock.resume();
  }
  const klines = opts.openKlines();
  let params: Record<string, Partial<SymbolSimParams>> | undefined;
  if (opts.volatility !== undefined || opts.intensity !== undefined) {
    params = {};
    for (const row of opts.symbols.all()) {
      const d = paramsFor(row);
      params[row.symbol] = {
        volatility: Math.min(5, Math.max(0.01, d.volatility * (opts.volatility ?? 1))),
        takerRate: Math.min(50, Math.max(0.05, d.takerRate * (opts.intensity ?? 1))),
      };
    }
  }
  // a restart's offsets go with the stored prices: a pair whose history was just built starts at 0
  const impactOffsets = new Map(
    [...parseImpactCheckpoint(opts.impactCheckpoint)].filter(([sym]) => !fresh.some((p) => p.row.symbol === sym)),
  );
  const fundingIntervals = new Map(
    [...parseFundingCheckpoint(opts.fundingCheckpoint)].filter(([sym]) => !fresh.some((p) => p.row.symbol === sym)),
  );
  const sim = new Simulator({ exchange, clock, seed, startStates, params, impactOffsets, fundingIntervals });
  // a pair paused at the start is not simulated: its mark and index are its last price (its newest stored close, where a
  // simulated pair starts too), not the listing price that stood in before (a paused SOLUSDT that last traded at 190.19 was
  // marked at 185.00 after a restart)
  for (const p of exchange.pairs.values()) {
    const st = p.row.status === SymbolStatus.PAUSED ? startStates.get(p.row.symbol) : undefined;
    if (st !== undefined) exchange.execute({ kind: 'prices', symbol: p.row.symbol, mark: st.price, index: st.price });
  }
  // candles follow the simulation's time (the driver's ticks), not the clock's
  klines.autoAdvance = false;
  return {
    market: new SimulatedMarket(sim, clock, (t) => klines.advanceTo(t), opts.clockHeld === true),
    klines,
    removedPartial,
  };
}

/**
 * The pairs' offsets in a market checkpoint (SimulatedMarket.impactCheckpoint): finite numbers
 * under a pair's name. Anything else (no checkpoint yet, one from a build before it was kept, a
 * damaged one) starts those pairs at 0, as a first start does.
 */
function parseImpactCheckpoint(text: string | undefined): Map<string, number> {
  const out = new Map<string, number>();
  for (const [sym, v] of checkpointEntries(text)) if (typeof v === 'number' && Number.isFinite(v)) out.set(sym, v);
  return out;
}

/**
 * The pairs' running funding intervals in a market checkpoint (SimulatedMarket.fundingCheckpoint):
 * four finite numbers under a pair's name. Anything else starts those pairs' intervals without
 * samples, as before this was kept.
 */
function parseFundingCheckpoint(text: string | undefined): Map<string, FundingInterval> {
  const out = new Map<string, FundingInterval>();
  for (const [sym, v] of checkpointEntries(text)) {
    if (v === null || typeof v !== 'object') continue;
    const { next, weighted, weights, samples } = v as Record<string, unknown>;
    const nums = [next, weighted, weights, samples];
    if (nums.every((n): n is number => typeof n === 'number' && Number.isFinite(n)))
      out.set(sym, { next: nums[0], weighted: nums[1], weights: nums[2], samples: nums[3] });
  }
  return out;
}

/** The entries of a checkpoint's JSON object; none for no text, damaged JSON or another shape. */
function checkpointEntries(text: string | undefined): [string, unknown][] {
  if (text === undefined) return [];
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return [];
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return [];
  return Object.entries(data);
}
