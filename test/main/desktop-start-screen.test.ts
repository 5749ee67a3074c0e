// The window's start page while the service starts (desktop/start-screen.ts, run by
// electron-main.ts before the service listens), with a fake window recording what it loads.
import { describe, expect, it } from 'vitest';
import { StartScreen, startPageUrl, type StartWindow } from '../../src-main/desktop/start-screen.ts';

function deferred() {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

/** A window whose loads settle when the test says (start pages at once). */
function fakeWindow() {
  const loads: string[] = [];
  const screenLoad = deferred();
  const w: StartWindow & { destroyed: boolean } = {
    destroyed: false,
    isDestroyed: () => w.destroyed,
    loadURL(url: string) {
      loads.push(url);
      return url.startsWith('data:') ? Promise.resolve() : screenLoad.promise;
    },
  };
  return { w, loads, screenLoad };
}

const text = (dataUrl: string): string => decodeURIComponent(dataUrl.slice(dataUrl.indexOf(',') + 1));

describe('StartScreen', () => {
  it('shows a start page at once, then each progress line of the start', () => {
    const { w, loads } = fakeWindow();
    const screen = new StartScreen(w);
    screen.open();
    expect(loads).toHaveLength(1);
    expect(loads[0]).toMatch(/^data:text\/html/);
    expect(text(loads[0]!)).toContain('perpdesk is starting');
    screen.progress('perpdesk: building simulated history 3/12 SOLUSDT');
    expect(loads).toHaveLength(2);
    expect(text(loads[1]!)).toContain('perpdesk: building simulated history 3/12 SOLUSDT');
    screen.progress('perpdesk: building simulated history 4/12 XRPUSDT');
    const page = text(loads[2]!);
    expect(page).toContain('<p id="progress">perpdesk: building simulated history 4/12 XRPUSDT</p>');
    expect(page).toContain('3/12 SOLUSDT'); // the earlier line, below
    expect(screen.onScreen).toBe(false);
  });

  it('becomes the trading screen once the service listens, and the start is over only when it loaded', async () => {
    const { w, loads, screenLoad } = fakeWindow();
    const screen = new StartScreen(w);
    screen.open();
    const loaded = screen.showScreen('http://127.0.0.1:8787');
    expect(loads.at(-1)).toBe('http://127.0.0.1:8787/');
    // a late line (a start notice) does not load the start page over the screen
    screen.progress('perpdesk: late line');
    expect(loads.at(-1)).toBe('http://127.0.0.1:8787/');
    expect(screen.onScreen).toBe(false); // an error now still fails the start
    screenLoad.resolve();
    await loaded;
    expect(screen.onScreen).toBe(true);
  });

  it('says when the trading screen cannot load, and the start is not over', async () => {
    const { w, screenLoad } = fakeWindow();
    const screen = new StartScreen(w);
    screen.open();
    const loaded = screen.showScreen('http://127.0.0.1:8787');
    screenLoad.reject(new Error('ERR_CONNECTION_REFUSED'));
    await expect(loaded).rejects.toThrow('ERR_CONNECTION_REFUSED');
    expect(screen.onScreen).toBe(false);
  });

  it('ignores a start page replaced before it loaded, and loads nothing in a closed window', async () => {
    const loads: string[] = [];
    const w = {
      destroyed: false,
      isDestroyed: () => w.destroyed,
      loadURL: (u: string) => (loads.push(u), Promise.reject(new Error('ERR_ABORTED'))),
    };
    const screen = new StartScreen(w);
    screen.open(); // rejected: no unhandled rejection (vitest would fail the run)
    await new Promise((r) => setImmediate(r));
    w.destroyed = true;
    screen.progress('perpdesk: building simulated history 1/12 BTCUSDT');
    expect(loads).toHaveLength(1);
  });
});

describe('startPageUrl', () => {
  it('escapes the lines (a data folder path may hold any character) and runs no script', () => {
    const page = text(startPageUrl(['perpdesk: recovered C:\\<script>alert(1)</script> & "x"']));
    expect(page).not.toContain('<script>');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;');
    expect(page).toContain("default-src 'none'");
  });

  it('keeps the last lines only', () => {
    const lines = Array.from({ length: 12 }, (_, i) => `perpdesk: building simulated history ${i + 1}/12 P${i + 1}`);
    const page = text(startPageUrl(lines));
    expect(page).toContain('12/12 P12');
    expect(page).toContain('5/12 P5');
    expect(page).not.toContain('4/12 P4');
  });
});
