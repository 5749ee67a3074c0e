// Global keyboard shortcuts (see shortcuts.ts). Keys typed into a field are left alone, except
// Esc, which leaves the field and clears the form (a checkbox is no field: letters and
// digits on it are shortcuts, Space stays its own); modifier chords (Ctrl, Alt, Meta) are never
// taken, so the browser's and the OS's own shortcuts keep working. While an overlay is open
// (help included) only Esc and "?" act (overlay-keys.ts).
import type { Services } from '../../lib/services.ts';
import { HOTKEY_INTERVALS } from '../chart/chart-panel.tsx';
import { replayKey } from '../replay/replay-keys.ts';
import { overlayAllows } from './overlay-keys.ts';
import { typing } from '../../lib/typing-target.ts';
import { OrderType } from '../../../../src-shared/enums.ts';

/** Space on a focused control is the control's own (a checkbox toggles, a button clicks). */
function ownSpace(e: KeyboardEvent): boolean {
  const el = e.target as HTMLElement | null;
  if (e.key !== ' ' || !el || !el.tagName) return false;
  return (
    el.tagName === 'INPUT' || el.tagName === 'BUTTON' || el.tagName === 'A' || el.getAttribute('role') === 'button'
  );
}

export function installHotkeys(s: Services): () => void {
  const onKey = (e: KeyboardEvent): void => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
    const ws = s.workspace.getState();
    if (e.key === 'Escape') {
      if (typing(e.target)) (e.target as HTMLElement).blur();
      if (ws.overlay !== null) ws.actions.close();
      else s.orderForm.getState().actions.reset();
      return;
    }
    if (typing(e.target) || ownSpace(e)) return;
    // Overlays own the keyboard, except for closing (above) and toggling help.
    if (!overlayAllows(ws.overlay, e.key)) return;
    if (replayKey(s, e)) {
      e.preventDefault();
      return;
    }
    const form = s.orderForm.getState().actions;
    let handled = true;
    switch (e.key) {
      case '?':
        if (ws.overlay === 'help') ws.actions.close();
        else ws.actions.open('help');
        break;
      case '/':
        ws.actions.open('symbols');
        break;
      case 'b':
        form.focusSide(1);
        break;
      case 's':
        form.focusSide(2);
        break;
      case 'B':
        ws.actions.open('bots');
        break;
      case 'l':
      case 'L':
        form.set({ type: OrderType.LIMIT, stop: false });
        break;
      case 'm':
      case 'M':
        form.set({ type: OrderType.MARKET, stop: false });
        break;
      case 't':
      case 'T':
        form.set({ stop: true });
        break;
      case 'o':
        form.setAction('open');
        break;
      case 'c':
      case 'C':
        form.setAction('close');
        break;
      case 'O':
        ws.actions.setTab('open-orders');
        focusTab('open-orders');
        break;
      case 'a':
      case 'A':
        ws.actions.setTab('alerts');
        s.alerts.getState().actions.focusPrice();
        break;
      case 'i':
      case 'I':
        ws.actions.open('indicators');
        break;
      case 'p':
      case 'P':
        ws.actions.setTab('positions');
        focusTab('positions');
        break;
      case ',':
        ws.actions.open('settings');
        break;
      case '[':
      case ']': {
        const merges = s.symbols.getState().bySymbol[ws.symbol]?.futures.price_merges ?? [];
        const i = merges.indexOf(s.book.getState().step);
        const j = Math.max(0, Math.min(merges.length - 1, i + (e.key === ']' ? 1 : -1)));
        if (merges[j]) s.book.getState().actions.setStep(merges[j]);
        break;
      }
      default:
        if (/^[1-9]$/.test(e.key)) ws.actions.setInterval(HOTKEY_INTERVALS[Number(e.key) - 1]);
        else handled = false;
    }
    if (handled) e.preventDefault();
  };
  window.addEventListener('keydown', onKey);
  return () => window.removeEventListener('keydown', onKey);
}

/** The focus to an account view's tab (bottom-tabs.tsx ids), as `A` puts it on the alert's price: not left on the page. */
function focusTab(tab: string): void {
  document.getElementById(`account-tab-${tab}`)?.focus();
}
