// Clock and timers of the SDK's clients, injectable so that tests run them deterministically
// (a manual scheduler) and the same code runs in Node and the browser.

/** Timers and clock, injectable so that tests are deterministic. */
export interface Scheduler {
  /** Current time, ms. */
  now(): number;
  /** Run `fn` once after `ms`; returns a handle for `clearTimeout`. */
  setTimeout(fn: () => void, ms: number): unknown;
  /** Cancel a handle from `setTimeout`; unknown or spent handles are ignored. */
  clearTimeout(handle: unknown): void;
}

/** The real clock and timers of the host (Node or browser). */
export const systemScheduler: Scheduler = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};
