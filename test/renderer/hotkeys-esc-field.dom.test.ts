// Esc in a field leaves it; it clears the order form only from the form's own fields (or outside
// any field): from the Alerts tab's price field it wiped an order typed and armed in the form
// (price 3300, size 0.05, the buy side armed: all gone, where the trader only backed out of an
// alert). hotkeys.ts's listener, on plain events with hand-made targets.
import { describe, expect, it } from 'vitest';
import { onHotkey, type HotkeyEvent } from '../../src-renderer/src/features/help/hotkeys.ts';
import { createWorkspaceStore } from '../../src-renderer/src/lib/workspace-store.ts';
import type { Services } from '../../src-renderer/src/lib/services.ts';

function desk() {
  const calls: string[] = [];
  const workspace = createWorkspaceStore({ symbol: 'BTCUSDT' });
  const s = {
    workspace,
    orderForm: { getState: () => ({ actions: { reset: () => calls.push('reset') } }) },
    replay: { getState: () => ({ mode: 'live', status: null }) },
  } as unknown as Services;
  /** A text field, in the order form or not (what `closest` finds). */
  const field = (name: string, inForm: boolean) => ({
    tagName: 'INPUT',
    type: 'text',
    isContentEditable: false,
    blur: () => calls.push(`blur ${name}`),
    closest: (sel: string) => (inForm && sel === '[data-testid="order-entry"]' ? {} : null),
  });
  const esc = (target: unknown): void => {
    const e: HotkeyEvent = {
      key: 'Escape',
      shiftKey: false,
      ctrlKey: false,
      metaKey: false,
      altKey: false,
      defaultPrevented: false,
      target: target as EventTarget | null,
      preventDefault: () => undefined,
    };
    onHotkey(s, e);
  };
  return { calls, workspace, esc, field };
}

describe('Esc in a field', () => {
  it("in the Alerts tab's price field leaves the field and keeps the order form", () => {
    const d = desk();
    d.esc(d.field('alert price', false));
    expect(d.calls).toEqual(['blur alert price']);
  });

  it("in the order form's size field leaves it and clears the form, as outside any field", () => {
    const d = desk();
    d.esc(d.field('size', true));
    d.esc(null);
    expect(d.calls).toEqual(['blur size', 'reset', 'reset']);
  });

  it('with a panel open closes it and clears nothing', () => {
    const d = desk();
    d.workspace.getState().actions.open('settings');
    d.esc(d.field('whitelist', false));
    expect(d.calls).toEqual(['blur whitelist']);
    expect(d.workspace.getState().overlay).toBeNull();
  });
});
