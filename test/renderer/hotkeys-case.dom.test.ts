// A letter shortcut means the same with Caps Lock on as off: Caps Lock sends `B`, `S`, `O`, `R`
// without Shift, and only Shift picks a letter's Shift variant (Shift+B the bot panel, Shift+O
// the Open orders tab, Shift+R the Replay dialog). hotkeys.ts's listener, on a plain event.
// And `?` over a panel or a dialog: help opens over it, and closing help (`?` or Esc) goes back
// to it, still open (workspace-store.ts's help layer).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { onHotkey, type HotkeyEvent } from '../../src-renderer/src/features/help/hotkeys.ts';
import { createWorkspaceStore } from '../../src-renderer/src/lib/workspace-store.ts';
import type { Services } from '../../src-renderer/src/lib/services.ts';

/** The screen's services the shortcuts use, the order form's actions noted in `calls`. */
function desk() {
  const calls: string[] = [];
  const workspace = createWorkspaceStore({ symbol: 'BTCUSDT' });
  const form = {
    focusSide: (side: number) => calls.push(`side ${side}`),
    setAction: (a: string) => calls.push(`action ${a}`),
    set: (x: object) => calls.push(`set ${JSON.stringify(x)}`),
    reset: () => calls.push('reset'),
  };
  const s = {
    workspace,
    orderForm: { getState: () => ({ actions: form }) },
    replay: { getState: () => ({ mode: 'live', status: null }) },
    alerts: { getState: () => ({ actions: { focusPrice: () => calls.push('alert price') } }) },
  } as unknown as Services;
  const press = (key: string, shiftKey = false): void => {
    const e: HotkeyEvent = {
      key,
      shiftKey,
      ctrlKey: false,
      metaKey: false,
      altKey: false,
      defaultPrevented: false,
      target: null,
      preventDefault: () => undefined,
    };
    onHotkey(s, e);
  };
  return { calls, workspace, press };
}

// focusTab() looks the tab up in the page; there is none here
const g = globalThis as { document?: unknown };
beforeEach(() => {
  g.document = { getElementById: () => null };
});
afterEach(() => {
  delete g.document;
});

describe('letter shortcuts with Caps Lock', () => {
  it('B, S and O without Shift (Caps Lock) are b, s and o: a side armed, the Open tab', () => {
    const d = desk();
    d.press('B');
    d.press('S');
    d.press('O');
    expect(d.calls).toEqual(['side 1', 'side 2', 'action open']);
    expect(d.workspace.getState().overlay).toBeNull();
    expect(d.workspace.getState().tab).toBe('positions');
  });

  it('R without Shift opens nothing; Shift+R opens the Replay dialog', () => {
    const d = desk();
    d.press('R');
    expect(d.workspace.getState().overlay).toBeNull();
    d.press('R', true);
    expect(d.workspace.getState().overlay).toBe('replay');
  });

  it('Shift+B and Shift+O are the bot panel and the Open orders tab, also as Caps Lock+Shift (b, o)', () => {
    const d = desk();
    d.press('O', true);
    expect(d.workspace.getState().tab).toBe('open-orders');
    d.workspace.getState().actions.setTab('positions');
    d.press('o', true);
    expect(d.workspace.getState().tab).toBe('open-orders');
    d.press('B', true);
    expect(d.workspace.getState().overlay).toBe('bots');
    d.workspace.getState().actions.close();
    d.press('b', true);
    expect(d.workspace.getState().overlay).toBe('bots');
    expect(d.calls).toEqual([]);
  });

  it('the other letters act in either case', () => {
    const d = desk();
    for (const k of ['L', 'm', 'T', 'C', 's']) d.press(k);
    expect(d.calls).toEqual([
      'set {"type":1,"stop":false}',
      'set {"type":2,"stop":false}',
      'set {"stop":true}',
      'action close',
      'side 2',
    ]);
  });
});

describe('help over a panel or a dialog', () => {
  it('? over Settings leaves Settings open under help; ? or Esc closes help alone, a second Esc Settings', () => {
    const d = desk();
    d.workspace.getState().actions.open('settings');
    d.press('?');
    expect(d.workspace.getState()).toMatchObject({ help: true, overlay: 'settings' });
    d.press('?');
    expect(d.workspace.getState()).toMatchObject({ help: false, overlay: 'settings' });
    d.press('?');
    d.press('Escape');
    expect(d.workspace.getState()).toMatchObject({ help: false, overlay: 'settings' });
    d.press('Escape');
    expect(d.workspace.getState()).toMatchObject({ help: false, overlay: null });
  });

  it('over the TP/SL dialog help keeps the position it is on; alone, help opens and closes as before', () => {
    const d = desk();
    const position = { symbol: 'BTCUSDT', position_side: 1 } as never;
    d.workspace.getState().actions.openTpSl(position);
    d.press('?');
    d.press('Escape');
    expect(d.workspace.getState()).toMatchObject({ help: false, overlay: 'tpsl', tpslOf: position });
    d.workspace.getState().actions.close();
    d.press('?');
    expect(d.workspace.getState()).toMatchObject({ help: true, overlay: 'help' });
    d.press('?');
    expect(d.workspace.getState()).toMatchObject({ help: false, overlay: null });
  });
});
