// Where Tab and Shift+Tab go inside a dialog that keeps the focus (focus-trap.ts): from the
// last focusable element Tab wraps to the first, from the first Shift+Tab wraps to the last,
// from outside the list (the dialog itself, after a click on its text) they enter at the first
// / last; between two elements the browser's own order is kept. Pure (no DOM), for tests.

/** Index to focus for a Tab (or Shift+Tab) from `current` (-1: none of them) among `count` elements; null: leave it to the browser. */
export function trapIndex(current: number, count: number, back: boolean): number | null {
  if (count === 0) return null;
  if (current < 0) return back ? count - 1 : 0;
  if (back && current === 0) return count - 1;
  if (!back && current === count - 1) return 0;
  return null;
}
