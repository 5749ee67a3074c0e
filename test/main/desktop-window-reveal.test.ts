import { describe, expect, it } from 'vitest';
import { WindowReveal, type RevealableWindow } from '../../src-main/desktop/window-reveal.ts';

/**
 * A BrowserWindow as Electron documents it: created hidden (show: false); maximize() "will also
 * show (but not focus) the window if it isn't being displayed already".
 */
interface FakeWindow extends RevealableWindow {
  visible: boolean;
  maximizedNow: boolean;
  destroyed: boolean;
  log: string[];
}

function fakeWindow(): FakeWindow {
  const log: string[] = [];
  const w: FakeWindow = {
    visible: false,
    maximizedNow: false,
    destroyed: false,
    log,
    isDestroyed: () => w.destroyed,
    isVisible: () => w.visible,
    show() {
      log.push(w.visible ? 'show (visible)' : 'show');
      w.visible = true;
    },
    maximize() {
      log.push(w.visible ? 'maximize' : 'maximize (shows it)');
      w.maximizedNow = true;
      w.visible = true;
    },
  };
  return w;
}

describe('WindowReveal', () => {
  it('keeps a window left maximized hidden until painted, then shows it maximized, and counts it as shown', () => {
    const w = fakeWindow();
    const reveal = new WindowReveal(w, true);
    expect(w.visible).toBe(false); // nothing on screen before the first paint
    expect(reveal.shown).toBe(false);
    reveal.show(); // ready-to-show
    expect(w.visible).toBe(true);
    expect(w.maximizedNow).toBe(true);
    // the window is on screen: a later uncaught error is logged, not taken for a failed start
    expect(reveal.shown).toBe(true);
    reveal.show(); // the load's end: nothing more
    expect(w.log).toEqual(['maximize (shows it)']);
  });

  it('shows a normal window once, and never maximizes it', () => {
    const w = fakeWindow();
    const reveal = new WindowReveal(w, false);
    expect(w.visible).toBe(false);
    reveal.show();
    reveal.show();
    expect(reveal.shown).toBe(true);
    expect(w.maximizedNow).toBe(false);
    expect(w.log).toEqual(['show']);
  });

  it('counts a window another path put on screen (a second launch) as shown, and maximizes it as it was left', () => {
    const w = fakeWindow();
    const reveal = new WindowReveal(w, true);
    w.show(); // something else showed it before the first paint
    reveal.show();
    expect(reveal.shown).toBe(true);
    expect(w.maximizedNow).toBe(true);
  });

  it('does nothing to a destroyed window', () => {
    const w = fakeWindow();
    const reveal = new WindowReveal(w, true);
    w.destroyed = true;
    reveal.show();
    expect(w.visible).toBe(false);
    expect(reveal.shown).toBe(false);
  });
});
