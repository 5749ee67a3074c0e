// The wall-clock loop of the simulated market: steps the simulator up to the virtual clock's
// market time every intervalMs of wall time, or, in fast mode, as fast as the CPU allows with
// the market clock following the simulation.
// Keeps true: the work of a tick is bounded whatever the speed and however slow the machine (in
// steps, and in wall time by the measured cost of a step); a run is reproducible unless an
// overloaded tick had to sample (counted in stats.overloadTicks; the market time it thinned kept as
// spans, GET /api/v1/sim's overload). Details: docs/simulated-market.md, "The driver".
import type { VirtualClock } from '../../core/clock.ts';
import type { Simulator } from './simulator.ts';

export interface DriverOptions {
  /** Wall ms between ticks (default 50). */
  intervalMs?: number;
  /** Most steps of full simulation per tick (default 2,000). */
  maxStepsPerTick?: number;
  /** Live steps per tick when a tick falls behind (default 40). */
  overloadSamples?: number;
  /**
   * Wall ms a tick may spend stepping (default: half of intervalMs). With the measured cost of a
   * step, a tick that would take longer samples instead, so the event loop is never held for
   * long when the CPU cannot keep up with the clock. Infinity: bounded by maxStepsPerTick only.
   */
  tickBudgetMs?: number;
  /** Wall ms of steps per tick in fast mode (default 25). */
  fastSliceMs?: number;
  /** Fast mode's wall clock, ms (default performance.now). */
  wall?: () => number;
  onTick?: (simTime: number) => void;
  onError?: (err: unknown) => void;
}

export interface DriverStats {
  ticks: number;
  steps: number;
  overloadTicks: number;
  /** Market ms covered by skips. */
  skippedMs: number;
}

/** Market time an overloaded tick sampled (thinned): [from, to), ms; consecutive such ticks make one span. */
export interface ThinnedSpan {
  from: number;
  to: number;
}

/** Thinned spans kept (the newest; overloadTicks and skippedMs count them all). */
const MAX_THINNED_SPANS = 100;

/** Wall ms over which fast mode's rate is measured. */
const RATE_WINDOW_MS = 1_000;

export class SimDriver {
  readonly sim: Simulator;
  private readonly clock: VirtualClock;
  private readonly intervalMs: number;
  private readonly maxSteps: number;
  private readonly samples: number;
  private readonly budgetMs: number;
  /** Wall ms a step costs, a moving average of the ticks so far (0 until measured). */
  private stepCostMs = 0;
  private readonly onTick?: (simTime: number) => void;
  private readonly onError: (err: unknown) => void;
  private readonly sliceMs: number;
  private timer: ReturnType<typeof setInterval> | null = null;
  private immediate: ReturnType<typeof setImmediate> | null = null;
  private started = false;
  private stopped = false;
  private _fast = false;
  readonly stats: DriverStats = { ticks: 0, steps: 0, overloadTicks: 0, skippedMs: 0 };
  /** The spans of market time overloaded ticks thinned, oldest first (at most MAX_THINNED_SPANS, the newest). */
  private readonly spans: ThinnedSpan[] = [];
  private lastThinned = false;
  private readonly wall: () => number;
  /** Where fast mode's rate window began (wall ms, market ms); null until the first fast tick. */
  private rateFrom: { wall: number; market: number; first: boolean } | null = null;
  private _fastRate = 0;

  constructor(sim: Simulator, clock: VirtualClock, opts: DriverOptions = {}) {
    this.sim = sim;
    this.clock = clock;
    this.intervalMs = opts.intervalMs ?? 50;
    this.maxSteps = opts.maxStepsPerTick ?? 2000;
    this.samples = opts.overloadSamples ?? 40;
    this.sliceMs = opts.fastSliceMs ?? 25;
    this.wall = opts.wall ?? (() => performance.now());
    this.budgetMs = opts.tickBudgetMs ?? this.intervalMs / 2;
    if (
      !(this.intervalMs >= 1) ||
      !(this.maxSteps >= 1) ||
      !(this.samples >= 1) ||
      !(this.sliceMs > 0) ||
      !(this.budgetMs > 0)
    )
      throw new RangeError('driver intervals and limits must be >= 1');
    this.onTick = opts.onTick;
    this.onError = opts.onError ?? ((err) => console.error('perpdesk: simulator tick failed', err));
  }

  get running(): boolean {
    return this.timer !== null || this.immediate !== null;
  }

  get fast(): boolean {
    return this._fast;
  }

  /**
   * Market ms a wall ms fast mode runs the market at: over its last second of wall time (over its
   * first ticks until one has passed); 0 before its first tick.
   */
  get fastRate(): number {
    return this._fastRate;
  }

  /** True when the latest tick had to sample (the simulation cannot keep up with the clock now). */
  get behind(): boolean {
    return this.lastThinned;
  }

  /** The spans of market time thinned so far (this run), oldest first, the newest MAX_THINNED_SPANS. */
  thinnedSpans(): readonly ThinnedSpan[] {
    return this.spans;
  }

