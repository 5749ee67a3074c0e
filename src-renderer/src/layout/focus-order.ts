// Where Tab and Shift+Tab go inside a dialog that keeps the focus (focus-trap.ts): from the
// last focusable element Tab wraps to the first, from the first Shift+Tab wraps to the last,
// from outside the list (the dialog itself, after a click on its text) they enter at the first
// / last; between two elements the browser's own order is kept. An element the browser stops at
// that is not in the list (Chromium's keyboard-focusable scroll boxes, such as a `<pre>` whose
// text overflows) is between the elements before and after it: Tab from it goes on in the
// browser's order, and wraps only when no element of the list follows it (Shift+Tab: precedes
// it). Pure (no DOM), for tests.

/**
 * Index to focus for a Tab (or Shift+Tab) among `count` elements; null: leave it to the browser.
 * `current` is the focused element's index in the list, or -1 when it is not in the list; then
 * `before` says how many elements of the list come before it in the document (undefined: it is
 * outside them all, the dialog itself).
 */
export function trapIndex(current: number, count: number, back: boolean, before?: number): number | null {
  if (count === 0) return null;
  if (current < 0 && before !== undefined) {
    if (back) return before === 0 ? count - 1 : null;
    return before >= count ? 0 : null;
  }
  if (current < 0) return back ? count - 1 : 0;
  if (back && current === 0) return count - 1;
  if (!back && current === count - 1) return 0;
  return null;
}
