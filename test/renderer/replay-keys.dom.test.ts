// The replay's step keys on any keyboard layout: `Shift+.` (step 1 h) is the physical `.` key
// with Shift, which types `>` on a US layout but `:` on a German one; it stepped only where it
// typed `>`. replay-keys.ts through hotkeys.ts's listener, on plain events.
import { describe, expect, it } from 'vitest';
import { onHotkey, type HotkeyEvent } from '../../src-renderer/src/features/help/hotkeys.ts';
import { createWorkspaceStore } from '../../src-renderer/src/lib/workspace-store.ts';
import type { Services } from '../../src-renderer/src/lib/services.ts';

function replayDesk() {
  const steps: number[] = [];
  const speeds: number[] = [];
  const status = { paused: true, lockstep: false, finished: false, speed: 10, time: 0, until: 1 };
  const actions = {
    control: (a: { action: string; ms?: number; speed?: number }) => {
      if (a.action === 'step') steps.push(a.ms!);
      if (a.action === 'speed') speeds.push(a.speed!);
      return Promise.resolve(true);
    },
  };
  const s = {
    workspace: createWorkspaceStore({ symbol: 'BTCUSDT' }),
    orderForm: { getState: () => ({ actions: {} }) },
    replay: { getState: () => ({ mode: 'replay', status, actions }) },
  } as unknown as Services;
  const press = (key: string, code: string, shiftKey: boolean, target: unknown = null): boolean => {
    let prevented = false;
    const e: HotkeyEvent = {
      key,
      code,
      shiftKey,
      ctrlKey: false,
      metaKey: false,
      altKey: false,
      defaultPrevented: false,
      target: target as EventTarget | null,
      preventDefault: () => {
        prevented = true;
      },
    };
    onHotkey(s, e);
    return prevented;
  };
  return { steps, speeds, press };
}

describe('replay step keys and the keyboard layout', () => {
  it('Shift+. steps 1 h on a US layout (`>`) and on a German one (`:`)', () => {
    const d = replayDesk();
    expect(d.press('>', 'Period', true)).toBe(true);
    expect(d.press(':', 'Period', true)).toBe(true);
    expect(d.steps).toEqual([3_600_000, 3_600_000]);
  });

  it('`.` steps 1 m and N 1 s, on either layout', () => {
    const d = replayDesk();
    d.press('.', 'Period', false);
    d.press('n', 'KeyN', false);
    expect(d.steps).toEqual([60_000, 1_000]);
  });

  it('none of them steps while typing in a field', () => {
    const d = replayDesk();
    const field = { tagName: 'INPUT', type: 'text', isContentEditable: false, getAttribute: () => null };
    expect(d.press(':', 'Period', true, field)).toBe(false);
    expect(d.press('.', 'Period', false, field)).toBe(false);
    expect(d.press('n', 'KeyN', false, field)).toBe(false);
    expect(d.steps).toEqual([]);
  });

  it('- and _ (Shift+-) slow down, + and = speed up, as the help says (`+ / - (= / _)`)', () => {
    const d = replayDesk();
    d.press('-', 'Minus', false);
    d.press('_', 'Minus', true);
    d.press('+', 'Equal', true);
    d.press('=', 'Equal', false);
    expect(d.speeds).toEqual([5, 5, 30, 30]);
  });
});
