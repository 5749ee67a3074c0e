// What the window does when its page's renderer process ends under it (webContents'
// 'render-process-gone': a crash, running out of memory after days of live charts, killed by the
// OS or a task manager). Electron then shows nothing, only the window's background: the screen
// stayed blank, with no word anywhere, until the user thought of View > Reload. Now the end is
// logged (main.log) and the page reloaded, which starts a new renderer; a page that ends again and
// again (MAX_RELOADS within WINDOW_MS) is not reloaded in a loop: the user is told once, and View
// > Reload tries again (after a quiet minute, a crash is reloaded by itself again). A clean exit (the window closing) is no crash. Electron-free:
// electron-main.ts acts on the answer.

type GoneReason =
  | 'clean-exit'
  | 'abnormal-exit'
  | 'killed'
  | 'crashed'
  | 'oom'
  | 'launch-failed'
  | 'integrity-failure'
  | 'memory-eviction';

/** none: nothing to do; reload: log and reload; give-up: log and tell the user (reloads stop). */
type GoneAction = 'none' | 'reload' | 'give-up';

const MAX_RELOADS = 3;
const WINDOW_MS = 60_000;

export class RendererGone {
  /** When the recent reloads were made, ms. */
  private reloads: number[] = [];
  private gaveUp = false;
  private readonly maxReloads: number;
  private readonly windowMs: number;

  constructor(maxReloads = MAX_RELOADS, windowMs = WINDOW_MS) {
    this.maxReloads = maxReloads;
    this.windowMs = windowMs;
  }

  /** The renderer ended for `reason` at `now` (ms); `closing`: the window or the app is closing. */
  onGone(reason: GoneReason, now: number, closing: boolean): GoneAction {
    if (reason === 'clean-exit' || closing) return 'none';
    this.reloads = this.reloads.filter((t) => now - t < this.windowMs);
    if (this.reloads.length >= this.maxReloads) {
      if (this.gaveUp) return 'none'; // said once
      this.gaveUp = true;
      return 'give-up';
    }
    this.gaveUp = false; // a quiet spell since: reloaded again, and said again if it comes to that
    this.reloads.push(now);
    return 'reload';
  }

  /** What the user is told when the reloads stop. */
  giveUpDetail(reason: GoneReason, logFile: string | null): string {
    return (
      `The trading screen's page ended (${reason}) ${this.maxReloads} times within ${this.windowMs / 1000} s and is no ` +
      `longer reloaded by itself. Use View > Reload to try again; the venue goes on running meanwhile.` +
      (logFile === null ? '' : ` Details: ${logFile}`)
    );
  }
}
