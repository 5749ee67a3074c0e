// A replay: a MarketSource whose market is history (docs/replay.md "Market"). The historical
// market is put INTO the venue's own matching engine through Exchange.execute, so every route,
// channel, candle, margin, fee, funding, TP/SL and liquidation path works unchanged:
//   - the historical book is mirrored as resting orders of the replay's book account
//     (book-mirror.ts), kept equal to the historical levels at every event;
//   - every historical trade is a taker of the replay's taker account (IOC at the trade's price
//     and size) that consumes the engine's queue in price-time order, users included;
//   - mark, index and funding go through the 'prices' / 'funding' commands.
// Invariants
//   - Market time is the time of the history applied: while events are applied the clock stands
//     at each event's time (so every trade, candle and record carries its historical time); the
//     clock never goes back.
//   - Events of all replayed symbols are applied in one time order (merge.ts); at equal times
//     a trade comes before a depth event (a diff reports the book after the trades of its batch).
//   - The user's orders never change history: the mirror restores the historical sizes at the
//     next event of that symbol, and the next prints are the historical ones.
//   - Order entry latency: an order submitted at market time t is applied at t + orderLatency,
//     after every historical event up to that time; orders in flight keep their sending order.
//     Its answer is delivered at that time + responseLatency (answers in the order applied).
import { ApiError, Errors } from '../../src-shared/errors.ts';
import type { ReplayFault, ReplayStatus } from '../../src-shared/types.ts';
import { MAX_SPEED, MIN_SPEED, VirtualClock } from '../core/clock.ts';
import { CandleCoverage } from '../market/candle-coverage.ts';
import type { KlineService } from '../market/kline-service.ts';
import type { MarketSource, MarketSymbolView } from '../market/market-source.ts';
import type { Exchange } from '../trading/exchange.ts';
import { checkLatency, ConstantLatency } from './models/constant-latency.ts';
import { PessimisticQueue } from './models/pessimistic-queue.ts';
import { ProbabilisticQueue } from './models/probabilistic-queue.ts';
import type { QueueModel, QueueModelName } from './models/queue-model.ts';
import { checkSpanRows, planSources, replayStart, type SymbolSource } from './plan.ts';
import type { ReplayData } from './ports.ts';
import { OrderFlight } from './order-flight.ts';
import { PreStartCandles } from './pre-start-candles.ts';
import { ReplayEngine, type ReplayCommit } from './replay-engine.ts';

export interface ReplayOptions {
  /** Replayed together; their datasets must overlap in time. */
  symbols: string[];
  /** ms UTC, inclusive. */
  start: number;
  /** ms UTC; default the end of the data. */
  until?: number;
  /**
   * Dataset ids to read (pins.ts): each fixes its symbol's dataset for its role; the roles not
   * pinned are chosen by plan.ts's rule. Default none.
   */
  datasets?: number[];
  /** Default 'probabilistic'. */
  queueModel?: QueueModelName;
  /** Order entry latency, ms of history (0 to MAX_LATENCY_MS, default 0): see submit(). */
  orderLatency?: number;
  /** Market-data latency, ms of history (0 to MAX_LATENCY_MS, default 0): applied by the WebSocket hub, held here for the status. */
  dataLatency?: number;
  /**
   * Order response latency, ms of history (0 to MAX_LATENCY_MS, default 0): an order's answer
   * (submit()) and the account events pushed to its owner (the WebSocket hubs) arrive this late.
   */
  responseLatency?: number;
}

export type { ReplayStatus };

export interface ReplayMarketOptions {
  exchange: Exchange;
  /** The venue's clock; the replay sets it to `start` and owns it from then on. */
  clock: VirtualClock;
  data: ReplayData;
  replay: ReplayOptions;
  /**
   * Creates the venue's klines service; called once the replay is set up, with `openAtPrice`
   * false (KlineServiceOptions): before a pair's first event its candles are history's.
   */
  openKlines: (openAtPrice: boolean) => KlineService;
  /** Wall ms between driver ticks (default 50). */
  intervalMs?: number;
  /** Wall clock the replay follows at its speed (default Date.now). */
  wall?: () => number;
  /** The venue's group commit (ReplayEngineOptions.commit). */
  commit?: ReplayCommit;
}

const STATUS_EVERY_MS = 250;

/** The options once checked, with their defaults. */
type ResolvedOptions = ReplayOptions & {
  until: number;
  queueModel: QueueModelName;
  orderLatency: number;
  dataLatency: number;
  responseLatency: number;
};

