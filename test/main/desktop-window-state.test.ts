import { describe, expect, it } from 'vitest';
import { debounce } from '../../src-main/desktop/debounce.ts';
import {
  clampWindowState,
  DEFAULT_WINDOW_SIZE,
  matchingBounds,
  MIN_WINDOW_SIZE,
  parseWindowState,
} from '../../src-main/desktop/window-state.ts';
import { ManualScheduler } from '../helpers/manual-scheduler.ts';

const FULL_HD = { x: 0, y: 0, width: 1920, height: 1040 }; // below a 40 px taskbar
const SECOND = { x: 1920, y: 0, width: 2560, height: 1400 };

describe('parseWindowState', () => {
  it('keeps well-typed fields and rounds sizes', () => {
    expect(
      parseWindowState({ x: 10.4, y: 20, width: 1300.6, height: 800, maximized: true, fullscreen: false }),
    ).toEqual({
      x: 10,
      y: 20,
      width: 1301,
      height: 800,
      maximized: true,
      fullscreen: false,
    });
  });

  it.each([
    ['a string width', { width: '1440', height: 900 }],
    ['a missing height', { width: 1440 }],
    ['a zero size', { width: 0, height: 900 }],
    ['a negative size', { width: 1440, height: -5 }],
    ['an infinite size', { width: Infinity, height: 900 }],
    ['null', null],
    ['an array', [1440, 900]],
    ['a number', 42],
  ])('rejects %s', (_what, raw) => {
    expect(parseWindowState(raw)).toBeNull();
  });

  it('drops a half position and non-boolean modes', () => {
    expect(parseWindowState({ x: 5, width: 1200, height: 700, maximized: 'yes', fullscreen: 1 })).toEqual({
      width: 1200,
      height: 700,
      maximized: false,
      fullscreen: false,
    });
    expect(parseWindowState({ x: 5, y: '7', width: 1200, height: 700 })?.x).toBeUndefined();
  });
});

describe('clampWindowState', () => {
  it('opens a first window at the default size, centred by the OS', () => {
    const p = clampWindowState(null, FULL_HD);
    expect(p).toEqual({
      ...DEFAULT_WINDOW_SIZE,
      minWidth: MIN_WINDOW_SIZE.width,
      minHeight: MIN_WINDOW_SIZE.height,
      maximized: false,
      fullscreen: false,
    });
    expect(p.x).toBeUndefined();
  });

  it('shrinks a size saved on a bigger screen to the work area and pulls it back on screen', () => {
    const saved = parseWindowState({ x: 1500, y: 600, width: 2500, height: 1400 });
    expect(clampWindowState(saved, FULL_HD)).toMatchObject({ x: 0, y: 0, width: 1920, height: 1040 });
  });

  it('moves a window hanging off the right and bottom edges fully inside', () => {
    const p = clampWindowState(parseWindowState({ x: 1800, y: 900, width: 1200, height: 700 }), FULL_HD);
    expect(p).toMatchObject({ x: 720, y: 340, width: 1200, height: 700 });
  });

  it('keeps a window on a second display where it was', () => {
    const p = clampWindowState(parseWindowState({ x: 2000, y: 100, width: 1600, height: 1000 }), SECOND);
    expect(p).toMatchObject({ x: 2000, y: 100, width: 1600, height: 1000 });
  });

  it('grows a too-small window to the minimum, and on a tiny screen takes the whole work area', () => {
    expect(clampWindowState(parseWindowState({ width: 300, height: 200 }), FULL_HD)).toMatchObject({
      width: 720,
      height: 640,
    });
    // half of a 1536 px wide work area (1920 x 1080 at 125%): a window snapped beside another keeps its size
    const half = { x: 0, y: 0, width: 768, height: 824 };
    expect(clampWindowState(parseWindowState({ x: 0, y: 0, width: 768, height: 824 }), half)).toMatchObject({
      width: 768,
      height: 824,
      minWidth: 720,
    });
    const tiny = { x: 0, y: 0, width: 700, height: 560 };
    expect(clampWindowState(parseWindowState({ x: 50, y: 50, width: 1440, height: 900 }), tiny)).toEqual({
      x: 0,
      y: 0,
      width: 700,
      height: 560,
      minWidth: 700,
      minHeight: 560,
      maximized: false,
      fullscreen: false,
    });
  });

  it('keeps the maximized and fullscreen modes', () => {
    expect(clampWindowState(parseWindowState({ width: 1200, height: 800, maximized: true }), FULL_HD).maximized).toBe(
      true,
    );
    expect(clampWindowState(parseWindowState({ width: 1200, height: 800, fullscreen: true }), FULL_HD).fullscreen).toBe(
      true,
    );
  });

  it('looks the display up by the saved rectangle, or by none when unplaced', () => {
    expect(matchingBounds(parseWindowState({ x: 2000, y: 10, width: 1200, height: 800 }))).toEqual({
      x: 2000,
      y: 10,
      width: 1200,
      height: 800,
    });
    expect(matchingBounds(parseWindowState({ width: 1200, height: 800 }))).toBeNull();
    expect(matchingBounds(null)).toBeNull();
  });
});

describe('debounce', () => {
  it('writes once after the moves settle, at once on flush, never after cancel', () => {
    const clock = new ManualScheduler();
    let writes = 0;
    const d = debounce(() => writes++, 500, clock);
    d.trigger();
    clock.advance(400);
    d.trigger();
    clock.advance(400);
    expect(writes).toBe(0);
    clock.advance(100);
    expect(writes).toBe(1);
    d.trigger();
    d.flush();
    expect(writes).toBe(2);
    clock.advance(1000);
    expect(writes).toBe(2);
    d.flush(); // nothing pending
    expect(writes).toBe(2);
    d.trigger();
    d.cancel();
    clock.advance(1000);
    expect(writes).toBe(2);
  });
});
