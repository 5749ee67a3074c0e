// A second launch brings the first one's window forward (desktop/second-launch.ts), also one that
// came before the first had made its window (the single-instance lock is taken before 'ready').
import { describe, expect, it } from 'vitest';
import { SecondLaunch, type FocusableWindow } from '../../src-main/desktop/second-launch.ts';
import { WindowReveal } from '../../src-main/desktop/window-reveal.ts';

/** A BrowserWindow as the app makes it: hidden (show: false) until painted. */
function fakeWindow(o: { minimized?: boolean } = {}) {
  const log: string[] = [];
  const state = { visible: false, minimized: o.minimized ?? false, destroyed: false, focused: false };
  const w: FocusableWindow & { isVisible(): boolean; maximize(): void } = {
    isDestroyed: () => state.destroyed,
    isMinimized: () => state.minimized,
    isVisible: () => state.visible,
    restore() {
      log.push('restore');
      state.minimized = false;
    },
    show() {
      state.visible = true;
    },
    maximize() {
      log.push('maximize');
      state.visible = true;
    },
    focus() {
      log.push('focus');
      state.focused = true;
    },
  };
  return { w, state, log };
}

describe('SecondLaunch', () => {
  it('brings the window forward on a second launch', () => {
    const { w, state } = fakeWindow({ minimized: true });
    const launches = new SecondLaunch();
    launches.attach(w, new WindowReveal(w, false));
    launches.onSecondLaunch();
    expect(state).toEqual({ visible: true, minimized: false, destroyed: false, focused: true });
  });

  it('answers a second launch that came before the window existed once the window is attached', () => {
    const launches = new SecondLaunch();
    launches.onSecondLaunch(); // the first milliseconds: the lock is held, no window yet
    const { w, state, log } = fakeWindow();
    const reveal = new WindowReveal(w, true);
    launches.attach(w, reveal);
    expect(state.visible && state.focused).toBe(true);
    expect(log).toEqual(['maximize', 'focus']); // left maximized: comes back maximized
    expect(reveal.shown).toBe(true);
  });

  it('answers such a launch once, and not at all for a window already destroyed (a failed start)', () => {
    const launches = new SecondLaunch();
    launches.onSecondLaunch();
    const gone = fakeWindow();
    gone.state.destroyed = true;
    launches.attach(gone.w, new WindowReveal(gone.w, false));
    expect(gone.log).toEqual([]);
    const { w, log } = fakeWindow();
    launches.attach(w, new WindowReveal(w, false));
    expect(log).toEqual([]);
  });
});
