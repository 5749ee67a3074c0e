// Market time stands still while the computer sleeps. Without this, a laptop whose lid was
// closed overnight would wake to a clock hours ahead: the simulator would skip across the gap
// and funding and liquidations would fire in a burst. On 'suspend' the guard pauses the clock,
// on 'resume' it resumes it, but only a pause it made itself: a clock the user paused (POST
// /api/v1/sim) stays paused, also one the user resumed and paused again, or paused once more,
// while the guard held it (the clock counts its pause() calls, and the guard resumes only while
// the count is still the one its own pause left). Power events are not guaranteed to come in
// pairs (some Linux setups send neither, a cancelled suspend sends no resume), so a watchdog tick
// resumes a sleep pause anyway once `resumeAfterMs` of wall time have passed since the suspend:
// timers do not run while the machine sleeps, so a tick that late means it is awake again.
// With a simulated market the guard pauses the market, not its clock (sleepControl): fast mode
// pauses the clock itself, and switched on during the hold it took the guard's pause for the
// user's and counted a pause of its own, so the market stayed paused after the wake (before
// 2026-12-08). The market's pause holds fast mode as a user's does, and counts only pause() calls.
import { SimulatedMarket } from '../market/sim/simulated-market.ts';

export interface PausableClock {
  readonly paused: boolean;
  /** How many times pause() was called (VirtualClock.pauses). */
  readonly pauses: number;
  pause(): void;
  resume(): void;
}

const SLEEP_WATCHDOG_MS = 30_000;

/** What the guard pauses: the venue's simulated market where it has one, else its clock (--no-sim). */
export function sleepControl(venue: { clock: PausableClock; market: unknown }): PausableClock {
  return venue.market instanceof SimulatedMarket ? venue.market : venue.clock;
}

export class SleepGuard {
  private readonly clock: PausableClock;
  private readonly resumeAfterMs: number;
  private suspendedAt: number | null = null;
  /** clock.pauses right after the guard's own pause. */
  private ownPause = 0;

  constructor(clock: PausableClock, resumeAfterMs = SLEEP_WATCHDOG_MS) {
    this.clock = clock;
    this.resumeAfterMs = resumeAfterMs;
  }

  /** The clock is paused because of sleep, and no one has resumed or paused it since. */
  get holding(): boolean {
    return this.suspendedAt !== null && this.clock.paused && this.clock.pauses === this.ownPause;
  }

  suspend(now: number): void {
    if (this.holding || this.clock.paused) return; // a suspend the user's resume ended counts no more
    this.clock.pause();
    this.ownPause = this.clock.pauses;
    this.suspendedAt = now;
  }

  resume(): void {
    if (this.suspendedAt === null) return;
    const own = this.holding;
    this.suspendedAt = null;
    if (own) this.clock.resume();
  }

  /** The watchdog: call every few seconds with the wall time. */
  tick(now: number): void {
    if (this.suspendedAt !== null && now - this.suspendedAt >= this.resumeAfterMs) this.resume();
  }
}