export class ReplayMarket implements MarketSource {
  readonly kind = 'replay';
  /** A replay has no randomness of its own. */
  readonly seed = 0;
  readonly stepMs = 1;
  readonly engine: ReplayEngine;
  private readonly clock: VirtualClock;
  private readonly klines: KlineService | null;
  private readonly opts: ResolvedOptions;
  /** Orders and answers in flight (order-flight.ts). */
  private readonly flight: OrderFlight;
  private readonly intervalMs: number;
  private readonly wall: () => number;
  /** Wall time the replay has followed up to, and the market time it aims at (fractional ms kept). */
  private lastWall = 0;
  private aim = 0;
  private userPaused = false;
  private lockstep = false;
  private timer: ReturnType<typeof setInterval> | null = null;
  private stopped = false;
  private readonly listeners: Array<(s: ReplayStatus) => void> = [];
  private lastNotify = 0;
  private notifyTimer: ReturnType<typeof setTimeout> | null = null;
  private faultOf: ReplayFault | null = null;

  constructor(o: {
    engine: ReplayEngine;
    clock: VirtualClock;
    klines: KlineService | null;
    opts: ResolvedOptions;
    intervalMs?: number;
    wall?: () => number;
  }) {
    this.engine = o.engine;
    this.clock = o.clock;
    this.klines = o.klines;
    this.opts = o.opts;
    this.flight = new OrderFlight(new ConstantLatency(o.opts.orderLatency, o.opts.responseLatency));
    this.intervalMs = o.intervalMs ?? 50;
    this.wall = o.wall ?? Date.now;
    // The clock stays paused: it is moved only by the history applied (to each event's time), so
    // it never runs ahead of the market; the speed is applied here, to the wall time between ticks.
    this.clock.pause();
  }

  get time(): number {
    return this.engine.time;
  }

  now(): number {
    return this.clock.now();
  }

  get speed(): number {
    return this.clock.speed;
  }

  get paused(): boolean {
    return this.userPaused || this.lockstep || this.finished || this.faultOf !== null;
  }

  /** Where and why applying history failed, or null (docs/replay.md "When history cannot be read"). */
  get fault(): ReplayFault | null {
    return this.faultOf;
  }

  get finished(): boolean {
    return this.engine.time >= this.opts.until;
  }

  setSpeed(speed: number): void {
    // the history up to now at the old speed first
    this.tick();
    this.clock.setSpeed(speed);
    this.changed(true);
  }

  pause(): void {
    this.userPaused = true;
    this.changed(true);
  }

  resume(): void {
    if (this.userPaused) this.follow();
    this.userPaused = false;
    this.changed(true);
  }

  view(): MarketSymbolView[] {
    return this.engine.view();
  }

  status(): ReplayStatus {
    return {
      symbols: [...this.opts.symbols],
      start: this.opts.start,
      until: this.opts.until,
      time: this.engine.time,
      speed: this.clock.speed,
      paused: this.paused,
      lockstep: this.lockstep,
      finished: this.finished,
      events: this.engine.events,
      sources: this.engine.sources(),
      datasets: this.engine.datasets(),
      gaps: this.engine.gaps(),
      id_overruns: this.engine.idOverruns(),
      queue_model: this.opts.queueModel,
      order_latency: this.opts.orderLatency,
      data_latency: this.opts.dataLatency,
      response_latency: this.opts.responseLatency,
      fault: this.faultOf === null ? null : { ...this.faultOf },
    };
  }

  /** Order entry latency, ms of history. */
  get orderLatency(): number {
    return this.opts.orderLatency;
  }

  /** Market-data latency, ms of history. */
  get dataLatency(): number {
    return this.opts.dataLatency;
  }

  /** Order response latency, ms of history. */
  get responseLatency(): number {
    return this.opts.responseLatency;
  }

  /**
   * Order entry (docs/replay.md "Latency"): `run` (an order, cancel, TP/SL command of a user or
   * bot) reaches the matching engine `orderLatency` ms of history after now: every historical
   * event up to that time is applied first, then `run`; the promise settles with its answer.
   * While the replay follows the wall clock the order waits for the clock to get there; when it
   * does not (paused, lockstep, finished, not started) the replay advances itself to the arrival
   * time at once, so a client that waits for its answer before stepping cannot deadlock. An
   * order sent less than the latency before `until` arrives at `until`. The answer (or the
   * refusal) comes `responseLatency` ms of history after the order was applied, by the same rule
   * (in lockstep the replay moves itself there too). Without latencies `run` runs now.
   */
  submit<T>(run: () => T): Promise<T> {
    if (this.stopped) return Promise.reject(new ApiError(Errors.SERVICE_UNAVAILABLE, 'The replay is closing'));
    // faulted, the clock cannot move: what the venue still lets through (a cancel) applies now
    if (this.faultOf !== null) return new Promise<T>((resolve) => resolve(run()));
    const now = this.engine.time;
    if (this.flight.immediate(now)) {
      try {
        return Promise.resolve(run());
      } catch (err) {
        return Promise.reject(err);
      }
    }
    return new Promise<T>((resolve, reject) => {
      const back = this.flight.send(run, now, this.opts.until, resolve, reject);
      if (!this.following) this.runTo(back);
    });
  }

