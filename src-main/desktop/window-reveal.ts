// Putting the window on screen, once its first paint is ready (ready-to-show, or the end of the
// load), and knowing that it is there. The window is created hidden (show: false); one left
// maximized is maximized only now: Electron's maximize() "will also show (but not focus) the
// window if it isn't being displayed already", so it appears maximized with no visible jump.
// Before, it was maximized at creation: a blank window showed at once, and the show that
// followed the paint, finding it visible, did nothing, so the app never counted the window as
// shown. Every uncaught error after that, the window in use, was taken for a failed start: an
// error box "perpdesk could not start" and the app closed (electron-main.ts onProcessError),
// for everyone who keeps the window maximized. A window another path put on screen first (a
// second launch's show) counts as shown too.

/** The part of a BrowserWindow this uses. */
export interface RevealableWindow {
  isDestroyed(): boolean;
  isVisible(): boolean;
  show(): void;
  maximize(): void;
}

export class WindowReveal {
  private done = false;
  private readonly w: RevealableWindow;
  /** The window was left maximized (and not fullscreen, which the constructor option sets). */
  private readonly maximized: boolean;

  constructor(w: RevealableWindow, maximized: boolean) {
    this.w = w;
    this.maximized = maximized;
  }

  /** The window has been put on screen (an error is then no failed start). */
  get shown(): boolean {
    return this.done;
  }

  /** Puts the window on screen, maximized when it was left so; later calls do nothing more. */
  show(): void {
    if (this.w.isDestroyed()) return;
    if (!this.done && this.maximized) this.w.maximize();
    else if (!this.w.isVisible()) this.w.show();
    this.done = true;
  }
}
