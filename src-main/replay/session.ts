// A replay session: the controls of a replay venue (play, pause, speed, step, seek), who holds
// its clock in lockstep, and its session report's clock. Routes and the WebSocket hub act
// through it, never on the market directly, so REST and WebSocket controls mean the same.
//
// Invariants:
// - Market time only goes forward (the market refuses a seek backwards; so does act()).
// - Lockstep: while a client holds the replay (a WebSocket connection that stepped it), the
//   clock moves only by that client's steps; another client's step or play is refused (2104)
//   until it lets go, disconnects or plays (its play hands the clock back and runs it). A replay opened in lockstep mode with nobody holding it
//   runs as fast as the machine allows while playing (slices of FREE_RUN_SLICE_MS on
//   setImmediate, so requests are still answered), and stands still while paused.
// - The same market data, start and sequence of commands give the same events: every clock move
//   is a step() or seek() of the market in lockstep, a function of the commands only.
// - The report's grid is sampled by the market itself at fixed market times (ReplayMarket.every,
//   wired by the venue), never here: play, step and seek give the same report.
import { ApiError, Errors } from '../../src-shared/errors.ts';
import { MAX_SPEED, MIN_SPEED } from '../core/clock.ts';
import type { SessionReport } from './session-report.ts';
import type { ReplayAction, ReplayState, ReplayStatus } from '../../src-shared/types.ts';
import { faultError, type ReplayMarket } from './replay-market.ts';

/** What the session needs of the replay market. */
export type ReplayControl = Pick<
  ReplayMarket,
  'status' | 'setSpeed' | 'pause' | 'resume' | 'step' | 'seek' | 'setLockstep' | 'onChange'
>;
export type { ReplayStatus };

/** The status as the API answers it. */
/** GET /api/v1/replay: the market's status, who holds the clock, where the live venue is. */
export type SessionStatus = ReplayState;

/** Longest single step, ms of market time (31 days). */
export const MAX_STEP_MS = 31 * 86_400_000;
/** Market ms per slice of a free-running lockstep replay. */
const FREE_RUN_SLICE_MS = 60_000;

export interface ReplaySessionOptions {
  market: ReplayControl;
  report: SessionReport;
  /** Opened in lockstep mode (--lockstep, `lockstep: true`). */
  lockstep: boolean;
  liveUrl?: string | null;
}

export class ReplaySession {
  readonly market: ReplayControl;
  readonly report: SessionReport;
  readonly lockstepMode: boolean;
  liveUrl: string | null;
  private holder: object | null = null;
  private freeRun: ReturnType<typeof setImmediate> | null = null;
  private playing = false;
  private closed = false;
  private readonly offChange: () => void;
  private readonly listeners = new Set<(s: SessionStatus) => void>();

  constructor(opts: ReplaySessionOptions) {
    this.market = opts.market;
    this.report = opts.report;
    this.lockstepMode = opts.lockstep;
    this.liveUrl = opts.liveUrl ?? null;
    if (this.lockstepMode) {
      // lockstep opens paused: nothing moves before a client steps it or someone presses play
      this.market.setLockstep(true);
      this.market.pause();
    }
    this.offChange = this.market.onChange((s) => {
      this.emit(this.decorate(s));
    });
  }

  status(): SessionStatus {
    return this.decorate(this.market.status());
  }

