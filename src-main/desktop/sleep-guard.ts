// Market time stands still while the computer sleeps. Without this, a laptop whose lid was
// closed overnight would wake to a clock hours ahead: the simulator would skip across the gap
// and funding and liquidations would fire in a burst. On 'suspend' the guard pauses the clock,
// on 'resume' it resumes it, but only a pause it made itself: a clock the user paused (POST
// /api/v1/sim) stays paused. Power events are not guaranteed to come in pairs (some Linux
// setups send neither, a cancelled suspend sends no resume), so a watchdog tick resumes a
// sleep pause anyway once `resumeAfterMs` of wall time have passed since the suspend: timers do
// not run while the machine sleeps, so a tick that late means it is awake again.

export interface PausableClock {
  readonly paused: boolean;
  pause(): void;
  resume(): void;
}

const SLEEP_WATCHDOG_MS = 30_000;

export class SleepGuard {
  private readonly clock: PausableClock;
  private readonly resumeAfterMs: number;
  private suspendedAt: number | null = null;

  constructor(clock: PausableClock, resumeAfterMs = SLEEP_WATCHDOG_MS) {
    this.clock = clock;
    this.resumeAfterMs = resumeAfterMs;
  }

  /** The clock is paused because of sleep (not by the user). */
  get holding(): boolean {
    return this.suspendedAt !== null;
  }

  suspend(now: number): void {
    if (this.suspendedAt !== null || this.clock.paused) return;
    this.clock.pause();
    this.suspendedAt = now;
  }

  resume(): void {
    if (this.suspendedAt === null) return;
    this.suspendedAt = null;
    if (this.clock.paused) this.clock.resume();
  }

  /** The watchdog: call every few seconds with the wall time. */
  tick(now: number): void {
    if (this.suspendedAt !== null && now - this.suspendedAt >= this.resumeAfterMs) this.resume();
  }
}
