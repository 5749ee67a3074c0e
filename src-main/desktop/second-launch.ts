// A second launch of the app on the same data folder (Electron's single-instance lock: the second
// process exits, the first gets 'second-instance') brings the first one's window forward:
// restored when minimized, shown (through its WindowReveal: a window left maximized comes back
// maximized) and focused. The lock is taken before Electron is ready, the window made after
// 'ready': a second launch in that gap, the first milliseconds of a start (a double-click on
// the icon), found no window, and the second process had exited saying "its window is brought
// to the front". Such a launch is now kept and answered when the window is attached. Electron-free.

/** The part of a BrowserWindow this uses. */
export interface FocusableWindow {
  isDestroyed(): boolean;
  isMinimized(): boolean;
  restore(): void;
  show(): void;
  focus(): void;
}

export class SecondLaunch {
  private w: FocusableWindow | null = null;
  private reveal: { show(): void } | null = null;
  /** A second launch came before the window existed. */
  private pending = false;

  /** The app's window exists now; `reveal` puts it on screen as the app does (window-reveal.ts). */
  attach(w: FocusableWindow, reveal: { show(): void }): void {
    this.w = w;
    this.reveal = reveal;
    if (this.pending) {
      this.pending = false;
      this.onSecondLaunch();
    }
  }

  /** A second launch came ('second-instance'): the window to the front. */
  onSecondLaunch(): void {
    const w = this.w;
    if (w === null) {
      this.pending = true; // answered by attach
      return;
    }
    if (w.isDestroyed()) return;
    if (w.isMinimized()) w.restore();
    this.reveal?.show();
    w.show();
    w.focus();
  }
}