  /** Status changes (the market's, at most a few a second, and every control action). */
  onChange(listener: (s: SessionStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get held(): boolean {
    return this.holder !== null;
  }

  /** The connection holding the clock, or null. */
  get holderOf(): object | null {
    return this.holder;
  }

  /**
   * One control action. `by` is the WebSocket connection acting (undefined for REST): while a
   * client holds the clock, only it may move it; a step by a connection takes hold of it.
   */
  act(a: ReplayAction, by?: object): SessionStatus {
    if (this.closed) throw new ApiError(Errors.SERVICE_UNAVAILABLE, 'The replay is closing');
    const moves = a.action === 'play' || a.action === 'step' || a.action === 'seek';
    if (moves && this.holder !== null && this.holder !== by) {
      throw new ApiError(
        Errors.REPLAY_HELD,
        `${Errors.REPLAY_HELD.message}; it may play, step or seek again once that client lets go or disconnects`,
      );
    }
    // All or nothing: every check first, then the history a step or seek applies (the one part
    // that can fail: the data read, a commit), and only then who holds the clock and play or
    // pause. A refused or failed action leaves the controls as they were.
    this.check(a);
    // a faulted replay never moves again (docs/replay.md "When history cannot be read")
    const fault = this.market.status().fault;
    if (moves && fault) throw faultError(fault);
    switch (a.action) {
      case 'play':
        // play by the client holding the clock hands it back: the clock then runs by itself, as
        // the replay was opened (a hold would keep it still: only the holder's steps move it)
        if (by !== undefined && this.holder === by) this.letGo();
        if (this.lockstepMode) {
          // a finished replay has nothing to play (as the free mode's market stays paused): it
          // answers paused, not a play that the next status read takes back
          if (this.market.status().finished) break;
          this.playing = true;
          this.scheduleFreeRun();
        } else {
          this.market.resume();
          this.playing = true;
        }
        break;
      case 'pause':
        this.stopPlaying();
        break;
      case 'speed':
        this.market.setSpeed(a.speed);
        break;
      case 'step':
        this.move('step', () => this.market.step(a.ms));
        if (by !== undefined && this.holder === null) this.take(by);
        // a step while playing is a frame step: the replay stops (in the same turn: nothing
        // moves between the step and the pause)
        else if (this.holder === null) this.stopPlaying();
        break;
      case 'seek':
        this.move('seek', () => this.market.seek(a.time));
        if (this.holder === null) this.stopPlaying();
        break;
    }
    const st = this.status();
    this.emit(st);
    return st;
  }

  /** The action's values, ApiError 1001 naming the one out of range (before anything changes). */
  private check(a: ReplayAction): void {
    if (a.action === 'speed' && !(a.speed >= MIN_SPEED && a.speed <= MAX_SPEED))
      throw new ApiError(Errors.INVALID_PARAMETER, `speed must be from ${MIN_SPEED} to ${MAX_SPEED}`);
    if (a.action === 'step' && !(Number.isInteger(a.ms) && a.ms >= 1 && a.ms <= MAX_STEP_MS))
      throw new ApiError(Errors.INVALID_PARAMETER, `ms must be an integer from 1 to ${MAX_STEP_MS}`);
    if (a.action === 'seek') {
      const s = this.market.status();
      if (!Number.isInteger(a.time) || a.time < s.time || a.time > s.until) {
        throw new ApiError(
          Errors.INVALID_PARAMETER,
          `time must be an integer ms from the replay's time ${s.time} (seek goes forward only) to its end ${s.until}`,
        );
      }
    }
  }

  /**
   * Applies history (a step or seek). A failure there (the datasets could not be read, a commit
   * failed) is no bad input: it is logged and answered 5000 naming it, who holds the clock and the
   * speed untouched; the history applied before the fault stays applied (history is never taken
   * back), and the market is faulted from then on: it stops playing, every later move is refused 5001.
   */
  private move(what: 'step' | 'seek', run: () => void): void {
    try {
      run();
    } catch (err) {
      if (err instanceof ApiError) throw err;
      console.error(`perpdesk: the replay's ${what} failed`, err);
      // faulted for good: a free run stops here too (its next slice would only be refused)
      this.stopPlaying();
      this.emit(this.status());
      const reason = err instanceof Error ? err.message : String(err);
      const at = this.market.status().time;
      throw new ApiError(
        Errors.INTERNAL,
        `The replay's ${what} failed applying its history (${reason.slice(0, 200)}); the replay is faulted at ` +
          `market time ${at} and cannot go on: close it and open it again, or open a new replay from ${at}`,
      );
    }
  }

  /** The connection lets go of the clock (it said so, or it closed). */
  release(by: object): void {
    if (this.holder !== by) return;
    this.letGo();
    // paused: nothing jumps when the bot leaves
    this.market.pause();
    this.emit(this.status());
  }

  /** Nobody holds the clock: the market back to the mode the replay was opened in. */
  private letGo(): void {
    this.holder = null;
    if (!this.lockstepMode) this.market.setLockstep(false);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.stopPlaying();
    this.offChange();
    this.listeners.clear();
    this.report.close();
  }

  /**
   * Tells every listener, each on its own: one that throws (a subscriber's serialiser, a hub's
   * fault) is logged and the others still hear it, as the stream hubs isolate a failing
   * connection (api/ws/isolate.ts). Uncaught, the throw would stop the delivery to the listeners
   * after it, escape into the market's change loop (its other listeners, the driver's tick) and
   * answer a control that was applied with an error.
   */
  private emit(st: SessionStatus): void {
    for (const l of [...this.listeners]) {
      try {
        l(st);
      } catch (err) {
        console.error('perpdesk: a replay status listener failed; the others still receive', err);
      }
    }
  }

  private take(by: object): void {
    this.stopPlaying();
    this.holder = by;
    this.market.setLockstep(true);
  }

  private stopPlaying(): void {
    this.playing = false;
    if (this.freeRun !== null) clearImmediate(this.freeRun);
    this.freeRun = null;
    this.market.pause();
  }

  private scheduleFreeRun(): void {
    if (this.freeRun !== null || this.closed) return;
    this.freeRun = setImmediate(() => {
      this.freeRun = null;
      if (!this.playing || this.holder !== null || this.closed) return;
      const s = this.market.status();
      if (s.finished || s.time >= s.until) {
        this.playing = false;
        return;
      }
      try {
        this.market.step(Math.min(FREE_RUN_SLICE_MS, s.until - s.time));
      } catch (err) {
        // outside any request: logged, and the replay pauses, faulted, where the fault left it
        // (thrown from setImmediate it would end the process, the live venue and its other replays)
        console.error('perpdesk: the replay stopped playing: applying its history failed', err);
        this.stopPlaying();
        this.emit(this.status());
        return;
      }
      this.scheduleFreeRun();
    });
  }

  private decorate(s: ReplayStatus): SessionStatus {
    // in lockstep the market itself stays paused (only steps move it): playing is the session's
    const paused = this.lockstepMode || this.holder !== null ? !this.playing : s.paused;
    return { ...s, paused, held: this.holder !== null, live_url: this.liveUrl };
  }
}
