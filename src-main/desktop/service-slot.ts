// The desktop's one service, from start to close. Invariants:
// - after shutdown() begins, `current` is null, so late handlers (IPC, power events, menu
//   clicks) find no service instead of a closing one;
// - a quit that arrives while the service is still starting waits for it and closes it (the
//   start then fails with QuitDuringStart, which is not an error to report); the start is told
//   (its AbortSignal), so a first start's history build stops after the pair under way instead of
//   running to its end;
// - shutdown settles within `timeoutMs` whatever the service does ('timeout'), so the app always
//   exits; it is idempotent, and shutdownNow() (the OS is ending the session) additionally commits
//   the database synchronously, before returning, since the process may be killed at any moment
//   after. It does not close it: the store closes only at the end of the service's own close,
//   once the app has stopped taking requests and streams (its WebSocket grace included), so a
//   request already under way when the session ends (an order whose body was still arriving) is
//   served and committed, never answered an internal error from a closed store.
import { realTimers, type Timers } from './debounce.ts';

export interface ClosableService {
  close(): Promise<void>;
  readonly venue: { commitNow(): void };
}

export type ShutdownResult = 'closed' | 'nothing' | 'timeout' | 'failed';

const SHUTDOWN_TIMEOUT_MS = 5_000;

export class QuitDuringStart extends Error {
  constructor() {
    super('the app was quit while the service was starting');
    this.name = 'QuitDuringStart';
  }
}

export interface ServiceSlotOptions {
  timeoutMs?: number;
  timers?: Timers;
  /** A close that threw (logged by the caller). */
  onCloseError?: (err: unknown) => void;
}

export class ServiceSlot<S extends ClosableService> {
  private service: S | null = null;
  private starting: Promise<S> | null = null;
  private stopping: Promise<ShutdownResult> | null = null;
  /** Aborted when shutdown begins: a start under way stops early where it can. */
  private readonly abort = new AbortController();
  private readonly timeoutMs: number;
  private readonly timers: Timers;
  private readonly onCloseError: (err: unknown) => void;

  constructor(opts: ServiceSlotOptions = {}) {
    this.timeoutMs = opts.timeoutMs ?? SHUTDOWN_TIMEOUT_MS;
    this.timers = opts.timers ?? realTimers;
    this.onCloseError = opts.onCloseError ?? (() => {});
  }

  /** The running service; null before it has started and from the moment shutdown begins. */
  get current(): S | null {
    return this.stopping === null ? this.service : null;
  }

  get shuttingDown(): boolean {
    return this.stopping !== null;
  }

  /**
   * Starts the service once. Throws QuitDuringStart when shutdown began meanwhile (shutdown closes
   * it). `signal` is aborted when shutdown begins: a start that can stop early (a first start's
   * history build) stops and rejects with an error named AbortError, which is QuitDuringStart too.
   */
  async start(start: (signal: AbortSignal) => Promise<S>): Promise<S> {
    if (this.stopping !== null) throw new QuitDuringStart();
    if (this.service !== null || this.starting !== null) throw new Error('the service is already started');
    const p = start(this.abort.signal);
    this.starting = p;
    let s: S;
    try {
      s = await p;
    } catch (err) {
      // stopped by the signal (an AbortError, as DOM APIs name theirs): the quit, not a failure
      if (this.stopping !== null && err instanceof Error && err.name === 'AbortError') throw new QuitDuringStart();
      throw err;
    } finally {
      this.starting = null;
    }
    this.service = s;
    if (this.stopping !== null) throw new QuitDuringStart();
    return s;
  }

  /** Closes the service (or the one still starting), settling within the timeout. */
  shutdown(): Promise<ShutdownResult> {
    this.abort.abort();
    this.stopping ??= this.closeWithin();
    return this.stopping;
  }

  /**
   * shutdown(), with what the database has pending committed before this returns; the service's
   * close then closes it after the last request and stream (see the top of this file).
   */
  shutdownNow(): Promise<ShutdownResult> {
    const s = this.service;
    const result = this.shutdown();
    if (s !== null) {
      try {
        s.venue.commitNow();
      } catch (err) {
        this.onCloseError(err);
      }
    }
    return result;
  }

  private closeWithin(): Promise<ShutdownResult> {
    return new Promise<ShutdownResult>((resolve) => {
      const timer = this.timers.setTimeout(() => resolve('timeout'), this.timeoutMs);
      this.closeAll().then(
        (r) => {
          this.timers.clearTimeout(timer);
          resolve(r);
        },
        (err: unknown) => {
          this.timers.clearTimeout(timer);
          this.onCloseError(err);
          resolve('failed');
        },
      );
    });
  }

  private async closeAll(): Promise<'closed' | 'nothing'> {
    let s = this.service;
    // a start still running: wait for it, then close what it opened (a failed start opened nothing)
    if (s === null && this.starting !== null)
      s = await this.starting.then(
        (v) => v,
        () => null,
      );
    if (s === null) return 'nothing';
    await s.close();
    return 'closed';
  }
}

/** The process exit code after a shutdown; a start that failed exits 1 regardless. */
export function exitCodeAfter(result: ShutdownResult, startFailed: boolean): number {
  return startFailed || result === 'timeout' || result === 'failed' ? 1 : 0;
}
