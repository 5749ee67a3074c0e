// The market's virtual clock, in core because the services, the store's callers and the transport
// all read it. Market time runs at `speed` x wall time and stands still while paused; changing
// speed or pausing never makes it jump or run backwards. Wall time comes from an injected source
// (Date.now only by default), so tests and fast-forward are deterministic.
export type WallSource = () => number;

export const MIN_SPEED = 0.1;
export const MAX_SPEED = 10_000;

export class VirtualClock {
  private readonly wall: WallSource;
  private baseMarket: number;
  private baseWall: number;
  private _speed: number;
  private _paused = false;
  private _pauses = 0;

  constructor(opts: { start: number; speed?: number; wall?: WallSource }) {
    this.wall = opts.wall ?? Date.now;
    this.baseMarket = opts.start;
    this.baseWall = this.wall();
    this._speed = VirtualClock.checkSpeed(opts.speed ?? 1);
  }

  static checkSpeed(speed: number): number {
    if (!Number.isFinite(speed) || speed < MIN_SPEED || speed > MAX_SPEED) {
      throw new RangeError(`speed must be a number from ${MIN_SPEED} to ${MAX_SPEED}`);
    }
    return speed;
  }

  get speed(): number {
    return this._speed;
  }

  get paused(): boolean {
    return this._paused;
  }

  /**
   * How many times pause() was called, also on a clock already paused: whoever paused the clock
   * can tell the pause is still its own (no one resumed and paused it, or asked for it, since).
   */
  get pauses(): number {
    return this._pauses;
  }

  /** Market time, ms (integer). */
  now(): number {
    if (this._paused) return this.baseMarket;
    return this.baseMarket + Math.floor((this.wall() - this.baseWall) * this._speed);
  }

  private rebase(): void {
    this.baseMarket = this.now();
    this.baseWall = this.wall();
  }

  setSpeed(speed: number): void {
    VirtualClock.checkSpeed(speed);
    this.rebase();
    this._speed = speed;
  }

  pause(): void {
    this._pauses++;
    if (this._paused) return;
    this.rebase();
    this._paused = true;
  }

  resume(): void {
    if (!this._paused) return;
    this._paused = false;
    this.baseWall = this.wall();
  }

  /** Moves market time forward by `ms` at once (fast-forward); never backwards. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError('advance takes a non-negative number of ms');
    // paused (a replay's clock, moved event by event): market time is baseMarket, no wall read
    if (!this._paused) this.rebase();
    this.baseMarket += Math.floor(ms);
  }
}