  /** Calls fn(t) at every market time start + k x ms the replay reaches (ReplayEngine.every). */
  every(ms: number, fn: (t: number) => void): void {
    this.engine.every(ms, fn);
  }

  /** Orders sent and not yet at the engine, and answers not yet delivered. */
  get ordersInFlight(): number {
    return this.flight.size;
  }

  /** The replay moves by itself, following the wall clock (started, not paused, not in lockstep, not finished). */
  private get following(): boolean {
    return this.timer !== null && !this.paused;
  }

  /** Applies every event up to time+ms at once (paused or lockstep); returns the new time. */
  step(ms: number): number {
    if (!(ms >= 0) || !Number.isFinite(ms)) throw new RangeError(`step takes a non-negative number of ms, got ${ms}`);
    return this.runTo(Math.min(this.opts.until, this.engine.time + Math.floor(ms)));
  }

  /** Forward only: applies every event up to t as fast as possible; RangeError if t < time or > until. */
  seek(t: number): number {
    if (!Number.isFinite(t) || t < this.engine.time || t > this.opts.until) {
      throw new RangeError(
        `seek goes forward only, to a time from ${this.engine.time} to ${this.opts.until} (got ${t})`,
      );
    }
    return this.runTo(Math.floor(t));
  }

  /** Lockstep: the clock moves only by step()/seek(); off = it follows the wall clock at speed. */
  setLockstep(on: boolean): void {
    if (this.lockstep && !on) this.follow();
    this.lockstep = on;
    this.changed(true);
  }

  onChange(listener: (s: ReplayStatus) => void): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  start(): void {
    if (this.stopped) throw new Error('the market source was stopped');
    if (this.timer) return;
    this.timer = setInterval(() => this.tick(), this.intervalMs);
    this.timer.unref?.();
    this.follow();
  }

  stop(): void {
    this.stopped = true;
    // orders still in flight never reach the engine: their senders are told so
    this.flight.failAll(
      new ApiError(Errors.SERVICE_UNAVAILABLE, 'The replay closed while the order or its answer was in flight'),
    );
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.notifyTimer) clearTimeout(this.notifyTimer);
    this.notifyTimer = null;
  }

  dispose(): void {
    this.stop();
    this.engine.dispose();
    this.listeners.length = 0;
  }

  /** One driver tick (started, not paused, not in lockstep): the wall time since the last one x speed of history. */
  tick(): void {
    if (this.timer === null || this.paused) return;
    try {
      const now = this.wall();
      this.aim = Math.max(this.aim, this.engine.time) + Math.max(0, now - this.lastWall) * this.clock.speed;
      this.lastWall = now;
      this.runTo(Math.min(this.opts.until, Math.floor(this.aim)));
    } catch (err) {
      console.error('perpdesk: replay tick failed', err);
    }
  }

  /** From now on, follow the wall clock from the current market time. */
  private follow(): void {
    this.lastWall = this.wall();
    this.aim = this.engine.time;
  }

  // Once a read or commit fails in here the readers stand at an unknown place (a merge half
  // advanced, a cursor past rows never applied): the replay is faulted for good, every later move
  // is refused (faultError) so no event is skipped or misordered, and what is in flight fails.
  private runTo(target: number): number {
    if (this.faultOf !== null) throw faultError(this.faultOf);
    try {
      return this.apply(target);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      this.faultOf = { time: this.engine.time, message: reason.slice(0, 200) };
      this.flight.failAll(faultError(this.faultOf));
      this.changed(true);
      throw err;
    }
  }

  private apply(target: number): number {
    const before = this.engine.events;
    const finishedBefore = this.finished;
    // orders (and answers) in flight that arrive by then, each after the history up to its time
    for (let o = this.flight.takeDue(target); o !== null; o = this.flight.takeDue(target)) {
      this.engine.runTo(o.at, this.clock);
      this.klines?.advanceTo(this.engine.time);
      o.act();
    }
    this.engine.runTo(target, this.clock);
    if (this.aim < this.engine.time) this.aim = this.engine.time;
    this.klines?.advanceTo(this.engine.time);
    this.changed(this.engine.events !== before || this.finished !== finishedBefore);
    return this.engine.time;
  }

  /** Tells the listeners, at most every STATUS_EVERY_MS of wall time (control changes at once). */
  private changed(now: boolean): void {
    if (this.listeners.length === 0) return;
    const wall = Date.now();
    if (now || wall - this.lastNotify >= STATUS_EVERY_MS) {
      this.lastNotify = wall;
      const s = this.status();
      // each listener on its own: one that throws is logged, the others (and the step or tick
      // that moved the clock) go on
      for (const l of [...this.listeners]) {
        try {
          l(s);
        } catch (err) {
          console.error('perpdesk: a replay status listener failed; the others still receive', err);
        }
      }
    } else if (this.notifyTimer === null) {
      this.notifyTimer = setTimeout(() => {
        this.notifyTimer = null;
        this.changed(true);
      }, STATUS_EVERY_MS);
      this.notifyTimer.unref?.();
    }
  }
}

