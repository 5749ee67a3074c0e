// Trailing-edge debounce with an explicit flush: window moves and resizes arrive dozens of
// times a second, the state file is written once they settle, and flush() writes at once on
// close (a pending write is never lost, and never runs after flush or cancel). Timers are
// injected so tests advance time by hand.

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export interface Debounced {
  /** Schedules the call `ms` after the last trigger. */
  trigger(): void;
  /** Runs a pending call now; does nothing when none is pending. */
  flush(): void;
  /** Drops a pending call. */
  cancel(): void;
}

export function debounce(fn: () => void, ms: number, timers: Timers = realTimers): Debounced {
  let handle: unknown = null;
  const cancel = (): void => {
    if (handle !== null) timers.clearTimeout(handle);
    handle = null;
  };
  return {
    trigger() {
      cancel();
      handle = timers.setTimeout(() => {
        handle = null;
        fn();
      }, ms);
    },
    flush() {
      if (handle === null) return;
      cancel();
      fn();
    },
    cancel,
  };
}
