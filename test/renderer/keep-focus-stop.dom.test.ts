// keepFocus (layout/keep-focus.ts): a focus lost just as its container goes away (Settings closed
// with Esc right after an action) is not chased once the container has stopped it or left the
// page. Before, the attempt queued by the focusout ran after the unmount and called `next`, whose
// ref was null: "Cannot read properties of null (reading 'closest')" in the console. On a minimal
// stand-in of the DOM keepFocus reads (an element's listeners, isConnected, disabled; the page's
// activeElement).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

class FakeElement {
  isConnected = true;
  disabled = false;
  tabIndex = 0;
  readonly listeners = new Map<string, (e: unknown) => void>();
  addEventListener(type: string, fn: (e: unknown) => void): void {
    this.listeners.set(type, fn);
  }
  removeEventListener(type: string): void {
    this.listeners.delete(type);
  }
  closest(): null {
    return null;
  }
}

const g = globalThis as unknown as { HTMLElement?: unknown; document?: unknown };
beforeEach(() => {
  g.HTMLElement = FakeElement;
  g.document = { activeElement: null, body: {} };
});
afterEach(() => {
  delete g.HTMLElement;
  delete g.document;
});

async function setUp() {
  const { keepFocus } = await import('../../src-renderer/src/layout/keep-focus.ts');
  const root = new FakeElement();
  const button = new FakeElement();
  const asked: unknown[] = [];
  const stop = keepFocus(
    root as unknown as HTMLElement,
    () => 'memo',
    (memo) => {
      asked.push(memo);
      return null;
    },
  );
  root.listeners.get('focusin')!({ target: button });
  /** The button loses the focus to the page (removed or disabled under it). */
  const lose = () => root.listeners.get('focusout')!({ target: button, relatedTarget: null });
  return { root, button, asked, stop, lose };
}

const turn = () => new Promise((r) => setTimeout(r, 0));

describe('keepFocus', () => {
  it('does not chase a focus lost as the container stops (its drawer unmounted)', async () => {
    const { root, button, asked, stop, lose } = await setUp();
    button.isConnected = false;
    lose();
    stop();
    root.isConnected = false;
    await turn();
    expect(asked).toEqual([]);
  });

  it('nor once the container has left the page, stopped or not', async () => {
    const { root, button, asked, stop, lose } = await setUp();
    button.isConnected = false;
    lose();
    root.isConnected = false;
    await turn();
    expect(asked).toEqual([]);
    stop();
  });

  it('still chases it while the container stays (a control disabled under the focus)', async () => {
    const { button, asked, stop, lose } = await setUp();
    button.disabled = true;
    lose();
    await turn();
    expect(asked[0]).toBe('memo');
    stop();
  });
});