/** The answer to a move (or an order) on a faulted replay: 5001 naming the fault and what to do. */
export function faultError(f: ReplayFault): ApiError {
  return new ApiError(
    Errors.SERVICE_UNAVAILABLE,
    `The replay is faulted: applying its history failed at market time ${f.time} (${f.message}); it cannot go on ` +
      `from there: close it and open it again, or open a new replay from ${f.time}`,
  );
}

/**
 * Opens a replay over the venue's exchange: checks the options against the data (RangeError
 * naming what is wrong: among it a span with no row of the data), sets the clock to the start (a
 * start earlier on the UTC day of the data's first event: that event, replayStart), applies the history before the start that
 * the book needs (the last snapshot before it), then opens the klines service.
 */
export function openReplayMarket(opts: ReplayMarketOptions): { market: ReplayMarket; klines: KlineService } {
  const o = opts.replay;
  if (!Number.isSafeInteger(o.start)) throw new RangeError(`replay start must be an integer ms, got ${o.start}`);
  const queueModel = o.queueModel ?? 'probabilistic';
  const orderLatency = o.orderLatency ?? 0;
  const dataLatency = o.dataLatency ?? 0;
  const responseLatency = o.responseLatency ?? 0;
  checkLatency('order latency', orderLatency);
  checkLatency('data latency', dataLatency);
  checkLatency('response latency', responseLatency);
  if (queueModel !== 'pessimistic' && queueModel !== 'probabilistic')
    throw new RangeError(`queue model must be pessimistic or probabilistic, got ${String(queueModel)}`);
  const speed = opts.clock.speed;
  if (!(speed >= MIN_SPEED && speed <= MAX_SPEED))
    throw new RangeError(`speed must be from ${MIN_SPEED} to ${MAX_SPEED}`);
  // a start just before the data (earlier on the UTC day of its first event) starts at that event
  const start = replayStart(opts.data, o.symbols, o.start, o.until, o.datasets);
  const sources: SymbolSource[] = planSources(opts.data, o.symbols, start, o.until, o.datasets);
  const until = o.until ?? Math.min(...sources.map((s) => s.end));
  if (!(until > start)) throw new RangeError(`replay until (${until}) must be after start (${start})`);
  checkSpanRows(opts.data, sources, start, until);
  const shift = start - opts.clock.now();
  if (shift > 0) opts.clock.advance(shift);
  else if (shift < 0) throw new RangeError('the venue clock is already past the replay start');
  const engine = new ReplayEngine({
    exchange: opts.exchange,
    data: opts.data,
    sources,
    start,
    until,
    queueModel: queueModelOf(queueModel),
    ...(opts.commit === undefined ? {} : { commit: opts.commit }),
  });
  engine.prime(opts.clock);
  const klines = opts.openKlines(false);
  klines.autoAdvance = false;
  // a replay of candles serves history's: none where its source has none (market/candle-coverage.ts)
  if (sources.some((s) => s.kind === 'klines')) klines.coverage = new CandleCoverage();
  // before the start the candles are history's, read when a read reaches there (pre-start-candles.ts)
  klines.history = new PreStartCandles({
    data: opts.data,
    start,
    sources,
    math: (symbol) => opts.exchange.pair(symbol)!.math,
  });
  engine.setCandles(klines);
  const market = new ReplayMarket({
    engine,
    clock: opts.clock,
    klines,
    opts: { ...o, start, until, queueModel, orderLatency, dataLatency, responseLatency },
    intervalMs: opts.intervalMs,
    wall: opts.wall,
  });
  return { market, klines };
}

/** The queue model of a name (models/). */
function queueModelOf(name: QueueModelName): QueueModel {
  return name === 'pessimistic' ? new PessimisticQueue() : new ProbabilisticQueue();
}