  private noteThinned(from: number, to: number): void {
    const last = this.spans.at(-1);
    if (last !== undefined && last.to >= from) last.to = Math.max(last.to, to);
    else {
      this.spans.push({ from, to });
      if (this.spans.length > MAX_THINNED_SPANS) this.spans.shift();
    }
  }

  start(): void {
    if (this.stopped) throw new Error('the driver was stopped');
    this.started = true;
    this.schedule();
  }

  /** Fast mode on or off (the caller pauses the market clock while it is on: the driver moves it). */
  setFast(on: boolean): void {
    if (on === this._fast) return;
    this._fast = on;
    this.rateFrom = null;
    this._fastRate = 0;
    if (this.started && !this.stopped) this.schedule();
  }

  stop(): void {
    this.stopped = true;
    this.unschedule();
  }

  private unschedule(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = null;
    this.immediate = null;
  }

  private schedule(): void {
    this.unschedule();
    if (this._fast) {
      const next = () => {
        this.immediate = setImmediate(() => {
          this.fastTick();
          if (this._fast && !this.stopped) next();
          else this.immediate = null;
        });
        this.immediate.unref?.();
      };
      next();
    } else {
      this.timer = setInterval(() => this.tick(), this.intervalMs);
      this.timer.unref?.();
    }
  }

  /** One fast-mode tick: whole steps for the slice's wall time, then the market clock moved to them. Returns the steps run. */
  fastTick(): number {
    let n = 0;
    try {
      const sim = this.sim;
      const t0 = this.wall();
      const from = sim.stampTime;
      let t: number;
      do {
        sim.step();
        n++;
        t = this.wall();
      } while (t - t0 < this.sliceMs);
      const reached = sim.stampTime;
      this.measureRate(t0, from, t, reached);
      const now = this.clock.now();
      if (reached > now) this.clock.advance(reached - now);
      this.stats.steps += n;
      this.stats.ticks++;
      this.lastThinned = false;
      this.onTick?.(reached);
    } catch (err) {
      this.onError(err);
    }
    return n;
  }

  /** Fast mode's rate: over the first ticks until a second of wall time has passed, then over each second. */
  private measureRate(t0: number, from: number, t: number, reached: number): void {
    this.rateFrom ??= { wall: t0, market: from, first: true };
    const span = t - this.rateFrom.wall;
    if (span <= 0) return;
    if (span >= RATE_WINDOW_MS || this.rateFrom.first) this._fastRate = (reached - this.rateFrom.market) / span;
    if (span >= RATE_WINDOW_MS) this.rateFrom = { wall: t, market: reached, first: false };
  }

  /**
   * Runs the steps that are due now, if any (outside fast mode): a user's command calls it before
   * it runs, so the market it meets has moved up to the command's time and what happened before
   * that time happens before the command, not after it (stamped at its time) at the next tick.
   */
  catchUp(): void {
    if (this._fast || this.stopped || !this.started) return;
    if (this.sim.time + this.sim.stepMs <= this.clock.now()) this.tick();
  }

  /** Full steps this tick may run: maxStepsPerTick, or fewer when that many would overrun the wall budget. */
  private allowedSteps(): number {
    if (this.stepCostMs <= 0 || this.budgetMs === Infinity) return this.maxSteps;
    return Math.max(1, Math.min(this.maxSteps, Math.floor(this.budgetMs / this.stepCostMs)));
  }

  /** One tick: catch up with the clock. Returns the live steps run. */
  tick(): number {
    let n = 0;
    try {
      const sim = this.sim;
      const target = this.clock.now();
      const step = sim.stepMs;
      const need = Math.floor((target - sim.time) / step);
      const allowed = this.allowedSteps();
      // wall ms of the live steps alone: a skip's cost is not a step's (measured with them, one
      // long skip made a step look dear, the next ticks ran fewer samples, each over a longer skip,
      // until one sample a tick was left)
      let stepWall = 0;
      this.lastThinned = need > allowed;
      if (need <= allowed) {
        const t0 = performance.now();
        n = sim.runUntil(target);
        stepWall = performance.now() - t0;
      } else {
        this.stats.overloadTicks++;
        const from = sim.time;
        const span = target - from;
        const samples = Math.min(this.samples, allowed);
        for (let i = 1; i <= samples; i++) {
          // the live step ends a second: t + step is a multiple of 1000
          const goal = Math.floor((from + (span * i) / samples) / 1000) * 1000 - step;
          if (goal - step > sim.time) {
            const before = sim.time;
            sim.skipTo(goal - step);
            this.stats.skippedMs += sim.time - before;
          }
          if (sim.time + step <= target) {
            const t0 = performance.now();
            sim.step();
            stepWall += performance.now() - t0;
            n++;
          }
        }
        if (sim.time + step <= target) {
          const before = sim.time;
          sim.skipTo(target);
          this.stats.skippedMs += sim.time - before;
        }
        this.noteThinned(from, sim.time);
      }
      if (n > 0) {
        const cost = stepWall / n;
        this.stepCostMs = this.stepCostMs === 0 ? cost : 0.8 * this.stepCostMs + 0.2 * cost;
      }
      this.stats.steps += n;
      this.stats.ticks++;
      this.onTick?.(sim.stampTime);
    } catch (err) {
      this.onError(err);
    }
    return n;
  }
}
