// Keeps Tab and Shift+Tab inside a dialog (the order is focus-order.ts). Returns whether it
// moved the focus; it then prevents the browser's own move.
import { trapIndex } from './focus-order.ts';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function trapTab(root: HTMLElement, e: { key: string; shiftKey: boolean; preventDefault(): void }): boolean {
  if (e.key !== 'Tab') return false;
  const items = [...root.querySelectorAll<HTMLElement>(FOCUSABLE)];
  const i = trapIndex(items.indexOf(document.activeElement as HTMLElement), items.length, e.shiftKey);
  if (i === null) return false;
  e.preventDefault();
  items[i].focus();
  return true;
}
