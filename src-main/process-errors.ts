// Errors that reach the process (an exception thrown from a timer or an event callback, a
// promise rejection nobody handles) and the way out of it, for both entries: the desktop app
// (electron-main.ts) and the headless service (headless.ts). Node's default prints a stack and
// ends the process at once: the group commit's open batch, the market checkpoint and the
// store's close never run (the next start finds a WAL left behind), and the service's own log
// (main.log) says nothing. Here:
// - an error is written to stderr and to main.log in the logs folder (desktop/crash-log.ts);
// - what follows is the entry's rule (`install`'s handler): close the service and exit, or (the
//   desktop with its window on screen) go on;
// - closeAndExit is every exit path's: the service is closed (ServiceSlot: bounded by its
//   timeout, so the process always ends), then the process exits with the code the entry gives
//   for how the close went; it runs once, later calls join it.
import { appendLog, formatLogEntry } from './desktop/crash-log.ts';
import type { ClosableService, ServiceSlot, ShutdownResult } from './desktop/service-slot.ts';
import { StoreWriteError } from './store/write-failure.ts';

/**
 * The exit code of a headless service that ended because of an error it did not catch, after
 * closing its store (docs/headless.md): EX_SOFTWARE of sysexits.h, told apart from a failed start
 * (1) and a bad command line (2).
 */
export const UNCAUGHT_EXIT_CODE = 70;

export interface ProcessErrorsOptions<S extends ClosableService> {
  slot: ServiceSlot<S>;
  /** The folder of main.log, read at each entry; null: stderr only. */
  logDir: () => string | null;
  /** Ends the process (process.exit, Electron's app.exit). */
  exit: (code: number) => void;
}

export class ProcessErrors<S extends ClosableService> {
  private readonly slot: ServiceSlot<S>;
  private readonly logDir: () => string | null;
  private readonly exit: (code: number) => void;
  private exiting: Promise<void> | null = null;
  /** Standard streams whose reader went away (EPIPE): nothing more is written to them. */
  private readonly lostStreams = new Set<'stdout' | 'stderr'>();

  constructor(opts: ProcessErrorsOptions<S>) {
    this.slot = opts.slot;
    this.logDir = opts.logDir;
    this.exit = opts.exit;
  }

  /** The process is on its way out (closeAndExit ran). */
  get closing(): boolean {
    return this.exiting !== null;
  }

  /** Writes `what` and the error's stack to stderr and main.log; answers main.log's path, or null. Never throws. */
  log(what: string, err: unknown): string | null {
    if (!this.lostStreams.has('stderr')) {
      try {
        // a store that could not write says what and what to do: no stack (main.log keeps it)
        console.error(`perpdesk: ${what}:`, err instanceof StoreWriteError ? err.message : err);
      } catch {
        // stderr gone: main.log is what is left
      }
    }
    return this.logFile(what, err);
  }

  private logFile(what: string, err: unknown): string | null {
    let dir: string | null;
    try {
      dir = this.logDir();
    } catch {
      return null;
    }
    return dir === null ? null : appendLog(dir, formatLogEntry(new Date(), what, err));
  }

  /**
   * Closes the service (also one still starting; `urgent`: the database synchronously first, the
   * OS is ending the session) and exits with `code(how the close went)`. Once: later calls join it
   * (an urgent one still commits the database at once).
   */
  closeAndExit(urgent: boolean, code: (result: ShutdownResult) => number): void {
    const result = urgent ? this.slot.shutdownNow() : this.slot.shutdown();
    this.exiting ??= result.then((r) => {
      if (r === 'timeout')
        this.log('closing the service took too long', new Error('exited without waiting for the service'));
      this.exit(code(r));
    });
  }

  /**
   * Hands every uncaught exception and unhandled rejection of the process to `onError`. A
   * standard stream whose reader went away (the terminal closed, `| head` has read enough: EPIPE
   * on the next write) is not an error of the service: it is said once in main.log and written to
   * no more, and the service goes on. (Left to `uncaughtException`, each line saying so failed
   * again a tick later: the process spun on it, never closing, deaf to SIGTERM.)
   */
  install(onError: (what: string, err: unknown) => void): void {
    for (const name of ['stdout', 'stderr'] as const) {
      process[name].on('error', (err) => this.streamLost(name, err));
    }
    process.on('uncaughtException', (err) => onError('uncaught exception', err));
    process.on('unhandledRejection', (reason) => onError('unhandled promise rejection', reason));
  }

  private streamLost(name: 'stdout' | 'stderr', err: unknown): void {
    if (this.lostStreams.has(name)) return;
    this.lostStreams.add(name);
    this.logFile(`${name} is no longer read; the service goes on, writing nothing more to it`, err);
  }
}
