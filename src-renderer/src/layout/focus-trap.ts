// The DOM side of a modal overlay (use-modal.ts): Tab and Shift+Tab kept inside it (the order
// is focus-order.ts), and the rest of the page made inert while it is open.
import { trapIndex } from './focus-order.ts';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), summary, [contenteditable], [tabindex]';

/** The elements of `root` that Tab stops at, in document order (shown and not taken out of the tab order). */
function tabStops(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => el.tabIndex >= 0 && el.getClientRects().length > 0,
  );
}

/** Whether Tab reaches `a` before `b`: `a` comes first in the document, or contains `b`. */
function precedes(a: Node, b: Node): boolean {
  return (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
}

/** Keeps Tab and Shift+Tab inside `root`. Returns whether it moved the focus; it then prevents the browser's own move. */
export function trapTab(root: HTMLElement, e: { key: string; shiftKey: boolean; preventDefault(): void }): boolean {
  if (e.key !== 'Tab') return false;
  const items = tabStops(root);
  const active = document.activeElement;
  const current = items.indexOf(active as HTMLElement);
  // a stop of the browser's that is not in the list (a scroll box): its place among them
  const inside = current < 0 && active instanceof HTMLElement && active !== root && root.contains(active);
  const before = inside ? items.filter((el) => precedes(el, active)).length : undefined;
  const i = trapIndex(current, items.length, e.shiftKey, before);
  if (i === null) return false;
  e.preventDefault();
  items[i].focus();
  return true;
}

/**
 * Makes everything in the page but `box` (and its ancestors) inert: no focus, no clicks, out of
 * the accessibility tree, the way a native modal dialog leaves the page behind it. Returns the
 * undo, which frees only what this call made inert (so two overlays in a row each undo their own).
 */
export function inertOutside(box: HTMLElement): () => void {
  const made: HTMLElement[] = [];
  for (let el: HTMLElement = box; el.parentElement && el !== document.body; el = el.parentElement) {
    for (const sibling of el.parentElement.children) {
      if (sibling === el || !(sibling instanceof HTMLElement) || sibling.inert) continue;
      sibling.inert = true;
      made.push(sibling);
    }
  }
  return () => {
    for (const el of made) el.inert = false;
  };
}
