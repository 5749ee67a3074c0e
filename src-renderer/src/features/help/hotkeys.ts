// Global keyboard shortcuts (see shortcuts.ts). Keys typed into a field are left alone, except
// Esc, which leaves the field and, in the order form's fields or outside a field, clears the form (a checkbox is no field: letters and
// digits on it are shortcuts, Space stays its own); modifier chords (Ctrl, Alt, Meta) are never
// taken, so the browser's and the OS's own shortcuts keep working. While an overlay is open
// (help included) only Esc and "?" act (overlay-keys.ts). A letter is read whatever its case: Caps
// Lock changes `b` to `B` but not what it means; only Shift picks a letter's Shift variant
// (Shift+B the bot panel, Shift+O the Open orders tab, Shift+R in replay-keys.ts).
import type { Services } from '../../lib/services.ts';
import { HOTKEY_INTERVALS } from '../chart/chart-panel.tsx';
import { replayKey } from '../replay/replay-keys.ts';
import { overlayAllows } from './overlay-keys.ts';
import { typing } from '../../lib/typing-target.ts';
import { focusAccountTab } from '../../layout/tablist-keys.ts';
import { OrderType } from '../../../../src-shared/enums.ts';

/** Space on a focused control is the control's own (a checkbox toggles, a button clicks). */
function ownSpace(e: HotkeyEvent): boolean {
  const el = e.target as HTMLElement | null;
  if (e.key !== ' ' || !el || !el.tagName) return false;
  return (
    el.tagName === 'INPUT' || el.tagName === 'BUTTON' || el.tagName === 'A' || el.getAttribute('role') === 'button'
  );
}

/** The keys of a keydown the shortcuts read (a test hands in a plain object). */
export type HotkeyEvent = Pick<
  KeyboardEvent,
  'key' | 'shiftKey' | 'ctrlKey' | 'metaKey' | 'altKey' | 'defaultPrevented' | 'target' | 'preventDefault'
> &
  /** the physical key (replay-keys.ts reads Shift+. by it); a test may leave it out */
  Partial<Pick<KeyboardEvent, 'code'>>;

/** Whether a key's target is in the order form (order-entry.tsx), whose fields Esc clears. */
function inOrderForm(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return typeof el?.closest === 'function' && el.closest('[data-testid="order-entry"]') !== null;
}

/** A letter key as its lower case (Caps Lock or Shift gave it upper case), any other key as it is. */
function letter(key: string): string {
  return /^[a-zA-Z]$/.test(key) ? key.toLowerCase() : key;
}

export function installHotkeys(s: Services): () => void {
  const onKey = (e: KeyboardEvent): void => onHotkey(s, e);
  window.addEventListener('keydown', onKey);
  return () => window.removeEventListener('keydown', onKey);
}

/** What a keydown does on the screen (installHotkeys' listener). */
export function onHotkey(s: Services, e: HotkeyEvent): void {
  if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
  const ws = s.workspace.getState();
  if (e.key === 'Escape') {
    const field = typing(e.target);
    if (field) (e.target as HTMLElement).blur();
    if (ws.overlay !== null) ws.actions.close();
    // in a field of its own (the Alerts tab's price) Esc leaves that field: the order form,
    // maybe an order typed and armed, is kept (it was cleared too)
    else if (!field || inOrderForm(e.target)) s.orderForm.getState().actions.reset();
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
  switch (letter(e.key)) {
    case '?':
      // over a panel or a dialog, help leaves it open; closing help goes back to it
      if (ws.help) ws.actions.close();
      else ws.actions.open('help');
      break;
    case '/':
      ws.actions.open('symbols');
      break;
    case 'b':
      if (e.shiftKey) ws.actions.open('bots');
      else form.focusSide(1);
      break;
    case 's':
      form.focusSide(2);
      break;
    case 'l':
      form.set({ type: OrderType.LIMIT, stop: false });
      break;
    case 'm':
      form.set({ type: OrderType.MARKET, stop: false });
      break;
    case 't':
      form.set({ stop: true });
      break;
    case 'o':
      if (e.shiftKey) {
        ws.actions.setTab('open-orders');
        focusAccountTab('open-orders');
      } else form.setAction('open');
      break;
    case 'c':
      form.setAction('close');
      break;
    case 'a':
      ws.actions.setTab('alerts');
      s.alerts.getState().actions.focusPrice();
      break;
    case 'i':
      ws.actions.open('indicators');
      break;
    case 'p':
      ws.actions.setTab('positions');
      focusAccountTab('positions');
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
}
