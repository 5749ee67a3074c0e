// What the window shows while the service starts. A first start builds the simulated history
// (15 s to 2 min); before, no window existed until the service listened, so a user who started
// the app from an icon saw nothing at all, and a second launch, told "its window is brought to
// the front", exited with no window anywhere. Now the window opens at once on a start page
// carrying the start's progress, the lines the headless start prints ("perpdesk: building
// simulated history 3/12 SOLUSDT"), and becomes the trading screen once the service listens.
// The start page is a data: URL the main process loads (no script, a CSP of its own, nothing
// fetched): it is shown again with each line, which a page of a few lines redraws in a frame.
// Until the trading screen has loaded, the start is not over: an error is a failed start
// (electron-main.ts onProcessError), even though a window is on screen. Electron-free.

/** The part of a BrowserWindow this uses. */
export interface StartWindow {
  isDestroyed(): boolean;
  loadURL(url: string): Promise<void>;
}

/** How many of the last progress lines the page shows. */
const SHOWN_LINES = 8;

function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

/** The start page with these progress lines (the last one in front), as a data: URL. */
export function startPageUrl(lines: readonly string[]): string {
  const shown = lines.slice(-SHOWN_LINES);
  const last = shown.at(-1) ?? 'perpdesk: starting the venue';
  const earlier = shown.slice(0, -1).map((l) => `<li>${escapeHtml(l)}</li>`);
  const html = `<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>perpdesk: starting</title><style>
body{margin:0;height:100vh;display:flex;flex-direction:column;justify-content:center;align-items:center;
background:#0b0e11;color:#eaecef;font:14px system-ui,sans-serif}
h1{font-size:20px;font-weight:600;margin:0 0 12px}p{margin:0 0 16px;color:#f0b90b}
ul{list-style:none;margin:0;padding:0;color:#848e9c;font-size:12px;text-align:center}
</style></head><body><h1>perpdesk is starting</h1>
<p id="progress">${escapeHtml(last)}</p>
<ul>${earlier.reverse().join('')}</ul>
<ul><li>A first start builds the simulated market's history: a minute or two.</li></ul>
</body></html>`;
  return `data:text/html;charset=utf-8,${encodeURIComponent(html)}`;
}

export class StartScreen {
  private readonly w: StartWindow;
  private readonly lines: string[] = [];
  private phase: 'starting' | 'loading' | 'screen' = 'starting';

  constructor(w: StartWindow) {
    this.w = w;
  }

  /** The trading screen has loaded: the start is over. */
  get onScreen(): boolean {
    return this.phase === 'screen';
  }

  /** Shows the start page at once (the window opens on it). */
  open(): void {
    this.render();
  }

  /** A line of the start's progress; once the trading screen is on its way, nothing more. */
  progress(line: string): void {
    if (this.phase !== 'starting') return;
    this.lines.push(line);
    this.render();
  }

  /** Loads the trading screen from the service at `baseUrl`; rejects when it cannot be loaded. */
  async showScreen(baseUrl: string): Promise<void> {
    this.phase = 'loading';
    await this.w.loadURL(`${baseUrl}/`);
    this.phase = 'screen';
  }

  private render(): void {
    if (this.w.isDestroyed()) return;
    // a start page replaced by the next one, or by the screen, is aborted: nothing to say
    this.w.loadURL(startPageUrl(this.lines)).catch(() => {});
  }
}
